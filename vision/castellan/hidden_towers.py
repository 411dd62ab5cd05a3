"""Towers unseen in a reading, inferred from the walls that end where they stand (the rules as evidence).

A keep standing beside a tower can hide most of it from a tilted camera: the tower is not carved
out, and the walls sitting in it are read as open walls ending at a tower-sized gap. Several walls
ending at one point beside a keep, with nothing of the table seen where the tower's body would be,
are far more likely a hidden tower than a gap (C1: walls join towers). So are the walls of two towers
or more ending at one point with no keep near, where grey plastic is seen all round the tower's body:
a pale tower the carving lost (a gap left for a later tower shows the table there). The reading then
says which tower it inferred, so a player can check it.

A look at the photo that sees less grey than the usual one (shadows taken for table) can lose a tower
the usual look read, lit and whole, while keeping the walls that end in it: open walls ending where the
usual look read a tower are that tower (`towers_another_look_saw`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from tablesight.calibration.pieces import PieceProfile
from tablesight.scoring.castellan.pieces import PieceDimensions
from tablesight.vision.castellan.carving import PixelClasses
from tablesight.vision.castellan.keeps import KeepReading
from tablesight.vision.castellan.thin_towers import THIN_SHARE, keeps_hide
from tablesight.vision.castellan.towers import TowerReading, median_seen_radius, tower_stands_within_reach
from tablesight.vision.castellan.walls import WallReading, meeting_distance, on_a_wall_read
from tablesight.vision.table_view import Region, TableView

MIN_WALLS = 2  # open walls ending at one point (one open wall is an ordinary open end)
HIDING_SLACK_MM = 15.0  # a keep hides a tower up to this far beyond their touching distance
MIN_COVERED = 0.8  # share of the tower's body seen as grey or keep colour (the table shows at a gap)
BODY_HEIGHTS = (0.2, 0.4, 0.6, 0.8, 0.95)  # of the tower's height, where its body is sampled
RING_SHARE, RING_POINTS = 0.7, 12  # a ring inside the tower's outline, sampled at each height
ACROSS_COSINE = math.cos(math.radians(45))  # walls meeting at a corner or a T: their runs this far from in line
# An open wall's single open end is an ordinary open end (MIN_WALLS), and nothing is inferred there; but where keeps in
# front hide OPEN_END_HIDDEN_SHARE or more of the disc a tower would stand on there, a tower may stand unseen (the
# carving loses a tower so hidden: fresh 17100-013, 0.47 of it behind a blue double keep). The wall is marked so
# (`WallReading.end_hidden`), for the reading to list that end to check.
OPEN_END_HIDDEN_SHARE = 0.3
# Two towers a short span's diagonal apart, give or take each one's reading and a hand-built castle's slack.
CORNER_SLACK_MM = 10.0
IN_LINE_COSINE = math.cos(math.radians(20))  # an open wall runs towards a point this near its direction
IN_RUN_MIDDLE_SHARE = 0.15  # how far (share of a short span) from a long wall's middle a tower splitting it stands


@dataclass(frozen=True)
class HiddenTower:
    x: float
    y: float
    walls: tuple[int, ...]  # indices of the open walls that end in it
    keep: KeepReading | None  # the keep in front of it; None: none near, its body seen grey all round

    def tower(self, radius_mm: float) -> TowerReading:
        """The tower inferred here, of the profile's radius (its footprint is not seen)."""
        return TowerReading(self.x, self.y, radius_mm, inferred=True, behind_keep=self.keep is not None)


def hidden_towers(view: TableView, classes: PixelClasses, towers: list[TowerReading], walls: list[WallReading],
                  keeps: list[KeepReading], profile: PieceProfile, min_walls: int = MIN_WALLS) -> list[HiddenTower]:
    """Towers unseen where open walls of at least `min_walls` towers end, the tower's body seen as grey or a keep
    all round (MIN_COVERED): hidden behind a keep near, or, where the walls of MIN_WALLS towers or more end across
    each other (a corner or a T, `_across`), with no keep near (fresh 12700-003: a pale corner tower on a khaki
    table, 46 mm from the nearest keep, its two walls read open to it; over 192 photos, 160 such meeting points:
    the two seen all round were towers, none of the rest seen over 0.68 was). Two walls meeting head on are a long
    wall's run read as two open short walls, whose body is seen all round the meeting point too (fresh 12700-020:
    three such "towers", the castle's pose then fitted to them); a tower there is told by its height
    (`towers_in_long_walls`). With one wall (an ordinary open end as often as not) the sight of the tower's
    body is not enough: the reader keeps such a tower only where the board with it breaks fewer rules."""
    dims = profile.dimensions
    found = []
    for point, members in open_wall_meetings(walls, meeting_distance(dims)):
        ending = len({walls[i].start for i in members})
        if ending < min_walls:
            continue
        if tower_stands_within_reach(point, towers, dims):
            continue
        near = keeps_near(point, keeps, dims)
        if not near and (ending < MIN_WALLS or not _across(towers, walls, members)):
            continue
        if _covered_share(view, classes, point, profile) < MIN_COVERED:
            continue
        keep = min(near, key=lambda k: math.dist(point, (k.x, k.y))) if near else None
        found.append(HiddenTower(float(point[0]), float(point[1]), tuple(members), keep))
    return found


@dataclass(frozen=True)
class CornerBehindKeep:
    """A tower unseen at the corner two towers a short span from it would make (`corners_behind_keeps`), with its
    two walls (`sides`: the towers they leave) and the open walls from those towers that run towards it (`open`)."""

    x: float
    y: float
    sides: tuple[int, int]
    open: tuple[int, ...]
    keep: KeepReading

    def tower(self, radius_mm: float) -> TowerReading:
        return TowerReading(self.x, self.y, radius_mm, inferred=True, behind_keep=True)


def corners_behind_keeps(view: TableView, classes: PixelClasses, towers: list[TowerReading], walls: list[WallReading],
                         keeps: list[KeepReading], profile: PieceProfile) -> list[CornerBehindKeep]:
    """Towers unseen at a courtyard's corner, with both their walls: where two towers stand a short span's diagonal
    apart, the corner completing their right angle holds no tower, a keep stands near enough to hide one there
    (`keeps_near`: a double keep leaning over it from a steep view) and the tower's body is seen as grey or a keep
    all round (MIN_COVERED). Fresh 17600-002 (32°): a red double keep in the corner of its courtyard hid the tower and
    the walls to it, the keep was read outside every courtyard and its courtyard lost. The reader keeps such a corner
    only where it brings that keep into a courtyard and the board then breaks fewer rules (`PieceInference`; fresh
    17700-013 is one it cannot: a tower misread elsewhere fills the box, and the corner's tower would be one over)."""
    dims = profile.dimensions
    short = dims.centre_spacing("short")
    found: list[CornerBehindKeep] = []
    for a in range(len(towers)):
        for b in range(a + 1, len(towers)):
            start, end = np.asarray(towers[a].position, float), np.asarray(towers[b].position, float)
            if abs(math.dist(start, end) - short * math.sqrt(2)) > CORNER_SLACK_MM:
                continue
            middle, half = (start + end) / 2, (end - start) / 2
            for corner in (middle + (-half[1], half[0]), middle + (half[1], -half[0])):
                if tower_stands_within_reach(corner, towers, dims):
                    continue
                near = keeps_near(corner, keeps, dims)
                if not near or _covered_share(view, classes, corner, profile) < MIN_COVERED:
                    continue
                keep = min(near, key=lambda k: math.dist(corner, (k.x, k.y)))
                heading = [i for i, w in enumerate(walls) if w.end is None and w.open_point is not None
                           and w.start in (a, b) and _runs_towards(towers[w.start], w.open_point, corner)]
                if on_a_wall_read(corner, towers, walls, dims, but=heading):
                    continue  # a wall there is no corner's (fresh 17900-026: one inferred so broke nine rules more)
                found.append(CornerBehindKeep(float(corner[0]), float(corner[1]), (a, b), tuple(heading), keep))
    return found


def _runs_towards(tower: TowerReading, open_point: tuple[float, float], corner: np.ndarray) -> bool:
    """Whether an open wall leaving `tower` runs towards `corner` (its direction within IN_LINE_COSINE's angle)."""
    run = np.asarray(open_point, float) - tower.position
    to = corner - np.asarray(tower.position, float)
    return float(run @ to) > IN_LINE_COSINE * float(np.linalg.norm(run) * np.linalg.norm(to))


def towers_another_look_saw(towers: list[TowerReading], walls: list[WallReading], seen: list[TowerReading],
                            dims: PieceDimensions) -> list[tuple[TowerReading, tuple[int, ...]]]:
    """Towers of `seen` (another look's reading of the photo) standing where open walls of this reading end and
    it has no tower: each with the walls ending in it. Only towers that look saw in its footprint and not thin
    there (`THIN_SHARE` of its towers' median radius): walls may end at a tower-sized gap (C2), where shade reads
    as a thin tower (sample 018: two walls' ends, 7 mm against the photo's 13)."""
    meet = meeting_distance(dims)
    seen = _seen_whole(seen)
    found = []
    for point, members in open_wall_meetings(walls, meet):
        if tower_stands_within_reach(point, towers, dims):
            continue
        near = [t for t in seen if math.dist(point, t.position) < meet]
        if near:
            found.append((min(near, key=lambda t: math.dist(point, t.position)), tuple(members)))
    return found


def towers_in_runs_another_look_saw(towers: list[TowerReading], walls: list[WallReading], seen: list[TowerReading],
                                    dims: PieceDimensions) -> list[tuple[TowerReading, WallReading]]:
    """Towers of `seen` (another look's reading) standing in the middle of a long wall of this reading (within
    IN_RUN_MIDDLE_SHARE of a short span of its middle), where this reading has no tower: the run may be two short
    walls and a tower this look lost (sample 048: a castle a metre from the card, its towers 8 px across, the
    look taking steps from the table for plastic read a run of two short walls as one long wall). Only towers that
    look saw in its footprint and not thin there (`THIN_SHARE`): a long wall fattened by shade reads as a thin
    tower (sample 001). Each with the long wall it stands in."""
    seen = _seen_whole(seen)
    reach = IN_RUN_MIDDLE_SHARE * dims.centre_spacing("short")
    found = []
    for wall in walls:
        if wall.kind != "long" or wall.end is None:
            continue
        middle = (np.asarray(towers[wall.start].position) + np.asarray(towers[wall.end].position)) / 2
        if tower_stands_within_reach(middle, towers, dims):
            continue
        near = [t for t in seen if math.dist(middle, t.position) < reach]
        if near:
            found.append((min(near, key=lambda t: math.dist(middle, t.position)), wall))
    return found


@dataclass(frozen=True)
class TeeWithoutTower:
    """An open wall whose missing tower would stand in the middle of a long wall (`walls_ending_on_long_walls`)."""
    open_wall: int  # index of the open wall
    long_wall: int  # index of the long wall
    middle: tuple[float, float]  # the long wall's middle (mm), where the tower would stand
    behind_keep: bool  # a keep near enough to hide a tower there

    def tower(self, radius_mm: float) -> TowerReading:
        """The tower inferred here, of the profile's radius (its footprint is not seen)."""
        return TowerReading(*self.middle, radius_mm, inferred=True, behind_keep=self.behind_keep)


def walls_ending_on_long_walls(towers: list[TowerReading], walls: list[WallReading], keeps: list[KeepReading],
                               dims: PieceDimensions) -> list[TeeWithoutTower]:
    """Open walls whose missing tower would stand in the middle of a long wall between two towers (within
    IN_RUN_MIDDLE_SHARE of a short span along it, `meeting_distance` across), running across that wall. A wall
    ends only in a tower (C1), and a long wall's middle is where a tower splitting it into two short walls stands:
    such a T is most likely that tower unseen (fresh 13800-016: a tower behind a blue double keep leaning over it
    at 37° tilt, its two short walls read as one long wall and its third wall as open; two courtyards scored as
    one)."""
    positions = np.array([t.position for t in towers], float).reshape(-1, 2)
    along_reach, across_reach = IN_RUN_MIDDLE_SHARE * dims.centre_spacing("short"), meeting_distance(dims)
    found = []
    for i, wall in enumerate(walls):
        if wall.end is not None:
            continue
        end, start = np.asarray(wall.open_point, float), positions[wall.start]
        run = (end - start) / max(float(np.linalg.norm(end - start)), 1e-9)
        for j, long_wall in enumerate(walls):
            if long_wall.kind != "long" or long_wall.end is None or wall.start in (long_wall.start, long_wall.end):
                continue
            a, b = positions[long_wall.start], positions[long_wall.end]
            u = (b - a) / max(float(np.linalg.norm(b - a)), 1e-9)
            middle = (a + b) / 2
            offset = end - middle
            if abs(float(offset @ u)) < along_reach and abs(float(offset @ np.array([-u[1], u[0]]))) < across_reach \
                    and abs(float(run @ u)) < ACROSS_COSINE:
                point = (round(float(middle[0]), 1), round(float(middle[1]), 1))
                found.append(TeeWithoutTower(i, j, point, bool(keeps_near(middle, keeps, dims))))
                break
    return found


def open_ends_behind_keeps(walls: list[WallReading], cover: np.ndarray, region: Region,
                           dims: PieceDimensions) -> list[int]:
    """The open walls (indices) whose open end keeps in front (`cover`: `KeepCover.walls`, over `region`) hide
    OPEN_END_HIDDEN_SHARE or more of the disc a tower would stand on there."""
    return [i for i, wall in enumerate(walls) if wall.end is None and wall.open_point is not None
            and keeps_hide(cover, region, wall.open_point, dims, OPEN_END_HIDDEN_SHARE)]


def keeps_near(point: np.ndarray, keeps: list[KeepReading], dims: PieceDimensions) -> list[KeepReading]:
    """The keeps near enough to a point to hide a tower standing there from a tilted camera."""
    reach = dims.keep_side / math.sqrt(2) + dims.tower_radius + HIDING_SLACK_MM
    return [k for k in keeps if math.dist(point, (k.x, k.y)) < reach + _extra_reach(k)]


def _across(towers: list[TowerReading], walls: list[WallReading], members: list[int]) -> bool:
    """Whether two of the open walls `members` (indices) run across each other, not in line: a corner or a T."""
    directions = []
    for i in members:
        run = np.asarray(walls[i].open_point, float) - np.asarray(towers[walls[i].start].position, float)
        directions.append(run / max(float(np.linalg.norm(run)), 1e-9))
    return any(abs(float(a @ b)) < ACROSS_COSINE for n, a in enumerate(directions) for b in directions[n + 1:])


def _seen_whole(seen: list[TowerReading]) -> list[TowerReading]:
    """The towers of another look's reading it saw in their footprint and not thin there (`THIN_SHARE` of its
    towers' median radius): the only ones it may offer this reading."""
    thin = THIN_SHARE * median_seen_radius(seen)
    return [t for t in seen if t.footprint_seen and t.radius_mm >= thin]


def _extra_reach(keep: KeepReading) -> float:
    """How much farther than a single keep a double one hides a tower: its top leans farther away from the
    camera by the gap between a single's and a double's lean, and its centre is placed where it stands,
    not where its colour carves (`double_keeps._placed_as_double`, half that gap nearer the camera)."""
    return keep.lean_span_mm / 2 if keep.double else 0.0


def open_wall_meetings(walls: list[WallReading], meet_mm: float) -> list[tuple[np.ndarray, list[int]]]:
    """Open walls grouped by where their missing towers would stand."""
    groups: list[list[int]] = []
    for i, w in enumerate(walls):
        if w.end is not None:
            continue
        for group in groups:
            if math.dist(w.open_point, walls[group[0]].open_point) < meet_mm:
                group.append(i)
                break
        else:
            groups.append([i])
    return [(np.mean([walls[i].open_point for i in g], axis=0), g) for g in groups]


def _covered_share(view: TableView, classes: PixelClasses, point: np.ndarray, profile: PieceProfile) -> float:
    """Share of the rays to a tower's body at `point` that meet grey plastic or a keep in the photo."""
    radius = RING_SHARE * profile.dimensions.tower_radius
    angles = np.linspace(0, 2 * np.pi, RING_POINTS, endpoint=False)
    body = np.vstack([point, point + radius * np.column_stack([np.cos(angles), np.sin(angles)])])
    covered = total = 0
    for share in BODY_HEIGHTS:
        xs, ys = view.plane_pixels(body, share * profile.tower_height, classes.grey.shape)
        total += len(body)
        seen = classes.grey[ys, xs] > 0
        for mask in classes.keeps.values():
            seen |= mask[ys, xs] > 0
        covered += int(seen.sum())
    return covered / total
