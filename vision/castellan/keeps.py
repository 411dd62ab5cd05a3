"""Keeps: solids of a keep colour; double keeps told by how far they lean in the photo.

A keep's top stands 1 or 2 keep-heights above the table; seen on the table plane, the
keep's colour runs from its base's near edge away from the camera to where its top
lands. That length, and that length less the colour's width across the lean (which a
turned keep does not change), are compared with what a single and a double keep would
show from this camera, weighing the measurements' noise against how rare doubles are
(C8: one per player per game). Near straight below the camera the two lengths hardly
differ; the area the keep's colour carves, against its colour's other keeps, still says a little.
Where the evidence is weak the keep is marked uncertain, not guessed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from functools import cached_property

import cv2
import numpy as np

from tablesight.calibration.pieces import PieceProfile
from tablesight.scoring.castellan.pieces import PieceDimensions
from tablesight.vision.castellan.carving import PixelClasses, disc, keep_label_image, warp_labels
from tablesight.vision.castellan.keep_blends import is_blend
from tablesight.vision.castellan.towers import TowerReading
from tablesight.vision.castellan.walls import KeepCover, towers_axis
from tablesight.vision.mask_holes import filled_to_hulls
from tablesight.vision.table_view import Region, TableView

MIN_LEAN_DIFFERENCE_MM = 2.0  # below this the two leans cannot be told apart at all
# Spread of a measured lean around the predicted one: a part in every keep (its colour's edges at about
# a pixel a millimetre) and a part growing with the single–double gap (a keep seen more obliquely
# shows longer, unevenly lit sides). Fitted to 2,500 keeps (the samples and seven held-out sets).
LEAN_NOISE_MM = 2.5
LEAN_NOISE_SHARE_OF_SPAN = 0.2
# A player stacks a double keep at most once a game (C8): taken here as about one claim in three doubled
# until it is used, so the more courtyards a colour holds, the likelier one of them is doubled.
DOUBLED_CLAIM_SHARE = 1 / 3
MAX_KEEP_AREA_SIDES = 5.0
CARVE_BLUR_PX = 1.5  # how far (photo pixels) a keep's colour as classified bleeds past its outline
# Keep-coloured blobs on a plane through keeps' bodies with a hull of these many keep sides², filling this share of
# it, are filled to their hull before the planes are carved (`_keep_centres`).
CARVE_HULL_SIDES = (0.5, 4.0)
CARVE_SOLIDITY = 0.6
# ... or this share, for the table's own keep colours: where a keep's faces are of the table's shades (blue keeps
# on a check of two blues), only its outline steps from the table, a ring about a keep's size (fresh 6969-026: 7 of
# 8 blue keeps missed). At 0.3 a green chevron stripe cut by the walls filled as a keep (sample 002).
TABLE_COLOUR_CARVE_SOLIDITY = 0.4
# ... and filling this share of their smallest enclosing rectangle: a keep carves a square (a double, leaning, a
# longer hexagon); a patch of a check cut by a wall's shade, a triangle, is no keep (sample 042: two such, 0.65 and
# 0.67, filled, carved as green keeps; of 543 keeps' blobs on 40 photos one filled less than 0.7).
CARVE_SQUARENESS = 0.7
KEEP_PLANE_SHARES = (0.3, 0.6, 0.9)  # the planes a keep is carved from, in shares of its body's height
KEEP_BODY_MARK = 16  # added to the labels of a table colour's keep-sized bodies (`_widened_by_blur`)
KEEP_BODY_FILL = 0.4  # of its bounding box a keep's body fills at least (a square turned 45° fills half)
MAX_KEEP_ASPECT = 2.5
# Keeps of one colour in neighbouring courtyards can carve as one blob: up to this many are split apart
# by eroding the blob by this share of a keep's side (a wall between them is thinner than half a side).
JOINED_KEEPS, JOINED_KEEPS_EROSION = 3, 0.25
# ... and two in line along the lean, the front one tall, carve as one long blob with no neck: told by its length
# along the lean less its width across exceeding a double's by this share of a keep's side (a double's stays under
# it by 0.13 sides, two keeps in line over it by 0.96, over 1,300 blobs of the samples and fresh 11700).
IN_LINE_EXCESS = 0.5
KEEP_WINDOW_MM = 120.0  # a keep's colour and its lean, however tilted the view, lie within this of its centre
CENTRE_REACH_PX = 6  # a keep's carved centre off its colour (a washed-out face) looks this far for it
# The same blob's length along the lean less its width across it, both in full: a turned keep and
# colour edges lost or gained all round (blur, shade) change both alike, so this measures the lean
# without the keep's turn. Part of the side facing the camera is too dark to count as the keep's
# colour, and the corners of a turned keep are pixels, so it comes out as ALONG_LESS_ACROSS[0] mm
# + ALONG_LESS_ACROSS[1] × the lean of the keep's body top, spread ALONG_LESS_ACROSS_NOISE_MM (fitted to
# 2,500 keeps of the samples and seven held-out sets; either half of them gives the same to 0.15 mm).
ALONG_LESS_ACROSS = (-1.17, 0.82)
ALONG_LESS_ACROSS_NOISE_MM = 3.4
# A shadow's reach is misleading about one time in seven (measured on the samples: another piece's shadow
# or a table's pattern where the light was misjudged); such a measure is then anywhere in about two shares.
SHADOW_OUTLIER_SHARE, SHADOW_OUTLIER_DENSITY = 0.15, 0.5
# A keep's colour now and then runs into something else of its colour along the lean (a keep beside it,
# a patch of the table): its lean then measures several gaps beyond a double's, which says nothing of
# its height. Such a measure is taken to be anywhere within about twenty gaps, one time in twenty.
LEAN_OUTLIER_SHARE, LEAN_OUTLIER_DENSITY = 0.05, 0.05
# A photo's keeps all lean a few mm more (or less) than the model predicts (their colour's edges grown or
# shrunk by its exposure and blur alike; on 1,830 keeps of six sets the singles' median lean beyond a
# single's varies from −5 to +6 mm between photos, 2.5 mm within one), and each colour its own few mm more
# (its plastic told from the table with its own margin). That shared lean is taken off each keep: told from
# its colour's other keeps (if it is the double, C8 makes them single) and, less surely, from the photo's
# other colours, as the area is (`_shrunk_centre`). Single keeps' lean spreads LEAN_SPREAD_IN_COLOUR_MM about
# their colour's, a colour's LEAN_SPREAD_BETWEEN_COLOURS_MM about the other colours' (MAD over 6,700 keeps,
# session 43's dump). Replayed there, against the photo's median: photos with a wrong single/double call
# 69 → 58 (calls 94 → 82; certain and wrong 12 → 15), each half of the photos alike. The shared lean and the
# leans' noise (`_lean_noise_scale`) are told from MIN_KEEPS_FOR_PHOTO_MEDIAN keeps on: fewer say too little.
MIN_KEEPS_FOR_PHOTO_MEDIAN = 6
LEAN_SPREAD_IN_COLOUR_MM = 1.9
LEAN_SPREAD_BETWEEN_COLOURS_MM = 2.3
# A double keep's colour carves more table on its body's planes than a single's (its taller sides, and its top
# leaning farther): over a single's area where it stands, doubles carve AREA_GAIN[0] + AREA_GAIN[1] × the
# single–double lean gap (mm) more (fitted to 1,830 keeps of six sets; on 2,200 more of the samples and six fresh
# sets the doubles' median gain is 0.33 at gaps of 6–8 mm, 0.54 at 10–14, 0.7 at 14–20). Weighed only where that
# gap is under AREA_MAX_SPAN_MM: farther out the lean says it surely, and the two measures, of one blob, would
# count twice — unless the lean was not measured (`KeepReading.lean_cut`).
AREA_GAIN = (0.09, 0.03)
AREA_MAX_SPAN_MM = 20.0
# Each colour's plastic is told from the table with its own margin (a dark blue's shaded sides fall out of its
# colour sooner than a yellow's), so a single keep carves a different area in each colour. A keep's area is
# weighed against a single's of its colour, told from the colour's other keeps (if this one is the double, C8
# makes them all single) and, less surely, from the photo's keeps of other colours. Measured on 6,700 keeps
# (the samples and twenty-two sets, session 43): single keeps' log area spreads 0.08 about their colour's
# (MAD), a colour's singles 0.25 about the other colours' (SD; heavy-tailed). Against the colour's median from
# four keeps on, else the photo's (before): 103 wrong calls in 73 of 609 photos, 14 of them certain, 594 keeps in
# doubt; this way: 94 in 69, 12 certain, 433 in doubt (each half of the photos alike).
AREA_SPREAD_IN_COLOUR = 0.08
AREA_SPREAD_BETWEEN_COLOURS = 0.25
MEDIAN_FROM = 3  # other keeps of a colour from which their median, not their mean, tells what a single measures
AREA_OUTLIER_SHARE, AREA_OUTLIER_DENSITY = 0.05, 0.2  # a keep partly hidden, or joined to a patch of its colour
GAUSSIAN_MEDIAN_SQUARE = 0.455  # the median of a squared standard Gaussian
MAX_LEAN_DISAGREEMENT = 2.5  # the two lean measures' difference, in their noise, beyond which neither is trusted
# A single/double decision is reported certain from these odds on (97.5 %). With the area weighed at lean gaps up
# to 12 mm, more calls clear 20 : 1; at that level the photos with a certain wrong call rose 11 -> 13 (of 288, the
# keeps measured in the samples and six fresh sets), at 40 : 1 they are 11 again, keeps left in doubt 203 -> 218.
CERTAIN_ODDS = 40.0
# A keep of a colour the table has (wood's yellow, a red cloth's red) measures less surely: its blob joins the
# table's patches of its colour. Called at CERTAIN_ODDS, 7 of 460 such calls were wrong (1.5 %, against 5 of
# 4,310 for the other colours; the keeps read in 475 of the 416 photos and five fresh sets, session 69); from these
# odds, none of 386, for 74 more keeps left in doubt.
TABLE_COLOUR_CERTAIN_ODDS = CERTAIN_ODDS ** 2
# A colour whose measured keeps all lean this share of a single–double gap short of a single's, or more, is measured
# short (its roofs dark or lost to the table, say): its double leans no further than a single should, and no call of
# that colour is certain (fresh 11600-003: three red keeps at -1.1, -0.9 and -0.8, the last a double read single
# for certain, the photo "read cleanly").
SHORT_COLOUR_LEAN = 0.5
SEAM_MM = 1.5  # half the widest seam between a double keep's bodies that its colour is bridged across
LANE_SLACK_MM = 3.0  # a keep's base is read to about this: its colour ahead of a keep in front still counts
# Opens away a colour's strands a pixel or two wide (a grid's lines, a rim) before blobs are carved or bridged.
STRAND_OPENING = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))


@dataclass(frozen=True)
class KeepReading:
    color: str
    x: float
    y: float
    double: bool
    double_certain: bool
    top_height_mm: float | None
    lean_share: float | None = None  # measured lean between a single's (0) and a double's (1)
    lean_span_mm: float = 0.0  # how far apart a single's and a double's leans are from this camera
    width_share: float | None = None  # the same from the length along the lean less the width across
    width_span_mm: float = 0.0  # how far apart a single's and a double's are in that measure
    lean_direction: tuple[float, float] | None = None  # unit vector on the table, away from the camera
    # How dark the table is where a double's shadow would fall and a single's not, between lit (0) and
    # shaded (1), and that measure's noise (`shadows.double_shadow_share`); None without usable shadows.
    shadow_share: float | None = None
    shadow_noise: float = 0.0
    area_share: float | None = None  # the area carved on the keep's body planes, in keep sides² (seen whole: ~1.3)
    turn: float | None = None  # radians from the table's x axis to a side of its square (0–90°), if carved square
    # Not told by its colour as keeps are, but read where the castle needs a keep (a colour the table has, a
    # patch standing out in an unclaimed courtyard): it may be the table's own pattern. Check it.
    inferred: bool = False
    # A keep of its colour stands in line ahead, nearer than a double's colour would reach: its colour runs into
    # that keep's, so its length along the lean was cut short and is not measured (`_with_height`).
    lean_cut: bool = False
    # ... though where its colour crossed a gap no single's top reaches to join that keep's, it leans at least this
    # share (a censored measure: the double's top hidden behind the keep ahead, fresh 11700-003).
    lean_at_least: float | None = None
    # Placed from its base (or, behind another keep, from a single's top), not at the centre of its colour carved on
    # the body planes, which a double's top draws out along its lean: not moved back towards the camera as a double
    # (`_placed_as_double`).
    from_base: bool = False


@dataclass(frozen=True)
class CarvedKeep:
    """A keep carved from a colour's body planes: its centre (mm), the area it carves (keep sides²; None where not
    its own: one of two keeps in line) and its turn (`_square_turn`; None for a part of a joined blob)."""

    centre: np.ndarray
    area: float | None
    turn: float | None
    from_base: bool = False  # see `KeepReading.from_base`


@dataclass(frozen=True)
class KeepPlanes:
    """The keep colours on the table plane and on three planes through a keep's body, as label images
    (0 none, i the i-th of `colours`): four warps serve every colour, the keeps and the walls they hide."""

    colours: list[str]
    flat: np.ndarray
    body: list[np.ndarray]
    tables_colours: frozenset[str] = frozenset()  # the table's own keep colours (where a keep may be the table)
    # The same planes of the keep colours widened by CARVE_BLUR_PX in the photo, where they hide walls (see
    # `in_front`); None: the planes as they are.
    widened: tuple[np.ndarray, list[np.ndarray]] | None = None

    def in_front(self, the_tables_colours: bool = True) -> np.ndarray:
        """Where a keep stands in front of what lies there (a wall there is hidden, not missing): its colour on one
        of the body planes and on the table plane too. A keep hiding any height of a wall hides that wall's foot
        from the camera; one behind a gap between two walls shows through the gap on the body planes, not on the
        table plane (sample 002: two short walls, the tower between them hidden by a keep, read as a long wall
        whose middle that keep hid; fresh 6666-026 alike).
        A keep's outline blurs into what lies behind it, and those mixed pixels are neither its colour nor grey:
        the planes widened by that blur (`widened`) are taken (fresh 12600-029: a short wall between two keeps,
        its foot hidden by one, its middle lost in their blurred outlines).
        `the_tables_colours`: with the table's own keep colours (where they may as well be the table); without them,
        their keep-sized bodies are still taken (marked so in `widened`): a yellow double keep on a wood table hid a
        long wall's middle, and the gap was read as a missing tower's (fresh 12400-021)."""
        flat, body = self.widened or (self.flat, self.body)
        left_out = [] if the_tables_colours else [index for index, colour in enumerate(self.colours, start=1)
                                                   if colour in self.tables_colours]
        def kept(plane: np.ndarray) -> np.ndarray:
            return (plane > 0) & ~np.isin(plane, left_out) if left_out else plane > 0

        return np.logical_or.reduce([kept(plane) for plane in body]) & (flat > 0)

    @cached_property
    def cover(self) -> KeepCover:
        """Where keeps stand in front of the walls, and where of a long span's gaps (not the table's colours):
        worked out once, for every time the walls are read on these planes."""
        return KeepCover(self.in_front(), self.in_front(the_tables_colours=False))


def keep_planes(view: TableView, classes: PixelClasses, region: Region, profile: PieceProfile,
                tables_colours: Collection[str] = ()) -> KeepPlanes:
    """The keep colours' planes; `tables_colours`: the table's own keep colours, whose keeps may show only by their
    outlines (`_keep_centres`), and whose calls are surer only on clearer evidence (`decide_doubles`)."""
    body = profile.keep_height - profile.keep_roof_height
    side = profile.dimensions.keep_side
    min_pixels = 0.3 * side * side / view.card.mm_per_pixel() ** 2
    colours = [c for c, mask in classes.keeps.items() if cv2.countNonZero(mask) >= min_pixels]
    labels = keep_label_image(classes, colours)
    heights = (0.0, *(s * body for s in KEEP_PLANE_SHARES))
    flat, *planes = (warp_labels(view, labels, h, region) for h in heights)
    # Keeps widened where they hide walls by how far their colour blurs in the photo (CARVE_BLUR_PX), on the planes.
    tables = [index for index, colour in enumerate(colours, start=1) if colour in tables_colours]
    reach_px = max(1, math.ceil(CARVE_BLUR_PX * view.card.mm_per_pixel() * region.px_per_mm))
    widened_flat, *widened_planes = (_widened_by_blur(plane, side * region.px_per_mm, reach_px, tables)
                                     for plane in (flat, *planes))
    return KeepPlanes(colours, flat, planes, frozenset(tables_colours), (widened_flat, widened_planes))


def _widened_by_blur(plane: np.ndarray, side_px: float, reach_px: int, tables: Collection[int]) -> np.ndarray:
    """A keep colours' plane (a label image) with its keeps widened by `reach_px`. Only keeps' bodies
    (`_keep_shaped`: blobs of keep colour no larger than a leaning double keep, neither thin nor sparse; `side_px`,
    a keep's side in the plane's pixels): specks and thin lines of a colour on a patterned table, and its stripes,
    widened would bury a far castle's thin walls (sample 002: a green chevron table). Such bodies of the table's
    own keep colours (labels `tables`) are marked (label + KEEP_BODY_MARK): keeps, not the table, wherever they
    stand (see `KeepPlanes.in_front`). Worked out blob by blob, over each one's window."""
    count, blobs, stats, _ = cv2.connectedComponentsWithStats((plane > 0).astype(np.uint8), connectivity=8)
    out = plane.copy()
    for blob in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[blob])
        if not _keep_shaped(w, h, area, side_px):
            continue
        x0, y0, x1, y1 = max(0, x - reach_px), max(0, y - reach_px), x + w + reach_px, y + h + reach_px
        body = np.where(blobs[y0:y1, x0:x1] == blob, plane[y0:y1, x0:x1], 0)
        body = np.where(np.isin(body, list(tables)), body + KEEP_BODY_MARK, body).astype(np.uint8)
        widened = cv2.dilate(body, disc(reach_px))
        out[y0:y1, x0:x1] = np.where(widened > 0, widened, out[y0:y1, x0:x1])
    return out


def _keep_shaped(width: int, height: int, area: int, side_px: float) -> bool:
    """Whether a blob (its bounding box and pixel count) may be a keep's body: no larger than a leaning double keep
    (CARVE_HULL_SIDES), a quarter of a side across at least, and filling KEEP_BODY_FILL of its box (a thin line
    running across the box fills little of it)."""
    return (min(width, height) >= side_px / 4 and area <= CARVE_HULL_SIDES[1] * side_px ** 2
            and area >= KEEP_BODY_FILL * width * height)


def find_keeps(view: TableView, planes: KeepPlanes, region: Region, profile: PieceProfile) -> list[KeepReading]:
    found = []
    for index, colour in enumerate(planes.colours, start=1):
        carved = _keep_centres(view, planes, index, region, profile)
        if not carved:
            continue
        # The keep's colour on the table plane, labelled once (as it is, and with seams bridged): each keep's
        # lean is measured on its blob.
        colour_mask = planes.flat == index
        blobs = cv2.connectedComponents(colour_mask.astype(np.uint8), connectivity=8)[1]
        bridged = colour_blobs(colour_mask, region)
        for n, keep in enumerate(carved):
            others = [other.centre for m, other in enumerate(carved) if m != n]
            found.append(replace(_with_height(colour, keep.centre, blobs, bridged, region, view, profile, others),
                                 area_share=keep.area, turn=keep.turn, from_base=keep.from_base))
    return found


def bridged_seams(colour: np.ndarray, region: Region) -> np.ndarray:
    """A keep colour's pixels (bool) with seams up to 2 × SEAM_MM wide bridged. Padded with empty pixels first:
    OpenCV's erosion takes the image's edge as set, so a blob near it would be closed onto it."""
    radius = max(1, round(SEAM_MM * region.px_per_mm))
    pad = 2 * radius
    padded = cv2.copyMakeBorder(colour.astype(np.uint8), pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
    return cv2.morphologyEx(padded, cv2.MORPH_CLOSE, disc)[pad:-pad, pad:-pad] > 0


def colour_blobs(colour: np.ndarray, region: Region) -> np.ndarray:
    """A keep colour's pixels on the table plane, labelled blob by blob, seams up to 2 × SEAM_MM wide bridged:
    a double keep's two bodies meet in a shaded seam that splits its colour in two across its lean, and its
    lean was measured on one half (fresh 9292-022: a yellow double measured leaning less than a single, and
    read single for sure). Keeps of a colour stand a wall apart at least, far wider than a seam; what else of
    the colour a bridge may join is bounded where the lean is measured (`_with_height`)."""
    return cv2.connectedComponents(bridged_seams(colour, region).astype(np.uint8), connectivity=8)[1]


def _keep_centres(view: TableView, planes: KeepPlanes, index: int, region: Region,
                  profile: PieceProfile) -> list[CarvedKeep]:
    """The keeps of the `index`-th colour carved on every body plane: those carved from the planes as
    classified and those carved only once each plane's keep-sized blobs are filled to their hulls (for the table's
    own colours, blobs filling less of their hulls: TABLE_COLOUR_CARVE_SOLIDITY). A keep is convex; a roof face
    washed out by a flash (of neither a keep's colour nor grey) cuts its colour apart differently on each plane
    (fresh 6464-030: 7 of 11 amber-yellow keeps on wood carved 0.2-0.5 of a keep and were missed). That face's edge
    can cut the rest in two across a seam, each part too small or too ragged to fill alone (fresh 6767-006), so
    seams are bridged first. A keep carved either way keeps the area carved as classified, on which the
    single/double evidence was fitted (taken filled, five photos of 416 lost a call)."""
    # Keeps are sparse: only the window holding the colour on the lowest body plane is labelled, with a
    # margin of empty pixels so that the opening erodes blobs at its edge as it would in the whole region.
    bx, by, bw, bh = cv2.boundingRect((planes.body[0] == index).astype(np.uint8))
    if bw == 0 or bh == 0:
        return []
    height, width = planes.body[0].shape
    bx, by = max(0, bx - 2), max(0, by - 2)
    bw, bh = min(width - bx, bw + 4), min(height - by, bh + 4)
    on_planes = [plane[by:by + bh, bx:bx + bw] == index for plane in planes.body]
    carved = _carved_keeps(view, on_planes, (bx, by), region, profile)
    solidity = TABLE_COLOUR_CARVE_SOLIDITY if planes.colours[index - 1] in planes.tables_colours else CARVE_SOLIDITY
    side = profile.dimensions.keep_side
    side_px = side * region.px_per_mm
    hulls = (CARVE_HULL_SIDES[0] * side_px ** 2, CARVE_HULL_SIDES[1] * side_px ** 2)
    # The colour's pieces a seam apart are one blob; thin strands (a grid's lines) are opened away first, or
    # bridged they would fill as a keep.
    bridged = [bridged_seams(cv2.morphologyEx(on_plane.astype(np.uint8), cv2.MORPH_OPEN, STRAND_OPENING), region)
               | on_plane for on_plane in on_planes]
    filled = [filled_to_hulls(o, hulls, solidity, CARVE_SQUARENESS, MAX_KEEP_ASPECT, groups=b)
              for o, b in zip(on_planes, bridged, strict=True)]
    if all(np.array_equal(f, o) for f, o in zip(filled, on_planes, strict=True)):  # most colours: nothing filled
        return carved
    as_classified = [keep.centre for keep in carved]
    for keep in _carved_keeps(view, filled, (bx, by), region, profile):
        if all(np.hypot(*(keep.centre - other)) > side / 2 for other in as_classified):
            carved.append(keep)
    return carved


def _carved_keeps(view: TableView, on_planes: list[np.ndarray], origin: tuple[int, int], region: Region,
                  profile: PieceProfile) -> list[CarvedKeep]:
    """The keeps carved where a colour is on every one of `on_planes`
    (bool, a window of the region's pixels from `origin`): blobs of a keep's size that carve square, and the parts
    of blobs joining two or three keeps (`_joined_keeps`)."""
    side_px = profile.dimensions.keep_side * region.px_per_mm
    min_area = 0.3 * side_px ** 2
    # Bigger patches are table pattern or clutter (a card); a double keep seen tilted carves over three sides².
    max_area = MAX_KEEP_AREA_SIDES * side_px ** 2
    bx, by = origin
    solid = cv2.morphologyEx(np.logical_and.reduce(on_planes).astype(np.uint8), cv2.MORPH_OPEN, STRAND_OPENING)
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(solid, connectivity=8)
    carved = []
    for i in range(1, count):
        x, y, w, h = stats[i, :4]
        area, centre = stats[i, cv2.CC_STAT_AREA], region.to_mm(centroids[i] + [bx + 0.5, by + 0.5])
        if not min_area <= area <= JOINED_KEEPS * max_area:
            continue
        blob = labels[y:y + h, x:x + w] == i
        one_keep = area <= max_area and area <= _largest_carve(view, centre, profile) * region.px_per_mm ** 2
        square = one_keep and square_enough(blob)
        parts = [] if square else _joined_keeps(blob, side_px, min_area)
        in_line = [] if square or parts else _keeps_in_line(view, blob, (bx + x, by + y), centre, region, profile)
        if in_line:  # their areas and turns are not the carve's: left unmeasured
            carved.extend(CarvedKeep(c, None, None, from_base=True) for c in in_line)
            continue
        # Neither square nor two or three keeps joined: perhaps a double drawn out along its lean.
        if square or (one_keep and not parts
                      and square_enough(blob, *_double_lean_px(view, centre, profile, region))):
            carved.append(CarvedKeep(centre, float(area / side_px ** 2), _square_turn(blob)))
            continue
        for part, part_area in parts:
            part_centre = region.to_mm(part + [bx + x + 0.5, by + y + 0.5])
            if part_area <= _largest_carve(view, part_centre, profile) * region.px_per_mm ** 2:
                carved.append(CarvedKeep(part_centre, float(part_area / side_px ** 2), None))
    return carved


def _square_turn(blob: np.ndarray) -> float:
    """The turn (radians, 0 to π/2) of the square a keep carves: its smallest enclosing rectangle's."""
    ys, xs = np.nonzero(blob)
    (_, _), (_, _), angle = cv2.minAreaRect(np.column_stack([xs, ys]).astype(np.float32))
    return math.radians(angle % 90.0)


def _joined_keeps(blob: np.ndarray, side_px: float, min_area: float) -> list[tuple[np.ndarray, float]]:
    """Two or three keeps of one colour carved as one blob (a double keep's top leaning over the wall
    onto the keep next door): the parts (centre in the blob's pixels, area) that eroding the blob by a
    quarter of a keep's side splits it into, each grown back within it and carving square; or none
    where it does not split that way (a sliver of shadow erodes away, a courtyard floor stays whole)."""
    radius = max(1, int(round(JOINED_KEEPS_EROSION * side_px)))
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
    count, cores = cv2.connectedComponents(cv2.erode(blob.astype(np.uint8), disc), connectivity=8)
    if not 3 <= count <= JOINED_KEEPS + 1:  # background and two or three cores
        return []
    parts = []
    for n in range(1, count):
        part = cv2.dilate((cores == n).astype(np.uint8), disc) & blob
        area = float(part.sum())
        if area < min_area or not square_enough(part > 0):
            return []
        ys, xs = np.nonzero(part)
        parts.append((np.array([xs.mean(), ys.mean()]), area))
    return parts


def _keeps_in_line(view: TableView, blob: np.ndarray, origin: tuple[int, int], centre: np.ndarray, region: Region,
                   profile: PieceProfile) -> list[np.ndarray]:
    """Two keeps of one colour standing in line along the lean, carved as one blob with no neck to erode (fresh
    11700-003 and -026, 35-39°: a double keep's upper body leaning over the wall onto a single in the next
    courtyard, read as one keep between them): the centres (mm) of the front keep, whose base the blob's near end
    is, and of the one behind, taken as a single, whose top its far end is. A blob is two keeps where its length
    along the lean less its width across (a keep's base measures the same both ways) exceeds what a double's top
    adds to it on the highest carving plane by over IN_LINE_EXCESS of a keep's side; none otherwise. `blob`: its
    pixels, from `origin` in the region; `centre`: its centre (mm)."""
    u = _lean_direction(view, centre)
    if u is None:
        return []
    normal = np.array([-u[1], u[0]])
    ys, xs = np.nonzero(blob)
    points = region.to_mm(np.column_stack([xs, ys]) + np.add(origin, 0.5))
    side = profile.dimensions.keep_side
    body = profile.keep_height - profile.keep_roof_height
    lowest, highest = KEEP_PLANE_SHARES[0] * body, KEEP_PLANE_SHARES[-1] * body
    along, across = points @ u, points @ normal
    double_adds = _lean(view, centre, u, 2 * profile.keep_height) - _lean(view, centre, u, highest)
    if np.ptp(along) - np.ptp(across) - double_adds <= IN_LINE_EXCESS * side:
        return []
    # On the lowest plane a keep's near face lands short of its base by that plane's lean; on the highest, a
    # single's top lands beyond its centre by its reach less that plane's lean.
    front = along.min() + side / 2 + _lean(view, centre, u, lowest)
    back = along.max() - (_top_reach(view, centre, u, profile.keep_height, profile) - _lean(view, centre, u, highest))
    if back - front < side:
        return []
    ends = (along < along.min() + side, along > along.max() - side)
    return [a * u + float(np.median(across[end])) * normal for a, end in zip((front, back), ends, strict=True)]


def _largest_carve(view: TableView, centre: np.ndarray, profile: PieceProfile) -> float:
    """The most table (mm²) a keep at `centre` can carve on the planes through a keep's body: a double
    keep turned 45°, its top landing beyond its body on the lowest plane. Near straight below the
    camera that is about two sides², where a courtyard's floor in shade of a keep's colour carves more. Its
    colour as classified bleeds about CARVE_BLUR_PX of the photo's pixels past its outline each way (fresh
    6767-023: a sharp double keep in a photo at 1.1 mm a pixel carved 4.1 sides², its outline's bound 3.6)."""
    u = _lean_direction(view, centre)
    u = np.array([1.0, 0.0]) if u is None else u
    body = profile.keep_height - profile.keep_roof_height
    top = 2 * profile.keep_height - profile.keep_roof_height
    beyond = _lean(view, centre, u, top) - _lean(view, centre, u, KEEP_PLANE_SHARES[0] * body)
    width = math.sqrt(2) * profile.dimensions.keep_side
    blur = 2 * CARVE_BLUR_PX * _photo_pixel_mm(view, centre)
    return (width + blur) * (width + max(beyond, 0.0) + blur)


def _photo_pixel_mm(view: TableView, point: np.ndarray) -> float:
    """The side (mm) of the table a photo pixel covers at `point`."""
    pixels = view.pose.project(np.asarray(point, float) + np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]), 0.0)
    (ax, ay), (bx, by) = pixels[1] - pixels[0], pixels[2] - pixels[0]
    return 1.0 / math.sqrt(max(abs(float(ax * by - ay * bx)), 1e-9))  # pixels in a mm² of table


def square_enough(blob: np.ndarray, lean: np.ndarray | None = None, stretch_px: float = 0.0) -> bool:
    """A keep carves as a square (its lean removed); a sliver along a wall (a shadow on a table of a
    keep's colour) does not: at most MAX_KEEP_ASPECT long for its width. A double keep's upper keep still
    leans on the body's planes (they are a single's): its carve is drawn out along its `lean` (a unit
    vector in the blob's pixels) by up to `stretch_px`, which is taken off its length that way first."""
    points = cv2.findNonZero(blob.astype(np.uint8))
    (_, _), (w, h), _ = cv2.minAreaRect(points)
    if max(w, h) <= MAX_KEEP_ASPECT * max(min(w, h), 1.0):
        return True
    if lean is None or stretch_px <= 0:
        return False
    xy = points.reshape(-1, 2).astype(np.float64)
    along = np.ptp(xy @ lean) + 1.0
    across = np.ptp(xy @ np.array([-lean[1], lean[0]])) + 1.0
    along = max(along - stretch_px, 1.0)
    return max(along, across) <= MAX_KEEP_ASPECT * min(along, across)


def _double_lean_px(view: TableView, centre: np.ndarray, profile: PieceProfile,
                    region: Region) -> tuple[np.ndarray | None, float]:
    """The direction a keep at `centre` leans in (`_lean_direction`; a region's pixels run along the table's
    axes) and how much farther a double's top lands along it than a single's (the region's px)."""
    u = _lean_direction(view, centre)
    if u is None:
        return None, 0.0
    stretch = _lean(view, centre, u, 2 * profile.keep_height) - _lean(view, centre, u, profile.keep_height)
    return u, max(stretch, 0.0) * region.px_per_mm


def _lean_direction(view: TableView, centre: np.ndarray) -> np.ndarray | None:
    """The unit vector on the table from straight below the camera out through `centre`: the way a piece
    there leans in the photo. None straight below the camera."""
    outward = centre - view.pose.centre[:2]
    ground = float(np.linalg.norm(outward))
    return outward / ground if ground > 1e-6 else None


def _with_height(colour: str, centre: np.ndarray, labels: np.ndarray, bridged: np.ndarray, region: Region,
                 view: TableView, profile: PieceProfile, others: list[np.ndarray] = ()) -> KeepReading:
    """Single or double from the length of the keep's colour along its lean on the table plane,
    against the lean a single and a double keep would have seen from this camera. `labels`: the colour's
    blobs; `bridged`: the same with seams bridged (`colour_blobs`), measured instead where the bridge adds no
    more than the rest of a double (its lean's gap over a single's): more is something else of the colour
    beside the keep — unless the colour is cut apart at the keep's centre, its blob there only a piece of it
    (x10200-027: a washed-out roof face, a single measured leaning -1.4 of a double's gap and read double).
    `others`: the centres of the colour's other keeps, whose colour may run into this one's along its lean."""
    def keep(top: float | None = None, *measured, **flags) -> KeepReading:  # single until `decide_doubles`
        return KeepReading(colour, float(centre[0]), float(centre[1]), False, False, top, *measured, **flags)

    u = _lean_direction(view, centre)
    single, double = profile.keep_height, 2 * profile.keep_height
    if u is None:
        return keep()
    reach_single = _top_reach(view, centre, u, single, profile)
    reach_double = _top_reach(view, centre, u, double, profile)
    if reach_double - reach_single < MIN_LEAN_DIFFERENCE_MM:
        return keep()
    extent = _blob_extent(labels, region, centre, u, others, profile.dimensions.keep_side)
    if extent is None:
        return keep()
    span = reach_double - reach_single
    across_seam = _blob_extent(bridged, region, centre, u, others, profile.dimensions.keep_side)
    if across_seam is not None and (across_seam.along - extent.along <= span + LANE_SLACK_MM
                                    or _cut_apart_at(labels, region, centre)):
        extent = across_seam
    if extent.lane_ahead < reach_double + LANE_SLACK_MM:
        # The colour ran into a keep of its colour in line ahead, short of where a double's would end: its length
        # was cut there whatever this keep's height, and read as measured it said "single" for sure (fresh
        # 10500-030: a double at 39.7° beside a single in the next courtyard, 0.23 of a double's lean).
        # Its colour reached that keep's base, though: where a single's top falls short of it, it is taller.
        at_least = (extent.lane_ahead - LANE_SLACK_MM - reach_single) / span
        return keep(None, None, span, lean_direction=(float(u[0]), float(u[1])), lean_cut=True,
                    lean_at_least=at_least if at_least > 0 else None)
    # The base's near edge stays put whatever the height; the length of the colour along the lean
    # does not depend on where the carved centre fell.
    reach = extent.along - profile.dimensions.keep_side / 2
    share = (reach - reach_single) / span
    top = single + (double - single) * share  # the height the lean suggests
    width_share, width_span = None, 0.0
    if extent.width is not None:
        offset, slope = ALONG_LESS_ACROSS
        body_single = _lean(view, centre, u, single - profile.keep_roof_height)
        body_double = _lean(view, centre, u, double - profile.keep_roof_height)
        width_span = slope * (body_double - body_single)
        width_share = (extent.length - extent.width - offset - slope * body_single) / width_span
    # Measured only: `decide_doubles` weighs this against the other keeps of the colour.
    return keep(float(top), share, span, width_share, width_span, (float(u[0]), float(u[1])))


def decide_doubles(keeps: list[KeepReading], tables_colours: Collection[str] = ()) -> list[KeepReading]:
    """Single or double for each keep, decided per colour: a player stacks at most one double keep a
    game (C8), so the hypotheses are "no double" or "this one keep is the double", "no double" the less
    likely the more keeps the colour has (DOUBLED_CLAIM_SHARE). Each is weighed by
    the keeps' measured leans (how far from a single's and a double's, against the measurement's
    noise, once the lean the photo's keeps all share is taken off), their shadows' reach and, seen from
    nearly above, the area they carve (`_area_evidence`); a keep whose posterior is not clear either way
    is marked uncertain, more readily if of one of the table's own colours (`tables_colours`)."""
    by_colour: dict[str, list[int]] = {}
    for i, k in enumerate(keeps):
        by_colour.setdefault(k.color, []).append(i)
    keeps = _without_shared_lean(keeps)
    decided = list(keeps)
    spread = _lean_noise_scale(keeps)
    by_area = _area_evidence(keeps)
    for members in by_colour.values():
        measured = [i for i in members if keeps[i].lean_share is not None or keeps[i].shadow_share is not None
                    or keeps[i].lean_at_least is not None or i in by_area]
        if not measured:
            continue
        no_double = (1 - DOUBLED_CLAIM_SHARE) ** len(members)
        log_prior_each = math.log((1 - no_double) / len(members))
        scores = {None: math.log(no_double)}
        scores.update({i: log_prior_each + _double_evidence(keeps[i], spread) + by_area.get(i, 0.0)
                       for i in measured})
        top = max(scores.values())
        weights = {h: math.exp(s - top) for h, s in scores.items()}
        # Unmeasured keeps of the colour could be the double too: their hypotheses keep their prior.
        total = sum(weights.values()) + (len(members) - len(measured)) * math.exp(log_prior_each - top)
        best = max(scores, key=scores.get)
        short = _measured_short([keeps[i] for i in members])
        for i in measured:
            p_double = weights[i] / total
            odds = TABLE_COLOUR_CERTAIN_ODDS if keeps[i].color in tables_colours else CERTAIN_ODDS
            certain = (not 1 / (1 + odds) <= p_double <= odds / (1 + odds) and _leans_agree(keeps[i], spread)
                       and not short)
            decided[i] = replace(keeps[i], double=i == best, double_certain=certain)
        if best is not None:
            decided[best] = _placed_as_double(decided[best])
    return decided


def _measured_short(colour_keeps: list[KeepReading]) -> bool:
    """Whether a colour's keeps (two measured at least) all lean SHORT_COLOUR_LEAN of a gap or more short of a
    single's."""
    leans = [k.lean_share for k in colour_keeps if k.lean_share is not None]
    return len(leans) >= 2 and max(leans) <= -SHORT_COLOUR_LEAN


def _without_shared_lean(keeps: list[KeepReading]) -> list[KeepReading]:
    """The keeps with the lean they share beyond the model's taken off their lean shares (mm): for each, the
    lean its colour's other keeps and the photo's other colours show (`_shrunk_centre`), told from
    MIN_KEEPS_FOR_PHOTO_MEDIAN measured keeps on."""
    leans = [k.lean_share * k.lean_span_mm if k.lean_share is not None else None for k in keeps]
    if sum(lean is not None for lean in leans) < MIN_KEEPS_FOR_PHOTO_MEDIAN:
        return list(keeps)
    shed = []
    for i, keep in enumerate(keeps):
        if leans[i] is None:
            shed.append(keep)
            continue
        offset, _ = _shrunk_centre(*_around(leans, keeps, i), LEAN_SPREAD_IN_COLOUR_MM, LEAN_SPREAD_BETWEEN_COLOURS_MM)
        shed.append(replace(keep, lean_share=keep.lean_share - offset / keep.lean_span_mm))
    return shed


def _area_evidence(keeps: list[KeepReading]) -> dict[int, float]:
    """Log-likelihood ratio double : single of the area each keep carves (see AREA_GAIN), for the keeps whose
    single–double lean gap is under AREA_MAX_SPAN_MM or whose lean was cut short, against a single's area where
    it stands (`_shrunk_centre`), its noise scaled by how much the photo's areas scatter (`_noise_scale`).
    Keeps whose area was not measured, or read where the castle needs one (`inferred`), are neither weighed
    nor a reference."""
    seen = [math.log(max(k.area_share, 1e-3)) if k.area_share is not None and not k.inferred else None
            for k in keeps]
    shares = {}  # each keep's area as a share of the single–double gain, and that share's noise
    for i, keep in enumerate(keeps):
        if seen[i] is None or (keep.lean_span_mm >= AREA_MAX_SPAN_MM and not keep.lean_cut):
            continue
        single = _shrunk_centre(*_around(seen, keeps, i), AREA_SPREAD_IN_COLOUR, AREA_SPREAD_BETWEEN_COLOURS)
        if single is None:
            continue
        expected, variance = single
        gain = math.log(1 + AREA_GAIN[0] + AREA_GAIN[1] * keep.lean_span_mm)
        shares[i] = ((seen[i] - expected) / gain, math.sqrt(AREA_SPREAD_IN_COLOUR ** 2 + variance) / gain)
    # Where the photo's areas scatter more than the model says (a table taking some keeps' sides, a pattern
    # joining others), they tell singles from doubles less surely (fresh 12200-001: a yellow double carving less
    # than two of its colour's singles, called single for certain; on 1,564 keeps in 139 photos of the samples and
    # fresh 12200-12400: wrong calls 23 -> 21, certain wrong 5 -> 4, 10 right calls of 1,430 made unsure).
    scale = _noise_scale(list(shares.values()))
    return {i: _robust_evidence(share, noise * scale, AREA_OUTLIER_SHARE, AREA_OUTLIER_DENSITY)
            for i, (share, noise) in shares.items()}


def _around(values: list[float | None], keeps: list[KeepReading], i: int) -> tuple[list[float], list[float]]:
    """The measured `values` (None: not measured) of keep `i`'s colour's other keeps, and of the photo's keeps
    of other colours."""
    colour = keeps[i].color
    same = [v for j, v in enumerate(values) if v is not None and j != i and keeps[j].color == colour]
    other = [v for j, v in enumerate(values) if v is not None and keeps[j].color != colour]
    return same, other


def _shrunk_centre(same: list[float], other: list[float], within: float,
                   between: float) -> tuple[float, float] | None:
    """What a single keep of a colour measures, and that estimate's variance, from the colour's other keeps
    (`same`: all single if the keep weighed is the double; spread `within` about their colour's) and the
    photo's keeps of other colours (`other`: a colour's singles differ from another's by `between`), each
    weighed by how surely it tells; None with neither."""
    precision, weighted = 0.0, 0.0
    if same:
        centre = float(np.median(same)) if len(same) >= MEDIAN_FROM else float(np.mean(same))
        variance = within ** 2 / len(same)
        precision, weighted = precision + 1 / variance, weighted + centre / variance
    if other:
        variance = between ** 2 + within ** 2 / len(other)
        precision, weighted = precision + 1 / variance, weighted + float(np.median(other)) / variance
    if precision == 0:
        return None
    return weighted / precision, 1 / precision


def _placed_as_double(keep: KeepReading) -> KeepReading:
    """A keep read double, moved back towards the camera by half the single–double gap in its lean: it is
    found where its colour carves on planes through a single keep's body, and a double's colour reaches
    that much farther along its lean there (its base's near edge stays put), so its carved centre
    lies half as far beyond its true one."""
    if keep.lean_direction is None or keep.from_base:
        return keep
    shift = keep.lean_span_mm / 2
    return replace(keep, x=keep.x - shift * keep.lean_direction[0], y=keep.y - shift * keep.lean_direction[1])


def _lean_noise(keep: KeepReading) -> float:
    """The noise of a keep's lean share (in shares of its single–double gap)."""
    return math.hypot(LEAN_NOISE_MM, LEAN_NOISE_SHARE_OF_SPAN * keep.lean_span_mm) / keep.lean_span_mm


def _leans_agree(keep: KeepReading, spread: float = 1.0) -> bool:
    """Whether a keep's two measures of its lean (its colour's length, and that length less its width)
    agree within MAX_LEAN_DISAGREEMENT of their noise. They are taken as independent; one far from the
    other means something else (a shadow, a neighbour's colour) joined the blob, and neither is to be
    trusted enough to call the keep certain (on 1,200 keeps: 8 certain calls left in doubt, 3 of them
    wrong, of 13 wrong in all)."""
    if keep.lean_share is None or keep.width_share is None:
        return True
    noise = math.hypot(_lean_noise(keep), ALONG_LESS_ACROSS_NOISE_MM / keep.width_span_mm) * spread
    return abs(keep.lean_share - keep.width_share) <= MAX_LEAN_DISAGREEMENT * noise


def _lean_noise_scale(keeps: list[KeepReading]) -> float:
    """How much noisier the leans of this photo's keeps are than the noise model says (`_noise_scale`). In some
    photos every keep leans a whole gap less than a single can (a lens read wrong): their leans then
    tell singles from doubles far less surely than the model would claim."""
    return _noise_scale([(k.lean_share, _lean_noise(k)) for k in keeps if k.lean_share is not None])


def _noise_scale(measures: list[tuple[float, float]]) -> float:
    """How much noisier a photo's measures (each a share of the single–double gap, and its noise) are than the
    noise model says (at least 1): each lies near 0 (single) or 1 (double), so its distance to the nearer, over
    its noise, is a residual; their median square, over a Gaussian's (0.455), is the noise's variance scale."""
    residuals = [min(abs(share), abs(share - 1)) / noise for share, noise in measures]
    if len(residuals) < MIN_KEEPS_FOR_PHOTO_MEDIAN:
        return 1.0
    return max(1.0, math.sqrt(float(np.median(np.square(residuals))) / GAUSSIAN_MEDIAN_SQUARE))


def _double_evidence(keep: KeepReading, spread: float = 1.0) -> float:
    """Log-likelihood ratio double : single of a keep's measured lean (Gaussian noise around each, scaled
    by the photo's `spread`, allowing for a blob that took in something else now and then) and of its
    shadow's reach (the same, allowing for a misleading measure more often)."""
    evidence = 0.0
    if keep.lean_share is not None:
        noise = _lean_noise(keep) * spread
        evidence += _robust_evidence(keep.lean_share, noise, LEAN_OUTLIER_SHARE, LEAN_OUTLIER_DENSITY)
    if keep.width_share is not None:  # a second measurement, its errors taken as independent
        noise = ALONG_LESS_ACROSS_NOISE_MM / keep.width_span_mm * spread
        evidence += _robust_evidence(keep.width_share, noise, LEAN_OUTLIER_SHARE, LEAN_OUTLIER_DENSITY)
    if keep.shadow_share is not None:
        evidence += _robust_evidence(keep.shadow_share, keep.shadow_noise, SHADOW_OUTLIER_SHARE,
                                     SHADOW_OUTLIER_DENSITY)
    if keep.lean_at_least is not None:
        evidence += _censored_evidence(keep.lean_at_least, _lean_noise(keep) * spread, LEAN_OUTLIER_SHARE)
    return evidence


def _censored_evidence(at_least: float, noise: float, outlier_share: float) -> float:
    """Log-likelihood ratio double : single of a lean known only to be `at_least` a share (Gaussian `noise`
    about each; in a share `outlier_share` of keeps the measure is anything, above it half the time)."""
    def log_tail(expected: float) -> float:
        tail = 0.5 * math.erfc((at_least - expected) / (noise * math.sqrt(2)))
        return math.log((1 - outlier_share) * tail + outlier_share / 2)
    return log_tail(1.0) - log_tail(0.0)


def _robust_evidence(share: float, noise: float, outlier_share: float, outlier_density: float) -> float:
    """Log-likelihood ratio double (share 1) : single (share 0) of a measure with Gaussian `noise` that
    is, in a share `outlier_share` of keeps, anything at all (`outlier_density` per share). In logs throughout: a
    measure many noises from both is no evidence either way, not an overflow."""
    def log_likelihood(expected: float) -> float:
        z = (share - expected) / noise
        gaussian = -0.5 * z * z - math.log(noise * math.sqrt(2 * math.pi)) + math.log(1 - outlier_share)
        return float(np.logaddexp(gaussian, math.log(outlier_share * outlier_density)))
    return log_likelihood(1.0) - log_likelihood(0.0)


def _top_reach(view: TableView, centre: np.ndarray, u: np.ndarray, height: float, profile: PieceProfile) -> float:
    """How far from the keep's centre, away from the camera, its top lands on the table in the photo."""
    half = profile.dimensions.keep_side / 2
    apex = _landing(view, centre, height, centre, u)
    far_edge = _landing(view, centre + u * half, height - profile.keep_roof_height, centre, u)
    return max(0.0, apex, far_edge)


def _lean(view: TableView, centre: np.ndarray, u: np.ndarray, height: float) -> float:
    """How far along `u` a point `height` above the keep's centre lands on the table in the photo."""
    return _landing(view, centre, height, centre, u)


def _landing(view: TableView, point: np.ndarray, height: float, centre: np.ndarray, u: np.ndarray) -> float:
    """How far from `centre` along `u` a point `height` above the table at `point` lands on the table
    in the photo."""
    pixel = view.pose.project(np.array([point]), height)
    return float((view.pose.table_point(pixel, 0.0)[0] - centre) @ u)


def _lean_lane(centre: np.ndarray, u: np.ndarray, others: list[np.ndarray], side: float) -> tuple[float, float]:
    """How far (mm along `u`, behind and ahead of the centre) this keep's colour can run before it is
    another keep's: a keep of the same colour in line with it, in the next courtyard, joins its colour
    on the table plane into one blob (far from the camera, a keep's lean is longer than a courtyard)."""
    behind, ahead = -np.inf, np.inf
    normal = np.array([-u[1], u[0]])
    for other in others:
        along, across = float((other - centre) @ u), abs(float((other - centre) @ normal))
        if across >= side:
            continue
        if along > 0:
            ahead = min(ahead, along - side / 2)
        else:  # its colour may run up to this keep's base, wherever it stands behind
            behind = -side / 2 - LANE_SLACK_MM
    return behind, ahead


@dataclass(frozen=True)
class BlobExtent:
    """How far a keep's colour on the table plane runs along its lean and across it (mm)."""

    along: float  # its outermost 2 % either side (stray pixels) left out
    length: float | None  # along, and width across, in full, once specks and one-pixel spurs are opened away
    width: float | None
    lane_ahead: float = math.inf  # where another keep's colour, joined to it, takes over ahead (`_lean_lane`)


def _blob_extent(labels: np.ndarray, region: Region, centre: np.ndarray, u: np.ndarray,
                 others: Sequence[np.ndarray] = (), side: float = 0.0) -> BlobExtent | None:
    """The extent along `u` and across it of the keep-coloured blob on the table plane that holds the
    keep's centre (`labels`: the blobs of the keep's colour on the table plane, labelled), within the lane
    the colour's other keeps (`others`, centres in mm; `side`: a keep's) leave it where their colour runs
    into its blob (see `_lean_lane`). A keep whose colour stays apart takes nothing off: a double keep is
    carved up to a span beyond its base, and a lane drawn from that centre cut its base off."""
    cx, cy = region.to_pixels(centre).astype(int)
    h, w = labels.shape
    if not (0 <= cx < w and 0 <= cy < h):
        return None
    label = labels[cy, cx]
    if label == 0:
        found = _labels_around(labels, cx, cy)
        if not found.size:
            return None
        label = int(np.bincount(found).argmax())
    joined = [other for other in others if _label_at(labels, region, other) == label]
    lane = _lean_lane(centre, u, joined, side)
    r = int(KEEP_WINDOW_MM * region.px_per_mm)  # a keep and its lean fit well inside this window
    y0, x0 = max(0, cy - r), max(0, cx - r)
    blob = (labels[y0:cy + r, x0:cx + r] == label).astype(np.uint8)
    along, _ = _blob_coordinates(blob, (x0, y0), region, centre, u, lane)
    if not along.size:
        return None
    opened = cv2.morphologyEx(blob, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    length, width = _blob_coordinates(opened, (x0, y0), region, centre, u, lane)
    spread = float(np.percentile(along, 98) - np.percentile(along, 2))
    if not length.size:
        return BlobExtent(spread, None, None, lane[1])
    return BlobExtent(spread, float(np.ptp(length)), float(np.ptp(width)), lane[1])


def _labels_around(labels: np.ndarray, cx: int, cy: int) -> np.ndarray:
    """The blob labels (not 0) within CENTRE_REACH_PX of pixel (cx, cy), one a pixel."""
    r = CENTRE_REACH_PX
    window = labels[max(0, cy - r):cy + r + 1, max(0, cx - r):cx + r + 1]
    return window[window > 0]


def _cut_apart_at(labels: np.ndarray, region: Region, centre: np.ndarray) -> bool:
    """Whether the keep's colour is missing at its centre (mm) or lies in more than one blob around it: cut
    apart through the keep (by a washed-out face and its seams), so that no one blob is the keep."""
    cx, cy = region.to_pixels(centre).astype(int)
    return _label_at(labels, region, centre) == 0 or len(np.unique(_labels_around(labels, cx, cy))) > 1


def _label_at(labels: np.ndarray, region: Region, point: np.ndarray) -> int:
    """The blob label at a table point (mm), 0 outside the region."""
    x, y = region.to_pixels(point).astype(int)
    h, w = labels.shape
    return int(labels[y, x]) if 0 <= x < w and 0 <= y < h else 0


def _blob_coordinates(blob: np.ndarray, origin: tuple[int, int], region: Region, centre: np.ndarray,
                      u: np.ndarray, lane: tuple[float, float]) -> tuple[np.ndarray, np.ndarray]:
    """The blob's pixels (a window of `region` from `origin`) in mm along `u` and across it from
    `centre`, those along `u` within `lane` only."""
    ys, xs = np.nonzero(blob)
    offsets = region.to_mm(np.column_stack([xs + origin[0] + 0.5, ys + origin[1] + 0.5])) - centre
    along, across = offsets @ u, offsets @ np.array([-u[1], u[0]])
    inside = (along >= lane[0]) & (along <= lane[1])
    return along[inside], across[inside]


def merge_close(readings: list[KeepReading], side: float) -> list[KeepReading]:
    """One reading per keep: blobs of one colour closer than a keep's side are the same keep."""
    merged: list[KeepReading] = []
    for r in readings:
        if any(m.color == r.color and math.hypot(m.x - r.x, m.y - r.y) < side for m in merged):
            continue
        merged.append(r)
    return merged


def without_overlaps(readings: list[KeepReading], side: float, tables_colours: Collection[str],
                     table_hue: Callable[[tuple[float, float]], float | None] | None = None) -> list[KeepReading]:
    """The keeps less those standing in another's place: two keeps' square bases cannot overlap, so keeps of two
    colours whose centres are closer than a keep's side are one keep read twice. Of such a pair, a keep of one
    of the table's own colours (`tables_colours`) is dropped for the other: a keep's edge blends with the table
    into the colour between them (a green keep on orange wood leaves a yellow rim, and wood's yellow grain beside
    it joined that rim into a yellow keep 20 mm from the green: fresh 6868-016). Neither or both of the table's
    colours: the one whose hue lies between the other's and the table's around them (`table_hue` of the pair's
    middle, table mm; None where the table is not saturated; `keep_blends.is_blend`) is dropped, else the one
    carving the smaller area."""
    def weight(keep: KeepReading, other: KeepReading, hue: float | None) -> tuple[bool, bool, float]:
        blend = hue is not None and is_blend(keep.color, other.color, hue)
        return keep.color not in tables_colours, not blend, keep.area_share or 0.0

    dropped = set()
    for i, a in enumerate(readings):
        for j in range(i + 1, len(readings)):
            b = readings[j]
            if i in dropped or j in dropped or a.color == b.color or math.hypot(a.x - b.x, a.y - b.y) >= side:
                continue
            hue = table_hue(((a.x + b.x) / 2, (a.y + b.y) / 2)) if table_hue is not None else None
            dropped.add(j if weight(a, b, hue) >= weight(b, a, hue) else i)
    return [keep for i, keep in enumerate(readings) if i not in dropped]


def keeps_on_the_castle(keeps: list[KeepReading], solid: np.ndarray, region: Region,
                        reach_mm: float) -> list[KeepReading]:
    """The keeps within `reach_mm` of the castle's grey pieces (`solid`, on `region`). A keep counts only
    in a courtyard, within the walls: a keep-coloured piece farther off is a player's reserve or clutter
    (a die, a card) lying on the table."""
    if not solid.any():
        return keeps
    r = int(reach_mm * region.px_per_mm)
    h, w = solid.shape
    kept = []
    for k in keeps:
        x, y = region.to_pixels(np.array([k.x, k.y])).astype(int)
        if not (0 <= x < w and 0 <= y < h):
            kept.append(k)
            continue
        x0, y0 = max(0, x - r), max(0, y - r)
        ys, xs = np.nonzero(solid[y0:y + r + 1, x0:x + r + 1])
        if len(xs) and np.hypot(xs + x0 - x, ys + y0 - y).min() <= r:
            kept.append(k)
    return kept


def beyond_the_castle(keeps: Sequence[KeepReading], corners: Sequence[tuple[float, float]],
                      margin_mm: float) -> set[int]:
    """The keeps (indices) whose centres lie more than `margin_mm` outside the convex hull of the castle's
    `corners` (its towers, and the open wall ends where towers would stand). Every courtyard is closed by walls
    between towers, so lies within that hull: a keep-coloured piece beyond it claims nothing however the walls
    are read. The margin allows for a corner tower and its walls missed."""
    centres = np.array(corners, np.float32).reshape(-1, 2)
    if len(centres) < 3:
        return set()
    hull = cv2.convexHull(centres)
    if cv2.contourArea(hull) <= 0:
        return set()
    return {i for i, k in enumerate(keeps) if cv2.pointPolygonTest(hull, (float(k.x), float(k.y)), True) < -margin_mm}


def ringed_by_towers(keep: KeepReading, towers: Sequence[TowerReading], dims: PieceDimensions) -> bool:
    """Whether towers stand around a keep on all four sides (along the castle's axes, each within a long wall's
    span of it): the corners of a courtyard it may stand in, a wall of which was missed. True without an axis."""
    axis = towers_axis(list(towers), dims)
    if axis is None:
        return True
    reach = 1.15 * dims.centre_spacing("long")
    u, v = np.array([math.cos(axis), math.sin(axis)]), np.array([-math.sin(axis), math.cos(axis)])
    offsets = np.array([t.position for t in towers], np.float64).reshape(-1, 2) - (keep.x, keep.y)
    along, across = offsets @ u, offsets @ v
    near = (np.abs(along) < reach) & (np.abs(across) < reach)
    return all(np.any(near & (sa * along > 0) & (sb * across > 0)) for sa in (-1, 1) for sb in (-1, 1))
