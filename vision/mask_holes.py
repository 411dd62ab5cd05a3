"""Holes in binary masks: the enclosed background a mask's blobs ring, filling the small ones, and blobs filled
to their convex hulls."""

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


def filled_to_hulls(mask: np.ndarray, hull_pixels: tuple[float, float], min_solidity: float,
                    min_squareness: float = 0.0, max_aspect: float = float("inf"),
                    groups: np.ndarray | None = None) -> np.ndarray:
    """The mask `mask` (bool) with each blob whose convex hull holds `hull_pixels` (least, most) pixels, fills at
    least `min_squareness` of its smallest enclosing rectangle, is at most `max_aspect` times as long as it is
    wide, and that the blob fills at least `min_solidity` of, filled to that hull. `groups` (bool): where given,
    the mask's pixels within each of its blobs are taken as one blob (pieces a seam apart)."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats((mask if groups is None else groups).astype(np.uint8),
                                                               connectivity=8)
    low, high = hull_pixels
    filled = mask.astype(np.uint8)
    for i in range(1, count):
        x, y, w, h, at_most = stats[i]
        if at_most < min_solidity * low or w * h < low:  # too small for its hull to hold `low` pixels
            continue
        ys, xs = np.nonzero((labels[y:y + h, x:x + w] == i) & mask[y:y + h, x:x + w])
        area = len(xs)
        hull = cv2.convexHull(np.column_stack([xs + x, ys + y]).astype(np.int32))
        inside = cv2.contourArea(hull) + cv2.arcLength(hull, True) / 2 + 1  # Pick's theorem, its boundary counted
        if not (low <= inside <= high and area >= min_solidity * inside):
            continue
        (_, _), (rect_w, rect_h), _ = cv2.minAreaRect(hull)
        if (inside >= min_squareness * (rect_w + 1) * (rect_h + 1)
                and max(rect_w, rect_h) + 1 <= max_aspect * (min(rect_w, rect_h) + 1)):
            cv2.fillConvexPoly(filled, hull, 1)
    return filled > 0
