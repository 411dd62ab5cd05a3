"""The camera's tilt and height from the castle alone, for a photo without the card.

Read as if taken from straight above, a tilted photo's castle comes out skewed: walls
on its far side look shorter, and its two axes are not square. The castle is its own
ruler and square (towers joined by a wall stand one short or long span apart along one
of two square axes), so the tilt, the camera's height and its focal length that make the
castle a castle are fitted to those walls. Where on the table the camera stands and which
way it faces cannot be told without the card, nor do they matter: they stay the stand-in's.
"""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np
from scipy.optimize import least_squares

from tablesight.calibration.camera import CameraPose, Lens
from tablesight.calibration.card_detection import CardDetection
from tablesight.calibration.pieces import PieceProfile
from tablesight.vision.castellan.lens_refinement import TOWER_NOISE_MM, CastleSpans
from tablesight.vision.castellan.towers import TowerReading
from tablesight.vision.castellan.walls import WallReading

MIN_SPANS = 8  # fewer walls joining two towers say little of the tilt
MAX_TILT = math.radians(50.0)  # beyond what setup.md allows (40°), for a fit that starts far off
FOCAL_PRIOR = 0.2  # how far (log) a focal length from EXIF or the default is typically off
MIN_GAIN = 1.1  # the walls must fit clearly better than seen from straight above
# (log) how far the fit may take the camera's height and focal length from the stand-in's: the scale
# tried already lies within a few tens of % (the scales tried step by 11 %), a camera's focal length too.
HEIGHT_RANGE, FOCAL_RANGE = 1.0, 0.5
MAX_EVALUATIONS = 400
GRID_MM = 60.0  # the stand-in card's corners: a square this far around the castle's middle


def castle_pose(card: CardDetection, towers: list[TowerReading], walls: list[WallReading],
                profile: PieceProfile) -> CardDetection | None:
    """A stand-in card whose camera is tilted, raised and focused so that the castle's walls run along
    two square axes, each one span long; or None if too few walls join two towers or the castle does
    not fit clearly better that way."""
    spans = CastleSpans.of(card.pose, towers, walls, profile)
    if len(spans) < MIN_SPANS:
        return None
    fit = _TiltFit(card.pose, spans)
    start = fit.initial()
    before = fit.castle_error(start)
    low = np.array([-MAX_TILT, -MAX_TILT, -HEIGHT_RANGE, -FOCAL_RANGE, -np.inf])
    high = np.array([MAX_TILT, MAX_TILT, HEIGHT_RANGE, FOCAL_RANGE, np.inf])
    try:
        solved = least_squares(fit.residuals, start, loss="huber", f_scale=1.0, bounds=(low, high),
                               x_scale=np.array([0.05, 0.05, 0.05, 0.05, 0.01]), max_nfev=MAX_EVALUATIONS)
    except (ValueError, cv2.error):
        return None
    if not solved.success or not fit.castle_error(solved.x) * MIN_GAIN < before:
        return None
    return _stand_in(card, fit.pose(solved.x), towers)


def _stand_in(card: CardDetection, pose: CameraPose, towers: list[TowerReading]) -> CardDetection:
    """The stand-in card through the fitted pose, its corners around the castle (where its scale is
    taken: `CardDetection.mm_per_pixel`)."""
    middle = np.median([t.position for t in towers], axis=0)
    grid = np.array([middle + [dx, dy] for dx in (-GRID_MM, 0.0, GRID_MM) for dy in (-GRID_MM, 0.0, GRID_MM)])
    pixels = pose.project(grid)
    homography, _ = cv2.findHomography(grid, pixels)
    return replace(card, image_points=pixels, table_points=grid, homography=homography, pose=pose,
                   focal_source="castle")


class _TiltFit:
    """The residuals of a tilt (two rotation angles), a camera height and focal length (log scales of
    the stand-in's) and the castle's axis angle: the walls' mismatch with a span along an axis, in mm
    over the towers' noise, and the focal length's distance from the stand-in's."""

    def __init__(self, pose: CameraPose, spans: CastleSpans) -> None:
        self.start_pose, self.spans = pose, spans

    def initial(self) -> np.ndarray:
        tilt = self.start_pose.rvec.ravel()[:2]
        return np.array([tilt[0], tilt[1], 0.0, 0.0, self.spans.axis(self.start_pose)])

    def pose(self, params: np.ndarray) -> CameraPose:
        start = self.start_pose
        matrix = start.lens.matrix.copy()
        matrix[0, 0] = matrix[1, 1] = start.lens.focal * math.exp(params[3])
        lens = Lens(matrix, start.lens.distortion.copy(), start.lens.image_size)
        centre = start.centre * [1.0, 1.0, math.exp(params[2] + params[3])]  # raised with the focal length
        rvec = np.array([params[0], params[1], float(start.rvec.ravel()[2])])
        rotation = cv2.Rodrigues(rvec)[0]
        return CameraPose(lens, rvec, -rotation @ centre)

    def castle_error(self, params: np.ndarray) -> float:
        return self.spans.error(self.pose(params), params[4])

    def residuals(self, params: np.ndarray) -> np.ndarray:
        walls = self.spans.misfit(self.pose(params), params[4]).ravel()
        residuals = np.concatenate([walls / TOWER_NOISE_MM, [params[3] / FOCAL_PRIOR]])
        return np.nan_to_num(residuals, nan=1e6, posinf=1e6, neginf=-1e6)
