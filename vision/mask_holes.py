"""Holes in binary masks: the enclosed background a mask's blobs ring, and filling the small ones."""

from __future__ import annotations

import cv2
import numpy as np


def hole_pixels(contour: np.ndarray) -> float:
    """Pixels inside a hole's contour, which runs through the solid's pixels around it (Pick's theorem:
    the polygon's area less half its boundary)."""
    return cv2.contourArea(contour) - cv2.arcLength(contour, True) / 2 + 1


def small_holes(contours: tuple[np.ndarray, ...], hierarchy: np.ndarray, max_pixels: float
                ) -> list[tuple[np.ndarray, int]]:
    """The holes among `contours` (`cv2.findContours` with `cv2.RETR_CCOMP`, and its `hierarchy`) of fewer than
    `max_pixels` pixels, each with the index of the contour enclosing it."""
    return [(c, int(h[3])) for c, h in zip(contours, hierarchy[0], strict=True)
            if h[3] >= 0 and hole_pixels(c) < max_pixels]


def filled_holes(solid: np.ndarray, max_pixels: float) -> np.ndarray:
    """The mask `solid` (bool) with its enclosed holes of fewer than `max_pixels` pixels filled."""
    filled = solid.astype(np.uint8)
    contours, hierarchy = cv2.findContours(filled, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return solid.astype(bool)
    cv2.drawContours(filled, [hole for hole, _ in small_holes(contours, hierarchy, max_pixels)], -1, 1, cv2.FILLED)
    return filled > 0
