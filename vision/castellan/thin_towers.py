"""Thin towers in a run: a long wall's middle, fattened, read as a tower between two short walls.

A long wall is two short spans long, so a widening of its footprint at its middle (its shaded side, a
shadow across it, blur) reads as a tower and two short walls in line. A tower's footprint is round and
as wide as the photo's other towers whatever fattens them: its inscribed radius is measured in the same
carved footprint, through the same lean, blur and shade. A widening of a wall is narrower. So a tower
between two short walls in line whose radius is far below the photo's own towers (THIN_SHARE of their
median) is taken for the long wall's middle — unless the photo shows a tower's top standing above the
walls there (`towers_in_long_walls.height_step`), which a wall's middle never does.

Measured over 736 photos (samples and twenty-two generated sets, session 42, each photo's kept reading):
of the towers between two short walls in line, those under 0.65 of the photo's median radius were a
long wall's middle 19 times in 23 and a tower once; from 0.65 to 0.7, three and three; above 0.7 towers
outnumber long walls' middles nine to one.
"""

from __future__ import annotations

import numpy as np

from tablesight.vision.castellan.box_limits import towers_between_short_walls
from tablesight.vision.castellan.towers import TowerReading
from tablesight.vision.castellan.walls import WallReading

THIN_SHARE = 0.65  # a tower this much narrower than the photo's median tower is a wall's middle
MIN_TOWERS_SEEN = 4  # fewer towers seen (not inferred, not read by height) make no median to go by


def thin_towers_in_runs(towers: list[TowerReading], walls: list[WallReading]) -> list[tuple[int, tuple[int, int]]]:
    """The towers between two short walls in line, both reaching a tower beyond, far thinner than the photo's
    towers seen in the footprint, each with its two walls; the thinnest first."""
    if sum(t.footprint_seen for t in towers) < MIN_TOWERS_SEEN:
        return []
    bar = THIN_SHARE * median_seen_radius(towers)
    found = [(i, pair) for i, pair in towers_between_short_walls(towers, walls, both_held=True)
             if towers[i].footprint_seen and towers[i].radius_mm < bar]
    return sorted(found, key=lambda c: towers[c[0]].radius_mm)


def median_seen_radius(towers: list[TowerReading]) -> float:
    """The median inscribed radius (mm) of the towers seen in the carved footprint (not inferred behind a
    keep, not read by their height in a run); 0 without any."""
    seen = [t.radius_mm for t in towers if t.footprint_seen]
    return float(np.median(seen)) if seen else 0.0
