"""The Catan recognition overlay: the hex lattice found and what was read on each hex."""

from __future__ import annotations

import cv2
import numpy as np

from tablesight.vision.catan.reader import CatanPhotoReading
from tablesight.vision.drawing import text_with_outline


def annotate(image: np.ndarray, reading: CatanPhotoReading) -> np.ndarray:
    """Each hex circled and labelled with the terrain read, and where the robber stands."""
    out = image.copy()
    size = max(1, round(max(image.shape[:2]) / 1000))
    for hex_, (x, y) in reading.centres.items():
        cv2.circle(out, (round(x), round(y)), round(0.45 * reading.spacing_px), (255, 255, 255), size, cv2.LINE_AA)
        label = reading.terrain[hex_] + (" + robber" if hex_ == reading.robber else "")
        origin = (round(x - 0.35 * reading.spacing_px), round(y + 0.3 * reading.spacing_px))
        text_with_outline(out, label, origin, 0.6 * size, size)
    return out
