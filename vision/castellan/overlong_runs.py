"""Towers in a run of wall longer than any wall: an open long wall whose strip runs on past its end.

An open wall is read as long as the carved strip leaving its tower, up to a long wall's reach. Where the strip runs on
past that reach, solid across a wall's length more, no one wall covers it: walls only join towers (C1), so a tower
stands in the run, lost by the carving (a tower beside a keep on a table of the pieces' grey: fresh 14900-010, its
third wall behind the keep; or at the long wall's end, the strip beyond another wall read open from the far side:
sample 004). A short and a long wall make the same run whichever comes first, so the run's length says a tower is
there, not where: that is told by height (`towers_in_long_walls.height_step`), at a short span along the run (the
long wall is a short one and a tower) and at a long span (the long wall reaches a tower). The height may be told less
surely than where nothing says a tower is there at all (`box_count_splits`' thresholds).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from tablesight.calibration.pieces import PieceProfile
from tablesight.vision.castellan.box_count_splits import BOX_TOWER_SEEN, BOX_TOWER_STEP
from tablesight.vision.castellan.box_limits import long_walls_over_the_box, short_walls_over_the_box
from tablesight.vision.castellan.carving import PixelClasses, keep_coloured
from tablesight.vision.castellan.hidden_walls import walls_hidden
from tablesight.vision.castellan.reading import PhotoReading, board_of, pose_known, rules_broken_now
from tablesight.vision.castellan.towers import TowerReading, tower_stands_within_reach
from tablesight.vision.castellan.towers_in_long_walls import MIN_HEIGHT_GAP_MM, height_step
from tablesight.vision.castellan.walls import (
    OPEN_RUN_GAP_SHARE,
    WallReading,
    bridged_run,
    castle_axis,
    find_walls,
    meeting_distance,
    merged_walls,
    open_walls_at_free_sockets,
    solid_along,
    split_at_towers_in_runs,
)
from tablesight.vision.table_view import Region, TableView

# Beyond a long wall's reach the strip runs on solid at least this share of a short wall's length: the least an open
# wall is read from (`walls._read_socket`). Across the cross wall of a T or a corner it runs only a wall's thickness.
MIN_BEYOND_SHARE = 0.75
# The strip's middle is looked for this far (mm) either side of the open wall's line, a wall's thickness and more, in
# this many places at least along it (2 mm apart).
STRIP_REACH_MM = 10.0
MIN_STRIP_ROWS = 10
STRIP_OUTLIER_MM = 3.0  # a middle this far off the first line fitted is something else's (refitted without)


@dataclass(frozen=True)
class TowerInOverlongRun:
    tower: TowerReading  # inferred, in the run (`in_run`): check it
    wall: int  # index of the open long wall whose strip runs on
    at_end: bool  # at the long wall's reach (it reaches the tower); else a short span along (a short wall to it)
    step: tuple[float, float]  # how the tower shows above the walls there (`height_step`)
    runs_on_mm: float  # how far the strip runs on past the long wall's body


def towers_in_overlong_runs(view: TableView, classes: PixelClasses, towers: list[TowerReading],
                            walls: list[WallReading], solid: np.ndarray, region: Region,
                            profile: PieceProfile) -> list[TowerInOverlongRun]:
    """For each open long wall whose carved strip (`solid`) runs on past its reach (`runs_on_mm`), the tower in its
    run where a tower shows above the walls most, at a short span or a long span along it; none where neither shows
    BOX_TOWER_STEP and BOX_TOWER_SEEN, or where towers stand too little above the walls to be told by height."""
    dims = profile.dimensions
    if profile.tower_height - profile.wall_height < MIN_HEIGHT_GAP_MM:
        return []
    hidden = keep_coloured(classes)
    found = []
    for index, wall in enumerate(walls):
        if wall.kind != "long" or wall.end is not None or wall.inferred:
            continue
        start = np.asarray(towers[wall.start].position, float)
        u = np.asarray(wall.open_point, float) - start
        u /= max(float(np.linalg.norm(u)), 1e-9)
        beyond = runs_on_mm(solid, region, start, u, profile)
        if beyond < MIN_BEYOND_SHARE * dims.short_wall_length:
            continue
        places = []
        for at_end, span in ((False, dims.centre_spacing("short")), (True, dims.centre_spacing("long"))):
            point = start + span * u
            if tower_stands_within_reach(point, towers, dims):
                continue
            step = height_step(view, classes.grey, hidden, point, u, profile)
            if step is not None:
                places.append((step, at_end, point))
        if not places:
            continue
        step, at_end, point = max(places, key=lambda place: place[0][0])
        if step[0] >= BOX_TOWER_STEP and step[1] >= BOX_TOWER_SEEN:
            # Told on the open wall's line, as the thresholds were fitted; placed on the strip's.
            span = np.linalg.norm(point - start)
            point = point + _strip_offset(solid, region, start, u, span, beyond, profile) * np.array([-u[1], u[0]])
            tower = TowerReading(float(point[0]), float(point[1]), dims.tower_radius, in_run=True)
            found.append(TowerInOverlongRun(tower, index, at_end, step, beyond))
    return found


def _strip_offset(solid: np.ndarray, region: Region, start: np.ndarray, u: np.ndarray, span: float, beyond: float,
                  profile: PieceProfile) -> float:
    """How far across `u` (mm, to its left) the run's carved strip passes `span` along it from `start`: the line
    through the strip's middle, fitted along the wall's body and the run `beyond` it (a wall leaving it across, or a
    keep beside it, is taken off as an outlier). The open wall's direction is read
    from its body alone, and a degree or two off it puts the tower in the run a few mm aside its walls, too far for
    the walls beyond to be read from its sockets (fresh 15000-002, 11°: 4.5 mm, the open long wall beyond lost)."""
    dims = profile.dimensions
    along = np.arange(dims.tower_radius + 4.0, dims.centre_spacing("long") - dims.tower_radius + beyond, 2.0)
    along = along[np.abs(along - span) > dims.tower_radius + 2.0]  # the tower itself is wider than its walls
    across = np.arange(-STRIP_REACH_MM, STRIP_REACH_MM + 0.5, 1.0)
    normal = np.array([-u[1], u[0]])
    points = start + along[:, None, None] * u + across[None, :, None] * normal
    seen = region.sample(solid, points).astype(bool)
    rows = seen.sum(axis=1) > 0
    if rows.sum() < MIN_STRIP_ROWS:
        return 0.0
    middles = (seen[rows] * across).sum(axis=1) / seen[rows].sum(axis=1)
    along = along[rows]
    slope, offset = np.polyfit(along, middles, 1)
    close = np.abs(middles - (slope * along + offset)) <= STRIP_OUTLIER_MM
    if close.sum() >= MIN_STRIP_ROWS:
        slope, offset = np.polyfit(along[close], middles[close], 1)
    return float(np.clip(slope * span + offset, -STRIP_REACH_MM / 2, STRIP_REACH_MM / 2))


def runs_on_mm(solid: np.ndarray, region: Region, start: np.ndarray, u: np.ndarray, profile: PieceProfile) -> float:
    """How far (mm) the carved strip of an open long wall from `start` along `u` runs on past the long wall's body,
    across breaks of OPEN_RUN_GAP_SHARE of a tower's width: looked at as far as a short wall from a tower at its
    end would reach."""
    dims = profile.dimensions
    body_end = dims.centre_spacing("long") - dims.tower_radius
    beyond = solid_along(solid, region, start, u, body_end, body_end + dims.tower_diameter + dims.short_wall_length)
    return bridged_run(beyond, OPEN_RUN_GAP_SHARE * dims.tower_diameter)


def read_towers_in_overlong_runs(reading: PhotoReading, profile: PieceProfile) -> None:
    """Each tower in an overlong run (`towers_in_overlong_runs`) added to the kept reading, its open long wall giving
    way to the walls then read from the tower's sockets and its neighbours' (and those hidden behind keeps that join
    it), where the board then breaks no more rules and the boxes hold no fewer of the walls; named in the notes, the
    tower listed to check."""
    if (reading.board is None or reading.classes is None or reading.view is None or reading.wall_solid is None
            or reading.planes is None or not pose_known(reading)):
        return
    found = towers_in_overlong_runs(reading.view, reading.classes, reading.towers, reading.walls, reading.wall_solid,
                                    reading.region, profile)
    for run, wall in [(run, reading.walls[run.wall]) for run in found]:
        if any(w is wall for w in reading.walls):  # not given way to an earlier run's tower
            _join_tower_in_run(reading, run, wall, profile)


def _join_tower_in_run(reading: PhotoReading, run: TowerInOverlongRun, wall: WallReading,
                       profile: PieceProfile) -> None:
    """The run's tower added to the reading in place of its open long `wall`, with the walls then read from its
    sockets, its start tower's and those of open walls ending where it stands; undone where the board breaks more
    rules or the boxes hold fewer of the walls."""
    dims = profile.dimensions
    broken, before, over = rules_broken_now(reading, dims), (reading.towers, reading.walls), _over_the_box(reading)
    index, point = len(reading.towers), run.tower.position
    towers = reading.towers + [run.tower]
    kept = [w for w in reading.walls if w is not wall]
    meeting = {w.start for w in kept if w.end is None and math.dist(w.open_point, point) < meeting_distance(dims)}
    axis = castle_axis(towers, dims, reading.wall_solid, reading.region)
    again = find_walls(towers, reading.wall_solid, reading.region, dims, axis, cover=reading.planes.cover,
                       only={index, wall.start} | meeting)
    walls = merged_walls(kept, again, towers)
    walls += open_walls_at_free_sockets(walls, [w for w in again if w.start == index], towers)
    reading.towers, reading.walls = towers, split_at_towers_in_runs(towers, walls, dims)
    reading.walls += [w for w in walls_hidden(reading, reading.wall_solid, reading.region, reading.planes, dims)
                      if index in (w.start, w.end)]
    if rules_broken_now(reading, dims) > broken or _over_the_box(reading) > over:
        reading.towers, reading.walls = before
        return
    where = "at the end of" if run.at_end else "in"
    reading.notes.append(f"a tower at ({point[0]:.0f}, {point[1]:.0f}) mm was inferred {where} an open long wall's "
                         f"run: its strip runs on {run.runs_on_mm:.0f} mm past the wall's reach (no wall is that long, "
                         f"walls only join towers), and a tower's top shows above the walls there — check it")
    reading.board = board_of(reading)


def _over_the_box(reading: PhotoReading) -> int:
    """How many more short walls, and long ones, the reading has than the boxes in play hold."""
    return (max(0, short_walls_over_the_box(reading.towers, reading.walls, reading.keep_colours))
            + max(0, long_walls_over_the_box(reading.towers, reading.walls, reading.keep_colours)))
