"""Long walls over the box's count: while a reading has more long walls than the boxes in play hold (`box_limits`),
a long wall is taken to be the two short walls it more likely is (the rules as evidence: a box's count is fixed), where
the photo says where the two meet. Three tellings, surest first: the table seen across the run's middle (two open short
walls meeting at a tower's gap), a tower's top seen standing above the walls there, a keep hiding the middle (a tower
behind it, with the walls hidden there that then join it).

Run once the look is kept (`rebuild`), each kept only where the board then breaks no more rules, each named in the
notes and listed to check.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from tablesight.calibration.pieces import PieceDimensions, PieceProfile
from tablesight.vision.castellan.box_limits import long_walls_over_the_box, short_walls_over_the_box
from tablesight.vision.castellan.hidden_walls import hidden_wall_note, walls_hidden
from tablesight.vision.castellan.reading import PhotoReading, board_of, pose_known, put_if_no_worse
from tablesight.vision.castellan.towers import TowerReading
from tablesight.vision.castellan.towers_in_long_walls import long_wall_middles
from tablesight.vision.castellan.wall_gaps import as_two_open_short_walls
from tablesight.vision.castellan.walls import WallReading, middle_gap_mm, split_at

# A long wall read over the box's count whose middle shows the table across most of its width this far (mm) is two
# open short walls meeting at a tower's gap (fresh 13900-029: 6 mm; merlons' shade breaks a wall's top for 1-4 mm).
MIN_MIDDLE_GAP_MM = 5.0
# ... and one whose middle shows a tower's top standing above the walls at least this much more often than its
# halves' middles do, and this often (`towers_in_long_walls.height_step`; without the box's word a tower takes 0.35 and
# 0.75), is the two short walls and the tower it is (fresh 14500-026, 40°: 0.31 and 0.71, its castle's 39 plain long
# walls 0.05 at most).
BOX_TOWER_STEP, BOX_TOWER_SEEN = 0.2, 0.5


def long_walls_split_to_the_box_count(reading: PhotoReading, profile: PieceProfile) -> None:
    """The reading's long walls over the box's count read as two short walls each, where the photo tells where: at a
    gap in the middle, at a tower seen there, at a tower hidden there behind a keep (in that order)."""
    _long_walls_over_the_box(reading, profile)
    _long_walls_over_the_box_split_at_towers(reading, profile)
    _long_walls_over_the_box_split_behind_keeps(reading, profile)


def _long_walls_over_the_box(reading: PhotoReading, profile: PieceProfile) -> None:
    """While the reading has more long walls than the boxes in play hold, the long wall whose middle shows the
    table widest across most of its width (`middle_gap_mm`, MIN_MIDDLE_GAP_MM at least) read as the two open short
    walls meeting there that it is, where the board then breaks fewer rules; named in the notes."""
    if reading.board is None or reading.wall_solid is None or reading.region is None:
        return
    dims = profile.dimensions
    while long_walls_over_the_box(reading.towers, reading.walls, reading.keep_colours) > 0:
        gaps = [(middle_gap_mm(reading.wall_solid, reading.region, reading.towers[w.start].position,
                               reading.towers[w.end].position, dims), i)
                for i, w in enumerate(reading.walls)
                if w.kind == "long" and w.end is not None and not w.inferred and not w.middle_hidden]
        gap, index = max(gaps, default=(0.0, -1))
        if gap < MIN_MIDDLE_GAP_MM:
            return
        middle = tuple(float(v) for v in _middle(reading, reading.walls[index]))
        split = as_two_open_short_walls(reading.walls, index, middle)
        if not put_if_no_worse(reading, dims, reading.towers, split, strictly_better=True):
            return
        reading.notes.append(f"the long wall read through ({middle[0]:.0f}, {middle[1]:.0f}) mm, over the box's count "
                             f"of long walls, shows the table {gap:.0f} mm across its middle: read as two open short "
                             f"walls meeting at a tower's gap")
        reading.board = board_of(reading)


def _long_walls_over_the_box_split_at_towers(reading: PhotoReading, profile: PieceProfile) -> None:
    """While the reading still has more long walls than the boxes in play hold, the long wall whose middle shows a
    tower's top above the walls most (`height_step`: BOX_TOWER_STEP and BOX_TOWER_SEEN at least, short of what reads
    a tower there without the box's word) read as the two short walls and the tower it is, where the box holds
    those short walls and the board then breaks no more rules; named in the notes, the tower listed to check."""
    if reading.board is None or reading.classes is None or reading.view is None or not pose_known(reading):
        return
    dims = profile.dimensions
    while long_walls_over_the_box(reading.towers, reading.walls, reading.keep_colours) > 0:
        runs = [run for run in long_wall_middles(reading.view, reading.classes, reading.towers, reading.walls, profile)
                if reading.walls[run.wall].end is not None and not reading.walls[run.wall].inferred]
        best = max(runs, key=lambda run: run.step[0], default=None)
        if best is None or best.step[0] < BOX_TOWER_STEP or best.step[1] < BOX_TOWER_SEEN:
            return
        index, middle = best.wall, best.middle
        wall, joined = reading.walls[index], len(reading.towers)
        towers = reading.towers + [TowerReading(float(middle[0]), float(middle[1]), dims.tower_radius, in_run=True)]
        walls = [w for i, w in enumerate(reading.walls) if i != index] + [
            replace(wall, kind="short", end=joined), replace(wall, kind="short", start=joined)]
        if (short_walls_over_the_box(towers, walls, reading.keep_colours) > 0
                or not put_if_no_worse(reading, dims, towers, walls)):
            return
        reading.notes.append(f"a tower at ({middle[0]:.0f}, {middle[1]:.0f}) mm, its top seen above the walls in the "
                             f"middle of a long wall's run, was read: the boxes hold one long wall fewer than read, "
                             f"and the run is two short walls and it — check it")
        reading.board = board_of(reading)


@dataclass(frozen=True)
class RunSplitBehindKeep:
    """A reading's towers and walls with a long wall split at its middle by a tower behind a keep, the walls hidden
    behind keeps that then join that tower (`walls_behind_keeps`), and that tower's index (inferred, or one already
    there)."""

    towers: list[TowerReading]
    walls: list[WallReading]
    hidden: list[WallReading]
    tower: int


def _long_walls_over_the_box_split_behind_keeps(reading: PhotoReading, profile: PieceProfile) -> None:
    """While the reading still has more long walls than the boxes in play hold, a long wall whose middle keeps hide
    (`WallReading.middle_hidden`) read as two short walls and a tower hidden behind the keep, where the box holds
    those short walls and the board then breaks no more rules. Of several such walls, the one from whose middle the
    most walls hidden behind keeps then join a tower a span away (a T behind the keep: sample 020, a tower and its
    third wall behind a red keep, the wall through read long); none where two tie (fresh 13800-016: the wrong one of
    two taken). The tower and walls inferred are named in the notes and listed to check."""
    if reading.board is None or reading.planes is None or reading.wall_solid is None or not pose_known(reading):
        return
    dims = profile.dimensions
    while long_walls_over_the_box(reading.towers, reading.walls, reading.keep_colours) > 0:
        splits = [split for index, wall in enumerate(reading.walls)
                  if wall.kind == "long" and wall.middle_hidden and wall.end is not None and not wall.inferred
                  and (split := _split_behind_keep(reading, index, dims)) is not None]
        splits.sort(key=lambda s: -len(s.hidden))
        if not splits or any(len(other.hidden) == len(splits[0].hidden) and not _same_tower(other, splits[0])
                             for other in splits[1:]):
            return  # none, or no telling which (each stays listed to check)
        split = splits[0]
        how = "inferred" if split.tower == len(reading.towers) else "joined"
        if not put_if_no_worse(reading, dims, split.towers, split.walls + split.hidden):
            return
        middle = split.towers[split.tower]
        reading.notes.append(f"a tower at ({middle.x:.0f}, {middle.y:.0f}) mm, hidden behind a keep in the middle of a "
                             f"long wall's run, was {how}: the boxes hold one long wall fewer than read, and the "
                             f"run is two short walls and it — check it")
        reading.notes.extend(hidden_wall_note(w, reading, "it joins that tower a span away") for w in split.hidden)
        reading.board = board_of(reading)


def _split_behind_keep(reading: PhotoReading, index: int, dims: PieceDimensions) -> RunSplitBehindKeep | None:
    """Long wall `index` split at its middle by a tower inferred behind a keep (or one already there), with the walls
    then hidden behind keeps from that tower; None where the boxes hold too few short walls for them. A long wall
    crossing it there is split at that tower too: two long walls crossing behind one keep are four short walls
    meeting at the tower it hides (fresh 16200-008: the second left whole, a hidden wall was inferred along its
    half)."""
    middle = _middle(reading, reading.walls[index])
    joined = _tower_at(reading.towers, middle, dims.tower_radius)
    towers = reading.towers
    if joined is None:
        joined = len(towers)
        towers = towers + [TowerReading(float(middle[0]), float(middle[1]), dims.tower_radius, inferred=True)]
    crossing = [i for i, w in enumerate(reading.walls) if i == index or (
        w.kind == "long" and w.end is not None and np.hypot(*(_middle(reading, w) - middle)) < dims.tower_radius)]
    walls = [w for i, w in enumerate(reading.walls) if i not in crossing]
    walls += [half for i in crossing for half in split_at(reading.walls[i], joined)]
    split = replace(reading, towers=towers, walls=walls)
    hidden = [w for w in walls_hidden(split, reading.wall_solid, reading.region, reading.planes, dims)
              if joined in (w.start, w.end)]
    if short_walls_over_the_box(towers, walls + hidden, reading.keep_colours) > 0:
        return None
    return RunSplitBehindKeep(towers, walls, hidden, joined)


def _same_tower(one: RunSplitBehindKeep, other: RunSplitBehindKeep) -> bool:
    """Whether two splits put their middle tower in one place (two long walls crossing there, split alike)."""
    a, b = one.towers[one.tower], other.towers[other.tower]
    return bool(np.hypot(a.x - b.x, a.y - b.y) < a.radius_mm)


def _middle(reading: PhotoReading, wall: WallReading) -> np.ndarray:
    """The table point (mm) halfway between a joined wall's two towers."""
    return (np.asarray(reading.towers[wall.start].position, float) + reading.towers[wall.end].position) / 2


def _tower_at(towers: list[TowerReading], point: np.ndarray, radius: float) -> int | None:
    """The index of the tower standing within `radius` of `point`, if any."""
    near = [i for i, t in enumerate(towers) if np.hypot(t.x - point[0], t.y - point[1]) < radius]
    return near[0] if near else None
