"""Refining the lens from the castle itself, when no camera profile was given.

A single card photo pins down the table plane near the card, but the focal length
and the lens distortion it suggests are uncertain, and errors grow with distance
from the card. The castle is a ruler spread over the whole table: towers joined by
a wall stand one short or long span apart (the piece profile's sizes). Choosing the
focal length and distortion that make those spans right — with the pose always
re-solved from the card — corrects the mapping where the castle is.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from tablesight.calibration.camera import PLAUSIBLE_K1, CameraPose, Lens
from tablesight.calibration.card_detection import CardDetection, _solve_pose
from tablesight.calibration.pieces import PieceProfile
from tablesight.vision.castellan.towers import TowerReading
from tablesight.vision.castellan.walls import WallReading

MIN_SPANS = 20  # fewer spans (a small castle) fit a wrong lens as well as the right one
# Coarse grid over focal scale and k1, then a finer grid around the best cell.
FOCAL_RANGE, K1_RANGE = (0.7, 1.4), PLAUSIBLE_K1
COARSE_STEPS, FINE_STEPS = 9, 7
CARD_ERROR_GROWTH, CARD_ERROR_SLACK_PX = 1.5, 0.3
MIN_GAIN = 0.7  # the spans must come out at least 30 % better


def refine_card_lens(card: CardDetection, towers: list[TowerReading], walls: list[WallReading],
                     profile: PieceProfile) -> CardDetection | None:
    """A card detection with a lens that makes the castle's wall spans right, or None if not better."""
    spans = [(w.start, w.end, profile.dimensions.centre_spacing(w.kind)) for w in walls if w.end is not None]
    if len(spans) < MIN_SPANS:
        return None
    height = profile.tower_height * 0.5
    pixels = card.pose.project(np.array([t.position for t in towers]), height)  # where the towers are in the photo
    table_pts = card.table_points
    if len(table_pts) < 6:
        return None
    start = card.pose.lens
    starts, ends, expected = (np.array(column) for column in zip(*spans, strict=True))

    def residual(focal: float, k1: float) -> tuple[float, float, CameraPose]:
        matrix = start.matrix.copy()
        matrix[0, 0] = matrix[1, 1] = focal
        lens = Lens(matrix, np.array([k1, 0.0, 0.0, 0.0, 0.0]), start.image_size)
        pose = _solve_pose(lens, table_pts, card.image_points)
        card_error = float(np.median(np.linalg.norm(pose.project(table_pts) - card.image_points, axis=1)))
        mapped = pose.table_point(pixels, height)
        lengths = np.linalg.norm(mapped[starts] - mapped[ends], axis=1)
        return float(np.median(np.abs(lengths - expected))), card_error, pose

    initial_span, initial_card, best_pose = residual(start.focal, float(start.distortion[0]))
    # A lens that fits the castle must still fit the card about as well as before.
    card_limit = max(CARD_ERROR_GROWTH * initial_card, initial_card + CARD_ERROR_SLACK_PX)
    best_span, best = initial_span, (1.0, float(start.distortion[0]))
    f_lo, f_hi = FOCAL_RANGE
    k_lo, k_hi = K1_RANGE
    for steps in (COARSE_STEPS, FINE_STEPS):
        f_step, k_step = (f_hi - f_lo) / (steps - 1), (k_hi - k_lo) / (steps - 1)
        for f_scale in np.linspace(f_lo, f_hi, steps):
            for k1 in np.linspace(k_lo, k_hi, steps):
                span, card_error, pose = residual(start.focal * f_scale, float(k1))
                if span < best_span and card_error <= card_limit:
                    best_span, best_pose, best = span, pose, (f_scale, k1)
        f_lo, f_hi = best[0] - f_step, best[0] + f_step
        k_lo, k_hi = best[1] - k_step, best[1] + k_step
    if best_span > MIN_GAIN * initial_span:
        return None
    return replace(card, pose=best_pose, homography=_homography(best_pose, card), focal_source="castle")


def _homography(pose: CameraPose, card: CardDetection) -> np.ndarray:
    homography, _ = cv2.findHomography(card.table_points, pose.lens.undistort_points(card.image_points))
    return homography
