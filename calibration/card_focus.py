"""How soft a photo is, read from the card's own edges, and the blur to take out of it.

The card's black squares along the board's border meet the sheet's white margin in straight edges.
Blurred by a lens out of focus, a step spreads as a Gaussian's integral: its 25 %–75 % rise is 1.35 σ.
Measured across many points of those edges, σ tells how soft the whole photo is (the castle lies at much
the same distance as the card). A photo far softer than a sharp one is read with the difference taken out.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from tablesight.calibration.card import SQUARE_MM, SQUARES

EDGE_SHARE = 0.6  # the middle of each edge: its ends meet the next square's corner
POINTS_PER_EDGE = 9
SAMPLES = 65  # along each profile: 0.25 px apart at the full reach
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


def card_edge_blur_px(grey: np.ndarray, homography: np.ndarray) -> float | None:
    """The Gaussian σ (pixels) of the card's border edges in the photo (`homography`: the card's table mm
    to the photo's pixels), or None where too few are seen."""
    tracks = np.concatenate([_edge_tracks(homography, *edge) for edge in _border_edges()])
    h, w = grey.shape
    inside = np.all((tracks[..., 0] >= 0) & (tracks[..., 0] <= w - 1)
                    & (tracks[..., 1] >= 0) & (tracks[..., 1] <= h - 1), axis=1)
    tracks = tracks[inside]
    if len(tracks) < MIN_PROFILES:
        return None
    profiles = cv2.remap(grey, tracks[..., 0].astype(np.float32), tracks[..., 1].astype(np.float32),
                         cv2.INTER_LINEAR).astype(float)
    steps = np.linalg.norm(tracks[:, 1] - tracks[:, 0], axis=1)
    widths = _quartile_rises(profiles, steps)
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


def _edge_tracks(homography: np.ndarray, start: np.ndarray, outward: np.ndarray, along: np.ndarray) -> np.ndarray:
    """Photo pixels (profiles × SAMPLES × 2) along lines across one edge, from the black square out to the
    margin, each reaching MAX_REACH_PX either side (less where the margin is narrower in the photo)."""
    shares = 0.5 + EDGE_SHARE * (np.linspace(0, 1, POINTS_PER_EDGE) - 0.5)
    points = start + shares[:, None] * along

    def project(table: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(table.reshape(-1, 1, 2).astype(np.float64), homography).reshape(-1, 2)

    pixels = project(points)
    tangent = project(points + along / np.linalg.norm(along)) - pixels
    beyond = project(points + outward) - pixels  # 1 mm out, in pixels
    normal = np.column_stack([-tangent[:, 1], tangent[:, 0]])
    normal /= np.maximum(np.linalg.norm(normal, axis=1, keepdims=True), 1e-9)
    normal *= np.where(np.sum(normal * beyond, axis=1) < 0, -1.0, 1.0)[:, None]  # out to the white margin
    reach = np.minimum(MAX_REACH_PX, MARGIN_REACH_MM * np.linalg.norm(beyond, axis=1))
    offsets = np.linspace(-1.0, 1.0, SAMPLES)[None, :] * reach[:, None]
    return pixels[:, None, :] + offsets[..., None] * normal[:, None, :]


def _quartile_rises(profiles: np.ndarray, steps: np.ndarray) -> np.ndarray:
    """Per dark-to-light profile (a row, `steps` pixels between samples), the distance from where it first
    passes 25 % of its rise to where it passes 75 %; only profiles with contrast enough and both passes."""
    n = max(2, int(PLATEAU_SHARE * profiles.shape[1]))
    dark, light = np.median(profiles[:, :n], axis=1), np.median(profiles[:, -n:], axis=1)
    contrast = light - dark
    level = (profiles - dark[:, None]) / np.maximum(contrast, 1e-9)[:, None]
    rows = np.arange(len(profiles))
    crossings, valid = [], contrast >= MIN_CONTRAST
    for q in (0.25, 0.75):
        k = np.argmax(level >= q, axis=1)
        valid &= (k > 0) & (level[rows, k] >= q)
        k = np.maximum(k, 1)
        before, after = level[rows, k - 1], level[rows, k]
        crossings.append((k - 1 + (q - before) / np.where(after > before, after - before, 1.0)) * steps)
    return (crossings[1] - crossings[0])[valid]
