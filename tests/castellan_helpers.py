"""Board edits used by the property tests: they only add pieces where the rules allow."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from tablesight.scoring.castellan.board import Board, Keep, Tower, Wall
from tablesight.scoring.castellan.geometry import distance
from tablesight.scoring.castellan.report import Courtyard, Report

STEP = 64.0
AXES = ((1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0))


def yard_summary(report: Report) -> list[tuple]:
    return sorted((y.owner or "", y.double, len(y.tower_ids), y.value) for y in report.courtyards)


def _segment_distances(point: tuple, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Distance from one point to many segments at once."""
    p = np.asarray(point, dtype=float)
    d = ends - starts
    length2 = np.maximum((d * d).sum(axis=1), 1e-12)
    t = np.clip(((p - starts) * d).sum(axis=1) / length2, 0.0, 1.0)
    return np.hypot(*(starts + t[:, None] * d - p).T)


def _spot_is_free(towers: np.ndarray, ends: np.ndarray, a: tuple, b: tuple) -> bool:
    """No tower, wall or open wall end near the new wall a→b or tower b."""
    if len(towers) and np.hypot(*(towers - np.asarray(b)).T).min() < STEP * 0.75:
        return False
    if not len(ends):
        return True
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    return bool(_segment_distances(b, ends[:, 0], ends[:, 1]).min() >= STEP * 0.75
                and _segment_distances(mid, ends[:, 0], ends[:, 1]).min() >= STEP * 0.4)


def _piece_arrays(board: Board) -> tuple[np.ndarray, np.ndarray]:
    towers = board.tower_map()
    ends = [board.wall_endpoints(w, towers) for w in board.walls]
    return (np.array([t.position for t in board.towers], dtype=float).reshape(-1, 2),
            np.array(ends, dtype=float).reshape(-1, 2, 2))


def _yard_holding(report: Report, point: tuple) -> Courtyard | None:
    inside = [y for y in report.courtyards if y.tower_ids and _contains(y, point)]
    return min(inside, key=lambda y: abs(_area(y.polygon)), default=None)


def _contains(yard: Courtyard, point: tuple) -> bool:
    from tablesight.scoring.castellan.geometry import points_in_polygon
    return bool(points_in_polygon(np.array([point]), yard.polygon)[0])


def _area(polygon: np.ndarray) -> float:
    from tablesight.scoring.castellan.geometry import signed_area
    return signed_area(polygon)


def add_spur_tower(board: Board, report: Report) -> tuple[Board, Courtyard] | None:
    """Board plus one short wall and tower poking into an owned courtyard, and that courtyard."""
    towers = board.tower_map()
    tower_array, ends = _piece_arrays(board)
    for yard in report.courtyards:
        if yard.owner is None:
            continue
        for tid in sorted(yard.tower_ids):
            a = towers[tid].position
            for dx, dy in AXES:
                b = (a[0] + dx * STEP, a[1] + dy * STEP)
                if _spot_is_free(tower_array, ends, a, b) and _yard_holding(report, b) is yard:
                    new = replace(board, towers=board.towers + (Tower("t_new", *b),),
                                  walls=board.walls + (Wall("w_new", "short", (tid, "t_new")),))
                    return new, yard
    return None


def split_courtyard(board: Board, report: Report) -> tuple[Board, Courtyard] | None:
    """Board with one owned courtyard split by a wall between two of its towers, and that yard."""
    towers = board.tower_map()
    tower_array, ends = _piece_arrays(board)
    for yard in report.courtyards:
        if yard.owner is None:
            continue
        ids = sorted(yard.tower_ids)
        for i, t1 in enumerate(ids):
            for t2 in ids[i + 1:]:
                a, b = towers[t1].position, towers[t2].position
                gap = distance(a, b)
                kind = "short" if math.isclose(gap, STEP) else "long" if math.isclose(gap, 2 * STEP) else None
                if kind is None or not (math.isclose(a[0], b[0]) or math.isclose(a[1], b[1])):
                    continue
                mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
                if _wall_near(tower_array, ends, mid) or _yard_holding(report, mid) is not yard:
                    continue
                if any(w.ends in ((t1, t2), (t2, t1)) for w in board.walls):
                    continue
                split = replace(board, walls=board.walls + (Wall("w_split", kind, (t1, t2)),))
                return split, yard
    return None


def _wall_near(tower_array: np.ndarray, ends: np.ndarray, point: tuple) -> bool:
    if len(tower_array) and np.hypot(*(tower_array - np.asarray(point)).T).min() < STEP * 0.4:
        return True
    return bool(len(ends)) and bool(_segment_distances(point, ends[:, 0], ends[:, 1]).min() < STEP * 0.4)


def claim_new_courtyards(board: Board, report: Report, colour: str) -> Board:
    """Put a keep of `colour` into every courtyard that has none (what C6 asks after a split)."""
    keeps = list(board.keeps)
    for yard in report.courtyards:
        if not yard.keeps:
            keeps.append(Keep(colour, *yard.label))
    return replace(board, keeps=tuple(keeps))
