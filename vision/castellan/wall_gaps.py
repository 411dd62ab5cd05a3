"""Long walls that are two open short walls meeting at a tower's gap, told by the table the photo shows between them.

A long wall is one piece, its body unbroken from tower to tower; two short walls, each open where a tower is still to
come, leave a tower's width of table between their ends. The carved footprint is closed across the merlons' shade,
and so across a narrow gap too: seen from 26° along the walls, two open short walls' ends 24 mm apart left 6 mm of
table between them in the photo, bridged in the footprint, and a long wall was read there (fresh 15900-009). So the
photo itself is looked at, on the table plane: along the run's centre line and RAY_MM to either side, each point's
colour is weighed against the table's beside the run (TABLE_SIDE_MM out, each side's median over the run's middle
third) and the wall's (the median of the run's outer thirds). A point nearer the table than TABLE_NEARER of its
distance to the wall, and not where a keep may stand in front (`KeepCover.gaps`: a keep before a long wall's middle
hides it, and a dark keep on a dark table is nearer the table than the wall), is table.

Run once the look is kept (`rebuild`); each split kept only where the board then breaks no more rules, and named in
the notes.
"""

from __future__ import annotations

import cv2
import numpy as np

from tablesight.calibration.pieces import PieceDimensions, PieceProfile
from tablesight.vision.castellan.reading import PhotoReading, board_of, pose_known, put_if_no_worse
from tablesight.vision.castellan.walls import WallReading, longest_run
from tablesight.vision.table_view import Region, TableView

RAY_MM, TABLE_SIDE_MM = 2.0, 22.0
STEP_MM = 0.5  # between the points looked at along the run
TABLE_NEARER = 0.5
MIN_TABLE_WALL_DE = 10.0  # CIELAB: a table nearer the wall's colour than this does not tell table from wall
# The table seen across this much (mm) of a long wall's middle, on every ray: two walls and a gap. Over 747 long walls
# read right in 60 generated photos, none showed more than 4 mm but two with a keep standing before their middle.
MIN_GAP_MM = 5.0


def long_walls_split_at_gaps(reading: PhotoReading, profile: PieceProfile) -> None:
    """The reading's long walls whose middle shows the table (`table_across_middle_mm`, MIN_GAP_MM at least) read as
    the two open short walls meeting at a tower's gap that they are, each where the board then breaks no more rules;
    named in the notes."""
    if reading.board is None or reading.view is None or reading.region is None or not pose_known(reading):
        return
    dims = profile.dimensions
    for wall in [w for w in reading.walls if w.kind == "long" and w.end is not None and not w.inferred]:
        a, b = (np.asarray(reading.towers[i].position, float) for i in (wall.start, wall.end))
        gap = table_across_middle_mm(reading.view, a, b, dims)
        if gap >= MIN_GAP_MM and reading.planes is not None:  # where the keeps' cover is worked out (~0.1 s), only
            gap = table_across_middle_mm(reading.view, a, b, dims, reading.planes.cover.gaps, reading.region)
        if gap < MIN_GAP_MM:
            continue
        middle = tuple(float(v) for v in (a + b) / 2)
        index = next(i for i, w in enumerate(reading.walls) if w is wall)
        if not put_if_no_worse(reading, dims, reading.towers, as_two_open_short_walls(reading.walls, index, middle)):
            continue
        reading.notes.append(f"the long wall read through ({middle[0]:.0f}, {middle[1]:.0f}) mm shows the table "
                             f"{gap:.0f} mm across its middle in the photo: read as two open short walls meeting at "
                             f"a tower's gap")
        reading.board = board_of(reading)


def as_two_open_short_walls(walls: list[WallReading], index: int, middle: tuple[float, float]) -> list[WallReading]:
    """`walls` with the long wall at `index` (between two towers) read as the two open short walls meeting at
    `middle`."""
    wall = walls[index]
    return [w for i, w in enumerate(walls) if i != index] + [
        WallReading("short", end, None, middle, wall.filled) for end in (wall.start, wall.end)]


def table_across_middle_mm(view: TableView, a, b, dims: PieceDimensions, hidden: np.ndarray | None = None,
                           hidden_region: Region | None = None) -> float:
    """The longest stretch (mm) in the middle third of the run between tower centres `a` and `b` (table mm) where the
    photo shows the table's colour right across the run's centre line; 0 where the table beside the run is not told
    from the wall's colour (MIN_TABLE_WALL_DE). `hidden` (on `hidden_region`): where a keep may stand in front."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    span = float(np.linalg.norm(b - a))
    r = dims.tower_radius
    steps = np.arange(r + 2, span - r - 2, STEP_MM)
    third = len(steps) // 3
    if third < 2:
        return 0.0
    u = (b - a) / span
    normal = np.array([-u[1], u[0]])
    points = {offset: a + np.outer(steps, u) + offset * normal
              for offset in (0.0, -RAY_MM, RAY_MM, -TABLE_SIDE_MM, TABLE_SIDE_MM)}
    seen = _colours_at(view, np.concatenate(list(points.values())))
    colours = dict(zip(points, np.split(seen, len(points)), strict=True))
    middle = slice(third, len(steps) - third)
    centre = colours[0.0]
    wall = np.median(np.concatenate([centre[:third], centre[-third:]]), axis=0)
    sides = [np.median(colours[side * TABLE_SIDE_MM][middle], axis=0) for side in (-1, 1)]
    sides = [side for side in sides if np.linalg.norm(side - wall) >= MIN_TABLE_WALL_DE]
    if not sides:
        return 0.0
    table = np.ones(len(steps), bool)
    for offset in (-RAY_MM, 0.0, RAY_MM):
        seen = colours[offset]
        to_table = np.min([np.linalg.norm(seen - side, axis=1) for side in sides], axis=0)
        table &= to_table < TABLE_NEARER * np.linalg.norm(seen - wall, axis=1)
        if hidden is not None and hidden_region is not None:
            table &= ~hidden_region.sample(hidden, points[offset], outside=False).astype(bool)
    return longest_run(table[middle]) * STEP_MM


def _colours_at(view: TableView, points: np.ndarray) -> np.ndarray:
    """The colours (CIELAB, in card units) of the photo as taken at table points (mm, n × 2) on the table plane: only
    those pixels are looked at (a strip rectified around each long wall cost 2–5 ms a wall, and the undistorted
    photo, where no step before needed it, 0.1 s). A process's first Lab conversion builds OpenCV's tables (90 ms),
    once."""
    pixels = view.pose.project(points, 0.0).astype(np.float32)
    x, y = (pixels[:, i].reshape(1, -1) for i in (0, 1))
    sampled = cv2.remap(view.photo, x, y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    bgr = np.clip(view.normalised(sampled), 0.0, 1.0).astype(np.float32)
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab).reshape(-1, 3)
