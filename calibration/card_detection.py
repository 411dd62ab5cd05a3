"""Finding the reference card in a photo: ChArUco corners, homography, camera pose, white/black.

The card gives the table plane and its millimetre scale (a homography), the camera
pose when the lens is known or its focal length can be read from the card's
perspective, and the paper's white and the ink's black for exposure and white balance.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from tablesight.calibration.camera import CameraPose, Lens
from tablesight.calibration.card import SQUARE_MM, SQUARES, board_object_points, charuco_board

MIN_CORNERS = 6
# Try a reduced copy first on big photos (fast); fall back to full resolution for small cards.
DETECTION_MAX_SIDE = 1600
# A straight-down view hides the focal length; below this tilt it is not read from the card.
MIN_TILT_FOR_FOCAL_DEG = 12.0


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

    @property
    def corner_count(self) -> int:
        return len(self.corner_ids)

    def table_to_image(self, table_points: np.ndarray, height: float | np.ndarray = 0.0) -> np.ndarray:
        return self.pose.project(table_points, height)

    def image_to_table(self, pixels: np.ndarray, height: float = 0.0) -> np.ndarray:
        return self.pose.table_point(pixels, height)

    def mm_per_pixel(self) -> float:
        """Table millimetres per image pixel near the card (for sizing image operations)."""
        pts = self.table_points
        span_mm = np.linalg.norm(pts.max(axis=0) - pts.min(axis=0))
        span_px = np.linalg.norm(self.image_points.max(axis=0) - self.image_points.min(axis=0))
        return float(span_mm / max(span_px, 1e-9))


def _detector() -> cv2.aruco.CharucoDetector:
    params = cv2.aruco.DetectorParameters()
    params.minMarkerPerimeterRate = 0.008  # cards down to ~1/12 of the frame width
    params.adaptiveThreshWinSizeMax = 53
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    charuco = cv2.aruco.CharucoParameters()
    charuco.tryRefineMarkers = True
    return cv2.aruco.CharucoDetector(charuco_board(), charuco, params, cv2.aruco.RefineParameters())


def _detect_corners(grey: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    corners, ids, _, _ = _detector().detectBoard(grey)
    if ids is None or len(ids) < MIN_CORNERS:
        return None
    return corners.reshape(-1, 2).astype(np.float32), ids.ravel()


def find_corners(grey: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """ChArUco corners (pixels, ids) refined to sub-pixel accuracy, or None."""
    scale = min(1.0, DETECTION_MAX_SIDE / max(grey.shape))
    found = None
    if scale < 1.0:
        small = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        found = _detect_corners(small)
        if found is not None:
            found = (found[0] / scale, found[1])
    if found is None:
        found = _detect_corners(grey)
    if found is None:
        return None
    pixels, ids = found
    square_px = _square_size_px(pixels, ids)
    # Stay inside the white margin around the corner: the markers start square/8 away.
    window = int(np.clip(square_px / 10, 2, 10))
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 40, 0.005)
    refined = cv2.cornerSubPix(grey, pixels.reshape(-1, 1, 2).copy(), (window, window), (-1, -1), criteria)
    return refined.reshape(-1, 2).astype(np.float64), ids


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


def default_focal(image_size: tuple[int, int], focal_35mm: float | None = None) -> float:
    """A focal length without calibration: from EXIF's 35 mm equivalent, else a typical phone/webcam."""
    long_side = max(image_size)
    if focal_35mm:
        return focal_35mm / 36.0 * long_side
    return 0.8 * long_side  # about 26–28 mm equivalent, a phone's main camera


def _solve_pose(lens: Lens, table: np.ndarray, pixels: np.ndarray) -> CameraPose:
    obj = np.column_stack([table, np.zeros(len(table))])
    ok, rvec, tvec = cv2.solvePnP(obj, pixels.reshape(-1, 1, 2), lens.matrix, lens.distortion,
                                  flags=cv2.SOLVEPNP_IPPE)
    if not ok:
        ok, rvec, tvec = cv2.solvePnP(obj, pixels.reshape(-1, 1, 2), lens.matrix, lens.distortion)
    rvec, tvec = cv2.solvePnPRefineLM(obj, pixels.reshape(-1, 1, 2), lens.matrix, lens.distortion, rvec, tvec)
    return CameraPose(lens, rvec.reshape(3), tvec.reshape(3))


def _card_levels(image: np.ndarray, pose: CameraPose) -> tuple[np.ndarray, np.ndarray]:
    """Median colour of the paper (sheet margin and square margins) and of the solid black squares."""
    cols, rows = SQUARES
    whites = [(x, -7.5) for x in np.linspace(10, cols * SQUARE_MM - 10, 12)]
    whites += [(x, rows * SQUARE_MM + 7.5) for x in np.linspace(10, cols * SQUARE_MM - 10, 12)]
    blacks = [((c + 0.5) * SQUARE_MM, (r + 0.5) * SQUARE_MM)
              for r in range(rows) for c in range(cols) if (r + c) % 2 == 0]
    return _median_colour(image, pose, whites), _median_colour(image, pose, blacks)


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
    found = find_corners(grey)
    if found is None:
        return None
    pixels, ids = found
    table = board_object_points()[ids, :2]
    size = (grey.shape[1], grey.shape[0])
    if lens is not None:
        lens, source = lens.for_size(size), "profile"
    else:
        lens, source = _lens_from_card(table, pixels, size, focal_35mm)
    homography, _ = cv2.findHomography(table, lens.undistort_points(pixels))
    pose = _solve_pose(lens, table, pixels)
    residual = np.linalg.norm(pose.project(table) - pixels, axis=1)
    colour = image if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    white, black = _card_levels(colour, pose)
    return CardDetection(ids, pixels, table, homography, pose, source, float(np.median(residual)), white, black)


def _lens_from_card(table: np.ndarray, pixels: np.ndarray, size: tuple[int, int],
                    focal_35mm: float | None) -> tuple[Lens, str]:
    fallback = Lens.pinhole(default_focal(size, focal_35mm), size)
    homography, _ = cv2.findHomography(table, pixels)
    focal = focal_from_homography(homography, size) if homography is not None else None
    if focal is None or not 0.3 * max(size) < focal < 4.0 * max(size):
        return fallback, "exif" if focal_35mm else "default"
    lens = Lens.pinhole(focal, size)
    if _solve_pose(lens, table, pixels).tilt_deg < MIN_TILT_FOR_FOCAL_DEG:
        return fallback, "exif" if focal_35mm else "default"
    return lens, "card"
