"""The box as evidence: a reading with more short walls than the box holds has split a long wall.

A long wall is two short spans long, so the two ways a photo splits one are a false tower
in its middle (a bump of its crenellation or shadow read as a tower: one tower and two
short walls for one long wall) and a gap in its middle (two short walls from its towers,
open ends meeting where no tower stands). Either reading may be a real castle in mid-game,
so they are mended only while the reading has more short walls than the boxes hold
(`BOX_CONTENTS`, the boxes implied by the keep colours) — and, for a false tower, more
towers too; towers over half a box more than it holds are another box in play, not misreadings.
Each mend is named in the notes.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from tablesight.scoring.castellan.pieces import BOX_CONTENTS, PieceDimensions, boxes_in_play
from tablesight.vision.castellan.towers import DOUBTED_SHARE, TowerReading, median_seen_radius
from tablesight.vision.castellan.walls import WallReading, far_end

OPPOSITE_COSINE = -0.95  # two walls leaving a point this close to opposite directions are in line
SPAN_SLACK = 0.15  # the towers of a long wall mended from two short ones: a long span apart, within this share
# Towers over the boxes by more than this share of a box are not misreadings: another box is in play, whose
# player has no keep on the table yet (the boxes are otherwise inferred from the keep colours).
MAX_MISREAD_SHARE = 0.5


def mend_split_long_walls(towers: list[TowerReading], walls: list[WallReading], colours: set[str],
                          dims: PieceDimensions) -> tuple[list[TowerReading], list[WallReading], list[str]]:
    """Towers, walls and notes with split long walls joined while the box says some must be."""
    boxes = boxes_held(towers, colours)
    limit = BOX_CONTENTS["short_walls"] * boxes
    notes: list[str] = []
    while _count(walls, "short") > limit:
        if len(towers) > BOX_CONTENTS["towers"] * boxes and (mended := _without_false_tower(towers, walls)):
            towers, walls, note = mended
        elif mended := _gap_closed(towers, walls, dims):
            walls, note = mended
        else:
            break
        notes.append(note + f" ({'the boxes hold' if boxes > 1 else 'the box holds'} only {limit} short walls)")
    return towers, walls, notes


def boxes_held(towers: list[TowerReading], colours: set[str]) -> int:
    """The boxes in play: those the keep colours imply (`boxes_in_play`), or more where the towers read are over
    them by more than MAX_MISREAD_SHARE of a box."""
    return max(boxes_in_play(colours), math.ceil(len(towers) / (BOX_CONTENTS["towers"] * (1 + MAX_MISREAD_SHARE))))


def box_holds_another_long_wall(towers: list[TowerReading], walls: list[WallReading], colours: set[str]) -> bool:
    """Whether the boxes in play hold one long wall more than `walls` has."""
    return _count(walls, "long") < BOX_CONTENTS["long_walls"] * boxes_held(towers, colours)


def short_walls_over_the_box(towers: list[TowerReading], walls: list[WallReading], colours: set[str]) -> int:
    """How many short walls more than the boxes in play hold `walls` has (0 or fewer: none)."""
    return _count(walls, "short") - BOX_CONTENTS["short_walls"] * boxes_held(towers, colours)


def long_walls_over_the_box(towers: list[TowerReading], walls: list[WallReading], colours: set[str]) -> int:
    """How many long walls more than the boxes in play hold `walls` has (0 or fewer: none)."""
    return _count(walls, "long") - BOX_CONTENTS["long_walls"] * boxes_held(towers, colours)


def _count(walls: list[WallReading], kind: str) -> int:
    return sum(w.kind == kind for w in walls)


def _in_line(here: np.ndarray, a: np.ndarray, b: np.ndarray) -> bool:
    u, v = a - here, b - here
    return float(u @ v) < OPPOSITE_COSINE * float(np.linalg.norm(u) * np.linalg.norm(v))


def towers_between_short_walls(towers: list[TowerReading], walls: list[WallReading]
                               ) -> list[tuple[int, tuple[int, int]]]:
    """Each tower with only two walls, both short and in line (a long wall's length), and their indices:
    where a long wall may have been read as a tower and two short walls. At least one wall reaches a tower
    beyond it: a long wall open at both ends would hang on nothing."""
    found = []
    for i, tower in enumerate(towers):
        mine = [n for n, w in enumerate(walls) if i in (w.start, w.end)]
        if len(mine) != 2 or any(walls[n].kind != "short" for n in mine):
            continue
        held = [walls[n].start != i or walls[n].end is not None for n in mine]  # reaching a tower beyond it
        if not any(held):
            continue
        here = np.asarray(tower.position, float)
        if _in_line(here, far_end(walls[mine[0]], i, towers), far_end(walls[mine[1]], i, towers)):
            found.append((i, (mine[0], mine[1])))
    return found


def run_joined(towers: list[TowerReading], walls: list[WallReading], tower: int, pair: tuple[int, int]
               ) -> tuple[list[TowerReading], list[WallReading]]:
    """The towers without `tower` and the walls with its two short walls `pair` made one long wall."""
    first, second = pair
    long_wall = _joined(walls[first], walls[second], tower)
    kept = [w for n, w in enumerate(walls) if n not in (first, second)] + [long_wall]
    index = {old: new for new, old in enumerate(j for j in range(len(towers)) if j != tower)}
    renumbered = [replace(w, start=index[w.start], end=None if w.end is None else index[w.end]) for w in kept]
    return [t for j, t in enumerate(towers) if j != tower], renumbered


def _without_false_tower(towers: list[TowerReading], walls: list[WallReading]):
    """The least tower-like tower with only two short walls, in line, taken away and its walls made one
    long wall; or None. Told by its footprint's width as a share of the photo's median tower; a tower whose
    footprint was not measured (read by its top in a long wall's run, inferred behind a keep) counts as
    DOUBTED_SHARE, as wide as a tower doubted for thinness: its radius is the profile's, which says nothing
    of this photo (fresh 13200-002: towers measured 17.7 mm at the median, a true tower read by its top kept
    at the profile's 12 mm was taken away before a false one measured 13.8). A tower wider than that is not
    taken away (fresh 13100-007: one at 0.94 of the median went to a short wall misread elsewhere)."""
    median = median_seen_radius(towers)

    def width_share(tower: TowerReading) -> float:
        return tower.radius_mm / median if tower.footprint_seen and median > 0 else DOUBTED_SHARE

    # A tower as wide as the castle's others is one, whatever the count says: another piece is misread.
    candidates = [c for c in towers_between_short_walls(towers, walls)
                  if width_share(towers[c[0]]) <= DOUBTED_SHARE]
    if not candidates:
        return None
    i, pair = min(candidates, key=lambda c: (width_share(towers[c[0]]), c[0]))
    t = towers[i]
    note = (f"the tower read at ({t.x:.0f}, {t.y:.0f}) mm in the middle of a long wall was left out, "
            f"its two short walls read as that long wall")
    return *run_joined(towers, walls, i, pair), note


def _joined(a: WallReading, b: WallReading, middle: int) -> WallReading:
    """One long wall through `middle` from the two short walls meeting there."""
    ends = [w.start if w.start != middle else w.end for w in (a, b)]
    held = [e for e in ends if e is not None]
    start = held[0]
    end = held[1] if len(held) == 2 else None
    open_point = None if end is not None else next(w.open_point for w, e in zip((a, b), ends, strict=True)
                                                   if e is None)
    return WallReading("long", start, end, open_point, min(a.filled, b.filled))


def _gap_closed(towers: list[TowerReading], walls: list[WallReading], dims: PieceDimensions):
    """Two open short walls in line whose open ends meet, from towers a long span apart, made one long
    wall; or None."""
    long_span = dims.centre_spacing("long")
    open_shorts = [n for n, w in enumerate(walls) if w.kind == "short" and w.end is None]
    best = None
    for k, n in enumerate(open_shorts):
        for m in open_shorts[k + 1:]:
            a, b = walls[n], walls[m]
            pa, pb = np.asarray(towers[a.start].position), np.asarray(towers[b.start].position)
            meet = float(np.linalg.norm(np.subtract(a.open_point, b.open_point)))
            apart = float(np.linalg.norm(pa - pb))
            fits = (meet < dims.tower_radius and abs(apart - long_span) < SPAN_SLACK * long_span
                    and _in_line(np.asarray(a.open_point), pa, pb))
            if fits and (best is None or meet < best[0]):
                best = (meet, n, m)
    if best is None:
        return None
    _, n, m = best
    a, b = walls[n], walls[m]
    kept = [w for j, w in enumerate(walls) if j not in (n, m)]
    kept.append(WallReading("long", a.start, b.start, None, min(a.filled, b.filled)))
    x, y = a.open_point
    return kept, (f"the two short walls meeting at ({x:.0f}, {y:.0f}) mm with no tower between were read as "
                  "one long wall")
