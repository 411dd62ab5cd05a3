"""Refining the lens from the castle itself, when no camera profile was given.

A single card photo pins down the table plane near the card, but the focal length,
the lens distortion and the view's tilt it suggests are uncertain, and errors grow
with distance from the card. The castle is a ruler and a square spread over the
whole table: towers joined by a wall stand one short or long span apart (the piece
profile's sizes) along one of the castle's two axes. Fitting the lens and the pose
to the card and to those walls together corrects the mapping where the castle is.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np
from scipy.optimize import least_squares

from tablesight.calibration.camera import PLAUSIBLE_K1, CameraPose, Lens
from tablesight.calibration.card_detection import CardDetection
from tablesight.calibration.pieces import PieceProfile
from tablesight.vision.castellan.towers import TowerReading
from tablesight.vision.castellan.walls import WallReading

MIN_SPANS = 20  # fewer spans (a small castle) fit a wrong lens as well as the right one
CARD_ERROR_GROWTH, CARD_ERROR_SLACK_PX = 1.5, 0.3
# The walls must not come out worse: their robust cost (`_CastleFit.castle_cost`, what the fit minimises beside the
# card) must not rise by more than this share. Judged by the walls' median misfit instead (until session 98), a
# castle's slack let the median rise a little where the lens came much closer, and the card's lens was kept: sample
# 024 (its focal length 7 % long) 4.9 mm off at worst, 0.8 mm so; the samples and fresh 13800-14100 read the same
# scores either way (boards +1).
MIN_GAIN = 1.05
# How far a card corner is found from where it is, at least: aligned by the card's drawing (`corner_alignment`),
# 0.02-0.05 px in the samples. At 0.3 px the castle's walls outweighed a card read that well and pulled a lens
# within 0.1 % of the truth 2-4 % off (ten samples: castle 1.88 mm off median, against 0.49 mm at 0.02 px).
CARD_NOISE_PX = 0.02
# A card seen only in part (a few corners in the photo's corner) is placed by points where the lens bends most
# and its model is least sure: weighed as its corners were before they were aligned (test photo card-corner: at
# 0.02 px a tower of 36 was missed, the castle's focal length pulled towards the few corners').
PART_CARD_NOISE_PX = 0.3
# How far a wall's span and direction are off in a castle read right: a hand-built castle's slack (a few
# mm, a degree or two) and the towers' reading (~1.5 mm). Weighs the castle against the card.
TOWER_NOISE_MM = 4.5
MAX_EVALUATIONS = 400
MISFIT_CAP = 1e6  # stands for a residual that is not a number
FOCAL_RANGE = (0.7, 1.4)  # the focal length found, as a share of the card's
FOCAL_PRIOR = 0.2  # how far (log) the card's focal length is typically off
NO_DISTORTION = 1e-6  # k1's bounds when it is held at zero (least squares needs an interval)
# A k1 fitted at its barrel bound is kept if the walls misfit less than this share of their misfit without distortion.
BARREL_KEPT_SHARE = 0.5


def refine_card_lens(card: CardDetection, towers: list[TowerReading], walls: list[WallReading],
                     profile: PieceProfile, lens_known: bool = False) -> CardDetection | None:
    """A card detection whose lens and pose make the castle a castle, or None if not better.

    Focal length, k1 and the pose are fitted together (least squares, robust to a misread wall) to the
    card's corners and to the castle's walls: each wall joining two towers must lie along one of the
    castle's two axes and be one span long. Directions pin the view's tilt far from the card, which
    the card's corners alone leave loose; the lengths pin the scale there. `lens_known` (a calibrated
    camera): the lens is kept as it is and only the pose is fitted — a small card's pose is as loose
    far from it whatever the lens."""
    spans = CastleSpans.of(card.pose, towers, walls, profile)
    if len(spans) < MIN_SPANS or len(card.table_points) < 4:
        return None
    fit = _CastleFit(card, spans)
    start = fit.initial()
    before = fit.castle_error(start)
    if not np.isfinite(before):
        return None
    if lens_known:
        solved = _solved(fit, start, (start[1] - NO_DISTORTION, start[1] + NO_DISTORTION), fixed_focal=True)
    else:
        solved = _free_lens(fit, start)
    if solved is None:
        return None
    pose = fit.pose(solved)
    if lens_known:  # held within a hair of the calibration by the bounds: kept exactly
        pose = CameraPose(card.pose.lens, pose.rvec, pose.tvec)
    card_error = float(np.median(np.linalg.norm(pose.project(card.table_points) - card.image_points, axis=1)))
    card_limit = max(CARD_ERROR_GROWTH * card.reprojection_px, card.reprojection_px + CARD_ERROR_SLACK_PX)
    if card_error > card_limit or fit.castle_cost(solved) > MIN_GAIN * fit.castle_cost(start):
        return None
    return replace(card.seen_through(pose), focal_source=card.focal_source if lens_known else "castle")


def _free_lens(fit: _CastleFit, start: np.ndarray) -> np.ndarray | None:
    """The focal length, k1 and pose fitted to the card and the castle (no camera profile given)."""
    solved = _solved(fit, start, PLAUSIBLE_K1)
    if solved is None or not _against_bound(solved[1], PLAUSIBLE_K1):
        return solved
    # The walls pulled k1 as far as a camera's can go: the towers may have been read too poorly (a blurred or
    # heavily compressed photo) to tell k1 from the focal length and the tilt, and such a lens shifts the whole
    # castle. Fit the focal length and the pose alone, the lens taken as free of distortion (closer to most than
    # either bound).
    start = start.copy()
    start[1] = 0.0
    undistorted = _solved(fit, start, (-NO_DISTORTION, NO_DISTORTION))
    # ... unless the barrel is real: seen from nearly straight above, the focal length is hardly told from the
    # castle, only k1 over its square is, and a lens of strong barrel distortion, its focal length held near the
    # card's default by the prior, takes k1 to its bound (fresh 17600-016: k1 -0.25 at 1,263 px fitted as -0.35 at
    # 1,516 px, which bends the photo alike; without distortion the walls misfit four times as much and the castle
    # was placed 23 mm off).
    if solved[1] < 0 and (undistorted is None or
                          fit.castle_cost(solved) < BARREL_KEPT_SHARE * fit.castle_cost(undistorted)):
        return solved
    return undistorted


def _solved(fit: _CastleFit, start: np.ndarray, k1_bounds: tuple[float, float],
            fixed_focal: bool = False) -> np.ndarray | None:
    """The fitted parameters with k1 kept within `k1_bounds` (and the focal length the card's if
    `fixed_focal`), or None if the fit failed."""
    low, high = fit.bounds()
    low[1], high[1] = k1_bounds
    if fixed_focal:
        low[0], high[0] = -NO_DISTORTION, NO_DISTORTION
    try:
        solved = least_squares(fit.residuals, start, loss="huber", f_scale=1.0, x_scale=fit.scales(),
                               bounds=(low, high), max_nfev=MAX_EVALUATIONS)
    except (ValueError, cv2.error):  # a start the bounds exclude, a lens OpenCV refuses: keep the card's
        return None
    return solved.x if solved.success else None


def _against_bound(value: float, bounds: tuple[float, float], slack: float = 1e-3) -> bool:
    return value <= bounds[0] + slack or value >= bounds[1] - slack


class _CastleFit:
    """The residuals of a lens and pose (focal scale, k1, rvec, tvec, castle axis angle): the card's
    corners in pixels over their noise, the walls' mismatch with a span along an axis in mm over the
    towers' noise."""

    def __init__(self, card: CardDetection, spans: CastleSpans) -> None:
        self.card, self.spans = card, spans
        least = PART_CARD_NOISE_PX if card.seen_in_part else CARD_NOISE_PX
        self.card_noise = max(least, card.reprojection_px)

    def initial(self) -> np.ndarray:
        pose = self.card.pose
        lens = pose.lens
        axis = self.spans.axis(pose)
        return np.concatenate([[0.0, float(lens.distortion[0])], pose.rvec.ravel(), pose.tvec.ravel(), [axis]])

    def scales(self) -> np.ndarray:
        distance = float(np.linalg.norm(self.card.pose.tvec))
        return np.array([0.05, 0.05, 0.01, 0.01, 0.01, 0.01 * distance, 0.01 * distance, 0.01 * distance, 0.01])

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Focal length within FOCAL_RANGE of the card's, k1 one a camera of the game has."""
        low, high = np.full(9, -np.inf), np.full(9, np.inf)
        low[:2] = math.log(FOCAL_RANGE[0]), PLAUSIBLE_K1[0]
        high[:2] = math.log(FOCAL_RANGE[1]), PLAUSIBLE_K1[1]
        return low, high

    def pose(self, params: np.ndarray) -> CameraPose:
        start = self.card.pose.lens
        matrix = start.matrix.copy()
        matrix[0, 0] = matrix[1, 1] = start.focal * math.exp(params[0])
        distortion = np.array(start.distortion, np.float64).ravel().copy()
        distortion[0] = params[1]  # a calibrated lens's other terms are kept (the card's are zero)
        lens = Lens(matrix, distortion, start.image_size)
        return CameraPose(lens, np.asarray(params[2:5], np.float64), np.asarray(params[5:8], np.float64))

    def castle_error(self, params: np.ndarray) -> float:
        return self.spans.error(self.pose(params), params[8])

    def castle_cost(self, params: np.ndarray) -> float:
        """The walls' part of what the fit minimises: their misfits over the towers' noise, each weighed as
        least squares weighs it (Huber: squared within the noise, linear beyond)."""
        misfit = np.abs(self.spans.misfit(self.pose(params), params[8]).ravel()) / TOWER_NOISE_MM
        return float(np.mean(np.where(misfit < 1, 0.5 * misfit ** 2, misfit - 0.5)))

    def residuals(self, params: np.ndarray) -> np.ndarray:
        pose = self.pose(params)
        card = (pose.project(self.card.table_points) - self.card.image_points).ravel() / self.card_noise
        walls = self.spans.misfit(pose, params[8]).ravel() / TOWER_NOISE_MM
        # Seen from nearly straight above, the focal length hardly changes the castle: it stays near the card's.
        residuals = np.concatenate([card, walls, [params[0] / FOCAL_PRIOR]])
        # A trial lens may send a tower's ray to the horizon: a huge misfit, not a failure.
        return np.nan_to_num(residuals, nan=MISFIT_CAP, posinf=MISFIT_CAP, neginf=-MISFIT_CAP)


def span_scale(pose: CameraPose, towers: list[TowerReading], walls: list[WallReading],
               profile: PieceProfile) -> tuple[float, int]:
    """How long the castle's walls (tower to tower) measure through `pose` against the profile's spans: the
    median ratio, and over how many walls (1.0 and 0 without any)."""
    spans = CastleSpans.of(pose, towers, walls, profile)
    if not len(spans):
        return 1.0, 0
    return float(np.median(np.linalg.norm(spans.vectors(pose), axis=1) / spans.expected)), len(spans)


@dataclass(frozen=True)
class CastleSpans:
    """The castle's walls joining two towers, as the fits of a camera to the castle weigh them: the towers
    where the photo shows them (half a tower up, through the pose they were read with), and each wall's
    two towers and the span it should have (mm)."""

    tower_pixels: np.ndarray
    height: float
    starts: np.ndarray
    ends: np.ndarray
    expected: np.ndarray

    @classmethod
    def of(cls, pose: CameraPose, towers: list[TowerReading], walls: list[WallReading],
           profile: PieceProfile) -> CastleSpans:
        joined = [w for w in walls if w.end is not None]
        height = profile.tower_height * 0.5
        positions = np.array([t.position for t in towers], float).reshape(-1, 2)
        pixels = pose.project(positions, height) if len(positions) else positions
        return cls(pixels, height, np.array([w.start for w in joined], int), np.array([w.end for w in joined], int),
                   np.array([profile.dimensions.centre_spacing(w.kind) for w in joined], float))

    def __len__(self) -> int:
        return len(self.starts)

    def vectors(self, pose: CameraPose) -> np.ndarray:
        """Each wall from tower to tower (mm) on the table, seen through `pose`."""
        mapped = pose.table_point(self.tower_pixels, self.height)
        return mapped[self.ends] - mapped[self.starts]

    def axis(self, pose: CameraPose) -> float:
        """The castle's axis (radians, modulo 90°) its walls run along through `pose`, on average."""
        vectors = self.vectors(pose)
        angles = np.arctan2(vectors[:, 1], vectors[:, 0])
        return math.atan2(np.sin(4 * angles).sum(), np.cos(4 * angles).sum()) / 4

    def misfit(self, pose: CameraPose, axis: float) -> np.ndarray:
        """Each wall's (along-axis length error, across-axis offset) in mm through `pose`, the castle's
        axes at angle `axis` (radians)."""
        vectors = self.vectors(pose)
        c, s = math.cos(axis), math.sin(axis)
        u = np.column_stack([c * vectors[:, 0] + s * vectors[:, 1], -s * vectors[:, 0] + c * vectors[:, 1]])
        along_x = np.abs(u[:, 0]) >= np.abs(u[:, 1])
        major = np.where(along_x, np.abs(u[:, 0]), np.abs(u[:, 1]))
        minor = np.where(along_x, u[:, 1], u[:, 0])
        return np.column_stack([major - self.expected, minor])

    def error(self, pose: CameraPose, axis: float) -> float:
        """The walls' median misfit (mm) through `pose`."""
        return float(np.median(np.linalg.norm(self.misfit(pose, axis), axis=1)))
