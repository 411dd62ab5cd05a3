"""Towers in a straight run of walls, read as one long wall: short + tower + short is a long wall's length.

In a tilted view, walls fattened by their shaded sides (or a keep leaning over them) can hide the
widening a tower makes in the footprint, and the run is read as a long wall. What still tells the two
apart is height: a tower stands above the walls' tops (10 mm in the nominal set). Just beside the run's
axis, on a plane between the walls' top and the tower's, only a tower's body is there: the camera sees
through that air to the table behind a plain wall, or (on the side nearer the camera) to the wall's
face. So the middle of the run (where the tower would stand) is compared with the middle of each half
(plain wall whatever the reading): the same wall, light and blur, only the tower differs. Keep colour
says nothing either way (a keep in front hides both) and is left out. A keep's own shaded faces, where
a look takes deep shade for plastic, can still pass for a tower beside a wall's middle: the towers read
are named in the notes to be checked. (Leaving out all the camera sees through a keep's body lost more
hidden towers than it saved false ones.)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tablesight.calibration.pieces import PieceProfile
from tablesight.vision.castellan.carving import PixelClasses
from tablesight.vision.castellan.towers import TowerReading
from tablesight.vision.castellan.walls import WallReading
from tablesight.vision.table_view import TableView

MIN_HEIGHT_GAP_MM = 5.0  # towers less than this taller than the walls cannot be told by height
# Sampled high up the gap between the walls' top and the tower's, and near the tower's rim: the grey mask runs
# a few mm wide of a wall (blur, the mask's closing), and lower or nearer the axis a plain wall's halves looked
# as grey as a tower. Sampled at 0.4–0.7 of the gap and 0.7 of the radius, of the long walls read over 152
# photos (session 51), 3 with a tower at their middle passed and 5 plain ones; sampled so, 5 and 1. Scores
# exact over those 160 photos 117 → 120 (4 gained, 1 lost); two fresh sets 52 → 52 of 64, 3 photos' pieces better.
PLANE_SHARES = (0.6, 0.9)  # sampled at these shares of the way from the walls' top to the tower's
RING_SHARE = 0.85  # of the tower's radius: well beside the wall (wider than its half-thickness), inside a tower
SIDE_ANGLES = np.radians(np.arange(-50, 51, 10))  # around each side of the run's axis
MIN_SEEN = 0.5  # of the samples must not be keep colour (a keep in front hides both readings)
MIN_STEP = 0.35  # the middle seen grey this much more often than the halves' middles: a tower stands there
MIN_MIDDLE = 0.75  # ... and seen grey at least this often


@dataclass(frozen=True)
class TowerInRun:
    tower: TowerReading
    walls: tuple[int, ...]  # indices of the long walls it splits (two, where two runs cross in it)
    step: float  # how much more often the middle is seen grey above the walls than the halves


def towers_in_long_walls(view: TableView, classes: PixelClasses, towers: list[TowerReading],
                         walls: list[WallReading], profile: PieceProfile) -> list[TowerInRun]:
    dims = profile.dimensions
    if profile.tower_height - profile.wall_height < MIN_HEIGHT_GAP_MM:
        return []
    hidden = keep_coloured(classes)
    short = dims.centre_spacing("short")
    found = []
    for index, wall in enumerate(walls):
        if wall.kind != "long":
            continue
        start = np.asarray(towers[wall.start].position, float)
        far = np.asarray(towers[wall.end].position if wall.end is not None else wall.open_point, float)
        u = (far - start) / max(float(np.linalg.norm(far - start)), 1e-9)
        middle = start + short * u
        if any(np.hypot(*(middle - t.position)) < dims.tower_diameter for t in towers):
            continue  # a tower is read there already (one inferred behind a keep, say)
        measured = height_step(view, classes.grey, hidden, middle, u, profile)
        if measured is None or not stands_above(measured):
            continue
        step = measured[0]
        same = [n for n, f in enumerate(found) if np.hypot(*(middle - f.tower.position)) < dims.tower_diameter]
        if same:  # two runs crossing in one tower (walls never cross)
            f = found[same[0]]
            found[same[0]] = TowerInRun(f.tower, f.walls + (index,), max(f.step, step))
            continue
        tower = TowerReading(float(middle[0]), float(middle[1]), dims.tower_radius, in_run=True)
        found.append(TowerInRun(tower, (index,), step))
    return found


def keep_coloured(classes: PixelClasses) -> np.ndarray:
    """Where the photo shows any keep colour (bool): a keep in front hides what is behind it."""
    hidden = np.zeros(classes.grey.shape, bool)
    for mask in classes.keeps.values():
        hidden |= mask > 0
    return hidden


def height_step(view: TableView, grey: np.ndarray, hidden: np.ndarray, middle: np.ndarray, u: np.ndarray,
                profile: PieceProfile) -> tuple[float, float] | None:
    """How much more often the photo sees grey plastic above the walls' tops at `middle` of a straight run
    (along `u`) than at the middles of its two halves, half a short span either side, and how often at
    `middle` itself; None where keeps hide too much of any of the three."""
    short = profile.dimensions.centre_spacing("short")
    shares = [_upper_body_seen(view, grey, hidden, middle + d * u, u, profile) for d in (-short / 2, 0.0, short / 2)]
    if any(s is None for s in shares):
        return None
    return shares[1] - max(shares[0], shares[2]), shares[1]


def stands_above(step: tuple[float, float]) -> bool:
    """Whether a run's `height_step` shows a tower's top standing above the walls at its middle."""
    return step[0] >= MIN_STEP and step[1] >= MIN_MIDDLE


def _upper_body_seen(view: TableView, grey: np.ndarray, hidden: np.ndarray, point: np.ndarray, u: np.ndarray,
                     profile: PieceProfile) -> float | None:
    """Share of the samples beside `point` (either side of the run's axis `u`), between the walls' top and
    a tower's, that the photo sees as grey plastic; None when keeps hide too many of them. Both sides
    count: near straight above neither side is the far one, and the tower's whole width is the evidence."""
    normal = np.array([-u[1], u[0]])
    radius = RING_SHARE * profile.dimensions.tower_radius
    offsets = [radius * (np.cos(a) * side * normal + np.sin(a) * u) for side in (1, -1) for a in SIDE_ANGLES]
    samples = point + np.array(offsets)
    grey_seen = seen = 0
    gap = profile.tower_height - profile.wall_height
    for share in PLANE_SHARES:
        xs, ys = view.plane_pixels(samples, profile.wall_height + share * gap, grey.shape)
        clear = ~hidden[ys, xs]
        seen += int(clear.sum())
        grey_seen += int(((grey[ys, xs] > 0) & clear).sum())
    total = len(PLANE_SHARES) * len(offsets)
    return grey_seen / seen if seen >= MIN_SEEN * total else None
