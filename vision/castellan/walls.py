"""Walls: straight solids along the castle's axes, read outward from each tower's four sockets.

The rules are the evidence: a wall leaves a tower along one of the castle's two axes;
it ends in the tower at one wall-length away or stops open at a tower-sized gap; a
short wall's span is short + tower, a long wall's twice that.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterator
from dataclasses import dataclass, replace

import numpy as np

from tablesight.scoring.castellan.geometry import point_segment_distance
from tablesight.scoring.castellan.pieces import PieceDimensions
from tablesight.vision.castellan.towers import TowerReading
from tablesight.vision.table_view import Region

FILLED = 0.65  # share of a wall's body between two towers that must be seen solid (keeps may hide some)
STEP_MM = 1.0
SIDE_OFFSETS_MM = np.array([-2.0, 0.0, 2.0])  # a wall's ray is sampled this far either side too
MIN_VISIBLE = 0.2  # of a wall's body must be clear of keeps to judge it
MIDDLE_HIDDEN = 0.5  # of a long wall's middle (a tower's radius either side) hidden by keeps: a tower may be there
SPAN_TOLERANCE = 0.15  # a neighbour tower's distance may differ this much from the span
ANGLE_TOLERANCE = math.radians(10)  # and its direction this much from the socket's
SAME_SOCKET_COSINE = 0.85  # two walls leaving a tower this close in direction (~30°) use one socket
MOSTLY_HIDDEN = 0.8  # of a wall's body behind keeps: too little seen to judge it by sight (`walls_behind_keeps`)
# ... or at least half of it, seen only in glimpses this long (mm) between keeps and beside them, where the shade of
# the keeps each side leaves too little grey to judge (fresh 11600-007: a wall behind two keeps, 0.63 hidden, seen in
# stretches of 1-6 mm; 11600-010: 0.78, seen 8 mm by its tower).
HALF_HIDDEN, GLIMPSE_MM = 0.5, 8.0
# ... or at least this share of it, a keep standing right by the wall's middle (its centre within this many mm):
# the wall's top between that keep and the next is tinted by their colour, neither grey nor keep (fresh 13700-019:
# 0.26 hidden, a red double 18 mm from its middle, the wall lost and two courtyards scored as one). Over 416
# photos, 6 pairs of towers a span apart were so, 4 with a wall in truth (13700-019, 13000-020, 13300-006,
# 13600-005); the wall is added and listed to check.
BESIDE_KEEP_HIDDEN, BESIDE_KEEP_MM = 0.2, 30.0
# ... or at least that share of it, the rest seen solid (a wall's body seen, then hidden: nowhere is the table seen
# between the towers) along all but this share of it: fresh 15000-017 (37°), a long wall's middle behind a leaning
# double keep, 0.44 hidden and 0.52 seen solid, the seen part read as an open wall from one end.
SEEN_OR_HIDDEN_GAP = 0.1
ALONG_COSINE = 0.95  # an open wall leaves its tower along a span when the cosine of their angle is over this
OPEN_WALL_SEEN_MM = 8.0  # solid this far out of a socket: something leaves it
# A wall between two towers a span apart seen solid along at least this share of its body, short of FILLED (grey
# on a table of its own shade, the carving finding only stretches of it: fresh 13800-009, two courtyards merged
# and a keep left outside every one), is offered to the rules (`walls_half_seen`; kept only where the board then
# breaks fewer, and listed to check).
HALF_SEEN = 0.3
# Once the look is kept, open walls are read again across breaks in their carved solid (a merlon's shade, a
# shadow's edge) up to this share of a tower's diameter: the gap where a missing tower would stand is a tower wide.
OPEN_RUN_GAP_SHARE = 1 / 3
# ... and, at a socket nothing else leaves, across a longer stretch unseen by the tower itself (a neighbouring wall's
# shadow across the wall's first length: fresh 13400-022, three open long walls seen only from 9-25 mm out), where
# the solid seen beyond is at least this share of the wall's body and ends where that wall's end would be (within a
# tower's radius): walls join only towers (C1), so with no tower a span along, that solid is this socket's wall.
UNSEEN_START_SEEN_SHARE = 0.6
OPEN_WALL_SHIFT_MM = 6.0  # an open wall looked for this far either side of its tower's socket (a tower placed off)
MEET_SHARE = 0.3  # open ends closer than this share of a short span end at the same point (gaps are a span apart)
UNPLACED_REACH = 0.18  # without a known pose: this share of the short span around the expected place
# A tower read this near a long wall's run (shares of a short span along it from its middle, and of a tower's
# radius and half a wall's thickness across it) stands in it: no wall's body can pass through a tower's.
IN_RUN_ALONG, IN_RUN_ACROSS = 0.3, 0.9


@dataclass(frozen=True)
class KeepCover:
    """Where keeps stand in front of the walls (bool images of the region, `KeepPlanes.cover`)."""

    walls: np.ndarray  # a wall's body here is neither seen nor missing
    # Where a keep may hide a tower-sized gap in a long span's middle: less than `walls` where a keep colour is
    # the table's own, seen in such a gap as often as a keep (fresh 6666-025, a green cloth: two open short walls
    # read as a long one; a keep of the table's colour in front of a short wall still hides it, sample 059).
    gaps: np.ndarray


@dataclass(frozen=True)
class WallReading:
    kind: str
    start: int  # index of the tower it leaves
    end: int | None  # index of the tower it reaches, None for an open end
    open_point: tuple[float, float] | None  # where the missing tower would stand
    filled: float  # share of the body seen solid
    inferred: bool = False  # hidden behind a keep: not seen but inferred: check it
    through_thin_tower: bool = False  # a long wall read where a thin tower stood between two short walls: check it
    through_tower: bool = False  # read first as an open wall whose body ran through the tower it reaches: check it
    # A long wall whose middle, where a tower would split it into two short walls, keeps in front hide: that tower
    # may stand there unseen (fresh 12300-017: a tower behind a yellow double keep leaning over it, its two
    # short walls read as one long wall, the courtyards' counts one short, and the reading "clean"): check it.
    middle_hidden: bool = False
    unseen_start_mm: float = 0.0  # an open wall seen only this far out from its tower (its start in shade): check it
    half_seen: bool = False  # seen along only part of its body (`walls_half_seen`), read as the rules need: check it
    by_step: bool = False  # seen only by its top's step from the table (`wall_steps`), read as the rules need: check it
    # An open wall whose open end keeps in front hide (`hidden_towers.open_ends_behind_keeps`): a tower may stand
    # there unseen (fresh 17100-013: a short wall into a courtyard, its tower behind a blue double keep, the
    # courtyard counted one tower short and the reading "clean"): check it.
    end_hidden: bool = False


def meeting_distance(dims: PieceDimensions) -> float:
    """Open wall ends (or an open end and a tower) closer than this (mm) end where one tower stands."""
    return MEET_SHARE * dims.centre_spacing("short")


def socket_directions(axis: float) -> list[np.ndarray]:
    """The four directions a wall may leave a tower in, along the castle's axes (`axis` radians)."""
    return [np.array([math.cos(axis + k * math.pi / 2), math.sin(axis + k * math.pi / 2)]) for k in range(4)]


def castle_axis(towers: list[TowerReading], dims: PieceDimensions, solid: np.ndarray, region: Region) -> float:
    """The castle's axis angle (radians, in [0, π/2)): from tower neighbours, else from the solid's edges."""
    axis = towers_axis(towers, dims)
    return _axis_from_edges(solid) if axis is None else axis


def towers_axis(towers: list[TowerReading], dims: PieceDimensions) -> float | None:
    """The castle's axis angle (radians, in [0, π/2)) from towers a wall's span or so apart; None without any."""
    reach = dims.centre_spacing("long") * 1.15
    sx = sy = 0.0
    for i, a in enumerate(towers):
        for b in towers[i + 1:]:
            d = math.hypot(b.x - a.x, b.y - a.y)
            if 0.7 * dims.centre_spacing("short") < d < reach:
                angle = math.atan2(b.y - a.y, b.x - a.x)
                sx += math.cos(4 * angle) / d
                sy += math.sin(4 * angle) / d
    if sx == 0 and sy == 0:
        return None
    return (math.atan2(sy, sx) / 4) % (math.pi / 2)


def _axis_from_edges(solid: np.ndarray) -> float:
    import cv2

    mask = solid.astype(np.float32)
    gx = cv2.Sobel(mask, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(mask, cv2.CV_32F, 0, 1)
    weight = np.hypot(gx, gy)
    angle = np.arctan2(gy, gx)
    sx, sy = float((weight * np.cos(4 * angle)).sum()), float((weight * np.sin(4 * angle)).sum())
    return (math.atan2(sy, sx) / 4) % (math.pi / 2) if sx or sy else 0.0


def ray_steps(start: float, stop: float) -> np.ndarray:
    """The distances (mm) along a ray that `solid_along` samples: every STEP_MM from `start`, short of `stop`."""
    return np.arange(start, stop, STEP_MM)


def solid_along(solid: np.ndarray, region: Region, origin, direction, start: float, stop: float,
             least_rays: int = 1) -> np.ndarray:
    """Solid or not along a ray, 1 mm steps (`ray_steps`), tolerant of ±2 mm sideways misalignment: solid where at
    least `least_rays` of three parallel rays are."""
    dist = ray_steps(start, stop)
    normal = np.array([-direction[1], direction[0]])
    # Three parallel rays (2 mm either side and the middle), sampled in one go.
    along = np.asarray(origin) + np.outer(dist, direction)
    pts = along[None, :, :] + SIDE_OFFSETS_MM[:, None, None] * normal
    return region.sample(solid, pts).astype(bool).sum(axis=0) >= least_rays


def middle_gap_mm(solid: np.ndarray, region: Region, a, b, dims: PieceDimensions) -> float:
    """The longest stretch (mm) in the middle third of the run between two tower centres `a` and `b` where the
    solid spans less than two of its three rays. A tilted camera sees a wall's end lean across a gap as a thin
    sliver crossing each ray at a different step, which `solid_along`'s any-ray tolerance takes for a wall all the way
    (fresh 13900-029: two open short walls meeting at a gap, 1 mm of it seen empty on any ray, 6 mm on most)."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    span = float(np.linalg.norm(b - a))
    r = dims.tower_radius
    return _gap_in_middle(solid_along(solid, region, a, (b - a) / max(span, 1e-9), r + 2, span - r - 2, least_rays=2))


def find_walls(towers: list[TowerReading], solid: np.ndarray, region: Region, dims: PieceDimensions,
               axis: float, cover: KeepCover | None = None, placed: bool = True,
               only: set[int] | None = None, bridge_mm: float = 0.0, shift_mm: float = 0.0) -> list[WallReading]:
    """Walls from each tower's sockets (of the towers in `only`, if given). `cover`: where keeps stand in
    front of them. `placed`: tower positions come from a known pose; without one (no card) they are rougher,
    and a neighbour is only accepted close to where the span puts it. `bridge_mm`: an open wall's run is read
    across breaks this long; `shift_mm`: and looked for this far either side of a socket where none leaves it."""
    r = dims.tower_radius
    short, long_ = dims.centre_spacing("short"), dims.centre_spacing("long")
    tolerance = (SPAN_TOLERANCE, ANGLE_TOLERANCE) if placed else UNPLACED_REACH * short
    found: dict[tuple, WallReading] = {}
    positions = np.array([t.position for t in towers], dtype=float).reshape(-1, 2)
    for i, tower in enumerate(towers):
        if only is not None and i not in only:
            continue
        for k, d in enumerate(socket_directions(axis)):
            origin = np.array(tower.position)
            reading = _read_socket(i, origin, d, positions, solid, region, dims, r, short, long_,
                                   cover, tolerance, bridge_mm, shift_mm)
            if reading is None:
                continue
            key = (reading.kind, *sorted((i, reading.end))) if reading.end is not None else (i, k)
            if key not in found or found[key].filled < reading.filled:
                found[key] = reading
    return list(found.values())


def walls_behind_keeps(towers: list[TowerReading], walls: list[WallReading], region: Region,
                       dims: PieceDimensions, axis: float, hidden: np.ndarray,
                       keep_centres: np.ndarray | None = None, solid: np.ndarray | None = None) -> list[WallReading]:
    """Walls that may stand between two towers a span apart along the castle's axes, not read because
    keeps in front hide most of where their body would be (MOSTLY_HIDDEN; HALF_HIDDEN, the rest seen only in
    glimpses; BESIDE_KEEP_HIDDEN, a keep of `keep_centres` (mm) by its middle, or the rest seen `solid`):
    neither seen nor ruled out. Only the rules can tell (see `PieceInference.walls_the_rules_need`)."""
    keep_centres = np.zeros((0, 2)) if keep_centres is None else np.asarray(keep_centres, float).reshape(-1, 2)
    r, found = dims.tower_radius, []
    positions = np.array([t.position for t in towers], float).reshape(-1, 2)
    # Open walls along a span may hold its sockets: the part of a wall seen before a keep hid the rest.
    closed = [w for w in walls if w.end is not None]
    for i, j, kind, origin, target in unjoined_spans(towers, walls, dims, axis):
        span = float(np.linalg.norm(target - origin))
        direction = (target - origin) / span
        covered = solid_along(hidden, region, origin, direction, r + 2, span - r - 2)
        keep_by = bool(np.any(np.linalg.norm(keep_centres - (origin + target) / 2, axis=1) < BESIDE_KEEP_MM))
        if _hidden_enough(covered, keep_by) or (solid is not None and _hidden_where_not_seen(
                covered, solid_along(solid, region, origin, direction, r + 2, span - r - 2))
                and span_free(i, j, kind, positions, towers, closed, dims)):
            found.append(WallReading(kind, i, j, None, 0.0, inferred=True))
    return found


def walls_half_seen(towers: list[TowerReading], walls: list[WallReading], region: Region, dims: PieceDimensions,
                    axis: float, solid: np.ndarray) -> list[WallReading]:
    """Walls that may stand between two towers a span apart along the castle's axes, their body seen `solid` along
    HALF_SEEN of it or more but not FILLED, the best seen first: only the rules can tell (see
    `rebuild.half_seen_walls_the_rules_need`). Where a tower stands a short span along, no long wall passes it; a long
    span's body with a tower-wide gap in its middle is two open short walls, not one."""
    r, found = dims.tower_radius, []
    positions = np.array([t.position for t in towers], float).reshape(-1, 2)
    for i, j, kind, origin, target in unjoined_spans(towers, walls, dims, axis):
        span = float(np.linalg.norm(target - origin))
        direction = (target - origin) / span
        if not span_free(i, j, kind, positions, towers, walls, dims):
            continue
        body = solid_along(solid, region, origin, direction, r + 2, span - r - 2)
        if not len(body) or not HALF_SEEN <= body.mean() < FILLED or (kind == "long" and _gap_in_middle(body) >= r):
            continue
        found.append(WallReading(kind, i, j, None, float(body.mean()), half_seen=True))
    return sorted(found, key=lambda w: -w.filled)


def unjoined_spans(towers: list[TowerReading], walls: list[WallReading], dims: PieceDimensions,
                    axis: float) -> Iterator[tuple[int, int, str, np.ndarray, np.ndarray]]:
    """Each pair of towers a short or long span apart along the castle's axes that no wall read joins (a wall read
    open towards a tower holds that socket): (i, j, kind, i's position, j's position), i < j."""
    positions = np.array([t.position for t in towers], dtype=float).reshape(-1, 2)
    joined = {frozenset((w.start, w.end)) for w in walls if w.end is not None}
    meet = meeting_distance(dims)
    for w in walls:
        if w.end is None:
            near = np.flatnonzero(np.linalg.norm(positions - w.open_point, axis=1) < meet)
            joined.update(frozenset((w.start, int(j))) for j in near)
    for i, tower in enumerate(towers):
        origin = np.array(tower.position)
        for d in socket_directions(axis):
            for kind in ("short", "long"):
                j = _tower_along(positions, origin, d, dims.centre_spacing(kind), i, (SPAN_TOLERANCE, ANGLE_TOLERANCE))
                if j is not None and j > i and frozenset((i, j)) not in joined:
                    yield i, j, kind, origin, positions[j]


def _hidden_enough(covered: np.ndarray, keep_by_middle: bool) -> bool:
    """Whether keeps hide too much of a wall's body (`covered`, sampled along it) to judge it by sight:
    MOSTLY_HIDDEN, HALF_HIDDEN seen only in glimpses, or BESIDE_KEEP_HIDDEN with a keep by its middle."""
    if not len(covered):
        return False
    share = covered.mean()
    return bool(share >= MOSTLY_HIDDEN or (share >= HALF_HIDDEN and longest_run(~covered) * STEP_MM <= GLIMPSE_MM)
                or (share >= BESIDE_KEEP_HIDDEN and keep_by_middle))


def span_free(i: int, j: int, kind: str, positions: np.ndarray, towers: list[TowerReading],
               walls: list[WallReading], dims: PieceDimensions) -> bool:
    """Whether no wall of `walls` leaves tower `i` towards `j` or `j` towards `i` (`_held_towards`), nor, for a long
    span, does a tower stand a short span along it (`positions`: the towers'): no long wall passes a tower, and two
    short walls and their tower fill a long span's body as solidly as a long wall."""
    a, b = positions[i], positions[j]
    if _held_towards(i, b - a, walls, towers) or _held_towards(j, a - b, walls, towers):
        return False
    direction = (b - a) / float(np.linalg.norm(b - a))
    return kind != "long" or _tower_along(positions, a, direction, dims.centre_spacing("short"), i,
                                          (SPAN_TOLERANCE, ANGLE_TOLERANCE)) is None


def _hidden_where_not_seen(covered: np.ndarray, seen: np.ndarray) -> bool:
    """Whether keeps hide BESIDE_KEEP_HIDDEN of a wall's body or more (`covered`, sampled along it) and what they do
    not hide is seen solid (`seen`) along all but SEEN_OR_HIDDEN_GAP of it: the table shows nowhere between."""
    return bool(len(covered) and covered.mean() >= BESIDE_KEEP_HIDDEN
                and (covered | seen).mean() >= 1 - SEEN_OR_HIDDEN_GAP)


def longest_run(flags: np.ndarray) -> int:
    """The most consecutive True values in a 1-D array."""
    padded = np.concatenate([[0], flags.astype(np.int8), [0]])
    edges = np.flatnonzero(np.diff(padded))
    return int((edges[1::2] - edges[::2]).max()) if len(edges) else 0


def _tower_along(positions: np.ndarray, origin, direction, spacing: float, exclude: int,
                 tolerance: tuple[float, float] | float) -> int | None:
    """The tower one wall span away along a socket: within a share of the span and an angle of the
    socket's direction (a castle built by hand is never exactly square, nor a set exactly to size).
    A tolerance in mm (positions without a known pose): only that close to where the span puts it.
    `positions`: the towers' (x, y), one row each."""
    if isinstance(tolerance, float):
        off = np.linalg.norm(positions - (origin + direction * spacing), axis=1)
        off[exclude] = np.inf
        j = int(np.argmin(off))
        return j if off[j] < tolerance else None
    span_tolerance, angle_tolerance = tolerance
    offsets = positions - origin
    distance = np.maximum(np.linalg.norm(offsets, axis=1), 1e-9)
    off_span = np.abs(distance - spacing) / (span_tolerance * spacing)
    off_angle = np.arccos(np.clip(offsets @ direction / distance, -1, 1)) / angle_tolerance
    score = np.maximum(off_span, off_angle)
    score[exclude] = np.inf
    j = int(np.argmin(score))
    return j if score[j] < 1.0 else None


def _read_socket(i, origin, d, positions, solid, region, dims, r, short, long_, cover: KeepCover | None, search,
                 bridge_mm, shift_mm=0.0) -> WallReading | None:
    halfway = 0.18 * short  # how close to the middle of a long span a tower splits it
    for kind, spacing in (("short", short), ("long", long_)):
        j = _tower_along(positions, origin, d, spacing, i, search)
        if j is None:
            continue
        target = positions[j]
        span = float(np.linalg.norm(target - origin))
        direction = (target - origin) / span
        body = solid_along(solid, region, origin, direction, r + 2, span - r - 2)
        seen, middle_hidden = body, False
        if cover is not None and len(body):
            covered = solid_along(cover.walls, region, origin, direction, r + 2, span - r - 2)
            middle_hidden = kind == "long" and _middle_hidden(covered, r + 2, span - r - 2, r)
            if kind == "long":
                seen = body | solid_along(cover.gaps, region, origin, direction, r + 2, span - r - 2)
            if (~covered).sum() >= MIN_VISIBLE * len(body):
                body = body[~covered]
        if kind == "long" and _gap_in_middle(seen) >= r:
            break  # two short walls with the tower between them missing: read as open walls below
        if len(body) and body.mean() >= FILLED:
            if kind == "long" and _tower_along(positions, origin, direction, span / 2, i, halfway) is not None:
                return None  # a tower halfway: two short walls, read from that tower
            return WallReading(kind, i, j, None, float(body.mean()), middle_hidden=middle_hidden)
        if kind == "short":
            return None  # a tower one short span away but no wall to it: nothing can pass it
    # No tower at either span: an open wall, as long as the solid run from the socket.
    run, d = _open_run(solid, region, origin, d, r + 2, long_ - r + 8, bridge_mm, shift_mm)
    if run < 0.75 * dims.short_wall_length:
        return None
    kind = "short" if run < (dims.short_wall_length + dims.long_wall_length) / 2 else "long"
    end = origin + d * dims.centre_spacing(kind)
    length = dims.short_wall_length if kind == "short" else dims.long_wall_length
    return WallReading(kind, i, None, (float(end[0]), float(end[1])), float(min(1.0, run / length)))


def _middle_hidden(covered: np.ndarray, start: float, stop: float, radius: float) -> bool:
    """Whether keeps hide MIDDLE_HIDDEN of a wall's body between two towers (`covered`: `solid_along` from `start` to
    `stop`, as far from each tower's centre) within `radius` of its middle, where a tower splitting it into two
    short walls would stand."""
    middle = covered[np.abs(ray_steps(start, stop) - (start + stop) / 2) <= radius]
    return bool(middle.size) and float(middle.mean()) >= MIDDLE_HIDDEN


def open_walls_through_towers(towers: list[TowerReading], walls: list[WallReading],
                               dims: PieceDimensions) -> tuple[list[WallReading], list[int]]:
    """The walls, each open wall whose body passes through another tower read (within a tower's radius and half a
    wall's thickness of its axis, short of where its own missing tower would stand) taken as the wall to that
    tower: a wall's body cannot pass a tower's (C1), so the run was a wall to a tower read a little off the span
    or the axis, carried on by what lies beyond it. Dropped where a wall already joins the two, or where the
    tower stands nearer than a short wall allows. With the indices (in the result) of the walls so joined."""
    positions = np.array([t.position for t in towers], dtype=float).reshape(-1, 2)
    joined = {frozenset((w.start, w.end)) for w in walls if w.end is not None}
    short, long_ = dims.centre_spacing("short"), dims.centre_spacing("long")
    result, changed = [], []
    for wall in walls:
        if wall.end is not None:
            result.append(wall)
            continue
        origin = positions[wall.start]
        reach = float(np.linalg.norm(np.asarray(wall.open_point) - origin))
        tower = _tower_across(positions, origin, (np.asarray(wall.open_point) - origin) / max(reach, 1e-9),
                              reach - dims.tower_radius, wall.start, dims)
        if tower is None:
            result.append(wall)
            continue
        span = float(np.linalg.norm(positions[tower] - origin))
        if frozenset((wall.start, tower)) in joined or span < 0.75 * short:
            continue
        joined.add(frozenset((wall.start, tower)))
        changed.append(len(result))
        result.append(replace(wall, kind="short" if span < (short + long_) / 2 else "long", end=tower, open_point=None,
                              through_tower=True))
    return result, changed


def without_open_walls_across_walls(towers: list[TowerReading], walls: list[WallReading], dims: PieceDimensions,
                                    across: list[WallReading] | None = None) -> list[WallReading]:
    """`walls` less each open wall whose run crosses a wall of `across` (`walls` if None) joining two towers,
    its missing tower standing clear of that wall (beyond a tower's radius from its axis) and the crossing clear
    of its towers. Walls join only towers (C1) and no wall blocks another's end (C2), so that run was the castle's
    footprint carried on from a free socket (x9898-025: a dense castle far off at 30°, its walls fattened by their
    sides; open long walls read across other walls, and towers added at their ends). An open wall ending on a
    wall's axis is no such run: it may end in a tower hidden in that wall's run (and a lone tower a short span
    beside a long wall's middle, seen at 38°, reads alike: fresh 6666-026)."""
    joined = [w for w in (walls if across is None else across) if w.end is not None]
    if not joined:
        return list(walls)
    a = np.array([towers[w.start].position for w in joined], float)
    b = np.array([towers[w.end].position for w in joined], float)
    return [w for w in walls if w.end is not None or not _runs_across(w, towers, a, b, dims)]


def _runs_across(wall: WallReading, towers: list[TowerReading], a: np.ndarray, b: np.ndarray,
                 dims: PieceDimensions) -> bool:
    """Whether an open wall's run (from its tower to where its missing tower would stand) crosses one of the
    walls from `a` to `b` (their towers' positions, one row a wall) as `without_open_walls_across_walls` says."""
    start, end = np.asarray(towers[wall.start].position, float), np.asarray(wall.open_point, float)
    length = np.linalg.norm(b - a, axis=1)
    along_wall = (b - a) / np.maximum(length, 1e-9)[:, None]
    normal = np.column_stack([-along_wall[:, 1], along_wall[:, 0]])
    side_start, side_end = np.sum((start - a) * normal, axis=1), np.sum((end - a) * normal, axis=1)
    margin = dims.tower_radius
    across = (side_start * side_end < 0) & (np.minimum(np.abs(side_start), np.abs(side_end)) > margin)
    share = side_start / np.where(across, side_start - side_end, 1.0)
    at = np.sum((start + share[:, None] * (end - start) - a) * along_wall, axis=1)
    return bool(np.any(across & (at > margin) & (at < length - margin)))


def _tower_across(positions: np.ndarray, origin, direction, reach: float, start: int,
                  dims: PieceDimensions) -> int | None:
    """The nearest tower (other than `start`, at `origin`) standing on a wall's axis from `origin` along
    `direction`, less than `reach` mm out (`_astride`)."""
    along, astride = _astride(positions, origin, direction, dims)
    return _nearest(astride & (along > dims.tower_radius) & (along < reach), along, (start,))


def _tower_in_run(positions: np.ndarray, origin, direction, span: float, ends: tuple[int, int],
                  dims: PieceDimensions) -> int | None:
    """The tower standing in the middle of a long wall's run from `origin`, if one does: a tower's body
    cannot stand where a wall's is, so one read astride the run's axis (`_astride`) near its middle is the
    tower between two short walls, read off its place (a keep's colour or a shadow beside it moves it a
    centimetre or two, and the short walls' spans then look wrong). None if no tower stands there."""
    along, astride = _astride(positions, origin, direction, dims)
    off_middle = np.abs(along - span / 2)
    return _nearest(astride & (off_middle < IN_RUN_ALONG * dims.centre_spacing("short")), off_middle, ends)


def _astride(positions: np.ndarray, origin, direction, dims: PieceDimensions) -> tuple[np.ndarray, np.ndarray]:
    """How far (mm) along a wall's axis from `origin` each tower stands, and whether it stands astride the axis:
    within a tower's radius and half a wall's thickness of it (IN_RUN_ACROSS), where the wall's body would pass
    through the tower's."""
    offsets = positions - origin
    across = np.abs(offsets @ np.array([-direction[1], direction[0]]))
    return offsets @ direction, across < IN_RUN_ACROSS * (dims.tower_radius + dims.wall_thickness / 2)


def _nearest(candidates: np.ndarray, distance: np.ndarray, excluded) -> int | None:
    """The index of the candidate (a mask) least `distance` away, leaving out the `excluded` indices; None if none."""
    candidates = candidates.copy()
    candidates[list(excluded)] = False
    if not candidates.any():
        return None
    indices = np.flatnonzero(candidates)
    return int(indices[np.argmin(distance[indices])])


def split_at(wall: WallReading, tower: int) -> list[WallReading]:
    """A long wall between two towers given as the two short walls joining `tower`, standing in its middle. Built
    anew, not copied as `split_at_towers_in_runs` copies: what doubts the long wall as a whole (read where a thin
    tower stood, its middle hidden, through a tower) is not said of its halves; `inferred` is."""
    return [WallReading("short", end, tower, None, wall.filled, wall.inferred) for end in (wall.start, wall.end)]


def split_at_towers_in_runs(towers: list[TowerReading], walls: list[WallReading],
                            dims: PieceDimensions) -> list[WallReading]:
    """The walls, each long wall between two towers with a third read in its run (`_tower_in_run`: found
    after the wall was, or read off its place) given as the two short walls joining that tower."""
    positions = np.array([t.position for t in towers], dtype=float).reshape(-1, 2)
    joined = {frozenset((w.start, w.end)) for w in walls if w.end is not None}
    result = []
    for wall in walls:
        middle = None
        if wall.kind == "long" and wall.end is not None:
            origin, far = positions[wall.start], positions[wall.end]
            span = float(np.linalg.norm(far - origin))
            u = (far - origin) / max(span, 1e-9)
            middle = _tower_in_run(positions, origin, u, span, (wall.start, wall.end), dims)
            if middle is not None and not _room_for_run(middle, u, (wall.start, wall.end), positions, walls):
                middle = None
        if middle is None:
            result.append(wall)
            continue
        for end in (wall.start, wall.end):
            if frozenset((end, middle)) not in joined:
                joined.add(frozenset((end, middle)))
                result.append(replace(wall, kind="short", start=end, end=middle))
    return result


def _room_for_run(tower: int, run: np.ndarray, ends: tuple[int, int], positions: np.ndarray,
                  walls: list[WallReading]) -> bool:
    """Whether `tower` can stand between the two short walls of a run along `run` to `ends`: a wall leaves it
    sideways (else it may be the long wall's own middle read as a tower: `towers_in_long_walls` weighs that
    one by its height), at most two do (a tower has four sockets, the run takes two), and none leaves it
    along the run but to the run's ends (else the reading around it is muddled, not the run)."""
    sideways = 0
    for wall in walls:
        if tower not in (wall.start, wall.end):
            continue
        other = wall.end if wall.start == tower else wall.start
        far = positions[other] if other is not None else np.asarray(wall.open_point, float)
        heading = far - positions[tower]
        if abs(float(heading @ run)) < math.cos(math.pi / 4) * float(np.linalg.norm(heading)):
            sideways += 1
        elif other not in ends:
            return False
    return 1 <= sideways <= 2


def _open_run(solid: np.ndarray, region: Region, origin, d: np.ndarray, start: float,
              stop: float, max_gap: float, shift_mm: float = 0.0) -> tuple[float, np.ndarray]:
    """The solid run (mm) from a socket and its direction. A wall with no tower at its end may leave
    its socket a few degrees off the castle's axis (as a tower may stand off it); a long one then
    drifts off a ray along the axis before its end, so directions within ANGLE_TOLERANCE are tried
    too, once the socket is seen to hold something at all. Where nothing leaves the socket, rays `shift_mm`
    either side of it are tried too (a tower read a few mm off its place, its wall beside the ray)."""
    best_run, best_d = 0.0, d
    for turn in sorted(np.linspace(-ANGLE_TOLERANCE, ANGLE_TOLERANCE, 9), key=abs):  # along the axis first
        c, s = math.cos(turn), math.sin(turn)
        ray_d = np.array([c * d[0] - s * d[1], s * d[0] + c * d[1]])
        run = bridged_run(solid_along(solid, region, origin, ray_d, start, stop), max_gap)
        if run > best_run:
            best_run, best_d = run, ray_d
        if turn == 0.0 and run < OPEN_WALL_SEEN_MM:
            break  # nothing leaves this socket
    if best_run < OPEN_WALL_SEEN_MM and shift_mm:
        normal = np.array([-d[1], d[0]])
        for shift in (-shift_mm, shift_mm):
            run = bridged_run(solid_along(solid, region, np.asarray(origin) + shift * normal, d, start, stop), max_gap)
            if run > best_run:
                best_run = run
    return best_run, best_d


def bridged_run(profile: np.ndarray, max_gap: float) -> float:
    """How far (mm) a profile runs solid from its start, across gaps of up to `max_gap` mm: where a gap
    longer than that begins, or where the solid seen since the start falls below FILLED."""
    solid_so_far = np.cumsum(profile)
    gap_start, end = None, len(profile)
    for n, here in enumerate(profile):
        if here:
            gap_start = None
            continue
        gap_start = n if gap_start is None else gap_start
        if (n - gap_start + 1) * STEP_MM > max_gap:
            end = gap_start
            break
    while end > 0 and not profile[end - 1]:
        end -= 1  # a run ends on solid
    while end > 0 and solid_so_far[end - 1] < FILLED * end:
        end -= 1
    return end * STEP_MM


def _bridged_runs(profile: np.ndarray, max_gap: float) -> list[tuple[int, int]]:
    """The solid runs of a profile (start, end indices) once gaps of up to `max_gap` mm are bridged."""
    solid = np.flatnonzero(profile)
    if not len(solid):
        return []
    breaks = np.flatnonzero(np.diff(solid) - 1 > max_gap / STEP_MM)
    starts = np.concatenate([[solid[0]], solid[breaks + 1]])
    ends = np.concatenate([solid[breaks], [solid[-1]]]) + 1
    return [(int(a), int(b)) for a, b in zip(starts, ends, strict=True)]


def _gap_in_middle(profile: np.ndarray) -> float:
    """The longest run (mm) with nothing solid in the middle third of a wall's profile."""
    middle = profile[len(profile) // 3: 2 * len(profile) // 3]
    return longest_run(~middle) * STEP_MM


def settled_towers(towers: list[TowerReading], walls: list[WallReading], dims: PieceDimensions,
                   axis: float) -> list[TowerReading]:
    """Tower positions corrected by the walls read between them (the rules as evidence): each wall
    puts its tower one span from its neighbour along the castle's axis. A tower's position becomes
    the mean of what it was read at and where each of its walls puts it, so one tower read off its
    place (a keep beside it, a crowded junction) no longer keeps its other walls from being found."""
    votes: list[list[np.ndarray]] = [[np.array(t.position)] for t in towers]
    axes = socket_directions(axis)
    for wall in walls:
        if wall.end is None:
            continue
        a, b = np.array(towers[wall.start].position), np.array(towers[wall.end].position)
        along = max(axes, key=lambda u: float((b - a) @ u))  # the axis the wall runs along, a → b
        step = along * dims.centre_spacing(wall.kind)
        votes[wall.start].append(b - step)
        votes[wall.end].append(a + step)
    return [replace(t, x=float(np.mean([v[0] for v in vs])), y=float(np.mean([v[1] for v in vs])))
            for t, vs in zip(towers, votes, strict=True)]


def open_walls_past_unseen_starts(towers: list[TowerReading], walls: list[WallReading], solid: np.ndarray,
                                  region: Region, dims: PieceDimensions, axis: float,
                                  bridge_mm: float) -> list[WallReading]:
    """Open walls at the sockets no wall holds whose solid is seen only from some way out of the socket (see
    UNSEEN_START_SEEN_SHARE): nothing, then a wall's solid read across breaks of `bridge_mm`, ending where the
    wall's end would be. Each marked with the length unseen (a doubt: check it). No tower may stand a span away
    along the socket: a wall to it would have been read, or nothing can pass it."""
    short, long_ = dims.centre_spacing("short"), dims.centre_spacing("long")
    positions = np.array([t.position for t in towers], dtype=float).reshape(-1, 2)
    found = []
    for i, tower in enumerate(towers):
        origin = np.array(tower.position, float)
        for d in socket_directions(axis):
            if _held_towards(i, d, walls, towers) or any(
                    _tower_along(positions, origin, d, spacing, i, (SPAN_TOLERANCE, ANGLE_TOLERANCE)) is not None
                    for spacing in (short, long_)):
                continue
            wall = _past_unseen_start(i, origin, d, solid, region, dims, bridge_mm)
            if wall is not None:
                found.append(wall)
    return found


def _past_unseen_start(i: int, origin: np.ndarray, d: np.ndarray, solid: np.ndarray, region: Region,
                       dims: PieceDimensions, bridge_mm: float) -> WallReading | None:
    """The open wall from tower `i`'s socket along `d` seen only past an unseen start, or None."""
    start = dims.tower_radius + 2
    profile = solid_along(solid, region, origin, d, start,
                          dims.tower_radius + dims.long_wall_length + dims.tower_radius)
    runs = _bridged_runs(profile, bridge_mm)
    if not runs:
        return None
    first, _ = max(runs, key=lambda run: run[1] - run[0])
    # A few mm of solid by the socket (the tower's rim, a crossing wall's side) do not make the start seen.
    if first * STEP_MM <= bridge_mm or profile[:first].sum() * STEP_MM > bridge_mm:
        return None
    unseen = start - dims.tower_radius + first * STEP_MM  # from the tower's side, as a wall's length runs
    seen = bridged_run(profile[first:], bridge_mm)
    end = unseen + seen
    for kind, length in (("short", dims.short_wall_length), ("long", dims.long_wall_length)):
        if abs(end - length) <= dims.tower_radius and seen >= UNSEEN_START_SEEN_SHARE * length:
            point = origin + d * dims.centre_spacing(kind)
            return WallReading(kind, i, None, (float(point[0]), float(point[1])), seen / length,
                               unseen_start_mm=unseen)
    return None


def open_walls_at_free_sockets(walls: list[WallReading], again: list[WallReading],
                               towers: list[TowerReading]) -> list[WallReading]:
    """The open walls of `again` leaving a socket no wall of `walls` holds (none leaves their tower within
    about 30° of their direction)."""
    return [w for w in again if w.end is None and not _socket_held(w, walls, towers)]


def open_walls_grown_long(walls: list[WallReading], again: list[WallReading],
                          towers: list[TowerReading]) -> list[tuple[int, WallReading]]:
    """The open short walls of `walls` that `again` reads as open long walls from the same socket, each with
    its index in `walls` and the long wall that replaces it."""
    grown = []
    for i, wall in enumerate(walls):
        if wall.kind != "short" or wall.end is not None:
            continue
        longer = [w for w in again if w.kind == "long" and w.end is None and w.start == wall.start
                  and _socket_held(w, [wall], towers)]
        if longer:
            grown.append((i, longer[0]))
    return grown


def _socket_held(open_wall: WallReading, walls: list[WallReading], towers: list[TowerReading]) -> bool:
    """Whether a wall of `walls` leaves the open wall's tower within about 30° of its direction
    (SAME_SOCKET_COSINE): the socket it leaves by is taken."""
    here = np.asarray(towers[open_wall.start].position, float)
    return _held_towards(open_wall.start, np.asarray(open_wall.open_point, float) - here, walls, towers)


def _held_towards(tower: int, heading: np.ndarray, walls: list[WallReading], towers: list[TowerReading]) -> bool:
    """Whether a wall of `walls` leaves `tower` within about 30° of `heading` (SAME_SOCKET_COSINE)."""
    here = np.asarray(towers[tower].position, float)
    for w in walls:
        if tower in (w.start, w.end):
            towards = far_end(w, tower, towers) - here
            if heading @ towards > SAME_SOCKET_COSINE * np.linalg.norm(heading) * np.linalg.norm(towards):
                return True
    return False


def on_a_wall_read(point: np.ndarray, towers: list[TowerReading], walls: list[WallReading], dims: PieceDimensions,
                   but: Collection[int] = ()) -> bool:
    """Whether a tower's footprint at `point` (table mm) would meet a wall read (of `walls`, other than those `but`):
    the point lies within a tower's radius of the wall's side."""
    reach = dims.wall_thickness / 2 + dims.tower_radius
    return any(point_segment_distance(tuple(point), towers[wall.start].position,
                                      tuple(far_end(wall, wall.start, towers))) < reach
               for i, wall in enumerate(walls) if i not in but)


def far_end(wall: WallReading, tower: int, towers: list[TowerReading]) -> np.ndarray:
    """Where a wall leaving or reaching `tower` goes: its other tower, or its open end."""
    other = wall.end if wall.start == tower else wall.start
    if other is None or other == tower:
        return np.asarray(wall.open_point, float)
    return np.asarray(towers[other].position, float)


def merged_walls(first: list[WallReading], again: list[WallReading],
                 towers: list[TowerReading]) -> list[WallReading]:
    """The walls read first, plus the walls joining two towers found only on a second reading; an
    open wall read first along such a wall's socket gives way to it."""
    joined = {frozenset((w.start, w.end)) for w in first if w.end is not None}
    added = [w for w in again if w.end is not None and frozenset((w.start, w.end)) not in joined]

    return [w for w in first if w.end is not None or not _socket_held(w, added, towers)] + added
