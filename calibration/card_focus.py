"""How soft a photo is, read from the card's own edges, and the blur to take out of it.

The card's black squares along the board's border meet the sheet's white margin in straight edges.
Blurred by a lens out of focus, a step spreads as a Gaussian's integral: its 25 %–75 % rise is 1.35 σ.
Measured across many points of those edges, σ tells how soft the whole photo is (the castle lies at much
the same distance as the card). A photo far softer than a sharp one is read with the difference taken out.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import cv2
import numpy as np

from tablesight.calibration.card import SQUARE_MM, SQUARES

Projection = Callable[[np.ndarray], np.ndarray]  # table mm (n, 2) → photo pixels (n, 2)

EDGE_SHARE = 0.6  # the middle of each edge: its ends meet the next square's corner
POINTS_PER_EDGE = 9
STEP_PX = 0.25
MAX_REACH_PX, MARGIN_REACH_MM = 8.0, 6.0  # sampled this far either side: the white margin is wider than that
PLATEAU_SHARE = 0.2  # each profile's ends: the black square's level and the margin's
QUARTILE_RISE = 1.349  # the 25 %–75 % rise of a Gaussian-blurred step, in σ
MIN_PROFILES = 12
MIN_CONTRAST = 30.0  # grey levels between the black and the white of a usable profile
# The card's edges spread σ ≈ 0.8 px in a sharp sample (0.5–1.4 px over the 64); a photo whose edges spread
# SOFT_EDGE_PX or more is read with the difference to SHARP_EDGE_PX taken out. SHARP_EDGE_PX is below a sharp
# photo's spread on purpose: every 4th sample blurred σ 1.6 px, towers found/false with 0.8: 481/49, 0.5:
# 504/20, 0.0: 518/3 (but one score fewer: the strongest filter rings at keeps' edges).
SHARP_EDGE_PX, SOFT_EDGE_PX = 0.5, 1.5


def card_edge_blur_px(grey: np.ndarray, project: Projection) -> float | None:
    """The Gaussian σ (pixels) of the card's border edges in the photo (`project`: the card's table mm to
    the photo's pixels), or None where too few are seen."""
    widths = [w for start, outward, along in _border_edges()
              for w in _edge_widths(grey, project, start, outward, along)]
    return float(np.median(widths)) / QUARTILE_RISE if len(widths) >= MIN_PROFILES else None


def is_soft(edge_blur_px: float | None) -> bool:
    """Whether a photo whose card's edges spread so is soft enough to be read sharpened."""
    return edge_blur_px is not None and edge_blur_px >= SOFT_EDGE_PX


def softness_kernel(edge_blur_px: float) -> np.ndarray:
    """The blur a soft photo has beyond a sharp one's: a Gaussian whose σ adds to SHARP_EDGE_PX in squares."""
    sigma = math.sqrt(max(edge_blur_px ** 2 - SHARP_EDGE_PX ** 2, 0.25))
    size = 2 * int(np.ceil(3 * sigma)) + 1
    column = cv2.getGaussianKernel(size, sigma).astype(np.float32)
    return column @ column.T


def _border_edges() -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """The outer edges of the black squares along the board's border: (start mm, outward unit, along
    vector of the edge's length)."""
    cols, rows = SQUARES
    edges = []
    for c in range(0, cols, 2):  # black squares are those with (row + column) even
        edges.append((np.array([c * SQUARE_MM, 0.0]), np.array([0.0, -1.0]), np.array([SQUARE_MM, 0.0])))
        if (rows - 1 + c) % 2 == 0:
            edges.append((np.array([c * SQUARE_MM, rows * SQUARE_MM]), np.array([0.0, 1.0]),
                          np.array([SQUARE_MM, 0.0])))
    for r in range(0, rows, 2):
        edges.append((np.array([0.0, r * SQUARE_MM]), np.array([-1.0, 0.0]), np.array([0.0, SQUARE_MM])))
        if (r + cols - 1) % 2 == 0:
            edges.append((np.array([cols * SQUARE_MM, r * SQUARE_MM]), np.array([1.0, 0.0]),
                          np.array([0.0, SQUARE_MM])))
    return edges


def _edge_widths(grey: np.ndarray, project: Projection, start: np.ndarray, outward: np.ndarray,
                 along: np.ndarray) -> list[float]:
    """The 25 %–75 % rise (pixels) of profiles across one edge, from the black square out to the margin."""
    shares = 0.5 + EDGE_SHARE * (np.linspace(0, 1, POINTS_PER_EDGE) - 0.5)
    points = start + shares[:, None] * along
    pixels = project(points)
    tangent = project(points + along / np.linalg.norm(along)) - pixels
    beyond = project(points + outward) - pixels  # 1 mm out, in pixels
    widths = []
    h, w = grey.shape
    for p, t, b in zip(pixels, tangent, beyond, strict=True):
        normal = np.array([-t[1], t[0]]) / max(float(np.linalg.norm(t)), 1e-9)
        normal *= np.sign(normal @ b) or 1.0  # from the black square out to the white margin
        reach = min(MAX_REACH_PX, MARGIN_REACH_MM * float(np.linalg.norm(b)))
        offsets = np.arange(-reach, reach + 1e-6, STEP_PX)
        track = p + offsets[:, None] * normal
        if track.min() < 0 or track[:, 0].max() > w - 1 or track[:, 1].max() > h - 1:
            continue
        profile = cv2.remap(grey, track[:, 0].astype(np.float32).reshape(-1, 1),
                            track[:, 1].astype(np.float32).reshape(-1, 1), cv2.INTER_LINEAR).ravel().astype(float)
        width = _quartile_rise(offsets, profile)
        if width is not None:
            widths.append(width)
    return widths


def _quartile_rise(offsets: np.ndarray, profile: np.ndarray) -> float | None:
    """The distance from where a dark-to-light profile first passes 25 % of its rise to where it passes 75 %."""
    n = max(2, int(PLATEAU_SHARE * len(profile)))
    dark, light = float(np.median(profile[:n])), float(np.median(profile[-n:]))
    if light - dark < MIN_CONTRAST:
        return None
    level = (profile - dark) / (light - dark)
    crossings = []
    for q in (0.25, 0.75):
        k = int(np.argmax(level >= q))
        if k == 0 or level[k] < q:
            return None
        crossings.append(offsets[k - 1] + (q - level[k - 1]) / (level[k] - level[k - 1]) * STEP_PX)
    return crossings[1] - crossings[0]
