"""Finding the reference card in a photo: ChArUco corners, homography, camera pose, white/black.

The card gives the table plane and its millimetre scale (a homography), the camera
pose when the lens is known or its focal length can be read from the card's
perspective, and the paper's white and the ink's black for exposure and white balance.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from tablesight.calibration.camera import PLAUSIBLE_K1, CameraPose, Lens
from tablesight.calibration.card import BOARD_MM, SQUARE_MM, SQUARES, board_object_points, charuco_board
from tablesight.calibration.card_completion import completed_corners, held_refinements, plane_inliers
from tablesight.calibration.card_fit import solve_pose, weighed_pose
from tablesight.calibration.card_focus import card_edge_blur_px, is_soft, softness_kernel
from tablesight.calibration.card_squares import find_card_by_squares
from tablesight.calibration.corner_alignment import aligned_points
from tablesight.calibration.motion_blur import MotionBlur, deblurred, motion_blur

MIN_CORNERS = 6
# A card mostly out of the frame: this few corners, with their markers' corners, still place the table,
# but only when no try finds MIN_CORNERS (a blurred card may show 4 first and more on a sharpened try).
MIN_PARTIAL_CORNERS = 4
# A card cut by the frame's edge shows few markers, and OpenCV places a corner only between two of them
# (`minMarkers`): corners beside a single marker, with at least this many, and the markers' own corners,
# are the last resort (a corner of the card in the photo's corner: 2 markers, 3 corners, 11 points).
ONE_MARKER_CORNERS, ONE_MARKER_MARKERS = 3, 2
PART_SEEN_SHARE = 0.25  # a card whose corners span less of its corner grid is seen in part only
CLIPPED = 248.0
# A photo whose top level is not 255 (brightened down after clipping, a webcam's video range that ends at
# 235) clips lower. A channel is taken as clipped there too when the paper is within this share of the
# channel's top level in the photo and its paper/ink ratio falls this share short of another channel's:
# paper and ink are both neutral, so their ratio is the same in every unclipped channel.
NEAR_TOP_SHARE, RATIO_SHORTFALL = 0.95, 0.12
# JPEG's ringing lifts single pixels a tenth above a clip, hiding a clip below 255 from the photo's top level (sample
# 058 darkened to 0.6: red clipped at 153 on the paper, 169 at the brightest pixel). Over patches of TOP_PATCH_PX the
# ringing is averaged out (154 there), but the paper, a photo's brightest thing, is near that top whether clipped or
# not: a channel near it only is taken as clipped where its ratio falls further short (PATCH_RATIO_SHORTFALL; 058:
# 27 %; sample 056 at JPEG q25, unclipped, its green ink lifted by the blocks: 14 %).
TOP_PATCH_PX, PATCH_RATIO_SHORTFALL = 4, 0.2
# Ink this dark in a channel gives no usable colour of the light: a level or two of noise or
# JPEG is 5–10 % of it (on the samples, the ink's channel ratios match the paper's within 3 % median,
# 8 % at the 90th percentile; in seed 3434's photo-013, at 13–17 levels, they were 24 % off).
MIN_INK_LEVEL = 20.0
# ... unless it is at least this bright, the paper clipped below CLIPPED (the photo darkened after it clipped) and the
# unclipped channels' paper/ink ratios agree within this share: then the noise has not shown (sample 058 darkened to
# 0.6 after its red clipped: ink at 19.5, 25 and 34 levels, blue's and green's ratios 6.00 and 5.98; its blends,
# clipped before the generator blurs them, hold too little red). At 255's clip the ink's edges are read as before.
MIN_AGREEING_INK_LEVEL, INK_RATIO_AGREEMENT = 15.0, 0.05
# The light's colour from where ink meets paper (`_edge_colour`): pixels within this of both (px), this
# share of the paper's level from each, this many levels clear of the ink and of clipping, and at least
# this many of them.
EDGE_REACH_PX, EDGE_SHARE, MIN_BLEND_MARGIN, MIN_BLEND_PIXELS = 2, 0.3, 12.0, 100
SQUARES_ENLARGEMENTS, SQUARES_ENLARGED_MAX_SIDE = (2.0, 3.0), 4000
# Try a reduced copy first on big photos (fast); fall back to full resolution for small cards.
DETECTION_MAX_SIDE = 1600
# A straight-down view hides the focal length; below this tilt it is not read from the card.
MIN_TILT_FOR_FOCAL_DEG = 12.0
# A focal length fitted with k1 to the card alone is kept over the default's where the card's points fit this many
# times closer through it (`_focal_freed`).
FREED_FOCAL_GAIN = 1.5
MIN_CORNER_SLOPE = 0.3  # of 1 + 3·k1·r² at the photo's corners: a k1 below it folds them back (`_unfolding_k1`)


@dataclass(frozen=True)
class CardDetection:
    corner_ids: np.ndarray  # (n,) ChArUco corner ids
    image_points: np.ndarray  # (n, 2) refined pixel positions
    table_points: np.ndarray  # (n, 2) the same corners in table mm
    homography: np.ndarray  # table mm → undistorted pixels
    pose: CameraPose
    focal_source: str  # "profile", "card", "exif" or "default"
    reprojection_px: float  # median over the corners
    white_bgr: np.ndarray
    black_bgr: np.ndarray
    seen: bool = True  # False for a stand-in where no card was found (its pose guessed or fitted to the castle)
    shaken: MotionBlur | None = None  # the motion blur taken out of the photo to find the card, if any
    soft_px: float | None = None  # a soft photo read sharpened: how far its card's edges spread (σ px)
    # The card's markers' own corners (table mm, pixels): with the ChArUco corners they place the card where those
    # alone cannot (a card cut by the frame may show a single row of corners, all on one line).
    marker_table_points: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))
    marker_image_points: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)))

    @property
    def all_points(self) -> tuple[np.ndarray, np.ndarray]:
        """Every point the card was found by, corners and marker corners: (table mm, pixels)."""
        return (np.vstack([self.table_points, self.marker_table_points]),
                np.vstack([self.image_points, self.marker_image_points]))

    @property
    def corner_count(self) -> int:
        return len(self.corner_ids)

    @property
    def seen_in_part(self) -> bool:
        """Whether only a corner of the card is seen (its corners span under PART_SEEN_SHARE of the
        card's corner grid): its pose, extrapolated to a castle beside it, may be far off."""
        if not self.seen or len(self.table_points) < 3:
            return False
        grid = board_object_points()[:, :2]
        seen = cv2.contourArea(cv2.convexHull(self.table_points.astype(np.float32)))
        return seen < PART_SEEN_SHARE * cv2.contourArea(cv2.convexHull(grid.astype(np.float32)))

    def table_to_image(self, table_points: np.ndarray, height: float | np.ndarray = 0.0) -> np.ndarray:
        return self.pose.project(table_points, height)

    def image_to_table(self, pixels: np.ndarray, height: float = 0.0) -> np.ndarray:
        return self.pose.table_point(pixels, height)

    def scaled(self, factor: float, image_size: tuple[int, int]) -> CardDetection:
        """The same detection for the photo resized by `factor` (same camera pose)."""
        lens = self.pose.lens.for_size(image_size)
        scale = np.diag([factor, factor, 1.0])
        return replace(self, image_points=self.image_points * factor, homography=scale @ self.homography,
                       marker_image_points=self.marker_image_points * factor,
                       pose=CameraPose(lens, self.pose.rvec, self.pose.tvec))

    def seen_through(self, pose: CameraPose) -> CardDetection:
        """The same detection through another camera pose (and its lens), its homography to match."""
        table, pixels = self.all_points
        homography, _ = cv2.findHomography(table, pose.lens.undistort_points(pixels))
        return replace(self, pose=pose, homography=homography)

    def mm_per_pixel(self) -> float:
        """Table millimetres per image pixel near the card (for sizing image operations)."""
        pts = self.table_points
        span_mm = np.linalg.norm(pts.max(axis=0) - pts.min(axis=0))
        span_px = np.linalg.norm(self.image_points.max(axis=0) - self.image_points.min(axis=0))
        return float(span_mm / max(span_px, 1e-9))


# The most a card's printed black reads of its white (6-27 % in the samples, median 15 %).
VIRTUAL_INK_SHARE = 0.27
ENLARGE_MAX_SIDE = 2200  # photos up to this size are also searched enlarged twice for a small card
SHARPENING = (1.0, 2.0)  # unsharp-mask amounts tried when the card is not found as it is


@dataclass(frozen=True)
class DetectionTry:
    """Marker-reading settings for a soft photo: each bit read from the middle of its cell (blur smears
    the cells' borders), and faint marker edges thresholded more finely (OpenCV's defaults: 0.13, 7)."""

    bit_margin: float
    threshold_constant: float


SOFT_TRIES = (DetectionTry(0.3, 7.0), DetectionTry(0.3, 4.0))
RECOVERY_BIT_THRESHOLD = 0.5  # a recovered marker's cell read white above this share of white (`_detect_board`)


def _detect_board(grey: np.ndarray, soft: DetectionTry | None = None, min_markers: int = 2):
    """OpenCV's ChArUco `detectBoard` (corners, ids, marker corners, marker ids), its steps taken one by one: the
    markers found, those the card's others place recovered among the rejected candidates, the corners between
    them interpolated. The recovery reads each cell's bit against one half (`RECOVERY_BIT_THRESHOLD`), as OpenCV 5.0
    did inside `detectBoard`; 5.1 applies the finding's `validBitIdThreshold` there too (opencv/opencv#29252) and
    recovered fewer markers (sample 048: 12 against 14, 10 corners against 16). Taken so, 5.0 and 5.1 find the
    same corners, and 5.0 exactly those it found before. `min_markers`: the markers beside a corner needed to
    place it (OpenCV's default, 2, or 1)."""
    board = charuco_board()
    finding = _detector_parameters(soft)
    corners, ids, rejected = cv2.aruco.ArucoDetector(board.getDictionary(), finding).detectMarkers(grey)
    if ids is not None and len(ids):
        recovery = _detector_parameters(soft)
        recovery.validBitIdThreshold = RECOVERY_BIT_THRESHOLD
        recover = cv2.aruco.ArucoDetector(board.getDictionary(), recovery, cv2.aruco.RefineParameters())
        corners, ids, rejected, _ = recover.refineDetectedMarkers(grey, board, corners, ids, rejected)
    charuco = cv2.aruco.CharucoParameters()
    charuco.tryRefineMarkers = False  # done above
    charuco.minMarkers = min_markers
    detector = cv2.aruco.CharucoDetector(board, charuco, finding, cv2.aruco.RefineParameters())
    return detector.detectBoard(grey, markerCorners=corners, markerIds=ids)


def _detector_parameters(soft: DetectionTry | None = None) -> cv2.aruco.DetectorParameters:
    params = cv2.aruco.DetectorParameters()
    params.minMarkerPerimeterRate = 0.008  # cards down to ~1/12 of the frame width
    params.adaptiveThreshWinSizeMax = 53
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    if soft is not None:
        params.adaptiveThreshConstant = soft.threshold_constant
        params.perspectiveRemoveIgnoredMarginPerCell = soft.bit_margin
    return params


def _detect_corners(grey: np.ndarray, soft: DetectionTry | None = None, min_corners: int = MIN_CORNERS,
                    min_markers: int = 2) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    corners, ids, marker_corners, marker_ids = _detect_board(grey, soft, min_markers)
    if ids is None or len(ids) < min_corners:
        return None
    if min_markers == 1 and (marker_ids is None or len(marker_ids) < ONE_MARKER_MARKERS):
        return None
    markers = np.concatenate([m.reshape(4, 2) for m in marker_corners]) if marker_ids is not None else np.zeros((0, 2))
    marker_ids = marker_ids.ravel() if marker_ids is not None else np.zeros(0, int)
    return corners.reshape(-1, 2).astype(np.float32), ids.ravel(), markers.astype(np.float32), marker_ids


def find_corners(grey: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """ChArUco corners (pixels, ids) refined to sub-pixel accuracy, or None."""
    found = find_card_points(grey)
    return None if found is None else (found[0], found[1])


def find_card_points(grey: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """Refined ChArUco corners (pixels, ids) and the marker corners (pixels, table mm), or None."""
    found = _card_points(grey)
    return None if found is None else found[0]


def _card_points(grey: np.ndarray) -> tuple[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
                                            MotionBlur | None, float | None] | None:
    """As `find_card_points`, with the motion blur taken out of the photo to find them (None if none was),
    and, for a soft photo read sharpened, how far its card's edges spread (σ px; None if sharp enough)."""
    photo = grey
    found = _detect_any_way(grey)
    if found is None:
        return None
    (pixels, ids, markers, marker_ids), grey, blur = found
    edge_blur = None
    if blur is None:
        found, grey, edge_blur = _sharpened_if_soft(grey, found[0])
        pixels, ids, markers, marker_ids = found
    markers, marker_table = _own_markers(markers, marker_ids)
    square_px = _square_size_px(pixels, ids)
    pixels, ids = completed_corners(grey, pixels, ids, square_px, (marker_table, markers))
    if len(ids) < 4:
        return None  # a card's corner in the photo's: too little of it to place the table
    # Stay inside the white margin around the corner: the markers start square/8 away.
    window = int(np.clip(square_px / 10, 2, 10))
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 40, 0.005)
    refined = cv2.cornerSubPix(grey, pixels.reshape(-1, 1, 2).copy(), (window, window), (-1, -1), criteria)
    # Then each placed by the card's drawing around it, which every edge nearby helps place (`corner_alignment`),
    # on the photo as taken: a blur spreads edges alike on every side, while taking it out rings around them.
    table = board_object_points()[ids, :2]
    refined = aligned_points(photo, table, refined.reshape(-1, 2).astype(np.float64))
    if len(markers):
        # Marker corners found on a reduced copy are refined at full resolution too.
        small_window = int(np.clip(square_px / 12, 2, 8))
        markers = cv2.cornerSubPix(grey, markers.reshape(-1, 1, 2).astype(np.float32).copy(),
                                   (small_window, small_window), (-1, -1), criteria).reshape(-1, 2)
        markers = aligned_points(photo, marker_table, markers.astype(np.float64), placed_by=(table, refined))
    return (refined, ids, markers.astype(np.float64), marker_table), blur, \
        edge_blur


def _own_markers(markers: np.ndarray, marker_ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The corners of the card's own markers among those found (pixels, 4 rows per marker, and the same
    in table mm): markers of other boards (ids 17–49 are free for other uses) are not part of the card."""
    board_markers = charuco_board().getObjPoints()
    own = (marker_ids >= 0) & (marker_ids < len(board_markers))
    table = [np.asarray(board_markers[i])[:, :2] for i in marker_ids[own]]
    pixels = markers.reshape(-1, 4, 2)[own].reshape(-1, 2) if len(markers) else markers
    return pixels, np.concatenate(table) if table else np.zeros((0, 2))


def _detect_any_way(grey: np.ndarray):
    """The first try that shows MIN_CORNERS (see `_tries`); else the card by its squares; else, in a
    shaken photo, the markers with its motion blur taken out (`_detect_unshaken`); else the first try that
    showed MIN_PARTIAL_CORNERS (a card mostly out of the frame). With what was found, the photo its
    corners are to be refined on (the photo, or the photo unshaken) and the blur taken out (or None)."""
    partial = None
    for found in _tries(grey):
        if found is not None and len(found[1]) >= MIN_CORNERS:
            return found, grey, None
        partial = partial or found
    squares = _detect_by_squares(grey)
    if squares is not None:
        return squares, grey, None
    unshaken = _detect_unshaken(grey)
    if unshaken is not None:
        return unshaken
    if partial is None:
        partial = _beside_single_markers(grey)
    return None if partial is None else (partial, grey, None)


def _beside_single_markers(grey: np.ndarray):
    """A card cut by the frame's edge: corners placed beside single markers (ONE_MARKER_CORNERS or more,
    from ONE_MARKER_MARKERS markers or more), on the photo reduced, then as it is; or None."""
    tries = _reduced_then_full(grey, None, ONE_MARKER_CORNERS, min_markers=1)
    return next((found for found in tries if found is not None), None)


def _detect_unshaken(grey: np.ndarray):
    """The card in a shaken photo: its motion blur read from the photo and taken out (`motion_blur`), the
    markers looked for again; with the photo unshaken and the blur, or None where the photo shows no motion blur or the
    card is still not seen (7 px of smear lost it in 13 of the 64 samples; unshaken, in 2)."""
    blur = motion_blur(grey)
    if blur is None:
        return None
    sharp = deblurred(grey, blur)
    for soft in (None, *SOFT_TRIES):
        for found in _reduced_then_full(sharp, soft):
            if found is not None and len(found[1]) >= MIN_CORNERS:
                return found, sharp, blur
    return None


def _sharpened_if_soft(grey: np.ndarray, found):
    """A soft photo (its card's edges spread SOFT_EDGE_PX or more: `card_focus`) sharpened, and the card
    looked for again on it (its corners then refined there: a soft card's corners wander, and the focal
    length read from them with them); with what was found, the photo the corners are to be refined on,
    and the edges' spread (None for a photo sharp enough, returned as it is)."""
    pixels, ids = found[0], found[1]
    if len(ids) < 4:
        return found, grey, None  # a card's corner only (`_beside_single_markers`): no focus to read
    homography, _ = cv2.findHomography(board_object_points()[ids, :2], pixels)
    if homography is None:
        return found, grey, None
    edge_blur = card_edge_blur_px(grey, homography)
    if not is_soft(edge_blur):
        return found, grey, None
    sharp = deblurred(grey, softness_kernel(edge_blur))
    again = _detect_any_way(sharp)
    if again is not None and again[2] is None and len(again[0][1]) >= len(ids):
        found = again[0]
    return found, sharp, edge_blur


def _tries(grey: np.ndarray) -> Iterator:
    """Each way of looking for the markers in turn, as usual then as for a soft photo: on the photo
    reduced, as it is, then sharpened; each gives what it found (at least MIN_PARTIAL_CORNERS) or None."""
    for soft in (None, *SOFT_TRIES):
        yield from _reduced_then_full(grey, soft)
        yield from _sharpened(grey, soft)


def _detect_by_squares(grey: np.ndarray):
    """The card by its black squares where no marker could be read (see `card_squares`): on the copy
    reduced to DETECTION_MAX_SIDE, the photo as it is, then enlarged (a small card's squares touch at
    their corners and merge into one outline at the photo's own size); corners kept where the photo
    shows one."""
    reduced = min(1.0, DETECTION_MAX_SIDE / max(grey.shape))
    enlarged = [f for f in SQUARES_ENLARGEMENTS if f * max(grey.shape) <= SQUARES_ENLARGED_MAX_SIDE]
    markers = cv2.aruco.ArucoDetector(charuco_board().getDictionary(), _detector_parameters())
    for scale in sorted({reduced, 1.0}) + enlarged:
        interpolation = cv2.INTER_AREA if scale < 1.0 else cv2.INTER_CUBIC
        small = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=interpolation) if scale != 1.0 else grey
        _, _, outlines = markers.detectMarkers(small)
        found = find_card_by_squares(small, list(outlines))
        if found is not None:
            return _held_corners(grey, found[0] / scale, found[1])
    return None


def _held_corners(grey: np.ndarray, pixels: np.ndarray, ids: np.ndarray):
    """Corners placed by the black squares, refined on the photo; those the refinement carries away are
    dropped (where the card is hidden, by a hand or a piece on it, no corner holds it), and those off the
    card's plane through the others (one caught by a marker's corner nearby)."""
    square_px = _square_size_px(pixels, ids)
    refined, held = held_refinements(grey, pixels, square_px)
    if held.sum() < MIN_CORNERS:
        return None
    on_plane = plane_inliers(board_object_points()[ids[held], :2], refined[held], square_px)
    if on_plane is None:
        return None
    held[np.flatnonzero(held)[~on_plane]] = False
    if held.sum() < MIN_CORNERS:
        return None
    return refined[held], ids[held], np.zeros((0, 2), np.float32), np.zeros(0, int)


def _reduced_then_full(grey: np.ndarray, soft: DetectionTry | None, min_corners: int = MIN_PARTIAL_CORNERS,
                       min_markers: int = 2) -> Iterator:
    """The card on a copy reduced to DETECTION_MAX_SIDE (fast, and a soft photo's blur shrinks with
    it), then on the photo as it is."""
    scale = min(1.0, DETECTION_MAX_SIDE / max(grey.shape))
    if scale < 1.0:
        small = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        yield _scaled(_detect_corners(small, soft, min_corners, min_markers), scale)
    yield _detect_corners(grey, soft, min_corners, min_markers)


def _sharpened(grey: np.ndarray, soft: DetectionTry | None) -> Iterator:
    """Further tries for a soft or small card: the photo sharpened (unsharp mask, stronger each time),
    then also enlarged twice (a marker's bits a pixel or two wide), positions brought back to the photo."""
    blurred = cv2.GaussianBlur(grey, (0, 0), 2.0)
    for amount in SHARPENING:
        sharp = cv2.addWeighted(grey, 1.0 + amount, blurred, -amount, 0)
        yield _detect_corners(sharp, soft, MIN_PARTIAL_CORNERS)
        if max(grey.shape) <= ENLARGE_MAX_SIDE:
            enlarged = cv2.resize(sharp, None, fx=2.0, fy=2.0, interpolation=cv2.INTER_CUBIC)
            yield _scaled(_detect_corners(enlarged, soft, MIN_PARTIAL_CORNERS), 2.0)


def _scaled(found, scale: float):
    """Corners found on a copy resized by `scale`, in the photo's pixels."""
    return None if found is None else (found[0] / scale, found[1], found[2] / scale, found[3])


def _square_size_px(pixels: np.ndarray, ids: np.ndarray) -> float:
    obj = board_object_points()[ids, :2]
    d_obj = np.linalg.norm(obj[:, None] - obj[None], axis=2)
    d_img = np.linalg.norm(pixels[:, None] - pixels[None], axis=2)
    near = np.isclose(d_obj, SQUARE_MM)
    return float(np.median(d_img[near])) if near.any() else 10.0


def focal_from_homography(homography: np.ndarray, image_size: tuple[int, int]) -> float | None:
    """Focal length (px) from one plane's homography, principal point at the centre, square pixels."""
    w, h = image_size
    centre = np.array([[1, 0, -w / 2], [0, 1, -h / 2], [0, 0, 1]], dtype=np.float64)
    hm = centre @ homography
    h1, h2 = hm[:, 0], hm[:, 1]
    # Orthogonal, equal-length rotation columns; unknown w = 1/f².
    a = np.array([h1[0] * h2[0] + h1[1] * h2[1], h1[0] ** 2 + h1[1] ** 2 - h2[0] ** 2 - h2[1] ** 2])
    b = np.array([h1[2] * h2[2], h1[2] ** 2 - h2[2] ** 2])
    denom = float(a @ a)
    if denom == 0:
        return None
    inv_f2 = -float(a @ b) / denom
    if inv_f2 <= 0:
        return None
    return 1.0 / math.sqrt(inv_f2)


def plausible_focal(focal: float, image_size: tuple[int, int]) -> bool:
    """Whether a focal length (px) gives a field of view a phone or webcam has: 30°–95° across."""
    return 0.45 * max(image_size) < focal < 1.8 * max(image_size)


def default_focal(image_size: tuple[int, int], focal_35mm: float | None = None) -> float:
    """A focal length without calibration: from EXIF's 35 mm equivalent, else a typical phone/webcam."""
    long_side = max(image_size)
    if focal_35mm:
        return focal_35mm / 36.0 * long_side
    return 0.8 * long_side  # about 26–28 mm equivalent, a phone's main camera


def _card_levels(image: np.ndarray, pose: CameraPose) -> tuple[np.ndarray, np.ndarray]:
    """Median colour of the paper (sheet margin and square margins) and of the solid black squares."""
    cols, rows = SQUARES
    whites = [(x, -7.5) for x in np.linspace(10, cols * SQUARE_MM - 10, 12)]
    whites += [(x, rows * SQUARE_MM + 7.5) for x in np.linspace(10, cols * SQUARE_MM - 10, 12)]
    blacks = [((c + 0.5) * SQUARE_MM, (r + 0.5) * SQUARE_MM)
              for r in range(rows) for c in range(cols) if (r + c) % 2 == 0]
    white, black = _median_colour(image, pose, whites), _median_colour(image, pose, blacks)
    unclipped = _unclip_white(white, black, _clipped_channels(white, black, image))
    if unclipped is None:  # the ink tells nothing of the light: the ink's edges may
        light = _edge_colour(image, pose, white, black)
        unclipped = white if light is None else black + light * float(np.max((white - black) / light))
    return unclipped, black


def _top_levels(image: np.ndarray, patch_px: int = 1) -> np.ndarray:
    """The photo's highest level in each channel, over patches `patch_px` square (OpenCV's per-channel
    maximum: numpy's strided one takes 150 ms at 12 MP)."""
    if patch_px > 1:
        h, w = image.shape[:2]
        image = cv2.resize(image, (max(1, w // patch_px), max(1, h // patch_px)), interpolation=cv2.INTER_AREA)
    channels = cv2.split(image) if image.ndim == 3 else [image]
    return np.array([cv2.minMaxLoc(channel)[1] for channel in channels], np.float64)


def _clipped_channels(white: np.ndarray, black: np.ndarray, image: np.ndarray) -> np.ndarray:
    """Channels whose paper is clipped: at 255's clip, or near the photo's own top level in a channel
    whose paper/ink ratio falls short of another's (see NEAR_TOP_SHARE). The photo is looked over for its
    top levels only then."""
    ratios = white / np.maximum(black, 1.0)
    short = ratios < (1.0 - RATIO_SHORTFALL) * ratios.max()
    at_clip = white >= CLIPPED
    if not short.any():
        return at_clip
    clipped = at_clip | (short & (white >= NEAR_TOP_SHARE * _top_levels(image)))
    far_short = ratios < (1.0 - PATCH_RATIO_SHORTFALL) * ratios.max()
    if far_short.any():  # the photo is resized for its patch tops only then
        clipped |= far_short & (white >= NEAR_TOP_SHARE * _top_levels(image, TOP_PATCH_PX))
    return clipped


def _unclip_white(white: np.ndarray, black: np.ndarray, clipped: np.ndarray | None = None) -> np.ndarray | None:
    """A paper white clipped in some channel (over-exposed) under-states that channel's light.
    Paper and ink are both neutral, so the ink's channel ratios stand in for the clipped ones, if the
    ink is bright enough to carry a colour (MIN_INK_LEVEL); None where it is not, and the ink's edges
    are read instead (`_edge_colour`). Dark ink's ratios are mostly noise, JPEG's colour error or a
    contrast curve's offset: on every other sample with contrast raised 1.35x they took tower recall
    from 0.94 to 0.79. `clipped` defaults to the channels at 255's clip."""
    clipped = white >= CLIPPED if clipped is None else clipped
    if not clipped.any():
        return white
    if np.any(black < MIN_INK_LEVEL) and not _ink_ratios_agree(white, black, clipped):
        return None
    if clipped.all():
        return black / black.max() * white.max()
    scale = float(np.median(white[~clipped] / black[~clipped]))
    return np.where(clipped, np.maximum(white, black * scale), white)


def _ink_ratios_agree(white: np.ndarray, black: np.ndarray, clipped: np.ndarray) -> bool:
    """Whether the paper clipped below CLIPPED and two unclipped channels or more show the same paper/ink ratio
    (within INK_RATIO_AGREEMENT) with ink of MIN_AGREEING_INK_LEVEL or more in every channel."""
    if (np.count_nonzero(~clipped) < 2 or np.any(white[clipped] >= CLIPPED)
            or np.any(black < MIN_AGREEING_INK_LEVEL)):
        return False
    ratios = white[~clipped] / black[~clipped]
    return float(ratios.max() / ratios.min()) <= 1 + INK_RATIO_AGREEMENT


def _edge_colour(image: np.ndarray, pose: CameraPose, white: np.ndarray, black: np.ndarray) -> np.ndarray | None:
    """The light's colour (per channel, summing to 1, above the ink) from the card's ink edges, or None if
    too few are seen: for a card whose paper is clipped and whose ink is too dark to tell (a contrasty
    phone photo). Where ink meets paper the photo blends the two; both are neutral, so a blend has the
    light's colour, neither clipped like the paper nor lost in noise like the ink. Only pixels with ink
    and paper both within EDGE_REACH_PX count: a hand or a piece over the card is not a blend. (Used only
    then: the scene generator clips before it blurs, unlike a lens, so next to clipped paper its blends
    lose some of the light's colour, and the ink's ratios, where they can be read, did better on its
    samples: 45 photos scored right against 40.)"""
    width, height = BOARD_MM
    corners = np.array([[0, 0], [width, 0], [width, height], [0, height]])
    outline = np.vstack([np.linspace(corners[i], corners[(i + 1) % 4], 12) for i in range(4)])
    pixels = pose.project(outline.astype(np.float64))
    h, w = image.shape[:2]
    x0, y0 = np.clip(np.floor(pixels.min(axis=0)).astype(int), 0, [w, h])
    x1, y1 = np.clip(np.ceil(pixels.max(axis=0)).astype(int) + 1, 0, [w, h])
    if x1 - x0 < 8 or y1 - y0 < 8 or image.ndim != 3:
        return None
    patch = image[y0:y1, x0:x1].astype(np.float32)
    inside = np.zeros(patch.shape[:2], np.uint8)
    cv2.fillPoly(inside, [np.round(pixels - [x0, y0]).astype(np.int32)], 1)
    level = patch.max(axis=2)
    span = float(np.max(white) - np.max(black))
    kernel = np.ones((2 * EDGE_REACH_PX + 1,) * 2, np.uint8)
    near_ink = cv2.erode(level, kernel) < np.max(black) + EDGE_SHARE * span
    near_paper = cv2.dilate(level, kernel) > np.max(white) - EDGE_SHARE * span
    above_ink = patch - black.astype(np.float32)
    blend = ((inside > 0) & near_ink & near_paper & (above_ink.min(axis=2) > MIN_BLEND_MARGIN)
             & (level < CLIPPED - MIN_BLEND_MARGIN))
    if np.count_nonzero(blend) < MIN_BLEND_PIXELS:
        return None
    blends = above_ink[blend]
    light = np.median(blends / blends.sum(axis=1, keepdims=True), axis=0)
    return light / light.sum()


def _median_colour(image: np.ndarray, pose: CameraPose, table_points: list) -> np.ndarray:
    pixels = np.round(pose.project(np.array(table_points, dtype=np.float64))).astype(int)
    h, w = image.shape[:2]
    keep = (pixels[:, 0] >= 0) & (pixels[:, 0] < w) & (pixels[:, 1] >= 0) & (pixels[:, 1] < h)
    if not keep.any():
        return np.full(3, np.nan)
    samples = image[pixels[keep, 1], pixels[keep, 0]].reshape(-1, image.shape[2] if image.ndim == 3 else 1)
    return np.median(samples, axis=0).astype(np.float64)


def find_card(image: np.ndarray, lens: Lens | None = None, focal_35mm: float | None = None) -> CardDetection | None:
    """The card in a BGR (or grey) photo, or None when it is not visible."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    found = _card_points(grey)
    if found is None:
        return None
    (pixels, ids, marker_pixels, marker_table), blur, edge_blur = found
    table = board_object_points()[ids, :2]
    size = (grey.shape[1], grey.shape[0])
    # The marker corners add points all over the card: a steadier lens and pose for the castle beside it.
    all_table, all_pixels = np.vstack([table, marker_table]), np.vstack([pixels, marker_pixels])
    if lens is not None:
        lens, source = lens.for_size(size), "profile"
    else:
        lens, source = _lens_from_card(table, pixels, size, focal_35mm)
        lens = _distortion_from_card(lens, all_table, all_pixels, fix_focal=source != "card")
        if source == "default":
            lens, source = _focal_freed(lens, all_table, all_pixels)
        else:
            lens, source = _card_focal_or_default(lens, source, size, focal_35mm, all_table, all_pixels)
    homography, _ = cv2.findHomography(all_table, lens.undistort_points(all_pixels))
    # With a camera profile the markers' corners weigh by their scatter (`card_fit`): blur pulls them inside
    # the markers. Without one, the lens is fitted to every corner alike and the pose stays consistent with
    # that fit (the castle's walls then correct both); weighing the pose alone there moved readings as much
    # one way as the other (with k1 fitted again weighed too; samples and two fresh sets: scores 87 -> 85 of 128).
    pose = weighed_pose(lens, table, pixels, marker_table, marker_pixels) if source == "profile" \
        else solve_pose(lens, all_table, all_pixels)
    colour = image if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    white, black = _card_levels(colour, pose)
    return CardDetection(ids, pixels, table, homography, pose, source, _reprojection_px(pose, table, pixels), white,
                         black, shaken=blur, soft_px=edge_blur, marker_table_points=marker_table,
                         marker_image_points=marker_pixels)


def through_focal(card: CardDetection, focal: float) -> CardDetection:
    """The same card seen through a lens of another focal length (the rest of the lens kept): its pose
    solved again from its corners. For a card whose own focal length reading is in doubt."""
    lens = card.pose.lens
    matrix = lens.matrix.copy()
    matrix[0, 0] = matrix[1, 1] = focal
    lens = Lens(matrix, lens.distortion, lens.image_size)
    pose = solve_pose(lens, *card.all_points)
    return replace(card.seen_through(pose), reprojection_px=_reprojection_px(pose, card.table_points,
                                                                             card.image_points))


def _lens_from_card(table: np.ndarray, pixels: np.ndarray, size: tuple[int, int],
                    focal_35mm: float | None) -> tuple[Lens, str]:
    fallback = Lens.pinhole(default_focal(size, focal_35mm), size)
    homography, _ = cv2.findHomography(table, pixels)
    focal = focal_from_homography(homography, size) if homography is not None else None
    if focal is None or not plausible_focal(focal, size):
        return fallback, "exif" if focal_35mm else "default"
    lens = Lens.pinhole(focal, size)
    if solve_pose(lens, table, pixels).tilt_deg < MIN_TILT_FOR_FOCAL_DEG:
        return fallback, "exif" if focal_35mm else "default"
    return lens, "card"


def _distortion_from_card(lens: Lens, table: np.ndarray, pixels: np.ndarray, fix_focal: bool) -> Lens:
    """Radial distortion (k1) read from the card's own straight lines in this one photo.

    Without a camera profile, distortion bends everything away from the card; one
    view of ~90 card points pins k1 down well enough to map the castle beside it.
    """
    if len(table) < 20:
        return lens
    fitted = _card_lens_fit(lens, table, pixels, fix_focal)
    if fitted is None or not _plausible_k1(fitted):
        return lens  # a k1 no camera of the game has
    unfolding = _unfolding_k1(fitted)
    if fitted.distortion[0] < unfolding:
        # A wide lens's barrel, which k1 alone would fold back on itself at the photo's corners (its k2
        # holds them): k1 at the most that keeps them unfolded, the focal length fitted with it. Left at
        # the pinhole's, the card's focal length ran off to twice the true one (seed 8484, photo-003).
        fitted = _card_lens_fit(lens, table, pixels, fix_focal, k1=unfolding)
        if fitted is None:
            return lens
    # One view pins the focal length down poorly when it is fitted with k1: it can run off to a field
    # of view no camera has (seed 7200, photo-008: 0.28 of the true one, from the homography's 0.89).
    if not plausible_focal(float(fitted.matrix[0, 0]), lens.image_size):
        return lens if fix_focal else _distortion_from_card(lens, table, pixels, fix_focal=True)
    return fitted


def _focal_freed(default: Lens, table: np.ndarray, pixels: np.ndarray) -> tuple[Lens, str]:
    """The lens with the focal length fitted with k1 to the card's points, and "card", where the card's
    homography gave no plausible focal length, or else `default` and "default". A strong barrel bends the card's
    lines off any homography (fresh 6969-001, k1 -0.23: its homography's focal length 9.6 times the true one);
    k1 fitted at the default focal length then takes up the focal length's error too (-0.33, the corners 0.18 px
    off), and a castle beside the card lands tens of mm off. Fitted together: 944 px against the true 943, k1
    -0.24, 0.06 px. Kept only where the lens is one a camera has and the card's points fit FREED_FOCAL_GAIN times
    closer: then the default cannot be the focal length, even where the card is seen from 9-12° (fresh 6767-019,
    6868-012: within 1 % of the true focal length and 0.01 of k1, the points 4-5 times closer)."""
    freed = _card_lens_fit(default, table, pixels, fix_focal=False)
    if freed is None or not _plausible_k1(freed) or freed.distortion[0] < _unfolding_k1(freed) \
            or not plausible_focal(float(freed.matrix[0, 0]), default.image_size):
        return default, "default"
    closer = FREED_FOCAL_GAIN * _card_misfit(freed, table, pixels) <= _card_misfit(default, table, pixels)
    return (freed, "card") if closer else (default, "default")


def _card_focal_or_default(lens: Lens, source: str, size: tuple[int, int], focal_35mm: float | None,
                           table: np.ndarray, pixels: np.ndarray) -> tuple[Lens, str]:
    """The card's own lens, or the default focal length with k1 fitted to the card where that fits the card's
    points FREED_FOCAL_GAIN times closer. A small card near the edge of a wide lens's photo bends its lines off
    any homography: its focal length can be read twice the true one, with no k1 a camera has to go with it
    (fresh 13800-017: 4,064 px for the true 1,762, the card's points 0.61 px off; the default's 2,069 px with
    k1 fitted, 0.17 px off, which the castle's walls then correct)."""
    default = _distortion_from_card(Lens.pinhole(default_focal(size, focal_35mm), size), table, pixels,
                                    fix_focal=True)
    if FREED_FOCAL_GAIN * _card_misfit(default, table, pixels) <= _card_misfit(lens, table, pixels):
        return default, "exif" if focal_35mm else "default"
    return lens, source


def _card_misfit(lens: Lens, table: np.ndarray, pixels: np.ndarray) -> float:
    """How far (median px) the card's points lie from their projections through `lens`, its pose solved."""
    return _reprojection_px(solve_pose(lens, table, pixels), table, pixels)


def _plausible_k1(lens: Lens) -> bool:
    """Whether the lens's k1 is one a phone or webcam has (PLAUSIBLE_K1)."""
    return PLAUSIBLE_K1[0] <= lens.distortion[0] <= PLAUSIBLE_K1[1]


def _reprojection_px(pose: CameraPose, table: np.ndarray, pixels: np.ndarray) -> float:
    """The median distance (px) between the card's points and their projections through `pose`."""
    return float(np.median(np.linalg.norm(pose.project(table) - pixels, axis=1)))


def _card_lens_fit(lens: Lens, table: np.ndarray, pixels: np.ndarray, fix_focal: bool,
                   k1: float | None = None) -> Lens | None:
    """The lens (k1, and the focal length unless `fix_focal`) fitted to the card's points in one view;
    `k1` held at the value given if any. None if the fit fails."""
    obj = [np.column_stack([table, np.zeros(len(table))]).astype(np.float32)]
    img = [pixels.astype(np.float32).reshape(-1, 1, 2)]
    flags = (cv2.CALIB_USE_INTRINSIC_GUESS | cv2.CALIB_FIX_PRINCIPAL_POINT | cv2.CALIB_FIX_ASPECT_RATIO
             | cv2.CALIB_ZERO_TANGENT_DIST | cv2.CALIB_FIX_K2 | cv2.CALIB_FIX_K3)
    if fix_focal:
        flags |= cv2.CALIB_FIX_FOCAL_LENGTH
    if k1 is not None:
        flags |= cv2.CALIB_FIX_K1
    start = np.array([0.0 if k1 is None else k1, 0.0, 0.0, 0.0, 0.0])
    try:
        rms, matrix, distortion, _, _ = cv2.calibrateCamera(obj, img, lens.image_size, lens.matrix.copy(), start,
                                                            flags=flags)
    except cv2.error:
        return None
    return Lens(matrix, distortion.ravel(), lens.image_size) if np.isfinite(rms) else None


def _unfolding_k1(lens: Lens) -> float:
    """The most negative k1 under which the photo's corners do not fold back (undistortion must stay
    monotonic, with a margin: MIN_CORNER_SLOPE)."""
    w, h = lens.image_size
    corner_r2 = ((w / 2) ** 2 + (h / 2) ** 2) / float(lens.matrix[0, 0]) ** 2
    return (MIN_CORNER_SLOPE - 1) / (3 * corner_r2)


# Where the table's origin is put when no card is seen: far outside any photo, so that nothing on the
# table is mistaken for the (absent) card.
VIRTUAL_ORIGIN_MM = 0.0  # a stand-in's table frame: the table straight below the camera is its origin


# Balancing a photo without the card on its grey pieces (`grey_pieces_cast`): pixels brighter than this
# (of 255) are weighed; a piece is less saturated than this and this far in chromaticity from the table;
# at least this share of the pixels must be such; a lamp or a camera's balance shifts a share by at most this.
CAST_MIN_LEVEL, CAST_MAX_SATURATION, CAST_TABLE_DISTANCE = 40.0, 0.35, 0.03
CAST_MIN_SHARE, CAST_MAX_SHIFT, CAST_BINS = 0.003, 0.1, 100
# Where no piece stands apart from the table in chromaticity (grey plastic lit by a warm lamp on a cloth of
# the lamp's hue), the brightest pixels (this percentile) are taken for white, if they are brighter than
# the photo's median by this factor (the plastic's lit tops; a pale table is its own brightest part).
CAST_BRIGHT_PERCENTILE, CAST_BRIGHT_FACTOR = 99.0, 1.5
# Pixels of the table's chromaticity this much brighter than it are no table but plastic lit in its hue. 1.6 let
# a pale castle on a grey-green table (fresh 14400-018: its tops 1.5-1.6 times the table) count as table, and
# the cast came from the blue keeps' fringes: no grey seen, nothing read. Against the card's own white over 158
# photos (the samples, fresh 14200-14400): casts off by over 0.08 25 -> 23, over 0.15 11 -> 11 (1.2-1.3 alike).
CAST_BRIGHTER_THAN_TABLE = 1.3
CAST_LIT_TABLE_SHARE = 0.5  # the table fills most of the photo: if less is lit than this, the table is dark
# A patterned table's colours (a gingham's two, their overlap and their blends) are all the table's, not only its
# commonest: a chromaticity holding at least CAST_CELL_SHARE of the lit pixels in CAST_EVERYWHERE of the cells of a
# CAST_GRID × CAST_GRID grid over the photo runs under all of it, where a castle stands on part (cells of fewer than
# CAST_MIN_CELL_PIXELS lit pixels are not weighed). Fresh 14600-008 (a pink and blue gingham, no card): the cast was
# taken from the gingham's blends, pink, and the grey pieces' own cast (0.77, 0.89, 1) was found only so. Against the
# card's own white over 158 photos (the samples, fresh 14200-14400): casts off by over 0.08 23 -> 15, over 0.15
# 11 -> 1 (shares 0.6-0.85 and cell shares 0.001-0.0015 alike).
CAST_GRID, CAST_EVERYWHERE, CAST_CELL_SHARE, CAST_MIN_CELL_PIXELS = 6, 0.75, 0.001, 20


def virtual_card(image: np.ndarray, px_per_mm: float, focal_35mm: float | None = None,
                 rotation: np.ndarray | None = None) -> CardDetection:
    """A stand-in for the card when none is seen: the camera straight above the table at the scale given
    (or tilted by `rotation`: camera to table frame, the scale then the one at the photo's middle), the
    photo's own darkest and brightest tones for black and white (shared/spec/setup.md's fallback)."""
    h, w = image.shape[:2]
    lens = Lens.pinhole(default_focal((w, h), focal_35mm), (w, h))
    distance = lens.focal / px_per_mm  # along the optical axis, to the table point at the photo's middle
    to_camera = np.eye(3) if rotation is None else np.asarray(rotation, np.float64).T
    x0 = y0 = VIRTUAL_ORIGIN_MM
    middle = np.array([x0, y0, 0.0])
    pose = CameraPose(lens, cv2.Rodrigues(to_camera)[0].ravel(), np.array([0.0, 0.0, distance]) - to_camera @ middle)
    grid = np.array([[x0 + dx, y0 + dy] for dx in (-60.0, 0.0, 60.0) for dy in (-60.0, 0.0, 60.0)])
    pixels = pose.project(grid)
    homography, _ = cv2.findHomography(grid, pixels)
    colour = image if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    sample = colour[:: max(1, h // 300), :: max(1, w // 300)].astype(np.float64)
    # No paper to balance the colours on: the grey pieces are balanced instead (`grey_pieces_cast`), the
    # tones stretched to the camera's range.
    white = np.percentile(sample, 99.5) * grey_pieces_cast(sample)
    # The darkest tones for black, but no brighter than a card's ink would be: a pale table with grey pieces
    # has nothing near black, and its greys stretched down to black were taken for shade (fresh 11500-007).
    black = np.full(3, min(np.percentile(sample, 0.5), VIRTUAL_INK_SHARE * float(white.max())))
    return CardDetection(np.arange(len(grid)), pixels, grid, homography, pose, "assumed", 0.0, white, black,
                         seen=False)


def grey_pieces_cast(sample: np.ndarray) -> np.ndarray:
    """The colour cast (BGR, brightest channel 1) of a photo without the card to balance it on, from its
    grey pieces: the commonest chromaticity among the pixels of moderate saturation that are not the table's
    (the table fills most of the photo, its pattern all of it; keeps and clutter are more saturated;
    `_table_like`). `sample`: the photo's pixels as laid out (h, w, 3), or a list of pixels (n, 3), whose
    table is then told by its commonest colour alone. No cast (1, 1, 1) where too few such pixels agree or
    the cast found is beyond what a lamp or a camera's white balance gives."""
    laid_out = sample.ndim == 3
    pixels = sample.reshape(-1, 3).astype(np.float64)
    lit = pixels.max(axis=1) > CAST_MIN_LEVEL
    # A table darker than CAST_MIN_LEVEL (black cloth) is left out with the dark pixels: the commonest
    # chromaticity of what is left would be the pieces' own, so none of it is taken for the table.
    table_is_lit = lit.mean() >= CAST_LIT_TABLE_SHARE
    level = pixels.sum(axis=1)
    chroma = np.zeros((len(pixels), 2))
    chroma[lit] = pixels[lit, 1:] / level[lit, None]  # (g, r) shares
    saturation = 1.0 - pixels.min(axis=1) / np.maximum(pixels.max(axis=1), 1e-6)
    candidates = lit & (saturation < CAST_MAX_SATURATION)
    if table_is_lit:
        table = np.zeros(len(pixels), bool)
        table[lit] = _table_like(chroma[lit], level[lit])
        if laid_out:
            table |= _of_the_tables_pattern(chroma, level, lit, sample.shape[:2])
        candidates &= ~table
    if candidates.sum() < CAST_MIN_SHARE * lit.sum():
        return _brightest_cast(pixels[lit], chroma[lit])
    return _as_cast(_commonest(chroma[candidates]))


def _table_like(chroma: np.ndarray, level: np.ndarray) -> np.ndarray:
    """Pixels of the commonest chromaticity (the table's) and not far brighter than the table: plastic lit
    in the table's own hue stands apart by its lit tops."""
    like = np.linalg.norm(chroma - _commonest(chroma), axis=1) <= CAST_TABLE_DISTANCE
    return _not_far_brighter(like, level)


def _not_far_brighter(like: np.ndarray, level: np.ndarray) -> np.ndarray:
    """The pixels `like` the table that are not CAST_BRIGHTER_THAN_TABLE times brighter than such pixels' median
    (`level`): plastic lit in the table's hue stands apart by its lit tops."""
    return like & (level <= CAST_BRIGHTER_THAN_TABLE * np.median(level[like]))


def _of_the_tables_pattern(chroma: np.ndarray, level: np.ndarray, lit: np.ndarray,
                           shape: tuple[int, int]) -> np.ndarray:
    """Pixels (flat, of a sample laid out as `shape`) of a chromaticity found all over the photo (in
    CAST_EVERYWHERE of its grid's cells, `_chromaticities_everywhere`), not far brighter than such pixels are:
    a table's pattern runs under the whole photo, a castle stands on part of it."""
    bins = np.clip((chroma * CAST_BINS).astype(int), 0, CAST_BINS - 1)
    everywhere = _chromaticities_everywhere(bins.reshape(*shape, 2), lit.reshape(shape))
    pattern = lit & everywhere[bins[:, 0], bins[:, 1]]
    return _not_far_brighter(pattern, level) if pattern.any() else pattern


def _chromaticities_everywhere(bins: np.ndarray, lit: np.ndarray) -> np.ndarray:
    """Which (g, r) chromaticity bins (CAST_BINS², of the pixels' `bins` laid out as the photo) hold at least
    CAST_CELL_SHARE of the lit pixels in CAST_EVERYWHERE of a CAST_GRID × CAST_GRID grid's cells."""
    h, w = lit.shape
    found, cells = np.zeros((CAST_BINS, CAST_BINS), np.float32), 0
    rows = [slice(i * h // CAST_GRID, (i + 1) * h // CAST_GRID) for i in range(CAST_GRID)]
    columns = [slice(j * w // CAST_GRID, (j + 1) * w // CAST_GRID) for j in range(CAST_GRID)]
    for row in rows:
        for column in columns:
            cell = row, column
            cell_bins = bins[cell][lit[cell]]
            if len(cell_bins) < CAST_MIN_CELL_PIXELS:
                continue
            cells += 1
            hist = np.zeros((CAST_BINS, CAST_BINS), np.float32)
            np.add.at(hist, (cell_bins[:, 0], cell_bins[:, 1]), 1.0)
            found += cv2.GaussianBlur(hist, (0, 0), 1.0) >= CAST_CELL_SHARE * len(cell_bins)
    return found >= CAST_EVERYWHERE * cells if cells else np.zeros_like(found, bool)


def _brightest_cast(pixels: np.ndarray, chroma: np.ndarray) -> np.ndarray:
    """The cast of the photo's brightest pixels (as `grey_pieces_cast`), where they stand out brighter than
    the photo's median (CAST_BRIGHT_FACTOR); no cast otherwise."""
    level = pixels.sum(axis=1)
    bright = level >= np.percentile(level, CAST_BRIGHT_PERCENTILE)
    if np.median(level[bright]) < CAST_BRIGHT_FACTOR * np.median(level):
        return np.ones(3)
    return _as_cast(_commonest(chroma[bright]))


def _as_cast(chromaticity: np.ndarray) -> np.ndarray:
    """A (g, r) chromaticity as a cast (BGR, brightest channel 1), or no cast (1, 1, 1) beyond what a lamp
    or a camera's white balance gives."""
    g, r = chromaticity
    cast = np.array([1.0 - g - r, g, r])
    if np.abs(cast - 1 / 3).max() > CAST_MAX_SHIFT:
        return np.ones(3)
    return cast / cast.max()


def _commonest(chroma: np.ndarray) -> np.ndarray:
    """The centre of the fullest bin of (g, r) chromaticities."""
    hist, g_edges, r_edges = np.histogram2d(chroma[:, 0], chroma[:, 1], bins=CAST_BINS, range=((0, 1), (0, 1)))
    hist = cv2.GaussianBlur(hist.astype(np.float32), (0, 0), 1.0)
    i, j = np.unravel_index(int(np.argmax(hist)), hist.shape)
    return np.array([(g_edges[i] + g_edges[i + 1]) / 2, (r_edges[j] + r_edges[j + 1]) / 2])
