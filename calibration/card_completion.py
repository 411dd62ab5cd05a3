"""Completing a card found only in part: the card's other inner corners, placed through the corners found
and refined on the photo where it shows them.

On a soft or small card the markers' bits blur away and only a few markers are read, so only a few
corners are found, and a pose (above all a focal length) from a few corners is poor. The corners
themselves are saddles between two black squares, which blur does not move: where the found corners
place the others, the photo still shows them.
"""

from __future__ import annotations

import cv2
import numpy as np

from tablesight.calibration.card import board_object_points

# A corner placed from elsewhere (the found corners, the black squares) is kept when refining moves it less
# than this share of a square, and it lies on the card's plane through all the corners within this share
# of a square; one added to a card found in part must also have a cornerness (smaller eigenvalue of the
# gradients around it) of at least this share of the found corners' median.
MOVE_SLACK, PLANE_SLACK, MIN_CORNERNESS_SHARE = 0.15, 0.03, 0.3
# Two corners of the card are a square apart: an added one nearer another than this share of a square is a
# misplacing (a few corners in a line beside a card cut by the frame can place all the others on one spot).
MIN_APART_SHARE = 0.5


def completed_corners(grey: np.ndarray, pixels: np.ndarray, ids: np.ndarray, square_px: float,
                      markers: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The found corners (pixels, ids) with the card's other corners added where the photo holds them.
    `markers`: the markers' corners (table mm, pixels), to place them by where too few corners were found."""
    table = board_object_points()[:, :2]
    placing_table, placing_pixels = table[ids], pixels
    if markers is not None and len(ids) < 4:
        placing_table, placing_pixels = np.vstack([table[ids], markers[0]]), np.vstack([pixels, markers[1]])
    if len(ids) >= len(table) or len(placing_table) < 4 or _in_a_line(placing_table):
        return pixels, ids
    homography, _ = cv2.findHomography(placing_table, placing_pixels)
    if homography is None:
        return pixels, ids
    missing = np.setdiff1d(np.arange(len(table)), ids)
    window = refining_window(square_px)
    predicted = cv2.perspectiveTransform(table[missing].reshape(-1, 1, 2), homography).reshape(-1, 2)
    inside = _inside(predicted, grey.shape, window + 2)
    missing, predicted = missing[inside], predicted[inside]
    if not len(missing):
        return pixels, ids
    refined, held = held_refinements(grey, predicted, square_px)
    refined = refined.astype(np.float64)
    cornerness, origin = _cornerness_around(grey, np.vstack([pixels, refined]), window)
    found_level = float(np.median(_sampled(cornerness, pixels - origin)))
    held &= _sampled(cornerness, refined - origin) >= MIN_CORNERNESS_SHARE * found_level
    held &= _apart(refined, pixels, held, MIN_APART_SHARE * square_px)
    if not held.any():
        return pixels, ids
    all_pixels = np.vstack([pixels, refined[held]])
    all_ids = np.concatenate([ids, missing[held]])
    on_plane = plane_inliers(table[all_ids], all_pixels, square_px)
    if on_plane is None:
        return pixels, ids
    # The corners found stay whatever the plane says; only added ones off it are dropped.
    keep = on_plane | (np.arange(len(all_ids)) < len(ids))
    return all_pixels[keep].astype(pixels.dtype), all_ids[keep]


def refining_window(square_px: float) -> int:
    """Half-size (px) of the window a placed corner is refined in: a blurred saddle is still found at its
    centre, given a good part of the square."""
    return int(np.clip(square_px / 4, 2, 20))


def held_refinements(grey: np.ndarray, predicted: np.ndarray, square_px: float) -> tuple[np.ndarray, np.ndarray]:
    """Corners placed at `predicted` refined on the photo (float32 pixels), and whether each held still
    (moved under MOVE_SLACK of a square): where a hand or a piece covers the card, no corner holds it."""
    window = refining_window(square_px)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 40, 0.01)
    refined = cv2.cornerSubPix(grey, predicted.reshape(-1, 1, 2).astype(np.float32).copy(), (window, window),
                               (-1, -1), criteria).reshape(-1, 2)
    return refined, np.linalg.norm(refined - predicted, axis=1) < MOVE_SLACK * square_px


def plane_inliers(table: np.ndarray, pixels: np.ndarray, square_px: float) -> np.ndarray | None:
    """Which corners lie on the card's plane through the others (within PLANE_SLACK of a square), or None
    if no plane is found."""
    _, inliers = cv2.findHomography(table, pixels, cv2.RANSAC, max(1.0, PLANE_SLACK * square_px))
    return None if inliers is None else inliers.ravel() > 0


def _cornerness_around(grey: np.ndarray, pixels: np.ndarray, window: int) -> tuple[np.ndarray, np.ndarray]:
    """The smaller eigenvalue of the gradients (as `cv2.cornerMinEigenVal`) over the card's part of the
    photo only, and that part's top-left corner."""
    h, w = grey.shape[:2]
    x0, y0 = np.clip(np.floor(pixels.min(axis=0)).astype(int) - 2 * window, 0, [w, h])
    x1, y1 = np.clip(np.ceil(pixels.max(axis=0)).astype(int) + 2 * window + 1, 0, [w, h])
    return cv2.cornerMinEigenVal(grey[y0:y1, x0:x1], 2 * window + 1), np.array([x0, y0], float)


def _apart(added: np.ndarray, found: np.ndarray, held: np.ndarray, distance: float) -> np.ndarray:
    """Which added corners lie at least `distance` from every found corner and every other held added one."""
    others = np.vstack([found, added[held]])
    gaps = np.linalg.norm(added[:, None, :] - others[None, :, :], axis=2)
    own = len(found) + np.cumsum(held) - 1  # each held added corner's own row among `others`
    gaps[np.flatnonzero(held), own[held]] = np.inf
    return gaps.min(axis=1) >= distance


def _in_a_line(points: np.ndarray) -> bool:
    centred = points - points.mean(axis=0)
    return bool(np.linalg.svd(centred, compute_uv=False)[-1] < 1e-6 * max(1.0, np.abs(centred).max()))


def _inside(pixels: np.ndarray, shape: tuple[int, ...], margin: int) -> np.ndarray:
    h, w = shape[:2]
    return ((pixels[:, 0] >= margin) & (pixels[:, 0] < w - margin)
            & (pixels[:, 1] >= margin) & (pixels[:, 1] < h - margin))


def _sampled(values: np.ndarray, pixels: np.ndarray) -> np.ndarray:
    h, w = values.shape[:2]
    cols = np.clip(np.round(pixels[:, 0]).astype(int), 0, w - 1)
    rows = np.clip(np.round(pixels[:, 1]).astype(int), 0, h - 1)
    return values[rows, cols]
