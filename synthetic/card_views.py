"""Quick views of the reference card alone (no pieces) through a known lens, for lens calibration; and
photos with the card painted out, for reading without it."""

from __future__ import annotations

import math

import cv2
import numpy as np

from tablesight.calibration.camera import CameraPose, Lens
from tablesight.calibration.card import card_outline_mm, sheet_image, sheet_to_table
from tablesight.calibration.card_detection import find_card
from tablesight.synthetic import effects


def card_view(lens: Lens, rng: np.random.Generator, px_per_mm: float = 4.0) -> tuple[np.ndarray, CameraPose]:
    """One photo of the card on a grey table from a random angle (up to 45°) and distance."""
    w, h = lens.image_size
    tilt = math.radians(rng.uniform(10, 45))
    heading = rng.uniform(0, 2 * math.pi)
    distance = rng.uniform(380, 650)
    target = np.array([126.0 + rng.uniform(-40, 40), 90.0 + rng.uniform(-30, 30), 0.0])
    view = np.array([math.sin(tilt) * math.cos(heading), math.sin(tilt) * math.sin(heading), math.cos(tilt)])
    centre = target - view * distance
    forward = view
    right = np.cross(np.array([math.cos(heading + 1.3), math.sin(heading + 1.3), 0.0]), forward)
    right /= np.linalg.norm(right)
    rotation = np.stack([right, np.cross(forward, right), forward])
    pose = CameraPose(lens, cv2.Rodrigues(rotation)[0].ravel(), -rotation @ centre)
    sheet = sheet_image(dpi=px_per_mm * 25.4).astype(np.float32) * 0.85 + 25
    to_mm = sheet_to_table(px_per_mm)
    canvas, canvas_size = effects.pinhole_canvas(lens.matrix, lens.distortion, (w, h))
    plane = canvas @ np.column_stack([rotation[:, 0], rotation[:, 1], pose.tvec])
    image = cv2.warpPerspective(sheet, plane @ to_mm, canvas_size, flags=cv2.INTER_AREA, borderValue=90.0)
    image = effects.distort(image, lens.matrix, lens.distortion, canvas, (w, h))
    image = np.clip(image + rng.normal(0, 2.0, image.shape), 0, 255).astype(np.uint8)
    return image, pose


def card_painted_out(image: np.ndarray) -> np.ndarray | None:
    """The photo with its card (and a margin) covered in the median colour of the table around it, or
    None where no card is found."""
    card = find_card(image)
    if card is None:
        return None
    outline = card.pose.project(card_outline_mm())
    centre = outline.mean(axis=0)
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.fillPoly(mask, [((outline - centre) * 1.3 + centre).astype(np.int32)], 255)
    ring = cv2.dilate(mask, np.ones((41, 41), np.uint8)) & ~mask
    out = image.copy()
    out[mask > 0] = np.median(image[ring > 0], axis=0)
    return out
