"""Shadows the pieces cast on one another: a depth map seen from the key light (a shadow map).

The table's shadows are drawn on the table texture (`render._shadow_mask`); this is for the light a tower
takes from the wall beside it, or a keep from the walls around its courtyard, as a path tracer shows them.
"""

from __future__ import annotations

import cv2
import numpy as np

from tablesight.synthetic.meshes import Mesh

TEXELS_PER_MM = 4.0
BIAS_MM = 0.6  # a face does not shadow itself
MIN_FACING = 1e-3  # faces edge-on to the light cast nothing
SOFT_SAMPLES = 3  # per axis, for the penumbra (percentage-closer filtering)


class ShadowMap:
    def __init__(self, meshes: list[Mesh], light_direction: np.ndarray, blur_mm: float = 0.0) -> None:
        """`light_direction`: unit vector from the table towards the light (z < 0 is up); `blur_mm`: the
        penumbra's width."""
        self.towards_light = np.asarray(light_direction, np.float64)
        helper = np.array([1.0, 0.0, 0.0]) if abs(self.towards_light[0]) < 0.9 else np.array([0.0, 1.0, 0.0])
        self.e1 = np.cross(self.towards_light, helper)
        self.e1 /= np.linalg.norm(self.e1)
        self.e2 = np.cross(self.towards_light, self.e1)
        self.blur_mm = blur_mm
        points = np.vstack([m.vertices() for m in meshes]) if meshes else np.zeros((1, 3))
        uv = self._uv(points)
        self.origin = uv.min(axis=0) - 2.0
        size = np.ceil((uv.max(axis=0) + 2.0 - self.origin) * TEXELS_PER_MM).astype(int) + 1
        self.depth = np.full((size[1], size[0]), -np.inf, np.float32)
        for mesh in meshes:
            for face, normal in zip(mesh.faces, mesh.normals, strict=True):
                self._draw(face, normal)

    def _uv(self, points: np.ndarray) -> np.ndarray:
        return np.column_stack([points @ self.e1, points @ self.e2])

    def _draw(self, face: np.ndarray, normal: np.ndarray) -> None:
        facing = float(normal @ self.towards_light)
        if abs(facing) < MIN_FACING:
            return
        texels = (self._uv(face) - self.origin) * TEXELS_PER_MM
        x0, y0 = np.floor(texels.min(axis=0)).astype(int)
        x1, y1 = np.ceil(texels.max(axis=0)).astype(int) + 1
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillConvexPoly(mask, np.round((texels - [x0, y0]) * 16).astype(np.int32), 1, cv2.LINE_8, 4)
        # On the face's plane, n·(a e1 + b e2 + t d) = n·p0 gives the depth t towards the light.
        us, vs = np.meshgrid((np.arange(x0, x1) + 0.5) / TEXELS_PER_MM + self.origin[0],
                             (np.arange(y0, y1) + 0.5) / TEXELS_PER_MM + self.origin[1])
        depth = (float(normal @ face[0]) - us * float(normal @ self.e1) - vs * float(normal @ self.e2)) / facing
        region = self.depth[y0:y1, x0:x1]
        np.maximum(region, np.where(mask > 0, depth, -np.inf).astype(np.float32), out=region)

    def lit(self, points: np.ndarray, normal: np.ndarray) -> np.ndarray:
        """The share (0-1) of the key light reaching each point (N, 3) of a face with this normal, its
        penumbra sampled. The bias grows as the face turns edge-on to the light (its depth then changes
        fast across a texel)."""
        facing = max(abs(float(normal @ self.towards_light)), MIN_FACING)
        slope = np.sqrt(max(0.0, 1 - facing**2)) / facing
        depth = points @ self.towards_light + BIAS_MM + min(slope, 8.0) / TEXELS_PER_MM
        uv = self._uv(points)
        offsets = np.linspace(-0.5, 0.5, SOFT_SAMPLES) * self.blur_mm if self.blur_mm > 0 else np.zeros(1)
        h, w = self.depth.shape
        lit = np.zeros(len(points))
        for du in offsets:
            for dv in offsets:
                texels = np.floor((uv + [du, dv] - self.origin) * TEXELS_PER_MM).astype(int)
                inside = (texels[:, 0] >= 0) & (texels[:, 0] < w) & (texels[:, 1] >= 0) & (texels[:, 1] < h)
                blocker = np.full(len(points), -np.inf)
                blocker[inside] = self.depth[texels[inside, 1], texels[inside, 0]]
                lit += depth >= blocker
        return lit / (len(offsets) ** 2)
