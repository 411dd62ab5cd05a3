"""Towers unseen where an open wall ends and another wall, not read yet, leaves that point across it.

Walls are read from the towers' sockets, so a tower the carving loses takes with it the walls that only it holds. On
a table nearly the grey of the pieces, only the pieces' lit tops stand out from the table: a tower's top shows as a
ring of merlons no wider than the walls it holds, and is not carved as a tower (fresh 14500-020, a blue-grey cloth:
the corner tower of two long walls, each open at its far end, lost with both; sample 021, 32° cloth: two towers).
The wall that reached it is read as open there. Walls only join towers (C1): a wall body leaving that point across
the open wall (a corner or a T), joined to it through the point, is another wall sitting in the same tower. The
tower is inferred there, its sockets read, and it is named in the notes for a player to check. A gap left for a
tower between two walls' ends shows the table there, and no tower is inferred (`JOINED_SHARE`). Open walls meeting
each other at a point are `hidden_towers`' to judge.

A tower lost so in the middle of two short walls in line takes no wall with it: the walls either side read as one long
wall through it. A wall body leaving that middle across the run (a T) is then the third wall held by a tower there
(sample 004, a grey castle on a grey table: the run read long, the T's wall not read at all).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from tablesight.scoring.castellan.pieces import PieceDimensions
from tablesight.vision.castellan.hidden_towers import open_wall_meetings
from tablesight.vision.castellan.towers import TowerReading, tower_stands_within_reach
from tablesight.vision.castellan.walls import (
    KeepCover,
    WallReading,
    far_end,
    find_walls,
    meeting_distance,
    on_a_wall_read,
    solid_along,
)
from tablesight.vision.table_view import Region

ACROSS_COSINE = math.cos(math.radians(45))  # a wall this far from in line with the open wall leaves across it
# Of the steps through the point from the open wall's end to the leaving wall's start, this share seen solid: a tower
# joins them. Where two open walls end at a gap left for a tower, the table shows there (sample 059, a striped table:
# 0-8 % seen). The lost corner towers of fresh 14500-020 are seen 77-100 %, the 77 % one in the reading kept: that
# photo still misses it. Without this check, fresh 14600-019 gained a false tower where its candidates are seen
# 46-73 %.
JOINED_SHARE = 0.8
# A wall leaving a long wall's middle is a strip of a wall's width with the table beside it: a wall's thickness from
# its line (three rays 8-12 mm out in the nominal set), solid or a keep in front along at most this share of it. A
# broad patch carved as solid is solid there too, and a strip of a courtyard's floor between two keeps, its shade
# taken for plastic (fresh 14700-023), has keeps there. Seen at 40°, a wall's carved footprint runs wide of it on one
# side (sample 038: a tee's long wall 0.40 and 0.61 beside).
MAX_SIDE_SOLID = 0.7
# ... and seen solid along this share of its body at least (a wall between towers is read from 0.65): the tower hangs
# on it alone. Closed walls to a tower a span away seen 0.67-0.69 were the shade of walls nearby (fresh 13800-014).
ACROSS_SEEN = 0.9


def towers_where_walls_turn(towers: list[TowerReading], walls: list[WallReading], solid: np.ndarray,
                            region: Region, dims: PieceDimensions, axis: float,
                            cover: KeepCover | None = None) -> list[tuple[TowerReading, tuple[int, ...]]]:
    """Towers (inferred) where open walls end and the carved wall `solid` shows a wall leaving across them that no
    wall read runs along, the solid joining them through the point; each with the open walls (indices) ending in
    it."""
    found: list[tuple[TowerReading, tuple[int, ...]]] = []
    meet = meeting_distance(dims)
    for point, members in open_wall_meetings(walls, meet):
        standing = towers + [tower for tower, _ in found]
        read = _walls_from_candidate(point, standing, solid, region, dims, axis, cover)
        if read is None:
            continue
        candidate, leaving = read
        # The open walls ending there, each as the direction it runs in, and the walls read from the candidate that
        # leave across all of them and are not the body of a wall read already.
        runs = [_unit(np.asarray(walls[i].open_point) - towers[walls[i].start].position) for i in members]
        ends = [far_end(wall, wall.start, standing) for wall in leaving]
        across = [_unit(end - point) for end in ends if _across_unread(point, end, runs, towers, walls, dims)]
        if any(_joined_share(point, -run, way, solid, region, dims) >= JOINED_SHARE for run in runs for way in across):
            found.append((candidate, tuple(members)))
    return found


def _walls_from_candidate(point: np.ndarray, standing: list[TowerReading], solid: np.ndarray, region: Region,
                          dims: PieceDimensions, axis: float, cover: KeepCover | None
                          ) -> tuple[TowerReading, list[WallReading]] | None:
    """A tower inferred at `point` and the walls read from its sockets (as tower index `len(standing)`); None where
    a tower standing already is nearer than a tower's width."""
    if tower_stands_within_reach(point, standing, dims):
        return None
    candidate = TowerReading(float(point[0]), float(point[1]), dims.tower_radius, inferred=True, behind_keep=False)
    return candidate, find_walls(standing + [candidate], solid, region, dims, axis, cover=cover,
                                 only={len(standing)})


def _across_unread(point: np.ndarray, end: np.ndarray, runs: list[np.ndarray], towers: list[TowerReading],
                   walls: list[WallReading], dims: PieceDimensions) -> bool:
    """Whether a wall from `point` to `end` leaves across every run (unit vectors) and is not the body of a wall
    read already."""
    way = _unit(end - point)
    return (all(abs(float(way @ run)) < ACROSS_COSINE for run in runs)
            and not _along_a_wall_read(point, end, towers, walls, dims))


@dataclass(frozen=True)
class TeeTower:
    """A tower inferred in the middle of a long wall's run, where a wall not read yet leaves it across."""

    tower: TowerReading
    long_wall: int  # index of the long wall it splits into two short walls
    leaving: tuple[WallReading, ...]  # the walls leaving it across the run (read from it as the towers' next index)


def towers_where_walls_leave_long_walls(towers: list[TowerReading], walls: list[WallReading], solid: np.ndarray,
                                        region: Region, dims: PieceDimensions, axis: float,
                                        cover: KeepCover | None = None) -> list[TeeTower]:
    """Towers (inferred) in the middle of long walls' runs, a short span from the tower each leaves, where the
    carved wall `solid` shows a wall leaving across the run (seen along ACROSS_SEEN of its body, the table beside
    it: `_table_beside`) that no wall read runs along. `cover`: where keeps stand in front."""
    found: list[TeeTower] = []
    short = dims.centre_spacing("short")
    beside = solid if cover is None else solid | cover.walls
    for index, wall in enumerate(walls):
        if wall.kind != "long":
            continue
        start = np.asarray(towers[wall.start].position, float)
        run = _unit(far_end(wall, wall.start, towers) - start)
        middle = start + short * run
        read = _walls_from_candidate(middle, towers, solid, region, dims, axis, cover)
        if read is None:
            continue
        candidate, leaving = read
        across = tuple(w for w in leaving if w.filled >= ACROSS_SEEN
                       and _across_unread(middle, far_end(w, w.start, towers), [run], towers, walls, dims)
                       and _table_beside(middle, far_end(w, w.start, towers), beside, region, dims))
        if across:
            found.append(TeeTower(candidate, index, across))
    return found


def _table_beside(start: np.ndarray, end: np.ndarray, beside: np.ndarray, region: Region,
                  dims: PieceDimensions) -> bool:
    """Whether the table shows beside the run from a tower at `start` towards `end`: a wall's thickness either side
    of its line, `beside` (solid, or a keep in front) on all three rays along at most MAX_SIDE_SOLID of it."""
    way = _unit(end - start)
    side = np.array([-way[1], way[0]]) * dims.wall_thickness
    reach = float(np.linalg.norm(end - start)) - dims.tower_radius
    return all(float(solid_along(beside, region, start + offset, way, dims.tower_radius + 2, reach,
                                 least_rays=3).mean()) <= MAX_SIDE_SOLID for offset in (side, -side))


def _joined_share(point: np.ndarray, a: np.ndarray, b: np.ndarray, solid: np.ndarray, region: Region,
                  dims: PieceDimensions) -> float:
    """Share of the steps (1 mm) from a tower's surface in direction `a` to its surface in direction `b`, through
    its centre `point`, seen solid (`walls.solid_along`: on any of three rays 2 mm apart): a tower there joins the
    walls leaving it those ways (its top at least carved along its walls' line); a gap left for a tower shows the
    table."""
    reach = dims.tower_radius + 0.5
    return float(np.concatenate([solid_along(solid, region, point, d, 0.0, reach) for d in (a, b)]).mean())


def _along_a_wall_read(start: np.ndarray, end: np.ndarray, towers: list[TowerReading], walls: list[WallReading],
                       dims: PieceDimensions) -> bool:
    """Whether the middle of a run from `start` to `end` lies on a wall already read (a wall passing the open end:
    the run found is that wall's body, not another wall in the same tower)."""
    return on_a_wall_read((start + end) / 2, towers, walls, dims)


def _unit(vector: np.ndarray) -> np.ndarray:
    vector = np.asarray(vector, float)
    return vector / max(float(np.linalg.norm(vector)), 1e-9)
