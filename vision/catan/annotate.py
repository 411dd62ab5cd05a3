"""The Catan recognition overlay: each hex's terrain and number as read, the robber, and every
building and road drawn in its player's colour where it was found."""

from __future__ import annotations

from typing import TYPE_CHECKING

import cv2
import numpy as np

from tablesight.vision.catan.pieces import crossing_point
from tablesight.vision.drawing import text_with_outline

if TYPE_CHECKING:  # the web page imports the palette at start-up; the reader only when a photo comes
    from tablesight.vision.catan.reader import CatanPhotoReading

PLAYER_BGR = {"red": (40, 40, 220), "blue": (220, 90, 30), "white": (245, 245, 245), "orange": (20, 140, 255),
              "green": (40, 170, 40), "brown": (30, 70, 120)}


def annotate(image: np.ndarray, reading: CatanPhotoReading) -> np.ndarray:
    out = image.copy()
    size = max(1, round(max(image.shape[:2]) / 1000))
    spacing = reading.spacing_px
    for hex_, (x, y) in reading.centres.items():
        cv2.circle(out, (round(x), round(y)), round(0.45 * spacing), (255, 255, 255), size, cv2.LINE_AA)
        number = reading.numbers.get(hex_)
        label = reading.terrain[hex_] + ("" if number is None else f" {number}")
        label += " + robber" if hex_ == reading.robber else ""
        origin = (round(x - 0.35 * spacing), round(y + 0.3 * spacing))
        text_with_outline(out, label, origin, 0.6 * size, size)
    if reading.homography is None:
        return out
    for (a, b), colour in reading.roads.items():
        pa, pb = (crossing_point(c, reading.homography) for c in (a, b))
        inner_a, inner_b = pa + 0.2 * (pb - pa), pb - 0.2 * (pb - pa)
        _line(out, inner_a, inner_b, (0, 0, 0), 5 * size)
        _line(out, inner_a, inner_b, PLAYER_BGR[colour], 3 * size)
    for c, (colour, kind) in reading.buildings.items():
        p = np.round(crossing_point(c, reading.homography)).astype(int)
        r = round((0.11 if kind == "city" else 0.07) * spacing)
        cv2.rectangle(out, tuple(p - r), tuple(p + r), (0, 0, 0), 3 * size + 2)
        cv2.rectangle(out, tuple(p - r), tuple(p + r), PLAYER_BGR[colour], 3 * size)
    return out


def _line(image: np.ndarray, a: np.ndarray, b: np.ndarray, colour: tuple[int, int, int], width: int) -> None:
    cv2.line(image, tuple(np.round(a).astype(int)), tuple(np.round(b).astype(int)), colour, width, cv2.LINE_AA)
