"""Measuring a user's own piece set from one photo (`tablesight calibrate pieces`).

The photo shows, apart from each other beside the card, one tower, one short wall,
one long wall and one keep of each colour in play. Their footprints are carved out
of the photo like any castle and measured; the colours are read from the card-
normalised pixels.

What the reader needs most is the distance between the centres of two towers a wall
joins. A loose wall is longer than the gap it spans between towers (its ends sit in
the towers' sockets), and a photo widens every piece a little (blur, the shade at its
foot), but a long wall spans two short ones and a tower (`shared/spec/setup.md`), so
the short span is the long wall's length less the short wall's: the sockets and the
widening cancel. A tower's diameter is read across the direction its top leans in
the photo, where its height does not lengthen it; along that direction it reaches its
height times the lean further, which gives its height in a photo tilted enough (the
other heights are scaled with it; less tilted, all keep the starting profile's).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from tablesight.calibration.card_detection import find_card
from tablesight.calibration.pieces import NOMINAL_PROFILE, PieceProfile
from tablesight.vision.castellan.carving import (
    PixelClasses,
    card_mask,
    carve,
    castle_region,
    classify_pixels,
    table_seen_by,
)
from tablesight.vision.castellan.looks import LOOKS, TOWER_TOP_SHARE, WALL_TOP_SHARE, Look
from tablesight.vision.table_view import Region, TableView

LAYOUT = "lay exactly one tower, one short wall and one long wall apart from each other beside the card"
PX_PER_MM = 3.0  # the pieces are carved at this resolution
MIN_PIECE_SHARE = 0.25  # a grey blob smaller than this share of a tower's footprint (the start profile's) is a speck
MAX_FOURTH_SHARE = 0.3  # a fourth grey blob this share of the tower's size or more: more pieces than the three
# A loose wall's ends sit this far (as shares of the tower's diameter) into the towers' sockets, at most;
# and a photo can make them measure a little shorter than they are (the ends' rims blend into the table).
MAX_SOCKET_SHARE, MIN_SOCKET_SHARE = 0.3, -0.08
MIN_SHORT_WALL_SHARE = 1.0  # a short wall is longer than a tower is broad
MIN_ROUNDNESS = 0.75  # a tower is about as wide across its lean as its carving's narrower side
MIN_TOWER_BREADTH = 1.2  # a tower is at least this many times as broad as a wall is thick
MIN_THICKNESS_SHARE = 0.3  # ... and a wall at least this share as thick as a tower is broad
MAX_THICKNESS_DISAGREEMENT = 0.35  # the two walls' widths differ by at most this share: both are seen whole
MAX_GAP_MM = 4.0  # a wall's body is not cut by a narrow stretch shorter than this
MIN_KEEP_SIDE = 0.6  # a keep's carved body is at least this share of the start profile's side across
MAX_KEEP_ELONGATION = 1.4  # ... and square: no longer than this many times its width
LEAN_PROBE_MM = 30.0
# From this lean (mm on the table per mm of height: about 20° of tilt) the tower's height is read from
# how far it reaches along the lean (within ~2 mm on generated photos; less tilted, up to 5 mm short).
MIN_LEAN_FOR_HEIGHT = 0.35  # the height whose lean in the photo gives the direction tops lean in


class PieceMeasureError(ValueError):
    """The photo does not show the pieces needed; the message says what to do."""


@dataclass(frozen=True)
class Blob:
    """One grey piece carved out of the photo, in table mm."""

    length: float  # along the longer side of its smallest enclosing rectangle, over its body (`_body_length`)
    width: float  # its area over that length: its mean width
    breadth: float  # the shorter side of that rectangle
    centre: np.ndarray  # (x, y) in the carving's pixels
    axis: np.ndarray  # unit vector along its length


@dataclass(frozen=True)
class GreyMeasure:
    """The grey pieces measured through one look: loose lengths as seen, the tower across its lean."""

    tower_diameter: float
    short_length: float  # the loose short wall's length, sockets included
    long_length: float
    thickness: float
    tower_height: float | None = None  # read from its lean where the photo is tilted enough

    @property
    def short_span(self) -> float:
        """Between the centres of two towers a short wall joins: the long wall spans two short ones and a
        tower, so this is the long wall's length less the short one's (sockets and widening cancel)."""
        return self.long_length - self.short_length

    @property
    def socket(self) -> float:
        """How far each end of a loose wall reaches past the gap between the towers' surfaces."""
        return (self.short_length + self.tower_diameter - self.short_span) / 2

    def problem(self) -> str | None:
        """Why these measures cannot be one set's pieces, or None if they can."""
        if self.short_length < MIN_SHORT_WALL_SHARE * self.tower_diameter:
            return "the walls look shorter than walls are (one may be hidden or cut off)"
        if not MIN_SOCKET_SHARE <= self.socket / self.tower_diameter <= MAX_SOCKET_SHARE:
            return (f"the long wall ({self.long_length:.0f} mm) is not two short walls "
                    f"({self.short_length:.0f} mm) and a tower ({self.tower_diameter:.0f} mm) long")
        return None

    def dimensions_of(self, start: PieceProfile) -> PieceProfile:
        """`start` with these sizes; its heights scaled to the tower's, if read (in `start`'s proportions:
        one photo shows the tower's height best, standing tallest and round)."""
        span = self.short_span
        if self.tower_height is not None:
            scale = self.tower_height / start.tower_height
            start = replace(start, tower_height=round(self.tower_height, 1),
                            wall_height=round(start.wall_height * scale, 1),
                            keep_height=round(start.keep_height * scale, 1),
                            keep_roof_height=round(start.keep_roof_height * scale, 1))
        # Rounded once, the long wall made of the rounded ones: a long wall spans two short spans exactly (a short
        # wall, a tower and a short wall), where each rounded on its own could be 0.1 mm off it.
        diameter, short = round(self.tower_diameter, 1), round(span - self.tower_diameter, 1)
        return replace(start, dimensions=replace(
            start.dimensions, tower_diameter=diameter, short_wall_length=short,
            long_wall_length=round(2 * short + diameter, 1), wall_thickness=round(self.thickness, 1)))


def measure_pieces(image: np.ndarray, start: PieceProfile = NOMINAL_PROFILE) -> PieceProfile:
    """The profile of the pieces in a calibration photo: sizes from the first way of seeing its colours
    (`LOOKS`, as the reader tries them) that shows three grey pieces fitting together, colours from it."""
    card = find_card(image)
    if card is None:
        raise PieceMeasureError("the reference card was not found in the photo; lay it beside the pieces, whole in "
                                "the frame")
    view = TableView(image, card)
    problems = []
    for look in LOOKS:
        classes = _classes(view, look)
        region = castle_region(view, classes, start, PX_PER_MM, with_keeps=True)
        found = "no grey pieces were found beside the card" if region is None else _grey_measure(
            view, classes, region, look, start)
        if isinstance(found, str):
            problems.append(found)
            continue
        profile = found.dimensions_of(start)
        keep_side, keep_colours = _keeps(view, classes, region, start)
        if keep_side is None:
            raise PieceMeasureError("no keep was found; lay one keep of each colour beside the card")
        return replace(profile, dimensions=replace(profile.dimensions, keep_side=keep_side),
                       grey_bgr=_median_colour(view, classes.grey), keep_bgr=keep_colours)
    raise PieceMeasureError(f"{_most_telling(problems)}; {LAYOUT}")


def _classes(view: TableView, look: Look) -> PixelClasses:
    return classify_pixels(view, table_seen_by(view, look), look=look)


def _grey_measure(view: TableView, classes: PixelClasses, region: Region, look: Look, start: PieceProfile
                  ) -> GreyMeasure | str:
    """The three grey pieces in `region` measured through one look, or why they could not be."""
    solid = carve(view, classes.grey, look.carve_heights(start.wall_height, WALL_TOP_SHARE), region)
    blobs = _blobs(solid & ~card_mask(region), region, MIN_PIECE_SHARE * math.pi * start.dimensions.tower_radius ** 2)
    if len(blobs) < 3:
        return f"found {len(blobs)} grey piece(s)"
    if len(blobs) > 3 and _area(blobs[3]) > MAX_FOURTH_SHARE * min(_area(b) for b in blobs[:3]):
        return f"found {len(blobs)} grey pieces"
    sight = Sight(view, region, look, start)
    tower_planes = look.carve_heights(start.tower_height, TOWER_TOP_SHARE)
    carved = CarvedTowers.of(carve(view, classes.grey, tower_planes, region), tower_planes)
    problems = []
    # In a tilted photo a tower's leaning top lengthens it as much as a short wall: each piece is tried as
    # the tower, and the one that is round (as wide across its lean as its narrower side) is kept.
    for index, tower in enumerate(blobs[:3]):
        short, long_ = sorted((b for i, b in enumerate(blobs[:3]) if i != index), key=lambda b: b.length)
        found = _as_tower(sight, carved, tower, short, long_)
        if isinstance(found, GreyMeasure):
            return found
        problems.append(found)
    return _most_telling(problems)


@dataclass(frozen=True)
class Sight:
    """One look at a calibration photo: the photo through its card, the region of the pieces, the way its
    colours are seen and the profile the measuring starts from."""

    view: TableView
    region: Region
    look: Look
    start: PieceProfile


@dataclass(frozen=True)
class CarvedTowers:
    """The grey carved on planes up a tower's height (a tower stands whole in it), labelled in its connected
    parts (once, for every piece tried as the tower), and those planes."""

    labels: np.ndarray
    planes: list[float]

    @classmethod
    def of(cls, solid: np.ndarray, planes: list[float]) -> CarvedTowers:
        return cls(cv2.connectedComponents(solid.astype(np.uint8), connectivity=8)[1], planes)


def _as_tower(sight: Sight, carved: CarvedTowers, tower: Blob, short: Blob, long_: Blob) -> GreyMeasure | str:
    """The pieces measured with `tower` taken for the tower, or why that cannot be."""
    size = _tower_size(sight, carved, tower)
    if size is None or not MIN_ROUNDNESS <= size[0] / tower.breadth <= 1 / MIN_ROUNDNESS:
        return "none of the grey pieces is round like a tower"
    diameter, height = size
    widths = [_thickness(sight, wall) for wall in (short, long_)]
    if diameter < MIN_TOWER_BREADTH * max(widths):
        return "no grey piece is broad enough for a tower beside the walls"
    if min(widths) < MIN_THICKNESS_SHARE * diameter:
        return "the walls look thinner than walls are (only their tops seen?)"
    if max(widths) - min(widths) > MAX_THICKNESS_DISAGREEMENT * max(widths):
        return "the two walls look of different thickness (one may be in shade or cut off)"
    # The narrower wall: the other has more of its shade taken in.
    measure = GreyMeasure(diameter, short.length, long_.length, min(widths), height)
    return measure.problem() or measure


def _thickness(sight: Sight, wall: Blob) -> float:
    """A wall's mean width less what the carving adds in front of it where the photo is tilted: a point in
    front of the wall stays in the carved solid up to the lowest plane's height times the lean per mm of
    height (the wall's face is behind it along the ray), as far as the lean crosses the wall. (Behind it,
    what is added depends on the wall's own height, which one photo does not give: left in.)"""
    lowest = min(sight.look.carve_heights(sight.start.wall_height, WALL_TOP_SHARE))
    centre = sight.region.to_mm(np.asarray(wall.centre, np.float64))
    lean = _lean(sight.view, centre) / LEAN_PROBE_MM  # mm on the table per mm of height
    across = abs(float(lean @ np.array([-wall.axis[1], wall.axis[0]])))
    return wall.width - lowest * across


def _lean(view: TableView, point: np.ndarray) -> np.ndarray:
    """Where a point LEAN_PROBE_MM above `point` lands on the table in the photo, from `point` (mm)."""
    return view.pose.table_point(view.pose.project(np.array([point]), LEAN_PROBE_MM), 0.0)[0] - point


def _area(blob: Blob) -> float:
    return blob.length * blob.width


def _blobs(solid: np.ndarray, region: Region, min_area_mm2: float) -> list[Blob]:
    """The blobs of a carved solid of at least `min_area_mm2` (smaller ones are specks), largest first."""
    count, labels, stats, centres = cv2.connectedComponentsWithStats(solid.astype(np.uint8), connectivity=8)
    px = region.px_per_mm
    blobs = []
    for label in range(1, count):
        area_mm2 = stats[label, cv2.CC_STAT_AREA] / px ** 2
        if area_mm2 < min_area_mm2:
            continue
        ys, xs = np.nonzero(labels == label)
        points = np.column_stack([xs, ys]).astype(np.float32)
        (_, _), (w, h), angle = cv2.minAreaRect(points)
        along_deg = angle if w >= h else angle + 90.0  # the longer side's direction
        length = _body_length(points, along_deg, MAX_GAP_MM * px) / px
        turn = math.radians(along_deg)
        blobs.append(Blob(float(length), float(area_mm2 / length), (min(w, h) + 1) / px, centres[label],
                          np.array([math.cos(turn), math.sin(turn)])))
    return sorted(blobs, key=lambda b: -_area(b))


def _body_length(points: np.ndarray, angle_deg: float, gap_px: float) -> float:
    """A blob's length (pixels) along `angle_deg`, over the stretch at least half as wide as it mostly is: a thin
    tail (a table's pattern line, a shadow's point) touching one end does not lengthen it; narrow gaps up to
    `gap_px` (between merlons, a glint) do not cut it."""
    axis = np.array([math.cos(math.radians(angle_deg)), math.sin(math.radians(angle_deg))])
    along = np.floor(points @ axis).astype(int)
    widths = np.bincount(along - along.min())
    wide = np.flatnonzero(widths >= 0.5 * np.median(widths[widths > 0]))
    # Runs of wide slices, joined across gaps no longer than gap_px; the longest one is the body.
    breaks = np.flatnonzero(np.diff(wide) > gap_px + 1)
    starts, ends = np.r_[wide[0], wide[breaks + 1]], np.r_[wide[breaks], wide[-1]]
    return float(np.max(ends - starts) + 1)


def _tower_size(sight: Sight, carved: CarvedTowers, tower: Blob) -> tuple[float, float | None] | None:
    """The tower's diameter and, in a photo tilted enough, its height; None if it was not carved.
    Carved on planes up its own height, it is as wide across the direction its top leans in the photo as
    it is (its height does not widen it that way); along the lean, it reaches its diameter and its height
    times the lean per mm of height further, less what the planes leave out (the lowest adds that much in
    front of it, the highest takes that much off its top)."""
    region, planes, labels = sight.region, carved.planes, carved.labels
    x, y = (int(round(v)) for v in tower.centre)
    if not (0 <= y < labels.shape[0] and 0 <= x < labels.shape[1]) or labels[y, x] == 0:
        return None
    ys, xs = np.nonzero(labels == labels[y, x])
    points = region.to_mm(np.column_stack([xs, ys]).astype(np.float64))
    lean = _lean(sight.view, points.mean(axis=0)) / LEAN_PROBE_MM  # mm on the table per mm of height
    slope = float(np.linalg.norm(lean))
    along = lean / slope if slope > 1e-6 else np.array([1.0, 0.0])  # straight above: any direction
    pixel = 1 / region.px_per_mm
    across = points @ np.array([-along[1], along[0]])
    diameter = float(across.max() - across.min() + pixel)
    if slope < MIN_LEAN_FOR_HEIGHT:
        return diameter, None
    reach = points @ along
    return diameter, float((reach.max() - reach.min() + pixel - diameter) / slope - min(planes) + max(planes))


def _keeps(view: TableView, classes: PixelClasses, region: Region, start: PieceProfile
           ) -> tuple[float | None, dict[str, tuple[float, float, float]]]:
    """The keeps' side (median over those found in `region`, None without any) and each colour's, of the
    colours whose keep stands up from the table (carved up its body: a table's tint is no keep)."""
    body = start.keep_height - start.keep_roof_height
    sides, colours = [], {}
    for colour, mask in classes.keeps.items():
        solid = carve(view, mask, [body * 0.3, body * 0.6, body * 0.9], region)
        least = (MIN_KEEP_SIDE * start.dimensions.keep_side) ** 2
        found = [(b.length + b.width) / 2 for b in _blobs(solid, region, least)
                 if b.length <= MAX_KEEP_ELONGATION * b.width]
        if found:
            sides += found
            colours[colour] = _median_colour(view, mask)
    return (round(float(np.median(sides)), 1) if sides else None), colours


def _median_colour(view: TableView, mask: np.ndarray) -> tuple[float, float, float]:
    """Median BGR (as the photo shows it) of the masked pixels."""
    selected = view.image[mask > 0]
    if not len(selected):
        return (128.0, 128.0, 128.0)
    return tuple(float(c) for c in np.median(selected, axis=0))


def _most_telling(problems: list[str]) -> str:
    """Of the reasons given (by each look, each piece tried as the tower), one from the furthest any try got:
    three pieces seen and one of them round, else three seen, else the first."""
    for skipped in (("found", "no grey", "none of the grey pieces is round"), ("found", "no grey")):
        later = [p for p in problems if not p.startswith(skipped)]
        if later:
            return later[0]
    return problems[0]
