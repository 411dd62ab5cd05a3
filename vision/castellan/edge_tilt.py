"""The camera's tilt from the castle's straight edges, for a photo without the card.

A castle's walls run along two square axes. In a photo taken from straight above their
edges stay square and each family parallel; in a tilted one each family converges
towards a vanishing point, and the two come out skewed. So the rotation that maps the
photo's edges back onto a plane where the two families are square again is the
camera's tilt. The edges are found with OpenCV's line segment detector near the grey
plastic (the table's own lines — a wood grain, a cloth's stripes — are left out), and
sorted into the two families by their direction in the photo.

The castle's extent in the photo limits how well this is told: a small castle's lines
barely converge, and its tilt comes out loose along one direction. The tilt found is a
start for the walls' own fit (`castle_pose`), kept only where it reads more of a castle.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
from scipy.optimize import least_squares

from tablesight.calibration.camera import Lens

MIN_SEGMENT_SHARE = 0.01  # segments shorter than this share of the photo's long side are texture
REGION_REACH_SHARE = 0.01  # segments this far (share of the long side) from the castle's grey count
MIN_PART_SHARE = 0.2  # grey parts smaller than this share of the largest are specks, not the castle
FAMILY_SPREAD_DEG = 15.0  # a family's segments lie within this of its direction in the photo
FAMILIES_APART_DEG = 35.0  # the second family's direction is at least this far from the first's
MIN_FAMILY_SEGMENTS = 6
MIN_FAMILY_BALANCE = 0.25  # the weaker family's weight against the stronger's: less is one family and noise
MAX_TILT = math.radians(45.0)  # a little beyond setup.md's 40°
GRID_STEP_DEG = 5.0
MIN_TILT_DEG = 4.0  # less than this is as good as straight above


def tilt_from_edges(image: np.ndarray, grey: np.ndarray, lens: Lens) -> np.ndarray | None:
    """The rotation (3 × 3, camera to a frame whose z is the table's normal) that makes the castle's edges
    near the `grey` pixels (the photo's plastic) square, or None where the edges tell too little: too few
    of them, one family only, or a tilt under MIN_TILT_DEG."""
    region = castle_region(grey)
    if region is None:
        return None
    segments = edge_segments(image, region)
    families = edge_families(segments)
    if families is None:
        return None
    rotation = _rotation(*_fitted_tilt(*families, np.linalg.inv(lens.matrix)))
    return rotation if math.degrees(tilt_of(rotation)) >= MIN_TILT_DEG else None


def tilt_of(rotation: np.ndarray) -> float:
    """The tilt (radians) of a rotation from camera to table frame: between the optical axis and the normal."""
    return math.acos(min(1.0, abs(float(rotation[2, 2]))))


def castle_region(grey: np.ndarray) -> np.ndarray | None:
    """The pixels near the photo's larger grey parts (uint8 0/1), or None without grey."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats((grey > 0).astype(np.uint8))
    if count < 2:
        return None
    areas = stats[1:, cv2.CC_STAT_AREA]
    large = np.flatnonzero(areas >= MIN_PART_SHARE * areas.max()) + 1
    reach = max(3, int(REGION_REACH_SHARE * max(grey.shape)) | 1)
    return cv2.dilate(np.isin(labels, large).astype(np.uint8), np.ones((reach, reach), np.uint8))


def edge_segments(image: np.ndarray, region: np.ndarray) -> np.ndarray:
    """Straight segments (x0, y0, x1, y1 per row) of the photo whose middles lie in `region`."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    found = cv2.createLineSegmentDetector().detect(gray)[0]
    if found is None:
        return np.zeros((0, 4))
    segments = found.reshape(-1, 4).astype(np.float64)
    segments = segments[_lengths(segments) >= MIN_SEGMENT_SHARE * max(gray.shape)]
    h, w = gray.shape
    middles = ((segments[:, :2] + segments[:, 2:]) / 2).astype(int)
    inside = region[np.clip(middles[:, 1], 0, h - 1), np.clip(middles[:, 0], 0, w - 1)] > 0
    return segments[inside]


def edge_families(segments: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The segments along the photo's two main directions (the castle's two axes), or None if either
    has too few or the second is much weaker than the first."""
    if len(segments) < 2 * MIN_FAMILY_SEGMENTS:
        return None
    vectors = segments[:, 2:] - segments[:, :2]
    angles = np.degrees(np.arctan2(vectors[:, 1], vectors[:, 0])) % 180.0
    lengths = _lengths(segments)
    bins = np.arange(180.0)
    votes = np.array([(lengths * np.exp(-0.5 * (_apart_deg(angles, b) / 4.0) ** 2)).sum() for b in bins])
    first = float(np.argmax(votes))
    second = float(np.argmax(np.where(_apart_deg(bins, first) > FAMILIES_APART_DEG, votes, 0.0)))
    if votes[int(second)] < MIN_FAMILY_BALANCE * votes[int(first)]:
        return None
    members = [segments[_apart_deg(angles, peak) < FAMILY_SPREAD_DEG] for peak in (first, second)]
    if min(len(m) for m in members) < MIN_FAMILY_SEGMENTS:
        return None
    return members[0], members[1]


def _apart_deg(angles: np.ndarray, angle: float) -> np.ndarray:
    """How far directions (degrees, modulo 180) are from `angle`."""
    return np.abs((angles - angle + 90.0) % 180.0 - 90.0)


def _rotation(a: float, b: float) -> np.ndarray:
    """Camera to table frame: tilted by `a` about the camera's x axis, then by `b` about its y axis."""
    return cv2.Rodrigues(np.array([0.0, b, 0.0]))[0] @ cv2.Rodrigues(np.array([a, 0.0, 0.0]))[0]


def _on_table(segments: np.ndarray, rays: np.ndarray, rotation: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each segment's direction (radians) on the plane the rotation makes the table's, and whether both its
    ends lie in front of the camera there (`rays`: the inverse of the lens matrix, pixels to rays)."""

    def mapped(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        h = np.column_stack([points, np.ones(len(points))]) @ rays.T @ rotation.T
        return h[:, :2] / h[:, 2:3], h[:, 2] > 0

    (start, front_a), (end, front_b) = mapped(segments[:, :2]), mapped(segments[:, 2:])
    vectors = end - start
    return np.arctan2(vectors[:, 1], vectors[:, 0]), front_a & front_b


def _fitted_tilt(first: np.ndarray, second: np.ndarray, rays: np.ndarray) -> tuple[float, float]:
    """The tilt (a, b) making the first family run along one axis and the second square to it: a coarse
    grid, then least squares, each family weighed as a whole (by its segments' lengths)."""
    weights = [np.sqrt(lengths / lengths.sum()) for lengths in (_lengths(first), _lengths(second))]

    def residuals(params: np.ndarray) -> np.ndarray:
        rotation = _rotation(params[0], params[1])
        out = []
        for family, weight, offset in zip((first, second), weights, (0.0, math.pi / 2), strict=True):
            angles, front = _on_table(family, rays, rotation)
            out.append(weight * np.where(front, np.sin(angles - params[2] - offset), 1.0))
        return np.concatenate(out)

    start = min(_grid_starts(first, rays), key=lambda x: float((residuals(x) ** 2).sum()))
    bound = np.array([MAX_TILT, MAX_TILT, np.inf])
    solved = least_squares(residuals, start, loss="soft_l1", f_scale=0.05, bounds=(-bound, bound))
    return float(solved.x[0]), float(solved.x[1])


def _grid_starts(first: np.ndarray, rays: np.ndarray) -> list[np.ndarray]:
    """Tilts on a grid within MAX_TILT, each with the axis the first family runs along there."""
    steps = np.radians(np.arange(-40.0, 40.0 + 1e-6, GRID_STEP_DEG))
    weights = _lengths(first)
    starts = []
    for a in steps:
        for b in steps:
            if math.hypot(a, b) > MAX_TILT:
                continue
            angles, _ = _on_table(first, rays, _rotation(a, b))
            axis = math.atan2((weights * np.sin(2 * angles)).sum(), (weights * np.cos(2 * angles)).sum()) / 2
            starts.append(np.array([a, b, axis]))
    return starts


def _lengths(segments: np.ndarray) -> np.ndarray:
    return np.hypot(*(segments[:, 2:] - segments[:, :2]).T)
