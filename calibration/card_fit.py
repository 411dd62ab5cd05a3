"""The camera's pose over the card, fitted to the card's two kinds of corner, each weighed by its own
scatter in the photo.

A checker corner is a saddle between two black and two white squares: blur leaves it in place. A marker's
corner is a black square's outer corner, which blur rounds and pulls inside the square (0.3 px median
over the samples, over 1 px on soft ones), and its refinement scatters more. Weighed alike, the markers'
many corners shrank the card, and the castle beside it came out too far from it (tower bases on the samples
mapped with their true lens: median 1.27 mm off; weighed, 0.59 mm).
"""

from __future__ import annotations

import cv2
import numpy as np
from scipy.optimize import least_squares

from tablesight.calibration.camera import CameraPose, Lens

# From this many checker corners on, their scatter shows against their own pose (6 parameters); with fewer
# it does not, and every corner counts alike.
MIN_CORNERS_TO_WEIGH, POSE_PARAMETERS = 10, 6
MIN_SCATTER_PX = 0.1  # no corner is taken as sharper than this


def solve_pose(lens: Lens, table: np.ndarray, pixels: np.ndarray) -> CameraPose:
    """The pose that projects table points (mm) onto their pixels through `lens`, all weighed alike."""
    obj = np.column_stack([table, np.zeros(len(table))])
    ok, rvec, tvec = cv2.solvePnP(obj, pixels.reshape(-1, 1, 2), lens.matrix, lens.distortion,
                                  flags=cv2.SOLVEPNP_IPPE)
    if not ok:
        ok, rvec, tvec = cv2.solvePnP(obj, pixels.reshape(-1, 1, 2), lens.matrix, lens.distortion)
    rvec, tvec = cv2.solvePnPRefineLM(obj, pixels.reshape(-1, 1, 2), lens.matrix, lens.distortion, rvec, tvec)
    return CameraPose(lens, rvec.reshape(3), tvec.reshape(3))


def corner_weights(lens: Lens, table: np.ndarray, pixels: np.ndarray, marker_table: np.ndarray,
                   marker_pixels: np.ndarray) -> np.ndarray | None:
    """Each point's weight (one over its kind's mean squared scatter, px⁻²), checker corners first: the
    checker corners' scatter about their own pose, the markers' about the same pose (their pull included).
    None where there are no markers or too few checker corners to tell."""
    if len(table) < MIN_CORNERS_TO_WEIGH or not len(marker_table):
        return None
    checker = solve_pose(lens, table, pixels)
    corner_scatter = np.sum((checker.project(table) - pixels) ** 2) / (len(table) - POSE_PARAMETERS)
    marker_scatter = np.mean(np.sum((checker.project(marker_table) - marker_pixels) ** 2, axis=1))
    floor = MIN_SCATTER_PX ** 2
    return np.concatenate([np.full(len(table), 1 / max(corner_scatter, floor)),
                           np.full(len(marker_table), 1 / max(marker_scatter, floor))])


def weighed_pose(lens: Lens, table: np.ndarray, pixels: np.ndarray, marker_table: np.ndarray,
                 marker_pixels: np.ndarray) -> CameraPose:
    """The pose from both kinds of corner, weighed by `corner_weights` (alike where it cannot tell)."""
    obj = np.column_stack([np.vstack([table, marker_table]), np.zeros(len(table) + len(marker_table))])
    seen = np.vstack([pixels, marker_pixels])
    alike = solve_pose(lens, obj[:, :2], seen)
    weights = corner_weights(lens, table, pixels, marker_table, marker_pixels)
    if weights is None:
        return alike
    root_weights = np.sqrt(weights)[:, None]

    def weighed_residuals(x: np.ndarray) -> np.ndarray:
        projected, _ = cv2.projectPoints(obj, x[:3], x[3:], lens.matrix, lens.distortion)
        return ((projected.reshape(-1, 2) - seen) * root_weights).ravel()

    fitted = least_squares(weighed_residuals, np.concatenate([alike.rvec, alike.tvec]), method="lm").x
    return CameraPose(lens, fitted[:3], fitted[3:])
