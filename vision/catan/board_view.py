"""The board in the photo: found by its blue sea frame, brought to a standard size, its lattice
refined on the number tokens (which follow the photo's perspective), and its colours normalised by
the tokens' cream, a colour every Catan board carries: what follows reads colours as if under the
light of the labelled photos.

The lattice needs no reference card: the land inside the sea frame gives the board's centre and
size (19 hexes), and its outline's six far corners give the lattice's axes.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from tablesight.scoring.catan.geometry import LAND, hex_centre
from tablesight.vision.catan.tokens import Token, find_token

HEX_AREA = 3 * np.sqrt(3) / 2  # area of a hexagon of circumradius 1
LAND_MARGIN = 0.915  # the land inside the frame includes the beach rim around the hexes
WORKING_SPACING = 212.0  # hex centre spacing (px) the reader works at: that of the labelled photos
MAX_LONG_SIDE = 1600  # the frame is found on a photo at most this big
# Median cream of the tokens in the five labelled photos (BGR): colours are brought to this light.
REFERENCE_CREAM = np.array([161.0, 224.5, 242.5], np.float32)
MIN_TOKENS_FOR_FIT = 6
SQUARE_HALF_SIZE = 2.9  # the square-on image reaches this far from the board's centre (spacings)


class CatanReadError(ValueError):
    """No Catan board could be found in the photo; the message says why."""


@dataclass
class BoardView:
    image: np.ndarray  # the working image: the board seen square-on at a standard size, colours normalised
    centres: np.ndarray  # 19 hex centres (working px, LAND order)
    spacing: float  # hex centre spacing (working px)
    tokens: list[Token | None]  # per hex (working px); None where no token was seen
    homography: np.ndarray | None  # board (hex-unit) coordinates → working px; None if the board is not squared
    to_photo: np.ndarray  # working px → the photo's px
    colour_gains: np.ndarray  # BGR gains applied to the photo

    def photo_points(self, points: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(np.asarray(points, np.float64).reshape(1, -1, 2), self.to_photo)[0]


def board_view(image: np.ndarray) -> BoardView:
    """Find the board, then look at it square-on: the sea frame gives a first, affine lattice; the
    number tokens found on it give the photo's perspective, and the board is warped so that every hex
    is a regular hexagon WORKING_SPACING apart (tokens are circles again, edges straight)."""
    first = min(1.0, MAX_LONG_SIDE / max(image.shape[:2]))
    centres, spacing = find_lattice(_resized(image, first))
    scale = first * WORKING_SPACING / spacing
    work = _resized(image, scale)
    centres, spacing = centres * (scale / first), WORKING_SPACING
    to_photo = np.diag([1 / scale, 1 / scale, 1.0])
    tokens = [find_token(work, c, spacing) for c in centres]
    homography = fit_homography(tokens, spacing)
    if homography is not None:
        square = _square_on(spacing)  # board → squared working px
        size = (int(2 * square[0, 2]), int(2 * square[1, 2]))
        squared_to_work = homography @ np.linalg.inv(square)
        work = cv2.warpPerspective(work, squared_to_work, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                   borderMode=cv2.BORDER_REPLICATE)
        to_photo = to_photo @ squared_to_work
        homography = square
        centres = cv2.perspectiveTransform(np.array([hex_centre(h) for h in LAND], np.float64)[None], square)[0]
        tokens = [find_token(work, c, spacing) for c in centres]
    gains = _cream_gains(work, tokens)
    work = np.clip(work.astype(np.float32) * gains, 0, 255).astype(np.uint8)
    return BoardView(work, centres, spacing, tokens, homography, to_photo, gains)


def _square_on(spacing: float) -> np.ndarray:
    """Board (hex-unit, centre spacing √3) → a square-on image of the land and its beach."""
    k = spacing / np.sqrt(3)
    half = SQUARE_HALF_SIZE * spacing
    return np.array([[k, 0, half], [0, k, half], [0, 0, 1]])


def fit_homography(tokens: list[Token | None], spacing: float) -> np.ndarray | None:
    seen = [(h, (t.x, t.y)) for h, t in zip(LAND, tokens, strict=True) if t is not None]
    if len(seen) < MIN_TOKENS_FOR_FIT:
        return None
    src = np.array([hex_centre(h) for h, _ in seen], np.float32)
    matrix, _ = cv2.findHomography(src, np.array([p for _, p in seen], np.float32), cv2.RANSAC, 0.08 * spacing)
    return matrix


def _cream_gains(image: np.ndarray, tokens: list[Token | None]) -> np.ndarray:
    """Per-channel gains that bring the tokens' cream (their brighter half: not the ink) to the
    reference cream; no change without tokens."""
    creams = []
    for t in tokens:
        if t is None:
            continue
        r = int(0.8 * t.radius)
        x, y = int(t.x), int(t.y)
        patch = image[max(0, y - r):y + r, max(0, x - r):x + r].reshape(-1, 3).astype(np.float32)
        if len(patch) < 10:
            continue
        bright = patch.max(axis=1)
        creams.append(np.median(patch[bright >= np.median(bright)], axis=0))
    if len(creams) < 3:
        return np.ones(3, np.float32)
    return (REFERENCE_CREAM / np.maximum(np.median(creams, axis=0), 1.0)).astype(np.float32)


def _resized(image: np.ndarray, scale: float) -> np.ndarray:
    if abs(scale - 1.0) < 0.02:
        return image
    interpolation = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    return cv2.resize(image, None, fx=scale, fy=scale, interpolation=interpolation)


def find_lattice(image: np.ndarray) -> tuple[np.ndarray, float]:
    """The 19 hex centres (image pixels, in LAND order) and the centre spacing, from the sea frame."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    blue = cv2.inRange(hsv, (95, 90, 70), (125, 255, 255))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(blue, connectivity=8)
    if count < 2 or stats[1:, cv2.CC_STAT_AREA].max() < 0.02 * blue.size:
        raise CatanReadError("no blue sea frame was found; the whole board must be in the photo")
    frame = ((labels == 1 + np.argmax(stats[1:, cv2.CC_STAT_AREA])) * 255).astype(np.uint8)
    # The land is what the frame surrounds: inside the frame's convex hull and not frame. (A flood fill
    # from outside would leak in where the photo cuts the frame off.)
    hull = np.zeros_like(frame)
    cv2.fillConvexPoly(hull, cv2.convexHull(cv2.findNonZero(frame)), 255)
    inside = cv2.morphologyEx(cv2.bitwise_and(hull, cv2.bitwise_not(frame)), cv2.MORPH_OPEN, np.ones((9, 9), np.uint8))
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(inside)
    if count < 2:
        raise CatanReadError("the sea frame encloses no land; is the whole board in the photo?")
    land_id = 1 + np.argmax(stats[1:, cv2.CC_STAT_AREA])
    area = stats[land_id, cv2.CC_STAT_AREA]
    if area < 0.05 * inside.size:
        raise CatanReadError("the land inside the sea frame is too small to read")
    centre = centroids[land_id]
    spacing = LAND_MARGIN * np.sqrt(3) * np.sqrt(area / (19 * HEX_AREA))
    contours, _ = cv2.findContours((labels == land_id).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    hull = cv2.convexHull(max(contours, key=cv2.contourArea)).reshape(-1, 2).astype(float)
    angle = np.arctan2(hull[:, 1] - centre[1], hull[:, 0] - centre[0])
    weight = np.linalg.norm(hull - centre, axis=1) ** 8  # the six far corners decide
    theta = np.arctan2((weight * np.sin(6 * angle)).sum(), (weight * np.cos(6 * angle)).sum()) / 6
    a1 = np.array([np.cos(theta), np.sin(theta)])
    a2 = np.array([np.cos(theta + np.pi / 3), np.sin(theta + np.pi / 3)])
    return np.array([centre + spacing * (q * a1 + r * a2) for q, r in LAND]), float(spacing)
