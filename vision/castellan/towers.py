"""Towers: round solids wider than the castle's walls, found as peaks of the carved footprint's
distance map. How wide a wall looks depends on the photo (blur, lean, shadows), so the bar a
tower must clear is set from the walls of this very photo: the median half-width along the
footprint's medial axis, which walls dominate."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from tablesight.scoring.castellan.pieces import PieceDimensions
from tablesight.vision.table_view import Region

WIDER_THAN_WALLS = 1.3  # a tower's inscribed radius over the walls' half-width
MIN_RADIUS_SHARE = 0.55  # and at least this share of the profile's tower radius
MAX_RADIUS_SHARE = 0.8  # but never more than this share: a well-seen tower always clears it
# Towers only ever join through a wall, so two towers are at least a short span apart (rules as evidence).
MIN_SPACING_SHARE = 0.6
# A tower is a widening of the footprint: its inscribed radius clears the widest footprint met on a ring
# around it (the walls leaving it) by this share of the tower's radius. A stretch of wall fattened by a
# shadow or blur is as wide on the ring as at its centre.
MIN_PROMINENCE_SHARE = 0.25
RING_SHARE = 1.5
OPEN_END_PROMINENCE = 0.1  # the prominence asked of a tower where an open wall ends (share of its radius)
OPEN_END_REACH_MM = 6.0  # its centre within this of where the wall's socket puts it
# Where an open wall ends, a widening this many times the walls' half-width (a nominal tower is 2.4, and carving
# thins both alike) is a tower's, if it clears the ring around it as `find_towers` asks; never under this share of
# the profile's radius.
OPEN_END_WALL_WIDTHS = 2.0
OPEN_END_MIN_RADIUS_SHARE = 0.35
WALL_SEARCH_MM = 1.0  # a wall's widest is sought this far beyond its half-thickness either side of its line


@dataclass(frozen=True)
class TowerReading:
    x: float
    y: float
    radius_mm: float  # inscribed radius of the footprint at the tower
    inferred: bool = False  # not seen but inferred from the walls ending in it (`hidden_towers`)
    behind_keep: bool = True  # if inferred: hidden behind a keep (else lost where the walls of two towers meet)
    in_run: bool = False  # seen standing in what was read as a long wall's run (`towers_in_long_walls`)
    one_look: bool = False  # seen only by a look of the colours other than the one kept (`hidden_towers`)

    @property
    def position(self) -> tuple[float, float]:
        return (self.x, self.y)

    @property
    def footprint_seen(self) -> bool:
        """Whether its radius was measured in the carved footprint (not inferred, not read by its height)."""
        return not self.inferred and not self.in_run


# A tower left between two short walls in line (one may end open) under this share of the photo's median radius is
# listed in doubt: it may be a long wall's middle. Of such towers in 320 photos' kept readings (samples and eight
# generated sets, session 72), under 0.85: both walls held 33 towers and 7 wall middles (two of them now taken as
# such by `thin_towers.thin_towers_in_runs`), one wall open 8 and 9 — among them the two trusted readings that
# were wrong for such a tower (6565-001 at 0.81, 10500-013 at 0.79); from 0.85 to 0.95, 100 towers and no wall
# middle. The box's count leaves out no tower wider than this either (`box_limits`).
DOUBTED_SHARE = 0.85


def tower_stands_within_reach(point: np.ndarray, towers: list[TowerReading], dims: PieceDimensions) -> bool:
    """Whether a tower read stands less than a tower's width from `point` (table mm): one inferred there would
    overlap it."""
    return any(math.dist(point, t.position) < dims.tower_diameter for t in towers)


def median_seen_radius(towers: list[TowerReading]) -> float:
    """The median inscribed radius (mm) of the towers seen in the carved footprint (not inferred behind a
    keep, not read by their height in a run); 0 without any."""
    seen = [t.radius_mm for t in towers if t.footprint_seen]
    return float(np.median(seen)) if seen else 0.0


def wall_half_width(dist: np.ndarray) -> float:
    """Median distance-to-background along the medial axis (mm): the walls' half-width in this photo.
    The medial axis is taken as the distance map's ridge (no neighbour farther from the background),
    which is what a skeleton's values are, at a fraction of the cost."""
    ridge = (dist > 0) & (dist >= cv2.dilate(dist, np.ones((3, 3), np.uint8)))
    values = dist[ridge]
    return float(np.median(values)) if values.size else 0.0


def find_towers(solid: np.ndarray, region: Region, dims: PieceDimensions, lean_removed: bool = True
                ) -> list[TowerReading]:
    """Towers on a carved footprint. `lean_removed`: the camera pose is known, so a tower's footprint is
    round; without it (no card) a tower smears along its lean and only its width can be tested."""
    dist, bar = _widths(solid, region, dims)
    radius = dims.tower_radius
    prominence = MIN_PROMINENCE_SHARE * radius if lean_removed else -np.inf
    window = max(3, int(radius * region.px_per_mm) | 1)
    peaks = (dist >= bar) & (dist == cv2.dilate(dist, np.ones((window, window), np.uint8)))
    ys, xs = np.nonzero(peaks)
    accepted: list[TowerReading] = []
    for i in np.argsort(-dist[ys, xs]):
        if dist[ys[i], xs[i]] - _ring_max(dist, xs[i], ys[i], RING_SHARE * radius * region.px_per_mm) < prominence:
            continue
        x, y = _plateau_centre(dist, xs[i], ys[i], region)
        if all(np.hypot(x - t.x, y - t.y) > MIN_SPACING_SHARE * dims.centre_spacing("short") for t in accepted):
            accepted.append(TowerReading(x, y, float(dist[ys[i], xs[i]])))
    return accepted


def towers_at_open_ends(solid: np.ndarray, region: Region, dims: PieceDimensions, points: list[np.ndarray],
                        towers: list[TowerReading], prominence_share: float = OPEN_END_PROMINENCE,
                        wide_as_walls: bool = False) -> list[TowerReading]:
    """Towers standing where open walls end (`points`, where each wall's tower would stand), apart from
    `towers` and from each other. A wall ending there makes a tower likely (C1: walls join towers), so one
    is taken on less prominence than `find_towers` asks of a widening found anywhere: blur or a shadow
    fattening the walls around a tower hides its widening, not its width. `prominence_share`: the widening
    asked (share of the tower's radius). `wide_as_walls`: a tower's width is also taken as OPEN_END_WALL_WIDTHS
    of this photo's walls (`open_end_bar`), where that is less than the width `find_towers` asks."""
    dist, bar = _widths(solid, region, dims)
    if wide_as_walls:
        bar = min(bar, open_end_bar(dist, dims))
    radius, found = dims.tower_radius, []
    reach = int(OPEN_END_REACH_MM * region.px_per_mm)
    for point in points:
        cx, cy = region.to_pixels(point).astype(int)
        x0, y0 = max(0, cx - reach), max(0, cy - reach)
        window = dist[y0:cy + reach + 1, x0:cx + reach + 1]
        if not window.size or window.max() < bar:
            continue
        wy, wx = np.unravel_index(int(np.argmax(window)), window.shape)
        x, y = x0 + wx, y0 + wy
        if dist[y, x] - _ring_max(dist, x, y, RING_SHARE * radius * region.px_per_mm) < prominence_share * radius:
            continue
        cx_mm, cy_mm = _plateau_centre(dist, x, y, region)
        if all(np.hypot(cx_mm - t.x, cy_mm - t.y) > MIN_SPACING_SHARE * dims.centre_spacing("short")
               for t in towers + found):
            found.append(TowerReading(cx_mm, cy_mm, float(dist[y, x])))
    return found


def open_end_bar(dist: np.ndarray, dims: PieceDimensions) -> float:
    """The inscribed radius (mm) asked of a tower where an open wall ends, by the width of the photo's walls: a
    look that carves the plastic thin carves walls and towers alike (fresh 14700-004: walls 1.7 mm in half-width,
    the towers at a branch's open ends 4.8 and 5.6 mm in radius, under the 6.6 mm `find_towers` asks anywhere)."""
    return max(OPEN_END_WALL_WIDTHS * wall_half_width(dist), OPEN_END_MIN_RADIUS_SHARE * dims.tower_radius)


def widening_over_walls(dist: np.ndarray, region: Region, dims: PieceDimensions, tower: TowerReading,
                        ends: list[np.ndarray]) -> float:
    """How far (mm) a tower's inscribed radius clears the widest its walls' footprint gets on their way to
    `ends` (each wall's far end), the stretches within a ring of the towers at both ends left out: `dist`
    is the footprint's `distance_map`, where the tower's radius was measured. `find_towers` asks the
    widening of the ring around a tower only; a wall fattened all along (its shade, a keep's strand beside
    it) is as wide elsewhere as at a false tower."""
    here, widest = np.asarray(tower.position, float), 0.0
    ring, across = RING_SHARE * dims.tower_radius, dims.wall_thickness / 2 + WALL_SEARCH_MM
    for end in ends:
        run = np.asarray(end, float) - here
        length = float(np.linalg.norm(run))
        if length <= 2 * ring:
            continue
        u = run / length
        grid = np.stack(np.meshgrid(np.arange(ring, length - ring, 1.0), np.arange(-across, across + 0.5, 0.5),
                                    indexing="ij"), axis=-1)
        points = here + grid[..., :1] * u + grid[..., 1:] * np.array([-u[1], u[0]])
        widest = max(widest, float(region.sample(dist, points).max()))  # beyond the region: no footprint, 0
    return tower.radius_mm - widest


def distance_map(solid: np.ndarray, region: Region) -> np.ndarray:
    """How far (mm) each pixel of a carved footprint lies from the nearest background, once the footprint's
    pinholes are closed."""
    mask = cv2.morphologyEx(solid.astype(np.uint8), cv2.MORPH_CLOSE,
                            cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
    return cv2.distanceTransform(mask, cv2.DIST_L2, 5) / region.px_per_mm


def _widths(solid: np.ndarray, region: Region, dims: PieceDimensions) -> tuple[np.ndarray, float]:
    """The solid's distance map (mm to the nearest background) and the inscribed radius a tower must
    reach in this photo."""
    dist = distance_map(solid, region)
    radius = dims.tower_radius
    # Capped: with hardly any walls (early in a game) the medial axis is mostly the towers' own.
    bar = min(max(WIDER_THAN_WALLS * wall_half_width(dist), MIN_RADIUS_SHARE * radius),
              MAX_RADIUS_SHARE * radius)
    return dist, bar


def _ring_max(dist: np.ndarray, x: int, y: int, radius_px: float) -> float:
    angles = np.linspace(0, 2 * np.pi, 48, endpoint=False)
    xs = np.clip(np.round(x + radius_px * np.cos(angles)).astype(int), 0, dist.shape[1] - 1)
    ys = np.clip(np.round(y + radius_px * np.sin(angles)).astype(int), 0, dist.shape[0] - 1)
    return float(dist[ys, xs].max())


def _plateau_centre(dist: np.ndarray, x: int, y: int, region: Region) -> tuple[float, float]:
    """Centre of the flat top around a peak (a crenellated rim makes the peak a small plateau)."""
    r = max(2, int(0.5 * dist[y, x] * region.px_per_mm))
    y0, x0 = max(0, y - r), max(0, x - r)
    patch = dist[y0:y + r + 1, x0:x + r + 1]
    weights = np.clip(patch - 0.85 * dist[y, x], 0, None)
    total = float(weights.sum())
    if total <= 0:
        px, py = x + 0.5, y + 0.5
    else:
        gy, gx = np.mgrid[y0:y0 + patch.shape[0], x0:x0 + patch.shape[1]]
        px, py = float((gx * weights).sum() / total) + 0.5, float((gy * weights).sum() / total) + 0.5
    mm = region.to_mm(np.array([px, py]))
    return float(mm[0]), float(mm[1])
