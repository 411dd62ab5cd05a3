"""Towers: round solids as wide as a tower, found as peaks of the carved footprint's distance map."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from tablesight.scoring.castellan.pieces import PieceDimensions
from tablesight.vision.table_view import Region

# A disc this share of a tower's diameter fits inside a tower's footprint but not inside a wall.
CORE_SHARE = 0.62


@dataclass(frozen=True)
class TowerReading:
    x: float
    y: float
    radius_mm: float  # equivalent radius of the footprint's core

    @property
    def position(self) -> tuple[float, float]:
        return (self.x, self.y)


def find_towers(solid: np.ndarray, region: Region, dims: PieceDimensions) -> list[TowerReading]:
    """Tower footprints: what survives opening the carved solid with a disc wider than any wall."""
    mask = cv2.morphologyEx(solid.astype(np.uint8), cv2.MORPH_CLOSE,
                            cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
    core = max(3, int(round(CORE_SHARE * dims.tower_diameter * region.px_per_mm)) | 1)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (core, core))
    opened = cv2.morphologyEx(mask, cv2.MORPH_OPEN, disc)
    count, _, stats, centroids = cv2.connectedComponentsWithStats(opened, connectivity=8)
    min_area = 0.6 * np.count_nonzero(disc)
    towers = []
    for i in range(1, count):
        area = stats[i, cv2.CC_STAT_AREA]
        if area < min_area:
            continue
        x, y = region.to_mm(centroids[i] + 0.5)
        towers.append(TowerReading(float(x), float(y), float(np.sqrt(area / np.pi)) / region.px_per_mm))
    return towers
