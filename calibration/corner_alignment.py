"""Card corners placed by aligning the card's own drawing around each one.

`cv2.cornerSubPix` reads a corner from the grey-level gradients a few pixels around it (it must stay
within the white margin before the markers start, a tenth of a square), so a small card's corners
(squares 25 px across) come out 0.5–1 px off under noise, blur and JPEG — and the table's tilt read
from them wanders, which places a castle a metre away several mm off. The card's drawing is known:
the squares and the markers' bits around each corner. Aligned to the photo (`cv2.findTransformECC`,
a homography per corner, as the photo's perspective and lens bend the card locally), every edge
within most of a square of the corner places it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

import cv2
import numpy as np

from tablesight.calibration.card import MM_PER_INCH, SQUARE_MM, card_outline_mm, sheet_image
from tablesight.calibration.card_focus import card_edge_blur_px

DRAWING_PX_PER_MM = 8.0  # the card drawn this finely, then reduced to the photo's scale around each point
REACH_SQUARES = 0.8  # how far around a corner (in squares) the drawing is aligned
# Below either, something lies over the point (a piece, a hand, glare, the frame's edge): kept as found. Noise
# lowers every point's correlation alike (0.94 at the samples' worst); a piece over part of the drawing, one point's.
MIN_CORRELATION = 0.9
BELOW_THE_CARDS = 0.05  # under the median correlation of the card's points
MAX_MOVE_SQUARES = 0.08  # farther, the alignment slid off the corner: kept as found
ITERATIONS, STEP_EPS = 60, 1e-3
SMOOTHING_PX = 3  # ECC's Gaussian on both images (odd): tolerates the photo's blur and noise
# Squares this many px across are aligned: fewer hold too little drawing; more are placed well by cornerSubPix
# already (its window grows with them) and would only cost time.
SQUARE_PX_RANGE = (8.0, 150.0)
MAX_STRETCH = 10.0  # a local mapping this much longer one way than the other: points too close to a line to place
# Drawings kept for the next photo (a live camera's frames share a scale and blur): a few, not one for every
# scale a long-running server meets (each is up to a few MB).
DRAWINGS_KEPT = 16


@cache
def _sheet() -> np.ndarray:
    """The whole printed sheet (the margin around the board too), its top-left at `card_outline_mm()[0]`."""
    return sheet_image(DRAWING_PX_PER_MM * MM_PER_INCH).astype(np.float32)


@dataclass(frozen=True)
class _Drawing:
    """The sheet drawn at `px_per_mm` and blurred as the photo is; pixel t's centre lies at
    `card_outline_mm()[0] + (t + 0.5) / px_per_mm` on the table."""

    image: np.ndarray
    px_per_mm: float

    @classmethod
    def at(cls, px_per_mm: float, blur_px: float) -> _Drawing:
        """Drawn at about `px_per_mm` (to 1 %: the alignment takes up the rest) and `blur_px` (to 0.1 px)."""
        return _drawn(round(float(np.log(px_per_mm)), 2), round(blur_px, 1))

    @classmethod
    def drawn(cls, px_per_mm: float, blur_px: float) -> _Drawing:
        image = cv2.resize(_sheet(), None, fx=px_per_mm / DRAWING_PX_PER_MM, fy=px_per_mm / DRAWING_PX_PER_MM,
                           interpolation=cv2.INTER_AREA)
        return cls(cv2.GaussianBlur(image, (0, 0), blur_px) if blur_px > 0 else image, px_per_mm)

    def around(self, point_mm: np.ndarray, reach_mm: float) -> tuple[np.ndarray, np.ndarray]:
        """The drawing within `reach_mm` of a point, and where its first pixel's centre lies (mm)."""
        origin = card_outline_mm()[0]
        low = np.maximum(np.floor((point_mm - reach_mm - origin) * self.px_per_mm), 0).astype(int)
        high = np.ceil((point_mm + reach_mm - origin) * self.px_per_mm).astype(int)
        return self.image[low[1]:high[1], low[0]:high[0]], origin + (low + 0.5) / self.px_per_mm


@lru_cache(maxsize=DRAWINGS_KEPT)
def _drawn(log_px_per_mm: float, blur_px: float) -> _Drawing:
    return _Drawing.drawn(float(np.exp(log_px_per_mm)), blur_px)


def aligned_points(grey: np.ndarray, table_points: np.ndarray, pixels: np.ndarray,
                   placed_by: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """The card's points (`pixels`, n × 2, found at `table_points`, n × 2 mm: chessboard or marker corners)
    each moved to where the card's drawing around it aligns best with `grey`; a point whose alignment is
    doubtful (MIN_CORRELATION, BELOW_THE_CARDS, MAX_MOVE_SQUARES) stays where it was. `placed_by` (table mm,
    pixels): the points that place the card roughly, if not these."""
    table_at, pixels_at = placed_by if placed_by is not None else (table_points, pixels)
    if len(pixels) == 0 or len(pixels_at) < 4:
        return pixels
    homography, _ = cv2.findHomography(np.asarray(table_at, np.float64), np.asarray(pixels_at, np.float64))
    if homography is None:
        return pixels
    table_points = np.asarray(table_points, np.float64).reshape(-1, 2)
    # Each aligned from where the points placing the card put it: a marker's corner found by cornerSubPix may lie
    # 2 px off (a blur pulls it into the marker), the chessboard's place the card to a fraction of that.
    starts = pixels if placed_by is None else cv2.perspectiveTransform(table_points.reshape(-1, 1, 2),
                                                                      homography).reshape(-1, 2)
    jacobians = [_jacobian(homography, point) for point in table_points]
    scales = [float(np.sqrt(abs(np.linalg.det(j)))) for j in jacobians]
    # The drawing at the card's scale, blurred as the photo is (the card's border edges tell how much): a sharp
    # drawing on a soft photo correlates poorly everywhere, and its alignment is refused as doubtful.
    drawing = _Drawing.at(float(np.clip(np.median(scales), *np.divide(SQUARE_PX_RANGE, SQUARE_MM))),
                          card_edge_blur_px(grey, homography) or 0.0)
    aligned = [_aligned_point(grey, drawing, point, jacobian, np.asarray(start, float))
               for point, jacobian, start in zip(table_points, jacobians, starts, strict=True)]
    correlations = [a[1] for a in aligned if a is not None]
    if not correlations:
        return pixels
    bar = max(MIN_CORRELATION, float(np.median(correlations)) - BELOW_THE_CARDS)
    out = np.array(pixels, np.float64, copy=True)
    for k, found in enumerate(aligned):
        if found is not None and found[1] >= bar:
            out[k] = found[0]
    return out


def _aligned_point(grey: np.ndarray, drawing: _Drawing, point_mm: np.ndarray, jacobian: np.ndarray,
                   pixel: np.ndarray) -> tuple[np.ndarray, float] | None:
    """Where `drawing` around `point_mm` aligns best near `pixel` (the card mapping to the photo by `jacobian`,
    px per mm, there), and its correlation; None if it slid off (MAX_MOVE_SQUARES) or could not be aligned."""
    square_px = SQUARE_MM * float(np.sqrt(abs(np.linalg.det(jacobian))))
    if not (SQUARE_PX_RANGE[0] <= square_px <= SQUARE_PX_RANGE[1]) or np.linalg.cond(jacobian) > MAX_STRETCH:
        return None
    reach_mm = REACH_SQUARES * SQUARE_MM
    template, first_mm = drawing.around(point_mm, reach_mm)
    # The photo around the point, wide enough for the drawing however the card is turned (√2 × its reach).
    margin = int(np.ceil(1.5 * reach_mm * square_px / SQUARE_MM)) + 4
    x0, y0 = max(0, int(pixel[0]) - margin), max(0, int(pixel[1]) - margin)
    crop = grey[y0:int(pixel[1]) + margin, x0:int(pixel[0]) + margin].astype(np.float32)
    if min(crop.shape) < 2 * margin - 2 or min(template.shape) < 8:
        return None  # at the photo's edge, or a card too small to hold a drawing
    # Template pixel t lies at first_mm + t / px_per_mm on the card; to the photo through the card's local linear
    # mapping around the point, then refined as a full homography.
    offset = pixel + jacobian @ (first_mm - point_mm) - (x0, y0)
    warp = np.vstack([np.column_stack([jacobian / drawing.px_per_mm, offset]), [0.0, 0.0, 1.0]]).astype(np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, ITERATIONS, STEP_EPS)
    try:
        correlation, warp = cv2.findTransformECC(template, crop, warp, cv2.MOTION_HOMOGRAPHY, criteria, None,
                                                 SMOOTHING_PX)
    except cv2.error:  # no convergence, or a flat patch
        return None
    mapped = warp @ np.array([*((point_mm - first_mm) * drawing.px_per_mm), 1.0])
    if abs(mapped[2]) < 1e-9:
        return None
    found = mapped[:2] / mapped[2] + (x0, y0)
    return (found, float(correlation)) if np.linalg.norm(found - pixel) < MAX_MOVE_SQUARES * square_px else None


def _jacobian(homography: np.ndarray, point: np.ndarray) -> np.ndarray:
    """The homography's derivative (px per mm, 2 × 2) at `point` (mm)."""
    x, y = point
    w = homography[2] @ (x, y, 1.0)
    u, v = homography[0] @ (x, y, 1.0) / w, homography[1] @ (x, y, 1.0) / w
    return np.array([[homography[0, 0] - u * homography[2, 0], homography[0, 1] - u * homography[2, 1]],
                     [homography[1, 0] - v * homography[2, 0], homography[1, 1] - v * homography[2, 1]]]) / w
