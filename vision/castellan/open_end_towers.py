"""Towers where the open walls read once the look is kept end.

Towers where open walls end are looked for while each look is read (`PieceInference.add_towers_at_open_ends`), but
the kept reading's open walls are read again after that: across short breaks, past a neighbour's shade, grown from
short to long (`rebuild`). A wall read on so may end where a tower stands that nothing looked for there (fresh
14700-004: an open short wall grown long ends at a tower 4.8 mm in radius on a look carving the walls 1.7 mm wide;
the long wall beyond it and its far tower were lost with it). Towers are looked for again at every open end, in the
footprints carved from a tower's and a wall's height, as wide as the photo's walls ask (`towers.open_end_bar`) and
standing out as much as `find_towers` asks, and kept where the board then breaks no more rules. The walls read from
each tower found may end at another: looked for again (MAX_ROUNDS). Only here, on the kept reading: asked of each
look's own reading, that width changed which look was kept (sample 002 lost its exact board).

An open wall whose run stops past a short wall's reach is read long (`walls._read_socket`); a short wall and the tower
it ends in run as far, the tower's top leaning on past it in a tilted view. Where an open long wall's run stops short of
a long wall's body, a tower is looked for a short span out too (`towers_short_of_open_long_walls`).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from tablesight.calibration.pieces import PieceProfile
from tablesight.scoring.castellan.pieces import PieceDimensions
from tablesight.vision.castellan.inferred_pieces import PieceInference
from tablesight.vision.castellan.reading import PhotoReading, board_of, pose_known, rules_broken_now
from tablesight.vision.castellan.thin_towers import THIN_SHARE
from tablesight.vision.castellan.towers import MIN_PROMINENCE_SHARE, TowerReading, median_seen_radius
from tablesight.vision.castellan.walls import WallReading

# A tower found so has its other walls read, which may end open at a tower of their own (a branch of the castle):
# looked for again, this many times at most.
MAX_ROUNDS = 3
# An open long wall seen along less of its body than this may be a short wall and the tower it ends in (their run
# stops a tower's width and lean past the short span: fresh 16300-003 and -011, 0.74 and 0.76 of a long wall's body,
# a tower unread at the short span each; open long walls read right measure 0.9-1.0 but for a few at 0.70-0.81).
# The tower is asked to be as wide as the photo's own (`thin_towers.THIN_SHARE` of their median radius): a long wall's
# end fattened by its shadow on a checked cloth (fresh 14900-022) or walls fattened on a grey table at 37° (sample
# 062) carve a tower's width as `find_towers` asks it anywhere, 6.6-7.0 mm, where 16300-011's tower carves 10.3 mm.
SHORT_RUN_SEEN = 0.85


def towers_at_late_open_ends(reading: PhotoReading, profile: PieceProfile) -> None:
    """Towers where the kept reading's open walls end, each named in the notes (see the module's docstring); the
    board made again if any is kept."""
    if not _carved_and_placed(reading):
        return
    dims = profile.dimensions
    broken = rules_broken_now(reading, dims)
    towers, walls = list(reading.towers), list(reading.walls)
    inference = PieceInference(profile)
    for _ in range(MAX_ROUNDS):
        before = len(reading.towers)
        for carved in (reading.tower_solid, reading.wall_solid):
            if any(wall.end is None for wall in reading.walls):
                inference.add_towers_at_open_ends(carved, reading.wall_solid, reading.region, reading.planes,
                                                  reading, prominence_share=MIN_PROMINENCE_SHARE, wide_as_walls=True)
        if len(reading.towers) == before:
            break
    _kept_if_no_worse(reading, dims, towers, walls, broken, "where an open wall read on once the look was kept ends "
                                                             "(walls join towers)")


def towers_short_of_open_long_walls(reading: PhotoReading, profile: PieceProfile) -> None:
    """Each open long wall seen along less than SHORT_RUN_SEEN of its body read as the short wall to a tower a short
    span out, where a tower top as wide as the photo's towers is found there (`PieceInference.add_towers_at_open_ends`,
    which looks at the reading's other open ends too, as widely): kept where the board then breaks no more rules, each
    named in the notes. Those where none is found stay long."""
    if not _carved_and_placed(reading):
        return
    dims = profile.dimensions
    short = {i: _shortened(reading, wall, dims.centre_spacing("short")) for i, wall in enumerate(reading.walls)
             if wall.kind == "long" and wall.end is None and wall.filled < SHORT_RUN_SEEN}
    if not short:
        return
    broken = rules_broken_now(reading, dims)
    towers, walls = list(reading.towers), list(reading.walls)
    longs = {(wall.start, short[i].open_point): wall for i, wall in enumerate(walls) if i in short}
    reading.walls = [short.get(i, wall) for i, wall in enumerate(walls)]
    inference = PieceInference(profile)
    # In the footprint carved at the towers' tops, as wide as the photo's towers, but standing out from its wall by
    # nothing: its top's lean along the wall hides the widening `find_towers` asks.
    inference.add_towers_at_open_ends(reading.tower_solid, reading.wall_solid, reading.region, reading.planes, reading,
                                      prominence_share=0.0,
                                      min_radius_mm=THIN_SHARE * median_seen_radius(reading.towers))
    # Where no tower was found a short span out, the wall stays as it was read.
    reading.walls = [longs.get((wall.start, wall.open_point), wall) if wall.end is None else wall
                     for wall in reading.walls]
    _kept_if_no_worse(reading, dims, towers, walls, broken,
                      "where an open wall's run stops short of a long wall's body: read as the short wall to it")


def _carved_and_placed(reading: PhotoReading) -> bool:
    """Whether a reading has a board, its carved footprints and keep planes, and a known pose to look for towers by."""
    return (reading.board is not None and reading.tower_solid is not None and reading.wall_solid is not None
            and reading.planes is not None and pose_known(reading))


def _kept_if_no_worse(reading: PhotoReading, dims: PieceDimensions, towers: list[TowerReading],
                      walls: list[WallReading], broken: int, where: str) -> None:
    """The towers added to the reading since it held `towers` and `walls` kept, each named in the notes as read
    `where`, and its board made again, if it breaks no more rules than `broken`; else `towers` and `walls` put back."""
    if len(reading.towers) == len(towers):
        return
    if rules_broken_now(reading, dims) > broken:
        reading.towers, reading.walls = towers, walls
        return
    for tower in reading.towers[len(towers):]:
        reading.notes.append(f"a tower at ({tower.x:.0f}, {tower.y:.0f}) mm was read {where} — check it")
    reading.board = board_of(reading)


def _shortened(reading: PhotoReading, wall: WallReading, span: float) -> WallReading:
    """An open wall read as an open short wall along the same socket: its missing tower `span` out."""
    origin = np.asarray(reading.towers[wall.start].position, float)
    reach = np.asarray(wall.open_point, float) - origin
    end = origin + reach / max(float(np.linalg.norm(reach)), 1e-9) * span
    return replace(wall, kind="short", open_point=(float(end[0]), float(end[1])))
