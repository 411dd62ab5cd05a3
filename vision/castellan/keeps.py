"""Keeps: solids of a keep colour, and how far each leans in the photo.

A keep's top stands 1 or 2 keep-heights above the table; seen on the table plane, the
keep's colour runs from its base's near edge away from the camera to where its top
lands. That length, and that length less the colour's width across the lean (which a
turned keep does not change), are measured here as shares of the way from what a single
to what a double keep would show from this camera, with the area the keep's colour carves;
`double_keeps` weighs them against the measurements' noise and how rare doubles are.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from functools import cached_property

import cv2
import numpy as np

from tablesight.calibration.pieces import PieceProfile
from tablesight.scoring.castellan.board import Board
from tablesight.scoring.castellan.geometry import point_segment_distance
from tablesight.scoring.castellan.pieces import PieceDimensions
from tablesight.vision.castellan.carving import PixelClasses, disc, keep_label_image, warp_labels
from tablesight.vision.castellan.keep_blends import is_blend
from tablesight.vision.castellan.towers import TowerReading
from tablesight.vision.castellan.walls import KeepCover, towers_axis
from tablesight.vision.mask_holes import filled_to_hulls
from tablesight.vision.table_view import Region, TableView

MIN_LEAN_DIFFERENCE_MM = 2.0  # below this the two leans cannot be told apart at all
MAX_KEEP_AREA_SIDES = 5.0
CARVE_BLUR_PX = 1.5  # how far (photo pixels) a keep's colour as classified bleeds past its outline
# Keep-coloured blobs on a plane through keeps' bodies with a hull of these many keep sides², filling this share of
# it, are filled to their hull before the planes are carved (`_keep_centres`).
CARVE_HULL_SIDES = (0.5, 4.0)
# At 0.6, fresh 14700-014 (olive keeps on a pale plain table, a flash and a lamp, 36°) lost two keeps whose lit roof
# face washed out to the table's cream: their colour a "C" filling 0.52-0.58 of its hull. At 0.45, over 384 photos
# (the samples and ten fresh sets) that photo is exact, and sample 042 carves a light green check's patch (0.55) as
# a keep (its scores already wrong there). No photo's scores read worse (with `corner_towers`, same run); a
# patterned table's patch was carved as a keep in fresh 14200-023 (already wrong), three more keeps found in
# 14100-009.
CARVE_SOLIDITY = 0.45
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
SEAM_MM = 1.5  # half the widest seam between a double keep's bodies that its colour is bridged across
# A face washed out by a lamp's or a flash's glint (a roof face, the ledge where a double's bodies meet) is neither the
# keep's colour nor grey, and crosses the keep: it cuts the colour along the lean by a band far wider than a seam (fresh
# 14500-018: a yellow double under a flash, its upper body and roof cut off by a band 8-10 mm wide on the table plane,
# its lean measured at a single's). Bands up to this wide are bridged along the lean only (`bridged_along`), so
# that nothing of the colour beside the keep's lane is joined to it; what the bridge adds is bounded as the seams'.
# Only parts of the colour of GLARE_PART_SIDES × a keep's side squared or more are bridged (121 mm² for a 22 mm keep):
# a keep's upper body beyond a band (188 mm² there), not a wood table's grain, which comes in specks of its colour
# under 60 mm² and would be strung along a single's lean into a double's (sample 018).
GLARE_BAND_MM = 10.0
GLARE_PART_SIDES = 0.25
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
    # It stands on table of its own colour (`keep_blends.on_its_own_colour`): its colour may run into the table's,
    # so it is weighed as a keep of a colour the table has.
    on_its_colour: bool = False
    # A keep of its colour stands in line ahead, nearer than a double's colour would reach: its colour runs into
    # that keep's, so its length along the lean was cut short and is not measured (`_with_height`).
    lean_cut: bool = False
    # ... though where its colour crossed a gap no single's top reaches to join that keep's, it leans at least this
    # share (a censored measure: the double's top hidden behind the keep ahead, fresh 11700-003).
    lean_at_least: float | None = None
    # Placed from its base (or, behind another keep, from a single's top), not at the centre of its colour carved on
    # the body planes, which a double's top draws out along its lean: not moved back towards the camera as a double
    # (`double_keeps._placed_as_double`).
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
    outlines (`_keep_centres`), and whose calls are surer only on clearer evidence (`double_keeps.decide_doubles`)."""
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
    out = plane.copy()
    count, blobs, stats = _labelled_in_window(plane > 0)
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


def _labelled_in_window(mask: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """`cv2.connectedComponentsWithStats` of a sparse mask (8-connected): the label count, the labels and the
    stats (x, y, w, h, area, in the mask's own pixels), labelling only the window holding the mask's pixels
    (keep colours are sparse; labelling a whole region took ~10 ms, a fifth of a patterned table's reading)."""
    x, y, w, h = cv2.boundingRect(mask.astype(np.uint8))
    labels = np.zeros(mask.shape, np.int32)
    if w == 0 or h == 0:
        return 1, labels, np.zeros((1, 5), np.int32)
    count, labels[y:y + h, x:x + w], stats, _ = cv2.connectedComponentsWithStats(
        mask[y:y + h, x:x + w].astype(np.uint8), connectivity=8)
    stats[1:, 0] += x
    stats[1:, 1] += y
    return count, labels, stats


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


def bridged_along(labels: np.ndarray, region: Region, centre: np.ndarray, u: np.ndarray, band_mm: float,
                  least_mm2: float) -> np.ndarray:
    """A keep colour's blobs (`labels` > 0) of `least_mm2` or more within the keep's window around `centre` (mm),
    bands across its lean `u` up to `band_mm` wide bridged along `u` only, labelled afresh (0 outside the window)."""
    r = int(KEEP_WINDOW_MM * region.px_per_mm)
    cx, cy = region.to_pixels(centre).astype(int)
    y0, x0 = max(0, cy - r), max(0, cx - r)
    _, parts, stats, _ = cv2.connectedComponentsWithStats((labels[y0:cy + r, x0:cx + r] > 0).astype(np.uint8),
                                                          connectivity=8)
    large = stats[:, cv2.CC_STAT_AREA] >= least_mm2 * region.px_per_mm ** 2
    large[0] = False
    window = large[parts].astype(np.uint8)
    half = max(1, round(band_mm / 2 * region.px_per_mm))
    line = np.zeros((2 * half + 1, 2 * half + 1), np.uint8)
    dx, dy = round(float(u[0]) * half), round(float(u[1]) * half)
    cv2.line(line, (half - dx, half - dy), (half + dx, half + dy), 1)
    padded = cv2.copyMakeBorder(window, half, half, half, half, cv2.BORDER_CONSTANT, value=0)
    closed = cv2.morphologyEx(padded, cv2.MORPH_CLOSE, line)[half:-half, half:-half]
    out = np.zeros(labels.shape, np.int32)
    out[y0:y0 + closed.shape[0], x0:x0 + closed.shape[1]] = cv2.connectedComponents(closed, connectivity=8)[1]
    return out


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
    def keep(top: float | None = None, *measured, **flags) -> KeepReading:  # single until `double_keeps.decide_doubles`
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
    side = profile.dimensions.keep_side
    across_band = _blob_extent(bridged_along(bridged, region, centre, u, GLARE_BAND_MM, GLARE_PART_SIDES * side ** 2),
                               region, centre, u, others, side)
    if across_band is not None and extent.along < across_band.along <= extent.along + span + LANE_SLACK_MM:
        extent = across_band
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
    # Measured only: `double_keeps.decide_doubles` weighs this against the other keeps of the colour.
    return keep(float(top), share, span, width_share, width_span, (float(u[0]), float(u[1])))



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


# A keep's centre lies half its side at least from a wall's side or a tower's (it stands beside them, not in them);
# read nearer by more than a position's error, it is no keep standing there (`keeps_in_the_walls`). Keeps stand 16 mm
# and more from a wall's side in every generated truth (4,901 keeps), 11 mm at the least a square keep can.
KEEP_POSITION_ERROR_MM = 3.0


def keeps_in_the_walls(keeps: Sequence[KeepReading], board: Board, dims: PieceDimensions) -> set[int]:
    """The keeps (indices) of `board`'s reading whose centres lie within the walls' or towers' footprints grown by
    half a keep's side (less KEEP_POSITION_ERROR_MM): where no keep can stand."""
    towers = board.tower_map()
    reach = dims.keep_side / 2 - KEEP_POSITION_ERROR_MM
    walls = [board.wall_endpoints(wall, towers) for wall in board.walls]

    def in_a_wall(keep: KeepReading) -> bool:
        point = (keep.x, keep.y)
        return (any(point_segment_distance(point, a, b) < dims.wall_thickness / 2 + reach for a, b in walls)
                or any(math.dist(point, t.position) < dims.tower_radius + reach for t in board.towers))

    return {i for i, keep in enumerate(keeps) if in_a_wall(keep)}
