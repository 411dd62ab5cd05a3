"""Thin towers in a run: a long wall's middle, fattened, read as a tower between two short walls.

A long wall is two short spans long, so a widening of its footprint at its middle (its shaded side, a
shadow across it, blur) reads as a tower and two short walls in line. A tower's footprint is round and
as wide as the photo's other towers whatever fattens them: its inscribed radius is measured in the same
carved footprint, through the same lean, blur and shade. A widening of a wall is narrower. So a tower
between two short walls in line whose radius is far below the photo's own towers (THIN_SHARE of their
median) is taken for the long wall's middle — unless the photo shows a tower's top standing above the
walls there (`towers_in_long_walls.height_step`), which a wall's middle never does. A tower a little less
thin but well off its run's middle is taken for a wall's middle too: two short walls are one span each, so a
tower stands in their middle, while a widening may fall anywhere along the wall. And a tower a little thinner
that is hardly wider than its own two walls at their widest is a wall fattened all along, widest at its middle.

Measured over 736 photos (samples and twenty-two generated sets, session 42, each photo's kept reading):
of the towers between two short walls in line, those under 0.65 of the photo's median radius were a
long wall's middle 19 times in 23 and a tower once; from 0.65 to 0.7, three and three; above 0.7 towers
outnumber long walls' middles nine to one.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tablesight.scoring.castellan.pieces import PieceDimensions
from tablesight.vision.castellan.box_limits import towers_between_short_walls
from tablesight.vision.castellan.towers import (
    DOUBTED_SHARE,
    TowerReading,
    distance_map,
    median_seen_radius,
    widening_over_walls,
)
from tablesight.vision.castellan.walls import WallReading, far_end
from tablesight.vision.table_view import Region

THIN_SHARE = 0.65  # a tower this much narrower than the photo's median tower is a wall's middle
# A tower between two short walls in line stands in their run's middle: both are a short span, to a hand-built
# castle's slack and the reading's. A widening of a long wall may fall anywhere along it. Of the towers left
# between two short walls (both held) by the rule above over 352 photos (samples and nine generated sets, session
# 60): real ones lie within 3.2 mm of their run's middle at the median (p90 over all radii 3.2 mm, a few up to 9);
# under OFF_CENTRE_SHARE of the median radius 6 of 14 were a long wall's middle, 4.9-8.2 mm off it but one, and no
# real tower was more than 3.2 mm off. (From 0.75 to 0.85 only 4 of 28 were a wall's middle, and real towers lay
# up to 7.6 mm off: being off the middle is too weak there to outweigh how seldom a wall's middle is so wide.)
# Applied, six of the 352 readings changed: five for the better, and one real tower read 10 mm off (its long wall
# sideways unread, so between two walls only) taken for a wall's middle in a reading wrong either way.
OFF_CENTRE_SHARE = 0.75
OFF_CENTRE_MM = 4.5
# A tower a little thinner than the photo's others that is hardly wider than the widest stretch of its own two
# walls (`towers.widening_over_walls`): a wall fattened all along (a keep's shade beside it, its own dark face)
# clears `find_towers`' ring test at its widest point. Of the 228 towers read between two short walls in line, both
# held, over 352 photos (samples and nine generated sets, session 72, each photo's kept reading), 9 were a long
# wall's middle; the 6 of them under 0.85 of the photo's median radius were all under 0.8 and 0.5-2.4 mm wider than
# their walls' widest. Of the real towers under 0.8 none was less than 1.95 mm wider (then 2.1, 2.8, 2.9, ...);
# from 0.8 to 0.85 one was only 1.4 mm wider (fresh 6464-003). Taken as a wall's middle here: 4 of the 9, no real
# tower (10600-027 and 6565-026 exact then, the others wrong either way).
NARROW_SHARE = 0.8
MIN_WIDENING_SHARE = 0.15  # of the profile's tower radius (1.8 mm in the nominal set)
# A tower a keep in front hides in part is carved thin, and its footprint's centre shifted off its run's middle, for
# that alone (fresh 16200-019: a tower beside a green double keep, 16 mm across against the castle's 24 and 7 mm off,
# its crenellated top plain in the photo; 0.18 of its disc behind the keep). A long wall's middle fattened beside a keep
# lies in the keep's shade, not behind it (tests/data's 10600-027: none of its disc). Such a tower is not judged thin.
HIDDEN_BY_KEEP_SHARE = 0.1
MIN_TOWERS_SEEN = 4  # fewer towers seen (not inferred, not read by height) make no median to go by
# The same rules judge a tower whose second wall ends open beyond it (an open long wall's middle, fattened). Of the 20
# such towers under 0.85 of the median over 416 photos' kept readings (the samples and eleven fresh sets, session
# 102), the 7 wall middles measured 0.61-0.83 of it and were −1.5 to 1.8 mm wider than their walls, the 13 towers
# 0.72-0.85 and 3.6-6.5 mm wider: the rules take 6 of the middles (sample 017, at the nadir: 0.68, 0.8 mm) and no tower.


@dataclass(frozen=True)
class CarvedTowers:
    """The footprint carved at the towers' tops, in which their radii were measured."""

    solid: np.ndarray
    region: Region
    dims: PieceDimensions


def thin_towers_in_runs(towers: list[TowerReading], walls: list[WallReading], carved: CarvedTowers | None = None
                        ) -> list[tuple[int, tuple[int, int]]]:
    """The towers between two short walls in line, one at least reaching a tower beyond, far thinner than the photo's
    towers seen in the footprint (THIN_SHARE), or thinner and off their run's middle (OFF_CENTRE_SHARE,
    OFF_CENTRE_MM), or, given the `carved` footprint, thinner and hardly wider than their walls' widest
    (NARROW_SHARE, MIN_WIDENING_SHARE), each with its two walls; the thinnest first."""
    if sum(t.footprint_seen for t in towers) < MIN_TOWERS_SEEN:
        return []
    median = median_seen_radius(towers)
    dist = None

    def hardly_wider(i: int, pair: tuple[int, int]) -> bool:
        nonlocal dist
        if carved is None or towers[i].radius_mm >= NARROW_SHARE * median:
            return False
        dist = distance_map(carved.solid, carved.region) if dist is None else dist
        ends = [far_end(walls[n], i, towers) for n in pair]
        widening = widening_over_walls(dist, carved.region, carved.dims, towers[i], ends)
        return widening < MIN_WIDENING_SHARE * carved.dims.tower_radius

    def wall_middle(i: int, pair: tuple[int, int]) -> bool:
        radius = towers[i].radius_mm
        if radius < THIN_SHARE * median:
            return True
        if radius < OFF_CENTRE_SHARE * median and off_centre_mm(towers, walls, i, pair) > OFF_CENTRE_MM:
            return True
        return hardly_wider(i, pair)

    found = [(i, pair) for i, pair in towers_between_short_walls(towers, walls)
             if towers[i].footprint_seen and wall_middle(i, pair)]
    return sorted(found, key=lambda c: towers[c[0]].radius_mm)


def thin_towers_in_doubt(towers: list[TowerReading], walls: list[WallReading]) -> set[int]:
    """The towers between two short walls in line (one of them may end open) under DOUBTED_SHARE of the
    photo's median radius: they may be a long wall's middle (the rules hold either way, and the footprint
    alone does not tell)."""
    if sum(t.footprint_seen for t in towers) < MIN_TOWERS_SEEN:
        return set()
    median = median_seen_radius(towers)
    return {i for i, _ in towers_between_short_walls(towers, walls)
            if towers[i].footprint_seen and towers[i].radius_mm < DOUBTED_SHARE * median}


def off_centre_mm(towers: list[TowerReading], walls: list[WallReading], tower: int, pair: tuple[int, int]) -> float:
    """How far (mm) a tower between two walls in line stands from the middle of their run, along it."""
    first, second = (far_end(walls[n], tower, towers) for n in pair)
    along = (second - first) / max(float(np.linalg.norm(second - first)), 1e-9)
    return abs(float((np.asarray(towers[tower].position, float) - (first + second) / 2) @ along))


def hidden_by_a_keep_in_part(tower: TowerReading, cover: np.ndarray, region: Region, dims: PieceDimensions) -> bool:
    """Whether keeps in front (`cover`: `KeepCover.walls`, over `region`) hide HIDDEN_BY_KEEP_SHARE of a tower's disc
    or more: its footprint is carved thin there whatever it is."""
    return keeps_hide(cover, region, tower.position, dims, HIDDEN_BY_KEEP_SHARE)


def keeps_hide(cover: np.ndarray, region: Region, point: tuple[float, float], dims: PieceDimensions,
               share: float) -> bool:
    """Whether keeps in front (`cover`: `KeepCover.walls`, over `region`) hide `share` or more of the disc a tower
    standing at `point` (table mm) has."""
    disc = np.pi * dims.tower_radius ** 2
    return region.area_within(cover, point, dims.tower_radius) >= share * disc
