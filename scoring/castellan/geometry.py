"""Small plane-geometry helpers for the rules: distances, polygons, a spatial hash."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Hashable, Iterable, Iterator

import numpy as np

Point = tuple[float, float]


def distance(a: Point, b: Point) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def point_segment_distance(p: Point, a: Point, b: Point) -> float:
    ax, ay = b[0] - a[0], b[1] - a[1]
    length2 = ax * ax + ay * ay
    if length2 == 0.0:
        return distance(p, a)
    t = max(0.0, min(1.0, ((p[0] - a[0]) * ax + (p[1] - a[1]) * ay) / length2))
    return distance(p, (a[0] + t * ax, a[1] + t * ay))


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


CROSSING_TOLERANCE_MM = 1e-9


def segments_cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    """True when the open segments ab and cd properly intersect: each one's ends lie on either side of the
    other's line, by more than CROSSING_TOLERANCE_MM. (Two walls in line, turned to an odd angle, have
    their ends off each other's line by rounding alone, on either side: they do not cross.)"""
    length_ab, length_cd = distance(a, b), distance(c, d)
    if length_ab == 0.0 or length_cd == 0.0:
        return False
    return (_straddles(_cross(c, d, a) / length_cd, _cross(c, d, b) / length_cd)
            and _straddles(_cross(a, b, c) / length_ab, _cross(a, b, d) / length_ab))


def _straddles(side_1: float, side_2: float) -> bool:
    """Whether two signed distances from a line put their points clearly on either side of it."""
    tolerance = CROSSING_TOLERANCE_MM
    return (side_1 < -tolerance and side_2 > tolerance) or (side_1 > tolerance and side_2 < -tolerance)


def segment_distance(a: Point, b: Point, c: Point, d: Point) -> float:
    if segments_cross(a, b, c, d):
        return 0.0
    return min(point_segment_distance(a, c, d), point_segment_distance(b, c, d),
               point_segment_distance(c, a, b), point_segment_distance(d, a, b))


def shrink_segment(a: Point, b: Point, by: float) -> tuple[Point, Point]:
    """The segment ab with `by` cut off each end (a wall's body between tower surfaces)."""
    length = distance(a, b)
    if length <= 2 * by:
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        return mid, mid
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    return (a[0] + by * ux, a[1] + by * uy), (b[0] - by * ux, b[1] - by * uy)


def signed_area(polygon: np.ndarray) -> float:
    x, y = polygon[:, 0], polygon[:, 1]
    return 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))


def points_in_polygon(points: np.ndarray, polygon: np.ndarray) -> np.ndarray:
    """Even-odd test of many points against one polygon (edges walked twice cancel out)."""
    px, py = points[:, 0:1], points[:, 1:2]
    x0, y0 = polygon[:, 0], polygon[:, 1]
    x1, y1 = np.roll(x0, -1), np.roll(y0, -1)
    straddles = (y0 > py) != (y1 > py)
    # Only the crossings of edges that straddle a point's line are used; the others (a level edge: a
    # division by zero, or by next to nothing, overflowing) are computed and thrown away.
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        x_cross = x0 + (py - y0) * (x1 - x0) / (y1 - y0)
    crossings = straddles & (px < x_cross)
    return (np.count_nonzero(crossings, axis=1) % 2) == 1


def interior_point(polygon: np.ndarray) -> Point:
    """A point strictly inside a simple polygon: the middle of its widest scan-line span."""
    ys = np.unique(polygon[:, 1])
    centre_y = float(polygon[:, 1].mean())
    candidates = [centre_y] + [float((lo + hi) / 2) for lo, hi in zip(ys[:-1], ys[1:], strict=True)]
    best: tuple[float, Point] | None = None
    for y in candidates:
        span = _widest_span(polygon, y)
        if span is not None and (best is None or span[1] - span[0] > best[0]):
            best = (span[1] - span[0], ((span[0] + span[1]) / 2, y))
    return best[1] if best else (float(polygon[0, 0]), float(polygon[0, 1]))


def _widest_span(polygon: np.ndarray, y: float) -> tuple[float, float] | None:
    x0, y0 = polygon[:, 0], polygon[:, 1]
    x1, y1 = np.roll(x0, -1), np.roll(y0, -1)
    hits = (y0 > y) != (y1 > y)
    if not hits.any():
        return None
    xs = np.sort(x0[hits] + (y - y0[hits]) * (x1[hits] - x0[hits]) / (y1[hits] - y0[hits]))
    spans = [(xs[i], xs[i + 1]) for i in range(0, len(xs) - 1, 2)]
    return max(spans, key=lambda s: s[1] - s[0]) if spans else None


class SpatialGrid:
    """A uniform hash grid: near-neighbour queries in O(1) per item for bounded-size pieces."""

    def __init__(self, cell: float) -> None:
        self.cell = cell
        self._cells: dict[tuple[int, int], list[Hashable]] = defaultdict(list)

    def _span(self, lo: Point, hi: Point) -> Iterator[tuple[int, int]]:
        c = self.cell
        for i in range(math.floor(lo[0] / c), math.floor(hi[0] / c) + 1):
            for j in range(math.floor(lo[1] / c), math.floor(hi[1] / c) + 1):
                yield (i, j)

    def insert(self, key: Hashable, points: Iterable[Point], margin: float = 0.0) -> None:
        pts = list(points)
        lo = (min(p[0] for p in pts) - margin, min(p[1] for p in pts) - margin)
        hi = (max(p[0] for p in pts) + margin, max(p[1] for p in pts) + margin)
        for cell in self._span(lo, hi):
            self._cells[cell].append(key)

    def near(self, points: Iterable[Point], margin: float = 0.0) -> list[Hashable]:
        """The keys in the cells around `points`, each once, in the order they were inserted in cell
        order: a set's order would hang on string hashing, and so would the order of the warnings."""
        pts = list(points)
        lo = (min(p[0] for p in pts) - margin, min(p[1] for p in pts) - margin)
        hi = (max(p[0] for p in pts) + margin, max(p[1] for p in pts) + margin)
        found: dict[Hashable, None] = {}
        for cell in self._span(lo, hi):
            found.update(dict.fromkeys(self._cells.get(cell, ())))
        return list(found)
