"""Towers standing apart from the castle: left out as specks, and kept aside in case walls join them after all.

The castle is one connected whole (C4): a group of one or two towers away from it is far more likely table texture
or clutter read as pieces than a second castle, and is left out. But a row of towers whose walls the colour classes
lost stands apart too (fresh 15700-009: four towers on a pale pink cloth, their walls taken for its shade). Such
towers, and the walls read from them, are kept aside on the reading (`PhotoReading.apart`); once the look is kept
they are offered again with the walls their tops' step from the table shows (`wall_steps`), first of the mending
(`rebuild`), and kept where the board then breaks no more rules.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from tablesight.calibration.pieces import PieceProfile
from tablesight.scoring.castellan.courtyards import components
from tablesight.vision.castellan.hidden_walls import wall_note, without_open_walls_within
from tablesight.vision.castellan.looks import MAX_SPECK_TOWERS
from tablesight.vision.castellan.reading import PhotoReading, SetApart, board_of
from tablesight.vision.castellan.towers import TowerReading
from tablesight.vision.castellan.wall_steps import walls_seen_by_their_step
from tablesight.vision.castellan.walls import WallReading, span_free


def towers_apart(reading: PhotoReading) -> set[int]:
    """The towers in groups of at most MAX_SPECK_TOWERS standing apart from the castle (its largest group of towers
    joined by walls: `components`, as the rules see them)."""
    board = board_of(reading)
    index = {tower.id: i for i, tower in enumerate(board.towers)}
    groups = [{index[tower_id] for tower_id in group} for group in components(board)]
    if len(groups) < 2:
        return set()
    castle = max(groups, key=len)
    return {i for group in groups if group is not castle and len(group) <= MAX_SPECK_TOWERS for i in group}


def drop_specks(reading: PhotoReading) -> None:
    """Groups of towers standing apart (`towers_apart`) left out, with the walls read from them, kept aside on
    `reading.apart`; counted as stranded and named in the notes."""
    apart = towers_apart(reading)
    if not apart:
        return
    reading.towers, reading.walls, aside = _split(reading.towers, reading.walls, apart)
    reading.apart.towers.extend(aside.towers)
    reading.apart.walls.extend(_shifted(aside.walls, len(reading.apart.towers) - len(aside.towers)))
    reading.stranded += len(apart)
    reading.notes.append(apart_note(len(apart)))


def join_apart_by_steps(reading: PhotoReading, profile: PieceProfile, axis: float) -> int:
    """The towers set apart (`reading.apart`) offered again, with the walls seen by their top's step from the table
    (`wall_steps`) from them to the castle or to each other. Not open walls running into them: a speck read at an
    open wall's end would join the castle so (fresh 14800-015, its board exact until then). Those then joined to
    the castle stay, no longer stranded, named in the notes (each step wall a doubt: `WallReading.by_step`); the
    rest are set apart again. Returns how many joined (the caller judges the board, and puts it back if it breaks
    more rules)."""
    aside = reading.apart
    if not aside.towers or reading.view is None or _overlap(reading.towers, aside.towers, profile):
        return 0
    base = len(reading.towers)
    reading.towers = [*reading.towers, *aside.towers]
    reading.walls = [*reading.walls, *_shifted(aside.walls, base)]
    _add_step_walls_from(reading, base, profile, axis)
    reading.towers, reading.walls, reading.apart = _split(reading.towers, reading.walls, towers_apart(reading))
    joined = len(aside.towers) - len(reading.apart.towers)
    reading.stranded -= joined
    reading.notes[:] = [note for note in reading.notes if note != apart_note(len(aside.towers))]
    if reading.apart.towers:
        reading.notes.append(apart_note(len(reading.apart.towers)))
    reading.notes.extend(wall_note(w, reading, "seen only by its top's step from the table, was read",
                                   "it joins towers standing apart to the castle")
                         for w in reading.walls if w.by_step and max(w.start, w.end) >= base)
    return joined


def _overlap(towers: list[TowerReading], others: list[TowerReading], profile: PieceProfile) -> bool:
    """Whether any of `others` stands where one of `towers` does (a tower set apart on one look's reading and taken
    back from the first look's since)."""
    if not towers:
        return False
    here = np.array([t.position for t in towers], float)
    there = np.array([t.position for t in others], float)
    gaps = np.linalg.norm(here[:, None, :] - there[None, :, :], axis=2)
    return bool(np.any(gaps < 2 * profile.dimensions.tower_radius))


def _add_step_walls_from(reading: PhotoReading, first: int, profile: PieceProfile, axis: float) -> None:
    """The walls seen by their step (`walls_seen_by_their_step`) leaving a tower from index `first` on, added in place
    of the open walls they take in, each while its span is still free."""
    dims = profile.dimensions
    positions = np.array([t.position for t in reading.towers], float)
    for wall in list(walls_seen_by_their_step(reading.view, reading.towers, reading.walls, profile, axis, first)):
        closed = [w for w in reading.walls if w.end is not None]
        if span_free(wall.start, wall.end, wall.kind, positions, reading.towers, closed, dims):
            reading.walls = [*without_open_walls_within(reading, wall), wall]


def apart_note(count: int) -> str:
    """The note naming towers left out as standing apart."""
    return (f"left out {count} tower(s) standing apart from the castle in groups of at most {MAX_SPECK_TOWERS} "
            f"(more likely a misreading than a second castle)")


def _split(towers: list[TowerReading], walls: list[WallReading],
           apart: set[int]) -> tuple[list[TowerReading], list[WallReading], SetApart]:
    """The towers and walls not apart, and those apart (each list's walls indexing its own towers)."""
    keep = [i for i in range(len(towers)) if i not in apart]
    aside = sorted(apart)
    kept_index = {old: new for new, old in enumerate(keep)}
    aside_index = {old: new for new, old in enumerate(aside)}

    def reindexed(wall: WallReading, index: dict[int, int]) -> WallReading:
        return replace(wall, start=index[wall.start], end=None if wall.end is None else index[wall.end])

    return ([towers[i] for i in keep], [reindexed(w, kept_index) for w in walls if w.start in kept_index],
            SetApart([towers[i] for i in aside], [reindexed(w, aside_index) for w in walls if w.start in aside_index]))


def _shifted(walls: list[WallReading], by: int) -> list[WallReading]:
    """The walls with their towers' indices moved on by `by` (their towers put after `by` others)."""
    return [replace(w, start=w.start + by, end=None if w.end is None else w.end + by) for w in walls]
