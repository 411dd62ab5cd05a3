"""Towers in a straight run of walls, read as one long wall: short + tower + short is a long wall's length.

In a tilted view, walls fattened by their shaded sides (or a keep leaning over them) can hide the
widening a tower makes in the footprint, and the run is read as a long wall. What still tells the two
apart is height: a tower stands above the walls' tops (10 mm in the nominal set). Just beside the run's
axis, on a plane between the walls' top and the tower's, only a tower's body is there. So the middle of
the run (where the tower would stand) is compared with the middle of each half (plain wall whatever the
reading): the same wall, light and blur, only the tower differs. Only places where the camera, with no
tower there, would see the table are sampled: its line of sight through the air beside the run must not
go on to meet the wall's face (the side nearer the camera) or the towers at the run's ends and middle
(looking along the run). Keep colour says nothing either way (a keep in front hides both) and is left
out. A keep's own shaded faces, where a look takes deep shade for plastic, can still pass for a tower
beside a wall's middle: the towers read are named in the notes to be checked. (Leaving out all the camera
sees through a keep's body lost more hidden towers than it saved false ones.)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tablesight.calibration.camera import CameraPose
from tablesight.calibration.pieces import PieceProfile
from tablesight.vision.castellan.carving import PixelClasses, keep_coloured
from tablesight.vision.castellan.towers import TowerReading, tower_stands_within_reach
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
TOWER_SIGHT_SLACK_MM = 2.0  # a tower's outline in the grey mask spreads this much beyond its body (blur)
WALL_SIGHT_SLACK_MM = 2.0  # ... and a wall's beyond its faces
WALL_SIGHT_STEPS = 8  # points along a line of sight, from the walls' top down to the table, tested against a wall


@dataclass(frozen=True)
class TowerInRun:
    tower: TowerReading
    walls: tuple[int, ...]  # indices of the long walls it splits (two, where two runs cross in it)
    step: float  # how much more often the middle is seen grey above the walls than the halves


@dataclass(frozen=True)
class RunMiddle:
    wall: int  # index of the long wall
    middle: np.ndarray  # where a tower splitting it into two short walls would stand (table mm)
    step: tuple[float, float]  # how a tower there would show above the walls (`height_step`)


def long_wall_middles(view: TableView, classes: PixelClasses, towers: list[TowerReading], walls: list[WallReading],
                      profile: PieceProfile) -> list[RunMiddle]:
    """Each long wall's middle (a short span from the tower it leaves) where no tower is read, with its
    `height_step`; none where keeps hide too much to measure it, nor where towers stand too little above the
    walls to be told by height (MIN_HEIGHT_GAP_MM)."""
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
        if tower_stands_within_reach(middle, towers, dims):
            continue  # a tower is read there already (one inferred behind a keep, say)
        measured = height_step(view, classes.grey, hidden, middle, u, profile)
        if measured is not None:
            found.append(RunMiddle(index, middle, measured))
    return found


def towers_in_long_walls(view: TableView, classes: PixelClasses, towers: list[TowerReading],
                         walls: list[WallReading], profile: PieceProfile) -> list[TowerInRun]:
    dims = profile.dimensions
    found: list[TowerInRun] = []
    for run in long_wall_middles(view, classes, towers, walls, profile):
        if not stands_above(run.step):
            continue
        middle, step = run.middle, run.step[0]
        same = [n for n, f in enumerate(found) if np.hypot(*(middle - f.tower.position)) < dims.tower_diameter]
        if same:  # two runs crossing in one tower (walls never cross)
            f = found[same[0]]
            found[same[0]] = TowerInRun(f.tower, f.walls + (run.wall,), max(f.step, step))
            continue
        tower = TowerReading(float(middle[0]), float(middle[1]), dims.tower_radius, in_run=True)
        found.append(TowerInRun(tower, (run.wall,), step))
    return found


def height_step(view: TableView, grey: np.ndarray, hidden: np.ndarray, middle: np.ndarray, u: np.ndarray,
                profile: PieceProfile) -> tuple[float, float] | None:
    """How much more often the photo sees grey plastic above the walls' tops at `middle` of a straight run
    (along `u`) than at the middles of its two halves, half a short span either side, and how often at
    `middle` itself; None where keeps hide too much of any of the three (or the camera sees no place beside
    them clear of the pieces). The three are sampled alike, at the places beside each where the camera's line
    of sight meets no tower at the run's ends or middle (`sight_meets_tower`: looking along a tilted run, it
    sees through the air above each half into a tower, and that half looked as tall as one) and not the wall
    (`sight_meets_wall`: grey there is the wall's face, carved unevenly along the run by light and shade)."""
    short = profile.dimensions.centre_spacing("short")
    ends = (middle - short * u, middle + short * u)
    points = (middle - short / 2 * u, middle, middle + short / 2 * u)
    offsets = _ring_offsets(u, profile)
    gap = profile.tower_height - profile.wall_height
    planes = []  # each plane's height, and the offsets sampled on it: those clear of the towers at all three
    for share in PLANE_SHARES:
        height = profile.wall_height + share * gap
        clear = np.ones(len(offsets), bool)
        for point, towers in zip(points, ((*ends, middle), ends, (*ends, middle)), strict=True):
            for tower in towers:
                clear &= ~sight_meets_tower(view.pose, point + offsets, height, tower, profile)
            clear &= ~sight_meets_wall(view.pose, point + offsets, height, ends, profile)
        planes.append((height, offsets[clear]))
    shares = [_upper_body_seen(view, grey, hidden, point, planes) for point in points]
    if any(s is None for s in shares):
        return None
    return shares[1] - max(shares[0], shares[2]), shares[1]


def stands_above(step: tuple[float, float]) -> bool:
    """Whether a run's `height_step` shows a tower's top standing above the walls at its middle."""
    return step[0] >= MIN_STEP and step[1] >= MIN_MIDDLE


def _ring_offsets(u: np.ndarray, profile: PieceProfile) -> np.ndarray:
    """Where beside a point of a run (along `u`) its samples lie: around each side of the run's axis, well
    beside the wall, inside a tower's outline. Both sides count: near straight above neither side is the far
    one, and the tower's whole width is the evidence."""
    normal = np.array([-u[1], u[0]])
    radius = RING_SHARE * profile.dimensions.tower_radius
    return np.array([radius * (np.cos(a) * side * normal + np.sin(a) * u) for side in (1, -1) for a in SIDE_ANGLES])


def _upper_body_seen(view: TableView, grey: np.ndarray, hidden: np.ndarray, point: np.ndarray,
                     planes: list[tuple[float, np.ndarray]]) -> float | None:
    """Share of the samples at `point` + each plane's offsets (at its height, between the walls' top and a
    tower's) that the photo sees as grey plastic; None when keeps hide too many of them."""
    grey_seen = seen = total = 0
    for height, offsets in planes:
        if not len(offsets):
            continue
        xs, ys = view.plane_pixels(point + offsets, height, grey.shape)
        clear = ~hidden[ys, xs]
        seen += int(clear.sum())
        grey_seen += int(((grey[ys, xs] > 0) & clear).sum())
        total += len(offsets)
    return grey_seen / seen if total and seen >= MIN_SEEN * total else None


def sight_meets_tower(pose: CameraPose, points: np.ndarray, height: float, tower: np.ndarray,
                      profile: PieceProfile) -> np.ndarray:
    """Which of the `points` (table mm, `height` mm above the table) the camera sees through the body of a tower
    standing at `tower`, or would see it behind them (the line of sight meets the tower before the table):
    where the photo would show that tower, not what is at the point. Looking along a run from up to 40° off
    straight down, rays travel up to 30 mm along the table over a tower's height: above each half of a long
    wall the camera sees the tower at the run's middle, or the one at its far end."""
    top, table = _sight_below(pose, points, height, profile.tower_height)
    # The nearest approach, on the table's plane, of each line of sight's stretch below the tower's top to its axis.
    stretch = table - top
    along = np.clip(((np.asarray(tower, float) - top) * stretch).sum(axis=1)
                    / np.maximum((stretch ** 2).sum(axis=1), 1e-9), 0.0, 1.0)
    nearest = top + along[:, None] * stretch
    return np.hypot(*(nearest - tower).T) < profile.dimensions.tower_radius + TOWER_SIGHT_SLACK_MM


def sight_meets_wall(pose: CameraPose, points: np.ndarray, height: float, ends: tuple[np.ndarray, np.ndarray],
                     profile: PieceProfile) -> np.ndarray:
    """Which of the `points` (table mm, `height` mm above the table, over the walls' top) the camera would see
    a wall behind, the wall running straight between `ends` (its line of sight meets the wall before the
    table): beside a plain wall, on the side nearer the camera, that is grey with no tower there at all, and
    where the grey mask runs wide of the wall's face (its shade, a widening) it looked like one."""
    top, table = _sight_below(pose, points, height, profile.wall_height)
    a, b = (np.asarray(e, float) for e in ends)
    run = b - a
    reach = profile.dimensions.wall_thickness / 2 + WALL_SIGHT_SLACK_MM
    meets = np.zeros(len(points), bool)
    for share in np.linspace(0.0, 1.0, WALL_SIGHT_STEPS):
        on_table = top + share * (table - top)
        along = np.clip((on_table - a) @ run / max(float(run @ run), 1e-9), 0.0, 1.0)
        meets |= np.hypot(*(on_table - (a + along[:, None] * run)).T) < reach
    return meets


def _sight_below(pose: CameraPose, points: np.ndarray, height: float, top: float) -> tuple[np.ndarray, np.ndarray]:
    """Where, over the table (x, y mm), the camera's line of sight through each of the `points` (`height` mm up)
    passes at `top` mm up and where it reaches the table: the stretch of it a piece `top` tall may stand in."""
    camera = pose.centre
    rays = np.column_stack([points, np.full(len(points), -height)]) - camera  # table frame, z down into the table
    at_top = (-top - camera[2]) / rays[:, 2]  # along each ray (the camera's z is negative: above the table)
    at_table = -camera[2] / rays[:, 2]
    return camera[:2] + at_top[:, None] * rays[:, :2], camera[:2] + at_table[:, None] * rays[:, :2]
