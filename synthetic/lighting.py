"""Light and shading: one key light (lamp, sun or flash) plus ambient, with a colour cast."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Lighting:
    direction: np.ndarray  # unit vector from the table towards the light, board frame (z < 0 is up)
    colour: np.ndarray  # BGR multipliers of the light (warm lamp, cool daylight…)
    ambient: float
    diffuse: float
    specular: float
    shadow_strength: float  # share of the key light a shadow removes
    shadow_blur_mm: float  # penumbra width: hard sun ~1 mm, soft window light ~20 mm

    def shade(self, albedo, normal: np.ndarray, point: np.ndarray, camera_centre: np.ndarray,
              shininess: float, key_share: float | np.ndarray = 1.0,
              ambient_share: float | np.ndarray = 1.0) -> np.ndarray:
        """The colour of a face (BGR). `key_share`, `ambient_share`: how much of the key light and of the
        ambient light reach it, one number or one per pixel (N,) for colours (N, 3): the key light partly
        blocked by other pieces, the ambient dimmed at a piece's foot."""
        lambert = max(0.0, float(np.dot(normal, self.direction)))
        view = camera_centre - point
        view /= max(np.linalg.norm(view), 1e-9)
        half = self.direction + view
        half /= max(np.linalg.norm(half), 1e-9)
        gloss = self.specular * shininess * max(0.0, float(np.dot(normal, half))) ** 24 * 255.0
        key_share, ambient_share = np.asarray(key_share)[..., None], np.asarray(ambient_share)[..., None]
        light = self.ambient * ambient_share + self.diffuse * lambert * key_share
        return np.asarray(albedo) * light * self.colour + gloss * key_share * self.colour

    @property
    def table_light(self) -> float:
        """Key light reaching the table surface (its normal points up, -z)."""
        return self.diffuse * max(0.0, -float(self.direction[2]))


def shadow_outline(vertices: np.ndarray, light_direction: np.ndarray) -> np.ndarray:
    """Vertices (board frame) pushed along the light onto the table: the piece's shadow points."""
    z = vertices[:, 2:3]
    return (vertices - z / light_direction[2] * light_direction[None, :])[:, :2]
