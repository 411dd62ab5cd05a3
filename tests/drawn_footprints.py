"""Carved footprints drawn by hand for the stage-level tests: what the reader would carve, with no photo."""

import cv2
import numpy as np

from tablesight.scoring.castellan.pieces import NOMINAL_DIMENSIONS as DIMS
from tablesight.vision.table_view import Region

REGION = Region(0.0, 0.0, 400.0, 300.0, 2.0)


def footprint(towers, walls) -> np.ndarray:
    """A carved solid as the reader would see it: discs of a tower's width, strips of a wall's."""
    mask = np.zeros(REGION.size[::-1], np.uint8)
    for a, b in walls:
        pa, pb = (tuple(int(v) for v in REGION.to_pixels(p)) for p in (a, b))
        cv2.line(mask, pa, pb, 1, int(DIMS.wall_thickness * REGION.px_per_mm))
    for t in towers:
        cv2.circle(mask, tuple(int(v) for v in REGION.to_pixels(t)), int(DIMS.tower_radius * REGION.px_per_mm), 1, -1)
    return mask.astype(bool)
