"""A small z-buffered polygon rasterizer (numpy + OpenCV), enough for board-game pieces.

Faces are planar convex polygons. Depth is exact per pixel: for a planar face, 1/z is
an affine function of the pixel coordinates, so occlusion between pieces is right
wherever they stand.
"""

from __future__ import annotations

import cv2
import numpy as np

from tablesight.synthetic.lighting import Lighting
from tablesight.synthetic.meshes import Mesh
from tablesight.synthetic.shadow_map import ShadowMap

SUBPIXEL_BITS = 4
NEAR_MM = 10.0
# Contact occlusion (with a shadow map): the ambient light reaching a piece's foot, as a share of its top's,
# and the height over which it recovers.
FOOT_AMBIENT, FOOT_HEIGHT_MM = 0.55, 8.0


class Rasterizer:
    def __init__(self, matrix: np.ndarray, rotation: np.ndarray, translation: np.ndarray,
                 size: tuple[int, int], background: np.ndarray, shadows: ShadowMap | None = None) -> None:
        """`shadows`: the pieces' shadows on one another (and their feet darkened), or flat faces."""
        self.k = matrix
        self.k_inv = np.linalg.inv(matrix)
        self.r, self.t = rotation, translation.reshape(3)
        self.size = size
        self.image = background.astype(np.float32).copy()
        self.inv_depth = np.zeros(size[::-1], np.float32)  # 0: the table, infinitely far behind pieces
        self.camera_centre = -self.r.T @ self.t
        self.shadows = shadows

    def draw(self, mesh: Mesh, lighting: Lighting) -> None:
        for face, colour, normal in zip(mesh.faces, mesh.colours, mesh.normals, strict=True):
            self._draw_face(face, colour, normal, lighting, mesh.shininess)

    def _draw_face(self, face, albedo, normal, lighting: Lighting, shininess: float) -> None:
        cam = face @ self.r.T + self.t
        if cam[:, 2].min() < NEAR_MM:
            return
        normal_cam = self.r @ normal
        if float(np.dot(normal_cam, cam.mean(axis=0))) >= 0:
            return  # facing away from the camera
        pix = (cam @ self.k.T)[:, :2] / cam[:, 2:3]
        w, h = self.size
        x0, y0 = np.floor(pix.min(axis=0)).astype(int)
        x1, y1 = np.ceil(pix.max(axis=0)).astype(int) + 1
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
        if x1 <= x0 or y1 <= y0:
            return
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        local = np.round((pix - [x0, y0]) * (1 << SUBPIXEL_BITS)).astype(np.int32)
        cv2.fillConvexPoly(mask, local, 1, cv2.LINE_8, SUBPIXEL_BITS)
        if not mask.any():
            return
        # 1/z = (n · K⁻¹ [u, v, 1]) / (n · p) for any point p on the face.
        coeff = (normal_cam @ self.k_inv) / float(np.dot(normal_cam, cam[0]))
        us, vs = np.meshgrid(np.arange(x0, x1) + 0.5, np.arange(y0, y1) + 0.5)
        inv_z = (coeff[0] * us + coeff[1] * vs + coeff[2]).astype(np.float32)
        region = self.inv_depth[y0:y1, x0:x1]
        win = (mask > 0) & (inv_z > region)
        if not win.any():
            return
        region[win] = inv_z[win]
        key_share = ambient_share = 1.0
        if self.shadows is not None:
            key_share, ambient_share = self._light_shares(us[win], vs[win], inv_z[win], normal, lighting)
        colour = lighting.shade(albedo, normal, face.mean(axis=0), self.camera_centre, shininess, key_share,
                                ambient_share)
        self.image[y0:y1, x0:x1][win] = colour

    def _table_points(self, us: np.ndarray, vs: np.ndarray, inv_z: np.ndarray) -> np.ndarray:
        """The table-frame points (N, 3) seen at these pixels at these inverse depths."""
        rays = np.column_stack([us, vs, np.ones_like(us)]) @ self.k_inv.T
        return (rays / inv_z[:, None] - self.t) @ self.r

    def _light_shares(self, us: np.ndarray, vs: np.ndarray, inv_z: np.ndarray, normal: np.ndarray,
                      lighting: Lighting) -> tuple[np.ndarray, np.ndarray]:
        """Per pixel of a face: the share of the key light other pieces leave it, and of the ambient light
        (a piece's foot sees less of the room)."""
        points = self._table_points(us, vs, inv_z)
        key = 1 - lighting.shadow_strength * (1 - self.shadows.lit(points, normal))
        height = np.clip(-points[:, 2] / FOOT_HEIGHT_MM, 0.0, 1.0)
        return key, FOOT_AMBIENT + (1 - FOOT_AMBIENT) * height
