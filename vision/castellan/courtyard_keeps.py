"""Keeps of the table's own colour, looked for where the castle lacks one: in its unclaimed courtyards.

A red keep on a red cloth has the cloth's colour to within the cloth's own grain, pixel by pixel, so
the colour masks do not find it. Seen whole it is still a keep-sized patch a little lighter, or of a
slightly other shade, than the cloth right around it — which the cloth's texture, averaged over as
much, never is. Each unclaimed courtyard's most distinct keep-sized patch is compared with the most
distinct the table shows outside every courtyard, claimed or not (its texture, wall rims and shadows included);
one that stands out well beyond it, of a keep's hue, is a candidate keep. A patch only darker than the table
around it, of the same hue, is a shadow. The reader keeps a candidate only where the board then breaks
fewer rules, and says so in the notes: a courtyard left unclaimed at a real table must stay unclaimed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from tablesight.calibration.pieces import PieceProfile
from tablesight.vision.castellan.carving import warp_labels
from tablesight.vision.castellan.pattern_breaks import pattern_breaks, table_periods
from tablesight.vision.segmentation import (
    KEEP_HUES,
    MIN_KEEP_SATURATION,
    colour_features,
    in_keep_hue,
    robust_spread,
)
from tablesight.vision.table_view import Region, TableView

PX_PER_MM = 1.0  # a keep is 22 px across: enough to average its colour, cheap over a whole castle
MAX_SIDE_PX = 2000  # a castle read over more than 2 m (towers misread far apart) is looked at more coarsely
MARGIN_MM = 60.0  # the table around the castle's towers taken as the table's own texture
PATCH_SIDES = 0.8  # the patch compared: this share of a keep's side (its edges blur into the table)
AROUND_SIDES = 2.2  # ... with the table in the square this many sides across around it
MIN_PATCH_SEEN, MIN_AROUND_SEEN = 0.5, 0.3  # the shares of each that must be table or patch, not grey
GREY_MARGIN_MM = 4.0  # the rims of walls and towers blend into the table this far
# A courtyard of four towers seen steeply shows too little table for any patch in it to have MIN_AROUND_SEEN of the
# table around: its patches are judged against the table seen within NEAR_COURTYARD_MM around it (at least
# MIN_NEAR_TABLE_MM2 of it). Fresh 14300-005 (dark wood, 34°, a dim olive-yellow keep): 1,326 of its courtyard's
# 8,406 mm² were table, none of it with enough around; the courtyard was read unclaimed (yellow 4 for 8). So was
# fresh 14500-002's (a yellow keep filling a small courtyard on a pink table at 36°). Both are now exact.
NEAR_COURTYARD_MM = 60.0
MIN_NEAR_TABLE_MM2 = 400.0
# A keep stands out from the table around it this much more than the table's most distinct patches
# outside the courtyards do (their TEXTURE_PERCENTILE, shadows left out), and at least MIN_CONTRAST (CIELAB ΔE):
# on plain tables under soft light patches of ΔE 4–5 stand out from the table's 2 (light pooling by the walls,
# seen on 3 of 192 generated photos), keeps of the table's colour 8–35 (their faces lit unlike the table).
TEXTURE_PERCENTILE, TEXTURE_FACTOR, MIN_CONTRAST = 99.0, 2.0, 6.0
MIN_HUE_TURN_DEG = 15.0  # a darker patch is a keep only if its hue turns this far from the table's
# ... or if it is a patch of darkness nothing casts: a shadow always touches what casts it (pieces stand on the
# table), so a dark patch cut off by lit table from every piece, and from every patch lighter than the table as a
# keep of the table's colour may be (which casts its own), is no shadow (fresh 12700-026: an olive-yellow keep on tan
# wood under a flash, darker than the wood, its hue 12° off). Told at each of DETACHED_STEPS_L (CIELAB L) below the
# table around (a keep's darkness joined to a wall's shadow by the table's grain at a shallow step stands apart at a
# deeper one), on L smoothed over DARK_SMOOTH_MM (a grain's single pixels do not join patches). A lighter patch
# casts what comes within CASTER_REACH_MM of it (its shadow meets it across the blurred step between them, the
# deeper steps' darkness farther off). Only patches of MIN_DETACHED_SIDES keep sides² or more: a patch is judged at
# its centre, and a speck of darkness cut off in a shadow's narrow reach between a wall and a keep does not make the
# shadow around it detached (sample 009).
DETACHED_STEPS_L = (4.0, 8.0, 16.0)
DARK_SMOOTH_MM = 1.0
CASTER_REACH_MM = 4.0
MIN_DETACHED_SIDES = 0.25
# The table's typical colour in a courtyard is taken out of its shadows (`_lit_median`): pixels this many robust
# spreads (CIELAB L, at least MIN_SPREAD_L) darker than the median are left out.
SHADE_CLIP_SPREADS, MIN_SPREAD_L = 2.5, 1.0
# A keep of another colour than the table's patch it stands on shows as a compact blob of its hue, about a keep's
# size (its roof, and sides leaning, on the plane of its roof's base). The most distinct patch may lie beside it,
# half on the table (sample 042: a red keep on a red-and-green check placed 16 mm off, on the green, and read
# green): the keep is taken at the blob of KEEP_BLOB_AREA sides² standing out most (the scores the patch was found
# by, over the blob), reaching into the patch (within half its side of its centre) and clear of a window
# KEEP_BLOB_WINDOW_SIDES across (a table's stripe or square runs on beyond a keep's size; cut by the walls, a piece
# of it may not, but it stands out less). The window is wide enough to hold a keep seen steeply whole, its body
# leaning away, with the patch on the table at its edge (fresh 15700-014, 38°: a dark red keep whose blob was
# 44 × 47 px at a keep side of 22, the patch 20 mm off; in a window 3 sides across it was cut by the edge, and the
# keep was named by the patch: yellow, the table's colour).
KEEP_BLOB_AREA = (0.5, 2.5)
KEEP_BLOB_WINDOW_SIDES = 5.0


@dataclass(frozen=True)
class CourtyardKeep:
    """A keep-sized patch standing out in an unclaimed courtyard: where (table mm), its colour, how far it
    stands out from the table around it (CIELAB ΔE) and how far the table's own texture does (its
    TEXTURE_PERCENTILE outside the courtyards)."""

    color: str
    x: float
    y: float
    contrast: float
    texture: float
    by_pattern: bool = False  # told by breaking the table's pattern (contrast: from its copies a period away)

    @property
    def evidence(self) -> str:
        """What told it, for the reading's notes."""
        if self.by_pattern:
            return (f"it breaks the table's pattern by ΔE {self.contrast:.1f}, the pattern repeats itself to within "
                    f"{self.texture:.1f}")
        return (f"it stands out from the table around it by ΔE {self.contrast:.1f}, the table's own texture by "
                f"{self.texture:.1f}")


@dataclass(frozen=True)
class CourtyardPatches:
    """The courtyards as seen at a keep's roof base, for judging a crowded courtyard's patches against the table
    nearby: the rectified photo (BGR and Lab) on `region`, where the table is `seen`, each keep-sized patch's mean
    colour (Lab), hue and whether enough of it is seen (`_patch_contrast`), the darkness detached from the walls'
    shade (`_detached_darkness`), and a keep's side in pixels."""

    image: np.ndarray
    region: Region
    lab: np.ndarray
    seen: np.ndarray
    patch: np.ndarray
    patch_hue: np.ndarray
    patch_seen: np.ndarray
    detached: np.ndarray
    side_px: float


def keeps_in_courtyards(view: TableView, grey: np.ndarray, keep_masks: Sequence[np.ndarray],
                        courtyards: Sequence[np.ndarray], towers_mm: np.ndarray, profile: PieceProfile,
                        keeps_mm: Sequence[Sequence[float]] = (),
                        claimed: Sequence[np.ndarray] = ()) -> list[CourtyardKeep]:
    """The candidate keep (at most one) in each courtyard of `courtyards` (polygons, table mm) that no keep
    claims. `grey`, `keep_masks`: the pixel classes of the view's undistorted image (uint8 masks);
    `towers_mm`: the castle's towers, whose surroundings are the table compared with; `keeps_mm`: the keeps
    read (centres), whose colour is left out of what is looked at; `claimed`: the courtyards keeps claim
    (polygons), left out of the table's texture with the others: a keep's shadow and fringes, and another keep
    of the table's colour, stand out there as no table does (fresh 15100-005: red keeps on a red cloth beside
    others' keeps took the texture from 4.8 to 5.9, and a red keep standing out by 11.3 was left out)."""
    if not courtyards or len(towers_mm) == 0:
        return []
    lo, hi = towers_mm.min(axis=0) - MARGIN_MM, towers_mm.max(axis=0) + MARGIN_MM
    region = Region(lo[0], lo[1], hi[0], hi[1], min(PX_PER_MM, MAX_SIDE_PX / float(np.max(hi - lo))))
    side_px = profile.dimensions.keep_side * region.px_per_mm
    height = profile.keep_height - profile.keep_roof_height  # a keep's roof base lands at its footprint here
    image = np.clip(view.rectify(height, region), 0.0, 1.0).astype(np.float32)
    clear, keep_coloured = _table_seen(view, grey, keep_masks, height, region)
    inside = [polygon_mask(polygon, region, clear.shape) for polygon in courtyards]
    in_courtyards = np.logical_or.reduce(inside)
    in_any = np.logical_or.reduce([in_courtyards] + [polygon_mask(p, region, clear.shape) for p in claimed])
    # Keep colour is left out of the table's texture outside these courtyards, and inside them where a keep
    # read may reach (`keeps_reach`).
    reach = keeps_reach(view, region, keeps_mm, height, profile)
    seen = clear & ~(keep_coloured & (~in_courtyards | reach))
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2Lab)
    contrast, patch, around, usable, patch_seen = _patch_contrast(lab, seen, side_px)
    outside = usable & ~in_any
    if np.count_nonzero(outside) < 100:  # no table around to learn its texture from
        return []
    # Shadows left out, as in the courtyards: a wall's shadow stands out from the table as far as a keep of the
    # table's colour does, but is never taken for one (the lit table beside it still counts).
    patch_hue = _hue(patch)
    not_shade = _not_shade(patch, patch_hue, around)
    # Smoothed: a grain's single pixels neither join patches of darkness nor stand out as lighter.
    smooth = cv2.GaussianBlur(lab, (0, 0), max(0.5, DARK_SMOOTH_MM * region.px_per_mm))
    lighter = _lighter_than_the_courtyards(smooth, lab[seen & in_courtyards], seen,
                                           _level(contrast, not_shade, outside)[0])
    detached, self_shaded = _detached_darkness(smooth[..., 0], seen, lighter, around[..., 0], region.px_per_mm,
                                               MIN_DETACHED_SIDES * side_px ** 2)
    lit = not_shade | detached  # patches that stand out from the table around as no shadow does
    level, texture = _level(contrast, lit, outside)
    # Last, a keep's own shade beside its lit faces is weighed as the keep, told from the table's texture taken so too.
    shaded_level, shaded_texture = _level(contrast, lit | self_shaded, outside)
    crowded = CourtyardPatches(image, region, lab, seen, patch, patch_hue, patch_seen, detached, side_px)
    found = []
    breaks = None  # the table's pattern broken, worked out only once a courtyard needs it
    for mask in inside:
        table = seen & mask
        if not table.any():
            continue
        # Too few patches with the table around them to hold a keep (fresh 17000-010: 4, none by the keep, so it was
        # missed): the table nearby tells.
        if np.count_nonzero(usable & mask) < side_px ** 2:
            keep = _keep_in_a_crowded_courtyard(crowded, mask, level, texture)
            if keep is not None:
                found.append(keep)
            continue
        typical = _lit_median(lab[table])
        lit_here = lit & (_not_shade(patch, patch_hue, typical) | detached)
        hill = _courtyard_scores(contrast, patch, typical)
        keep = _keep_in(image, region, hill, lit_here, usable & mask, level, texture, side_px, by_pattern=False)
        if keep is None:
            if breaks is None:
                breaks = _pattern_break_scores(lab, seen, seen & ~in_courtyards, outside, lit, side_px,
                                               region.px_per_mm)
            scores, break_texture = breaks
            keep = _keep_in(image, region, scores, lit_here, usable & mask,
                            max(MIN_CONTRAST, TEXTURE_FACTOR * break_texture), break_texture, side_px,
                            by_pattern=True)
        if keep is None:
            keep = _keep_in(image, region, hill, lit_here | self_shaded, usable & mask, shaded_level, shaded_texture,
                            side_px, by_pattern=False)
        if keep is not None:
            found.append(keep)
    return found


def _keep_in_a_crowded_courtyard(patches: CourtyardPatches, courtyard: np.ndarray, level: float,
                                 texture: float) -> CourtyardKeep | None:
    """The keep in a `courtyard` (mask) whose patches with enough table around them to be told from
    (`_patch_contrast`) cover less than a keep: its patches seen enough are judged against the table seen within
    NEAR_COURTYARD_MM of it, outside it (`_table_near`), out of shade, at the usual `level`."""
    typical = _table_near(patches.lab, patches.seen, courtyard, patches.region.px_per_mm)
    if typical is None:
        return None
    hill = np.linalg.norm(patches.patch - typical, axis=-1)
    lit_here = _not_shade(patches.patch, patches.patch_hue, typical) | patches.detached
    return _keep_in(patches.image, patches.region, hill, lit_here, patches.patch_seen & courtyard, level, texture,
                    patches.side_px, by_pattern=False)


def _table_near(lab: np.ndarray, seen: np.ndarray, courtyard: np.ndarray, px_per_mm: float) -> np.ndarray | None:
    """The table's typical colour (Lab, `_lit_median`) seen within NEAR_COURTYARD_MM of a `courtyard` (mask),
    outside it; None where less than MIN_NEAR_TABLE_MM2 of it is seen."""
    radius = int(round(NEAR_COURTYARD_MM * px_per_mm))
    ys, xs = np.nonzero(courtyard)
    if not len(xs):
        return None
    # Only the courtyard's box grown by the reach is looked at: a wide kernel over the whole castle costs tens of ms.
    window = (slice(max(0, ys.min() - radius), ys.max() + radius + 1),
              slice(max(0, xs.min() - radius), xs.max() + radius + 1))
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1,) * 2)
    near = cv2.dilate(courtyard[window].astype(np.uint8), disc) > 0
    table = seen[window] & near & ~courtyard[window]
    if np.count_nonzero(table) < MIN_NEAR_TABLE_MM2 * px_per_mm ** 2:
        return None
    return _lit_median(lab[window][table])


def _lit_median(pixels: np.ndarray) -> np.ndarray:
    """The median colour (Lab) of the table's `pixels` (n × 3) out of its shadows: those darker than the median by
    SHADE_CLIP_SPREADS of its spread, left out twice over (a wall's shadow over a third of a courtyard pulled its median
    down, and lit patches of a mottled cloth stood out from it as keeps)."""
    lit = pixels
    for _ in range(2):
        lightness = lit[:, 0]
        centre = np.median(lightness)
        spread = max(MIN_SPREAD_L, robust_spread(lightness - centre))
        kept = lit[lightness >= centre - SHADE_CLIP_SPREADS * spread]
        if len(kept) == 0:
            break
        lit = kept
    return np.median(lit, axis=0)


def _level(contrast: np.ndarray, lit: np.ndarray, outside: np.ndarray) -> tuple[float, float]:
    """The contrast a keep must reach, and the table's texture it is told from: the TEXTURE_PERCENTILE of the `lit`
    patches' contrast outside the courtyards (`outside`), shade counted as 0."""
    texture = float(np.percentile(np.where(lit, contrast, 0.0)[outside], TEXTURE_PERCENTILE))
    return max(MIN_CONTRAST, TEXTURE_FACTOR * texture), texture


def _keep_in(image: np.ndarray, region: Region, hill: np.ndarray, lit: np.ndarray, where: np.ndarray, level: float,
             texture: float, side_px: float, by_pattern: bool) -> CourtyardKeep | None:
    """The keep of a keep colour at the `lit` patch among `where` scoring most (`hill`), if it reaches `level`. It is
    placed by the whole hill of scores, shade and all: a keep's faces turned from the light pass for shade, and its
    lit part alone lies to one side of it."""
    scores = np.where(lit, hill, 0.0)
    candidate = _most_distinct(scores, where)
    if candidate is None or scores[candidate] < level:
        return None
    centre = _centre_of(hill, candidate, level, side_px)
    blob = _keep_blob(image, scores, centre, side_px)
    if blob is not None:
        colour, centre = blob
    else:
        # A keep of the table's own colour, its hue running on into the table's: its colour is judged where it
        # is placed (the most distinct patch may lie on the table at its edge).
        colour = _keep_colour(image, (int(round(centre[1])), int(round(centre[0]))), PATCH_SIDES * side_px)
        if colour is None:
            return None
    x, y = region.to_mm(centre + 0.5)
    return CourtyardKeep(colour, float(x), float(y), float(scores[candidate]), texture, by_pattern)


def _pattern_break_scores(lab: np.ndarray, seen: np.ndarray, table_outside: np.ndarray, outside: np.ndarray,
                          lit: np.ndarray, side_px: float, px_per_mm: float) -> tuple[np.ndarray, float]:
    """How far each patch breaks the table's pattern (`pattern_breaks`; 0 where no copy shows), and the same
    measure's TEXTURE_PERCENTILE over the table outside the courtyards, out of shade (`lit`)."""
    periods = table_periods(lab, table_outside, px_per_mm)
    if not periods:  # no pattern to break: nothing scores, and no level is reached
        return np.zeros(seen.shape), np.inf
    breaks = pattern_breaks(lab, seen, periods, int(round(PATCH_SIDES * side_px)) | 1)
    scores = np.where(np.isfinite(breaks), breaks, 0.0)
    known = outside & np.isfinite(breaks)
    if not known.any():
        return scores, np.inf
    return scores, float(np.percentile(np.where(lit, scores, 0.0)[known], TEXTURE_PERCENTILE))


def _courtyard_scores(contrast: np.ndarray, patch: np.ndarray, typical: np.ndarray) -> np.ndarray:
    """How far each patch stands out in a courtyard whose table's typical colour is `typical` (Lab): from the
    square around it (`contrast`) and from that colour both (a patch of plain table beside a shadow or a dark
    piece stands out from its square, not from the courtyard)."""
    return np.minimum(contrast, np.linalg.norm(patch - typical, axis=-1))


def _table_seen(view: TableView, grey: np.ndarray, keep_masks: Sequence[np.ndarray], height: float,
                region: Region) -> tuple[np.ndarray, np.ndarray]:
    """Where the region shows the table (or an unseen keep): in the photo and clear of grey pieces (on the
    table and at the keep's height); and where the keep colours' pixels are. Both grown by GREY_MARGIN_MM."""
    grow = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (int(round(2 * GREY_MARGIN_MM * region.px_per_mm)) | 1,) * 2)
    pieces = (warp_labels(view, grey, 0.0, region) > 0) | (warp_labels(view, grey, height, region) > 0)
    keeps = np.zeros_like(pieces)
    for mask in keep_masks:
        keeps |= warp_labels(view, mask, height, region) > 0
    pieces, keeps = (cv2.dilate(m.astype(np.uint8), grow) > 0 for m in (pieces, keeps))
    return ~pieces & view.visible(height, region), keeps


def keeps_reach(view: TableView, region: Region, keeps_mm: Sequence[Sequence[float]], height: float,
                profile: PieceProfile, from_base: bool = False) -> np.ndarray:
    """Where the keeps read (`keeps_mm`, centres) may show on the plane `height` mm up: each one's square,
    drawn out along its lean to where a double's top lands (and, `from_base`, back to where its base lands: the
    body below `height`). Keep colour there is theirs (a double's top leaning over a wall into the next courtyard),
    left out; elsewhere in a courtyard no keep claims it is part of what is looked at (the lit faces of a keep
    whose colour carved too little to be read)."""
    reach = np.zeros(region.size[::-1], np.uint8)
    centres = np.asarray(keeps_mm, np.float64).reshape(-1, 2)
    if not len(centres):
        return reach > 0
    tops = view.pose.table_point(view.pose.project(centres, 2 * profile.keep_height), height)
    starts = view.pose.table_point(view.pose.project(centres, 0.0), height) if from_base else centres
    radius = max(1, int(round(profile.dimensions.keep_side / math.sqrt(2) * region.px_per_mm)))
    for start, top in zip(region.to_pixels(starts), region.to_pixels(tops), strict=True):
        a, b = (tuple(int(v) for v in np.round(p)) for p in (start, top))
        cv2.line(reach, a, b, 1, 2 * radius)
        cv2.circle(reach, a, radius, 1, -1)
        cv2.circle(reach, b, radius, 1, -1)
    return reach > 0


def _patch_contrast(lab: np.ndarray, seen: np.ndarray, side_px: float
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """At each pixel: how far (ΔE) the mean colour of the patch centred there lies from the table's mean
    in the square around it, both over `seen` pixels only; the two means (Lab); and where both are seen
    enough to tell; and where the patch alone is."""
    inner = int(round(PATCH_SIDES * side_px)) | 1
    outer = int(round(AROUND_SIDES * side_px)) | 1
    weight = seen.astype(np.float32)

    def box(values: np.ndarray, size: int) -> np.ndarray:
        return cv2.boxFilter(values, -1, (size, size), normalize=False, borderType=cv2.BORDER_CONSTANT)

    n_in, n_all = box(weight, inner), box(weight, outer)
    n_around = n_all - n_in
    weighted = lab * weight[..., None]
    s_in, s_all = box(weighted, inner), box(weighted, outer)
    patch = s_in / np.maximum(n_in, 1.0)[..., None]
    around = (s_all - s_in) / np.maximum(n_around, 1.0)[..., None]
    contrast = np.linalg.norm(patch - around, axis=-1)
    patch_seen = seen & (n_in >= MIN_PATCH_SEEN * inner ** 2)
    usable = patch_seen & (n_around >= MIN_AROUND_SEEN * (outer ** 2 - inner ** 2))
    return contrast, patch, around, usable, patch_seen


def _not_shade(patch: np.ndarray, patch_hue: np.ndarray, around: np.ndarray) -> np.ndarray:
    """Patches (Lab, and their hue) brighter than the table around (Lab, per patch or one colour), or of another
    hue: a shadow is darker and of the same hue."""
    brighter = patch[..., 0] > around[..., 0]
    turn = np.abs(np.angle(np.exp(1j * (patch_hue - _hue(around)))))
    return brighter | (turn > math.radians(MIN_HUE_TURN_DEG))


def _lighter_than_the_courtyards(smooth: np.ndarray, courtyards: np.ndarray, seen: np.ndarray,
                                 level: float) -> np.ndarray:
    """The table (`seen`; `smooth`: Lab smoothed) lighter than the courtyards' table (`courtyards`: its pixels' Lab,
    n × 3) by `level` (ΔE): a keep of the table's colour may be there (it is table to `seen`), and it casts its own
    shadow (sample 009: a green keep on a green cloth, read at its shadow beside it)."""
    if not len(courtyards):
        return np.zeros(seen.shape, bool)
    typical = _lit_median(courtyards)
    return seen & (smooth[..., 0] > typical[0]) & (np.linalg.norm(smooth - typical, axis=-1) >= level)


def _detached_darkness(lightness: np.ndarray, seen: np.ndarray, lighter: np.ndarray, around: np.ndarray,
                       px_per_mm: float, min_area: float) -> tuple[np.ndarray, np.ndarray]:
    """Where the table (`seen`; `lightness`: CIELAB L smoothed) is darker than around it (`around`: L of the table
    around each pixel) by one of DETACHED_STEPS_L, in a patch of such darkness `min_area` pixels at least touching
    nothing but table, nor the table `lighter` than the rest as a keep of its colour may be
    (`_lighter_than_the_courtyards`): darkness nothing there casts. And, apart, such patches touching lighter table
    but no piece: a keep of the table's colour's own shade (or shadow) beside its lit faces."""
    table = seen & ~lighter
    pieces = cv2.dilate((~seen).astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    reach = 2 * max(1, int(math.ceil(CASTER_REACH_MM * px_per_mm))) + 1
    near_lighter = cv2.dilate(lighter.astype(np.uint8), np.ones((reach, reach), np.uint8)) > 0
    detached, self_shaded = np.zeros(seen.shape, bool), np.zeros(seen.shape, bool)
    for step in DETACHED_STEPS_L:
        dark = table & (lightness < around - step)
        count, patches, stats, _ = cv2.connectedComponentsWithStats(dark.astype(np.uint8), connectivity=8)
        small = stats[:, cv2.CC_STAT_AREA] < min_area
        by_piece, by_lighter = (np.zeros(count, bool) for _ in range(2))
        by_piece[patches[dark & pieces]] = True
        by_lighter[patches[dark & near_lighter]] = True
        by_piece[0] = by_lighter[0] = small[0] = True
        detached |= ~(small | by_piece | by_lighter)[patches]
        self_shaded |= (~(small | by_piece) & by_lighter)[patches]
    return detached, self_shaded


def _hue(lab: np.ndarray) -> np.ndarray:
    return np.arctan2(lab[..., 2], lab[..., 1])


def polygon_mask(polygon: np.ndarray, region: Region, shape: tuple[int, int]) -> np.ndarray:
    mask = np.zeros(shape, np.uint8)
    cv2.fillPoly(mask, [np.round(region.to_pixels(polygon)).astype(np.int32)], 1)
    return mask > 0


def _most_distinct(contrast: np.ndarray, where: np.ndarray) -> tuple[int, int] | None:
    if not where.any():
        return None
    index = int(np.argmax(np.where(where, contrast, -1.0)))
    return divmod(index, contrast.shape[1])


def _centre_of(score: np.ndarray, peak: tuple[int, int], level: float, side_px: float) -> np.ndarray:
    """The patch's centre (x, y pixels): the middle of the scores over half the level around its peak, where
    they join it (the scores plateau over a keep, the peak anywhere on it)."""
    y, x = peak
    half = int(round(0.75 * side_px))  # the plateau lies within a keep's side of the peak
    y0, x0 = max(0, y - half), max(0, x - half)
    window = score[y0:y + half + 1, x0:x + half + 1]
    above = (window >= max(0.5 * level, window[y - y0, x - x0] - 0.5 * level)).astype(np.uint8)
    _, parts = cv2.connectedComponents(above, connectivity=8)
    ys, xs = np.nonzero(parts == parts[y - y0, x - x0])
    return np.array([x0 + xs.mean(), y0 + ys.mean()])


def _keep_blob(image: np.ndarray, scores: np.ndarray, centre: np.ndarray,
               side_px: float) -> tuple[str, np.ndarray] | None:
    """The colour and centre (x, y pixels) of the blob of a keep colour's hue about a keep's size (KEEP_BLOB_AREA),
    clear of the window's edges and reaching into the patch at `centre` (PATCH_SIDES of a side across), that stands
    out most (its mean `scores`); None if there is none."""
    half = int(round(KEEP_BLOB_WINDOW_SIDES * side_px / 2))
    cx, cy = int(round(centre[0])), int(round(centre[1]))
    x0, y0 = max(0, cx - half), max(0, cy - half)
    window = image[y0:cy + half + 1, x0:cx + half + 1]
    standing_out = scores[y0:cy + half + 1, x0:cx + half + 1]
    low, high = (share * side_px ** 2 for share in KEEP_BLOB_AREA)
    ys, xs = np.mgrid[y0:y0 + window.shape[0], x0:x0 + window.shape[1]]
    in_patch = np.hypot(xs - centre[0], ys - centre[1]) <= PATCH_SIDES * side_px / 2
    best = None
    for colour, hue in _keep_hue_masks(window).items():
        count, labels, stats, centroids = cv2.connectedComponentsWithStats(hue.astype(np.uint8), connectivity=8)
        reaching = np.bincount(labels[in_patch], minlength=count) > 0
        for i in range(1, count):
            x, y, w, h, area = stats[i]
            inside = x > 0 and y > 0 and x + w < window.shape[1] and y + h < window.shape[0]
            at = centroids[i] + (x0, y0)
            if not (inside and low <= area <= high and reaching[i]):
                continue
            score = float(standing_out[labels == i].mean())
            if best is None or score > best[0]:
                best = (score, colour, at)
    return None if best is None else (best[1], best[2])


def _keep_colour(image: np.ndarray, centre: tuple[int, int], size_px: float) -> str | None:
    """The keep colour most of the patch's saturated pixels have, if they are most of the patch."""
    half = max(1, int(size_px / 2))
    y, x = centre
    patch = image[max(0, y - half):y + half + 1, max(0, x - half):x + half + 1]
    counts = {c: int(np.count_nonzero(mask)) for c, mask in _keep_hue_masks(patch).items()}
    colour = max(counts, key=counts.__getitem__)
    return colour if counts[colour] >= 0.5 * patch.shape[0] * patch.shape[1] else None


def _keep_hue_masks(image: np.ndarray) -> dict[str, np.ndarray]:
    """Per keep colour, where the (card-normalised) image is saturated enough for a keep and of that colour's hue."""
    feats = colour_features(image)
    saturated = feats.saturation > MIN_KEEP_SATURATION
    return {colour: saturated & in_keep_hue(feats.hue, colour) for colour in KEEP_HUES}
