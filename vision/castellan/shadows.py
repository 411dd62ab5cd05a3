"""Cast shadows: the light's direction from the walls' shadows, and a keep's height from its own.

Under a lamp or the sun a piece h mm tall casts its shadow h·v across the table, the same v
for every piece. Walls run along the castle's two axes, and beside the walls of each axis a
dark band runs on the side away from the light, as wide as the wall's height times v across
the wall: the two bands give v. A double keep's shadow then reaches (64 − 32)·|v| farther than
a single's. Where that stretch of table is seen and lies in no other piece's shadow, its
darkness tells a single keep from a double even straight below the camera, where the keeps'
lean cannot. Under a flash, an overcast sky or a lamp high overhead there is no band to see,
and no evidence is given.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from tablesight.calibration.pieces import PieceProfile
from tablesight.vision.castellan.carving import warp_mask
from tablesight.vision.castellan.keeps import KeepReading
from tablesight.vision.castellan.towers import TowerReading
from tablesight.vision.castellan.walls import WallReading, castle_axis
from tablesight.vision.table_view import Region, TableView

PROFILE_REACH_MM = 44.0  # sampled this far either side of a wall (a parallel wall stands 64 mm off)
OCCUPIED_MARGIN_MM = 2.0  # the table this close to plastic is its blurred edge, not table
MIN_BAND_STOPS = 0.25  # a shadow band fainter than this is no usable shadow (soft or no directional light)
MIN_BAND_NOISES = 3.0  # ... and it must stand this many of the table's own spreads out of it
MAX_EDGE_MM = 6.0  # a hard shadow's edge: from three quarters of its depth to a quarter within this
LIT_PERCENTILE = 75  # the table's lit level near a piece: most table there is lit
MIN_TEST_MM2 = 20.0  # table needed in the stretch a double's shadow adds, to judge by it
CELL_MM2 = 4.0  # table brightness is taken as independent over cells of about this size
MODEL_NOISE = 0.3  # shares of the shadow's depth: the light's v, the keep's place and turn are all estimates
STRIP_HALF_WIDTH_MM = 7.0  # across the shadow: within a keep's inscribed half-side whatever its turn
KEEP_CIRCUMRADIUS_SHARE = math.sqrt(2) / 2
LEAN_DECIDES_MM = 12.0  # a single's and a double's lean this far apart tell them apart without shadows
SHADOW_MARGIN_MM = 3.0  # other pieces' shadows are widened this much: the light's offset is an estimate
TURNED_MARGIN_MM = 2.0  # a turned keep's shadows are drawn to this: its place, turn and the light are estimates
# Along the light, a double's shadow outreaches a single's by a keep's height × the light's offset; within the
# margins above, a strip thinner than this is misplaced wholly by the few mm the keep's place and the light's
# offset may be off (a light high above: sample 016's doubles, 0.19 mm of shadow per mm, read lit there).
MIN_TURNED_STRETCH_MM = 4.0
# Every keep, single or double, shades the table just beyond it: where the walls' shadows say. Seen shading it
# less than this share of the walls' shadows' depth (the median over at least MIN_OWN_SHADOWS keeps), the light
# the walls show is not the one the keeps cast their shadows in (a second lamp filling them, a dark margin
# along the walls that is no cast shadow): how far a keep's shadow reaches then tells nothing of its height.
OWN_SHADE_MIN = 0.5
MIN_OWN_SHADOWS = 3


@dataclass(frozen=True)
class CastShadows:
    """The light as the castle's shadows show it."""

    offset: np.ndarray  # (2,) mm of shadow on the table per mm of height
    depth: float  # how much darker (log2 stops, < 0) shadowed table is than lit
    noise: float  # the spread (stops) of lit table around its level
    log_table: np.ndarray  # log2 brightness of the table plane over the castle's region
    free: np.ndarray  # table seen and clear of plastic (bool, over the region)
    region: Region


def table_brightness(view: TableView, region: Region, occupied: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """log2 brightness (card units) of the table plane over `region`, and where it is table: seen in the
    photo and clear of `occupied` (plastic seen on the table plane) by OCCUPIED_MARGIN_MM."""
    flat = view.rectify(0.0, region)
    log_table = np.log2(np.maximum(flat.mean(axis=2), 1 / 64)).astype(np.float32)
    return log_table, view.visible(0.0, region) & ~_widened(occupied, OCCUPIED_MARGIN_MM, region)


def _widened(mask: np.ndarray, margin_mm: float, region: Region) -> np.ndarray:
    """A mask over `region` (bool) grown by `margin_mm` all round."""
    size = 2 * max(1, int(round(margin_mm * region.px_per_mm))) + 1
    return cv2.dilate(mask.astype(np.uint8), np.ones((size, size), np.uint8)) > 0


def find_shadows(log_table: np.ndarray, free: np.ndarray, region: Region, towers: list[TowerReading],
                 walls: list[WallReading], axis: float, profile: PieceProfile) -> CastShadows | None:
    """The light's shadow offset from the bands beside the walls of each axis (castle axis `axis`
    radians), or None where the walls show no clear band (a flash, an overcast sky). `log_table`, `free`:
    the table plane's brightness over `region` and where it is table (`table_brightness`)."""
    e1 = np.array([math.cos(axis), math.sin(axis)])
    e2 = np.array([-e1[1], e1[0]])
    offset = np.zeros(2)
    depths, noises = [], []
    for along, normal in ((e1, e2), (e2, e1)):
        profile_stops, lit_spread = _band_profile(log_table, free, region, towers, walls, along, normal, profile)
        if profile_stops is None:
            return None
        noises.append(lit_spread)
        band = _band(profile_stops, lit_spread, profile.dimensions.wall_thickness / 2)
        if band is None:
            continue  # no band: the light shines along these walls (or is overhead): nothing across them
        width, depth = band
        offset += width / profile.wall_height * normal
        depths.append(depth)
    if not depths:
        return None
    return CastShadows(offset, float(np.mean(depths)), float(np.mean(noises)), log_table, free, region)


def _band_profile(log_table: np.ndarray, free: np.ndarray, region: Region, towers: list[TowerReading],
                  walls: list[WallReading], along: np.ndarray, normal: np.ndarray,
                  profile: PieceProfile) -> tuple[np.ndarray | None, float]:
    """The median brightness step (stops from each wall's lit level) at each mm across the walls running
    along `along`, from −PROFILE_REACH_MM to +PROFILE_REACH_MM along `normal`; and lit table's spread."""
    offsets = np.arange(-PROFILE_REACH_MM, PROFILE_REACH_MM + 1.0)
    columns: list[list[np.ndarray]] = [[] for _ in offsets]
    spreads = []
    r = profile.dimensions.tower_radius
    for wall in walls:
        if wall.end is None:
            continue
        a, b = np.array(towers[wall.start].position), np.array(towers[wall.end].position)
        span = float(np.linalg.norm(b - a))
        d = (b - a) / max(span, 1e-9)
        if abs(d @ along) < math.cos(math.radians(20)):
            continue
        steps = np.arange(r + 4.0, span - r - 4.0, 2.0)
        if not len(steps):
            continue
        points = a + steps[:, None, None] * d + offsets[None, :, None] * normal  # (along, across, 2)
        values, seen = region.sample(log_table, points), region.sample(free, points)
        lit_part = seen & (np.abs(offsets) >= 8.0)[None, :]
        if lit_part.sum() < 20:
            continue
        lit = float(np.percentile(values[lit_part], LIT_PERCENTILE))
        upper = values[lit_part][values[lit_part] >= np.median(values[lit_part])]
        spreads.append(float(np.std(upper)))  # the lit half: the table's grain and pattern, not the shadows
        for k in range(len(offsets)):
            column = values[seen[:, k], k] - lit
            if column.size:
                columns[k].append(column)
    if not spreads:
        return None, 0.0
    stops = np.array([np.median(np.concatenate(c)) if sum(len(x) for x in c) >= 15 else np.nan for c in columns])
    return stops, float(np.median(spreads))


def _band(stops: np.ndarray, lit_spread: float, half_thickness: float) -> tuple[float, float] | None:
    """The shadow band beside a wall in a profile across it (1 mm per entry, centred on the wall): its
    signed width (mm beyond the wall's face, + on the normal's side) and depth (stops), or None."""
    centre = len(stops) // 2
    near = slice(int(half_thickness) + 2, int(half_thickness) + 10)  # the first mm beyond the wall's face
    best = None
    for sign in (1, -1):
        side = stops[centre::sign]
        seen = side[near][~np.isnan(side[near])]
        if seen.size < 3:
            continue
        if best is None or seen.min() < best[1]:
            best = (sign, float(seen.min()), side)
    if best is None:
        return None
    sign, deepest, side = best
    if deepest > -max(MIN_BAND_STOPS, MIN_BAND_NOISES * lit_spread):
        return None
    depth = float(np.median(side[near][side[near] < deepest / 2]))
    edge = len(side) - 1
    for k in range(near.start, len(side)):
        if not np.isnan(side[k]) and side[k] > depth / 2:
            edge = k
            break
    # A hard shadow's edge rises from deep to lit within a few mm; a soft one (an overcast sky, a big
    # lamp shade) fades over many, and where it ends cannot be told.
    inner = next((k for k in range(edge, 0, -1) if not np.isnan(side[k]) and side[k] < 0.75 * depth), None)
    outer = next((k for k in range(edge, len(side)) if not np.isnan(side[k]) and side[k] > 0.25 * depth), None)
    if inner is None or outer is None or outer - inner > MAX_EDGE_MM:
        return None
    return sign * (edge - half_thickness), depth


def grey_shadows(shadows: CastShadows, towers: list[TowerReading], walls: list[WallReading],
                 profile: PieceProfile) -> np.ndarray:
    """Where the towers and walls cast their shadows on the region, widened by SHADOW_MARGIN_MM (the
    light's offset is an estimate)."""
    region, v = shadows.region, shadows.offset
    mask = np.zeros(shadows.log_table.shape, np.uint8)
    dims = profile.dimensions

    def sweep(outline: np.ndarray, height: float) -> None:
        hull = cv2.convexHull(np.vstack([outline, outline + height * v]).astype(np.float32))
        cv2.fillConvexPoly(mask, np.round(region.to_pixels(hull.reshape(-1, 2))).astype(np.int32), 1)

    circle = np.array([[math.cos(t), math.sin(t)] for t in np.linspace(0, 2 * math.pi, 16, endpoint=False)])
    for t in towers:
        sweep(np.array(t.position) + dims.tower_radius * circle, profile.tower_height)
    for w in walls:
        a = np.array(towers[w.start].position)
        b = np.array(w.open_point) if w.end is None else np.array(towers[w.end].position)
        n = np.array([-(b - a)[1], (b - a)[0]]) / max(float(np.linalg.norm(b - a)), 1e-9)
        half = dims.wall_thickness / 2
        sweep(np.array([a + half * n, a - half * n, b - half * n, b + half * n]), profile.wall_height)
    return _widened(mask, SHADOW_MARGIN_MM, region)


def _in_keep_shadows(points: np.ndarray, keeps: list[np.ndarray], v: np.ndarray, profile: PieceProfile) -> np.ndarray:
    """Which table points (mm, ... × 2) lie in the shadow other keeps cast, each taken as double: within a
    keep's circumradius (and SHADOW_MARGIN_MM) of the segment its shadow sweeps."""
    shaded = np.zeros(points.shape[:-1], bool)
    reach = KEEP_CIRCUMRADIUS_SHARE * profile.dimensions.keep_side + SHADOW_MARGIN_MM
    length = 2 * profile.keep_height * v
    for keep in keeps:
        t = np.clip(((points - keep) @ length) / max(float(length @ length), 1e-9), 0.0, 1.0)
        shaded |= np.linalg.norm(points - keep - t[..., None] * length, axis=-1) <= reach
    return shaded


def double_shadow_share(shadows: CastShadows, usable: np.ndarray, centre: np.ndarray, others: list[np.ndarray],
                        profile: PieceProfile, turn: float | None = None) -> tuple[float, float] | None:
    """How dark the stretch of table a double keep at `centre` would shade and a single would not is,
    as a share of the shadows' depth (0 lit, as a single leaves it; 1 shaded, as a double does), with
    its noise in the same shares; None where too little of that stretch is seen clear of other shadows.
    `usable`: table seen, clear of plastic and of the grey pieces' shadows; `others`: the other keeps;
    `turn`: the keep's turn (radians), if known: the two shadows are then drawn as they fall."""
    v = shadows.offset
    if float(np.linalg.norm(v)) < 1e-3:
        return None
    if turn is None:
        points, step = _stretch_any_turn(centre, v, profile, shadows.region)
    else:
        points, step = _stretch_turned(centre, v, turn, profile, shadows.region)
    if points is None:
        return None
    measured = _shade_share(shadows, usable, centre, points, step, clear=~_in_keep_shadows(points, others, v, profile))
    if measured is None:
        return None
    share, seen_mm2 = measured
    cells = seen_mm2 / CELL_MM2
    noise = math.hypot(shadows.noise / abs(shadows.depth) / math.sqrt(cells), MODEL_NOISE)
    return share, noise


def keeps_shade_as_the_walls_do(shadows: CastShadows, usable: np.ndarray, keeps: list[KeepReading],
                                profile: PieceProfile) -> bool:
    """Whether the keeps' own shadows (`own_shadow_share`) fall as dark as the walls' where the walls' say,
    on median over the keeps where they are seen (OWN_SHADE_MIN); true where too few are seen to tell."""
    own = [own_shadow_share(shadows, usable, np.array([k.x, k.y]), profile, k.turn) for k in keeps]
    own = [share for share in own if share is not None]
    return len(own) < MIN_OWN_SHADOWS or float(np.median(own)) >= OWN_SHADE_MIN


def own_shadow_share(shadows: CastShadows, usable: np.ndarray, centre: np.ndarray, profile: PieceProfile,
                     turn: float | None = None) -> float | None:
    """How dark the table is where a keep at `centre` shades it whatever its height (a single's shadow, clear of
    its base), as a share of the walls' shadows' depth; None where too little of it is seen. Without the keep's
    turn, its base is taken as its circumscribed circle and its shadow as its inscribed circle's."""
    v = shadows.offset
    if float(np.linalg.norm(v)) < 1e-3:
        return None
    side = profile.dimensions.keep_side
    if turn is None:  # an octagon around the circumscribed circle; the inscribed circle as an octagon within it
        angles = np.arange(8) * math.pi / 4
        ring = np.column_stack([np.cos(angles), np.sin(angles)])
        base, caster = centre + KEEP_CIRCUMRADIUS_SHARE * side / math.cos(math.pi / 8) * ring, centre + side / 2 * ring
    else:
        base = caster = _turned_square(centre, turn, side / 2)
    step = 1.0 / shadows.region.px_per_mm
    points = _within_beyond(_swept_shadow(caster, centre, v, profile.keep_height, profile.keep_roof_height), base,
                            step)
    if not len(points):
        return None
    measured = _shade_share(shadows, usable, centre, points, step)
    return None if measured is None else measured[0]


def _shade_share(shadows: CastShadows, usable: np.ndarray, centre: np.ndarray, points: np.ndarray, step: float,
                 clear: np.ndarray | None = None) -> tuple[float, float] | None:
    """How dark the table is at `points` (mm, a grid `step` apart) seen in `usable` (and `clear`, if given), against
    the lit table around `centre` (`_lit_level`), as a share of the shadows' depth, with the area seen (mm²); None
    where under MIN_TEST_MM2 of it is seen, or no lit level is found."""
    region = shadows.region
    values, seen = region.sample(shadows.log_table, points), region.sample(usable, points)
    if clear is not None:
        seen &= clear
    seen_mm2 = seen.sum() * step * step
    if seen_mm2 < MIN_TEST_MM2:
        return None
    lit = _lit_level(shadows, usable, centre)
    if lit is None:
        return None
    return float(np.mean(values[seen]) - lit) / shadows.depth, seen_mm2


def _stretch_any_turn(centre: np.ndarray, v: np.ndarray, profile: PieceProfile,
                      region: Region) -> tuple[np.ndarray | None, float]:
    """Table points (mm, a grid `step` apart) beyond a single keep's shadow whatever its turn (its body's
    corners, its roof's apex), and within a double's (its upper body's shadow, as wide as the keep's
    inscribed square); None where there is no such stretch."""
    reach = float(np.linalg.norm(v))
    u = v / reach
    half = profile.dimensions.keep_side / 2
    body, top = profile.keep_height - profile.keep_roof_height, profile.keep_height
    start = max(body * reach + KEEP_CIRCUMRADIUS_SHARE * 2 * half, top * reach) + 1.5
    stop = (2 * top - profile.keep_roof_height) * reach + half - 3.0
    step = 0.5 / region.px_per_mm
    if stop - start < 3.0:
        return None, step
    s, w = np.meshgrid(np.arange(start, stop, step), np.arange(-STRIP_HALF_WIDTH_MM, STRIP_HALF_WIDTH_MM, step))
    return centre + s[..., None] * u + w[..., None] * np.array([-u[1], u[0]]), step


def _stretch_turned(centre: np.ndarray, v: np.ndarray, turn: float, profile: PieceProfile,
                    region: Region) -> tuple[np.ndarray | None, float]:
    """Table points (mm) a double keep turned by `turn` shades and a single does not, TURNED_MARGIN_MM
    within the one and beyond the other (the keep's place, turn and the light are estimates); each
    shadow is its square swept along the light up to its body's top, then to its roof's apex."""
    step = 1.0 / region.px_per_mm  # a sample a pixel: the stretch is bigger than the strip above
    if profile.keep_height * float(np.linalg.norm(v)) - 2 * TURNED_MARGIN_MM < MIN_TURNED_STRETCH_MM:
        return None, step
    square = _turned_square(centre, turn, profile.dimensions.keep_side / 2)
    single, double = (_swept_shadow(square, centre, v, top, profile.keep_roof_height)
                      for top in (profile.keep_height, 2 * profile.keep_height))
    points = _within_beyond(double, single, step)
    return (points if len(points) else None), step


def _turned_square(centre: np.ndarray, turn: float, half: float) -> np.ndarray:
    """The corners of a square of half-side `half` at `centre`, turned by `turn` radians."""
    e1, e2 = np.array([math.cos(turn), math.sin(turn)]), np.array([-math.sin(turn), math.cos(turn)])
    return centre + half * np.array([e1 + e2, e1 - e2, -e1 - e2, -e1 + e2])


def _swept_shadow(outline: np.ndarray, centre: np.ndarray, v: np.ndarray, top: float, roof: float) -> np.ndarray:
    """The corners of the shadow of a keep `top` mm high at `centre`: its `outline` swept along the light (`v`)
    up to its body's top, then to its roof's apex."""
    return np.vstack([outline, outline + (top - roof) * v, centre + top * v])


def _within_beyond(within: np.ndarray, beyond: np.ndarray, step: float) -> np.ndarray:
    """Table points (mm, a grid `step` apart) at least TURNED_MARGIN_MM inside the hull of `within` and outside
    that of `beyond` (empty where there are none)."""
    lo, hi = within.min(axis=0), within.max(axis=0)
    xs, ys = np.arange(lo[0], hi[0], step), np.arange(lo[1], hi[1], step)
    if len(xs) < 2 or len(ys) < 2:
        return np.empty((0, 2))
    points = np.stack(np.meshgrid(xs, ys), axis=-1)
    inside = (_hull_depth(points, within) >= TURNED_MARGIN_MM) & (_hull_depth(points, beyond) <= -TURNED_MARGIN_MM)
    return points[inside]


def _hull_depth(points: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """How far (mm) each point lies inside the convex hull of `corners` (negative: outside, the distance
    to the nearest edge's line beyond it; a lower bound on the true distance near the hull's corners)."""
    hull = cv2.convexHull(corners.astype(np.float32)).reshape(-1, 2).astype(np.float64)
    ring = np.vstack([hull, hull[:1]])
    edges = np.diff(ring, axis=0)
    # Inward normals: the hull from cv2 runs one way round; the centroid lies on the inner side.
    normals = np.column_stack([-edges[:, 1], edges[:, 0]]) / np.linalg.norm(edges, axis=1, keepdims=True)
    inner = hull.mean(axis=0)
    flip = np.sign(np.sum((inner - hull) * normals, axis=1))
    normals *= flip[:, None]
    depths = np.einsum("...ke,ke->...k", points[..., None, :] - hull, normals)
    return depths.min(axis=-1)


def _lit_level(shadows: CastShadows, usable: np.ndarray, centre: np.ndarray, reach_mm: float = 50.0) -> float | None:
    """The lit table's level around `centre`: the LIT_PERCENTILE of usable table within `reach_mm`."""
    region = shadows.region
    cx, cy = region.to_pixels(centre).astype(int)
    r = int(reach_mm * region.px_per_mm)
    h, w = usable.shape
    y0, y1, x0, x1 = max(0, cy - r), min(h, cy + r), max(0, cx - r), min(w, cx + r)
    if y1 <= y0 or x1 <= x0:
        return None
    window = shadows.log_table[y0:y1, x0:x1][usable[y0:y1, x0:x1]]
    return float(np.percentile(window, LIT_PERCENTILE)) if window.size >= 50 else None


def with_shadow_evidence(keeps: list[KeepReading], view: TableView, grey: np.ndarray, keep_labels: np.ndarray,
                         wall_solid: np.ndarray, region: Region, towers: list[TowerReading], walls: list[WallReading],
                         profile: PieceProfile) -> list[KeepReading]:
    """The keeps, each with how dark the table is where a double's shadow would reach and a single's not
    (`double_shadow_share`), where the castle's shadows show the light. `grey`: grey plastic in the
    undistorted photo; `keep_labels`: the keep colours on the table plane over `region`; `wall_solid`:
    the walls' carved solid there (the castle's axis where its towers do not give it)."""
    if not any(k.lean_span_mm < LEAN_DECIDES_MM for k in keeps):
        return keeps  # every keep leans far enough to be told by its lean alone: spare the time
    axis = castle_axis(towers, profile.dimensions, wall_solid, region)
    occupied = warp_mask(view, grey, 0.0, region) | (keep_labels > 0)
    shadows = find_shadows(*table_brightness(view, region, occupied), region, towers, walls, axis, profile)
    if shadows is None:
        return keeps
    usable = shadows.free & ~grey_shadows(shadows, towers, walls, profile)
    centres = [np.array([k.x, k.y]) for k in keeps]
    if not keeps_shade_as_the_walls_do(shadows, usable, keeps, profile):
        return keeps
    out = []
    for i, keep in enumerate(keeps):
        others = [c for j, c in enumerate(centres) if j != i]
        measured = double_shadow_share(shadows, usable, centres[i], others, profile, keep.turn)
        out.append(keep if measured is None else replace(keep, shadow_share=measured[0], shadow_noise=measured[1]))
    return out
