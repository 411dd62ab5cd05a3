"""Carving solid pieces out of several rectified planes.

A point (x, y) of the table holds a piece of height H when the rays through (x, y, h)
for every h below H all meet that piece's colour. Rectifying the photo's pixel
classes onto planes at several heights and AND-ing them removes the parts of tall
pieces that merely lean over the table in a tilted view, leaving each piece's
footprint at its true place. (Straight down, the planes coincide and the footprint
is the piece's slightly enlarged top view, which is still at the right place.)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection
from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np

from tablesight.calibration.card import card_outline_mm
from tablesight.calibration.pieces import PieceProfile
from tablesight.vision.castellan.looks import LOOKS, Look
from tablesight.vision.castellan.solid_keeps import solid_keeps
from tablesight.vision.castellan.walls import WallReading
from tablesight.vision.local_contrast import distinct_from_table
from tablesight.vision.mask_holes import filled_holes, hole_pixels
from tablesight.vision.plastic_tint import balanced_on, plastic_tint
from tablesight.vision.segmentation import (
    DEEP_SHADE_STOPS,
    GREY_BINS,
    GREY_TABLE_LIKENESS,
    MAX_GREY_SATURATION,
    MIN_GREY_VALUE,
    MIN_KEEP_SATURATION,
    TABLE_COLOUR_SHARE,
    WHOLE_TABLE_COLOUR_SHARE,
    ColourFeatures,
    TableLight,
    TableModel,
    TableTint,
    colour_features,
    far_darker,
    grey_mask,
    in_keep_hue,
    keep_masks,
    keeps_standing_apart,
    odd_window,
    parts_holding,
    sample_step,
    stands_out,
    steps_from_table_around,
    table_keep_colour,
    table_keep_colours,
    table_likeness,
)
from tablesight.vision.table_view import Region, TableView

KEEP_COLOURS = ("red", "blue", "yellow", "green")
WARP_PAD_PX = 2  # beyond a set pixel, a linear warp still reads it this far
NEAR_CASTLE_MM = 60.0
CUT_WALL_MM = 12.0  # an open wall ending this near the castle's window's border may be cut short by it
CASTLE_PART_SHARE = 0.5  # a part of the castle read apart from the rest holds at least this share of its grey
BROAD_SHARE = 1.5  # grey this many tower diameters across is not a castle piece
PINHOLE_MM2 = 60.0  # enclosed holes smaller than this in a carved solid are filled (a wall is 10 mm thick)
MERLON_GAP_MM = 4.0  # parts of the castle's grey closer than this to it belong to it
# Holes filled in outlined pieces: a tower's top (~450 mm²) is, a courtyard (over 2,500 mm²) is not.
MAX_FILLED_HOLE_MM2 = 1000.0
# A hole in grey plastic this small is a glint or the table's shade on a piece's top, not table: a quarter of a
# tower's top (452 mm²); a keep's top (484 mm²), let alone a courtyard, is far bigger.
GLINT_MM2 = 113.0
MIN_LIT_KEEP_MM2 = 100.0  # a keep's lit top is about 480 mm²: less is a speck, not a keep with shaded sides
# A keep on a table of its colour in part is told by its step from the table around (`distinct_from_table`),
# as is a corner of the pattern's square seen between walls: only most of a keep's top is taken for one.
MIN_APART_KEEP_MM2 = 200.0
# Grey plastic is told from a tinted table by its chromaticity averaged over a patch this wide: narrower than a
# wall's top (10 mm), wider than a camera's colour noise (`blurred_chromaticity`).
TINT_BLUR_MM = 4.0
# Grey blurred into a strongly coloured table (`grey_mixed_into_the_table`): under this share of the least saturated
# table colour within the reach, this far clear of grey seen whole (its blurred rim) and of keeps' colours.
MIXED_GREY_SHARE, MIXED_REACH_MM, MIXED_CLEAR_PX = 0.4, 6.0, 2
# Only a photo part this saturated (as taken) over this share of it can hold such grey (MAX_GREY_SATURATION /
# MIXED_GREY_SHARE = 0.5 in card units; a colour cast moves it a little).
STRONG_COLOUR = (0.4, 0.1)
MIXED_MIN_MM2 = 20.0  # its parts smaller than this are specks, not a wall's stretch
MIXED_ONE_HUE = 0.9  # the table's hues within the reach agree this well (mean resultant length; ~25° spread)
# Table saturated enough for grey mixed into it to stay over MAX_GREY_SATURATION: its hues are the ones weighed.
SATURATED_TABLE = MAX_GREY_SATURATION * 0.5 / MIXED_GREY_SHARE
RIM_MM = 4.0  # a wall's edge blends into the table (blur, JPEG, a phone's sharpening haloes) this far
MIN_BLOB_SHARE_IN_BOTH = 0.5  # a keep-coloured blob is one in the plastic's own balance too if half of it is
# No piece is this wide (a tower, the widest, is about 24 mm; the margin allows for a castle nearer the camera than
# the card, where a mm takes more pixels): grey by colour that a disc this wide fits in is table, lit or tinted
# otherwise than around the card (a flash's pale hotspot on a pink table), or clutter — not plastic.
BROAD_GREY_MM = 60.0
# The table's colours learnt around the card may miss the same table lit otherwise further off (a flash's pale
# hotspot, a second light's tint): grey wider than any piece is that table, and its colours lying next to those
# learnt (`drifted_table_colours`) are the table's elsewhere too, in courtyards too narrow to be seen as broad. Such a
# colour makes up this share of the broad grey at least (not the rim of a piece touching it), next to a colour learnt
# at this density (one bin in a thousand of the table's samples is 1.0). Sampled every few pixels; the card's sheet
# with this margin left out.
DRIFTED_COLOUR_SHARE, DRIFT_LEARNT_DENSITY, DRIFT_SAMPLE_STEP, DRIFT_CARD_MARGIN_MM = 0.05, 1.0, 3, 15.0


@dataclass(frozen=True)
class PixelClasses:
    """Pixel classes of the undistorted photo (uint8 masks, 255 = member)."""

    grey: np.ndarray
    keeps: dict[str, np.ndarray]


def table_seen_by(view: TableView, look: Look) -> TableModel:
    """The table's colours learnt around the card as `look` sees them (once per view and kind of chroma, or for
    a live camera's frames once while its card holds: `TableView.remembered`)."""
    ink = _ink_level(view, look)
    return view.remembered(("table", look.camera_chroma), lambda: TableModel.learn(view, ink))


def _ink_level(view: TableView, look: Look) -> np.ndarray | None:
    """The ink level the look's colour features take chromaticity part way back to (`colour_features`)."""
    return view.ink_level if look.camera_chroma else None


def classify_pixels(view: TableView, table: TableModel, photo: np.ndarray | None = None, look: Look = LOOKS[0],
                    outline_gap_mm: float = 8.0, window: tuple[int, int, int, int] | None = None,
                    keeps: dict[str, np.ndarray] | None = None, keep_side_mm: float | None = None) -> PixelClasses:
    """Pixel classes of the photo as taken (`photo`, distorted) or of the view's undistorted image, seen
    through `look` (`looks.Look`: how shade, tints and dark colours are taken; `table` as `table_seen_by`
    learns it). Grey is grey plastic of a colour the table does not have (no wider than any piece:
    BROAD_GREY_MM; unless the look has `grey_by_colour` off), or grey that steps away from its surroundings
    more than the table's own texture does (a table of the pieces' own colour).
    `outline_gap_mm`: pieces seen only by their outline are filled across gaps up to this width.
    `window` (x0, y0, x1, y1 pixels): only that part is classified, the rest left empty (a photo read again
    where its castle is already known). `keeps`: the keep colours' masks of the photo (as taken), when
    classified already by a look of the same `camera_chroma` (they do not depend on how grey is seen).
    `keep_side_mm`: the keeps' side; given, grey inside a keep's outline is taken for a glint on it and small
    holes in a keep's colour are filled (`solid_keeps`)."""
    ink_level = _ink_level(view, look)
    source = view.image if photo is None else photo
    x0, y0, x1, y1 = window or (0, 0, source.shape[1], source.shape[0])
    feats = _features(view, source, (x0, y0, x1, y1), ink_level)
    mm_per_pixel = view.card.mm_per_pixel()
    table_like, table_hue = _table_likelihoods(table, feats, look)
    grey_feats = _tinted_features(view, source, (x0, y0, x1, y1), feats, table_like, ink_level) \
        if look.own_tint else feats
    light = view.derived(("light", id(source)), lambda: TableLight.fit(view, source))
    to_table = _pixel_to_table(view, distorted=photo is not None, origin=(x0, y0))
    by_colour = (_grey_by_colour(view, source, window, feats, grey_feats, table_like, table, look, light, to_table)
                 if look.grey_by_colour else np.zeros(feats.value.shape, bool))
    by_step = stands_out(grey_feats, table_hue, light, window,
                         DEEP_SHADE_STOPS if look.deep_shade_is_plastic else None) & (feats.value > MIN_GREY_VALUE)
    if look.local_steps:
        by_step |= (steps_from_table_around(grey_feats, light, mm_per_pixel, window, look.steps_around_mm)
                    & (feats.value > MIN_GREY_VALUE))
    if keeps is not None:
        keep_masks_here = {c: m[y0:y1, x0:x1] for c, m in keeps.items()}
        seen_keeps = keep_masks_here
    else:
        keep_colours = _KeepColours.classified(feats, table, mm_per_pixel, grey_feats)
        seen_keeps = keep_colours.masks
    # A keep of the table's own colour is as likely the table's pattern seen in a tower's top.
    tables_colours = keep_colours_of_the_table(view, look)
    in_keeps = np.zeros(feats.value.shape, bool)
    for colour, mask in seen_keeps.items():
        if colour not in tables_colours:
            in_keeps |= mask > 0
    grey = by_colour | solid_outlines(by_step.astype(np.uint8) * 255, mm_per_pixel, outline_gap_mm, to_table,
                                      keeps=in_keeps)
    if keeps is None:
        whole = keep_colours_of_the_table(view, look, WHOLE_TABLE_COLOUR_SHARE)
        keep_masks_here = {c: m.astype(np.uint8) * 255 for c, m in
                           keep_colours.finished(_WholeColour(whole[0], grey) if whole else None).items()}
    if keep_side_mm is not None:
        # Not the table's own keep colours: its patches' grain would make keeps of them (red keeps on a red cloth).
        grey, keep_masks_here = solid_keeps(grey, keep_masks_here, keep_side_mm / mm_per_pixel, tables_colours)
    classes = PixelClasses(grey, keep_masks_here)
    return classes if window is None else _placed(classes, window, source.shape[:2])


def glints_filled(grey: np.ndarray, keeps: np.ndarray, to_table: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """The grey mask (uint8) with its enclosed holes under GLINT_MM2 on the table (`to_table`: pixels → table mm)
    filled, but for a keep's colour in them (`keeps`, bool): a tower's top lit to the table's own shade in its
    middle, its rim grey all round, is still a tower's top (fresh 13800-023: a pale tower on a cream table, its top
    a ring, the tower at a wall's open end missed). Measured on the table, not at the card's scale: a castle a
    metre beyond the card is seen at a fraction of it, and there a courtyard's corner looks no bigger."""
    contours, hierarchy = cv2.findContours((grey > 0).astype(np.uint8), cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return grey

    def area_mm2(contour: np.ndarray) -> float:  # the hole's own pixels, at the table's scale around it
        return hole_pixels(contour) * _contour_on_table(contour, to_table) / max(cv2.contourArea(contour), 1.0)

    holes = [c for c, h in zip(contours, hierarchy[0], strict=True) if h[3] >= 0 and area_mm2(c) < GLINT_MM2]
    filled = np.zeros(grey.shape, np.uint8)
    cv2.drawContours(filled, holes, -1, 1, cv2.FILLED)
    return np.where((filled > 0) & ~keeps, 255, grey).astype(np.uint8)


def undistorted_to_table(view: TableView) -> Callable[[np.ndarray], np.ndarray]:
    """Pixels of the view's undistorted image → table mm."""
    return _pixel_to_table(view, distorted=False)


def _grey_by_colour(view: TableView, source: np.ndarray, window: tuple[int, int, int, int] | None,
                    feats: ColourFeatures, grey_feats: ColourFeatures, table_like: np.ndarray, table: TableModel,
                    look: Look, light: TableLight, to_table: Callable) -> np.ndarray:
    """Grey plastic told by its colour: unsaturated and of a colour the table lacks (or, as `look` has it, nearer
    grey than the tinted table, or far darker than the table's light), no wider than any piece. `feats` are of
    `source`'s `window`, as in `classify_pixels`."""
    x0, y0, x1, y1 = window or (0, 0, source.shape[1], source.shape[0])
    mm_per_pixel = view.card.mm_per_pixel()
    by_colour = grey_mask(grey_feats, table_like, max_saturation=look.grey_saturation, dark_sides=look.dark_sides)
    if look.nearer_grey:
        blur_px = 2 * int(round(TINT_BLUR_MM / 2 / mm_per_pixel)) + 1
        tint = view.derived(("tint", id(source)), lambda: TableTint.fit(view, source, blur_px))
        by_colour |= (tint.nearer_grey(view.normalised(source[y0:y1, x0:x1]))
                      & (feats.saturation < look.grey_saturation) & (feats.value > MIN_GREY_VALUE))
    if look.darkest_sides:
        by_colour |= far_darker(feats, light, window)
    return _no_wider_than_pieces(by_colour, feats.chroma_key, table, mm_per_pixel, to_table)


def grey_mixed_into_the_table(view: TableView, look: Look, classes: PixelClasses, reach_mm: float) -> np.ndarray | None:
    """The grey of `classes` (the view's, through `look`) and grey blurred into a strongly coloured table, within
    `reach_mm` of the grey seen: a thin wall whose colour a phone's chroma smoothing mixed with the table's beside
    it stays well under that table's saturation, though over MAX_GREY_SATURATION (fresh 10700-018: open long walls
    on orange wood at 0.2–0.3 against the table's 0.82, lost). Not the rim of grey seen whole, nor a keep's outline
    (a blue keep blurred into orange wood is as grey): those would fatten walls and keeps. A uint8 mask (255 =
    grey), or None where no such grey is found."""
    seen = classes.grey > 0
    mm_per_pixel = view.card.mm_per_pixel()
    window = _around(seen, reach_mm / mm_per_pixel)
    if window is None:
        return None
    x0, y0, x1, y1 = window
    if not _strongly_coloured(view.image[y0:y1, x0:x1]):
        return None
    feats = _features(view, view.image, window, _ink_level(view, look))
    table_like, _ = _table_likelihoods(table_seen_by(view, look), feats, look)
    mixed = mixed_with_the_table(feats, table_like, mm_per_pixel)
    kept_off = _wide(seen[y0:y1, x0:x1], MIXED_CLEAR_PX)
    for keep_colour in classes.keeps.values():
        kept_off |= keep_colour[y0:y1, x0:x1] > 0
    mixed &= ~_near(kept_off, MIXED_CLEAR_PX)
    # Closed as the grey by colour is (a thin wall's mixed core comes in dashes), on its own: closed with the grey
    # seen, an open wall's end joined a pattern's border (sample 010: read on along it, long).
    mixed = _closed(mixed.astype(np.uint8) * 255, MERLON_GAP_MM / mm_per_pixel) > 0
    # Specks of it at a wall's end (a stripe's border's blend) are no wall: a stretch of one is some mm² at least.
    mixed = parts_holding(mixed, mixed, math.ceil(MIXED_MIN_MM2 / mm_per_pixel ** 2))
    if not mixed.any():
        return None
    grey = seen.copy()
    grey[y0:y1, x0:x1] |= mixed
    return grey.astype(np.uint8) * 255


def _table_likelihoods(table: TableModel, feats: ColourFeatures, look: Look) -> tuple[np.ndarray, np.ndarray]:
    """How like the table each pixel is, and how like its hue alone (taken in shade where the look takes
    shadows for table, and then table-like enough by hue alone)."""
    table_like = table.likelihood(feats)
    table_hue = table.hue_likelihood(feats, shaded=look.shadows_are_table)
    if look.shadows_are_table:
        table_like = np.maximum(table_like, table_hue)
    return table_like, table_hue


def _strongly_coloured(image: np.ndarray) -> bool:
    """Whether a share of the photo's part (a quarter of it, as taken) is saturated enough for grey mixed into it
    to stay over the plastic's limit: cheap, before its colour features are worked out."""
    small = cv2.resize(image, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA).astype(np.float32)
    high, low = small.max(axis=2), small.min(axis=2)
    saturation = (high - low) / np.maximum(high, 1.0)
    return float(np.mean(saturation > STRONG_COLOUR[0])) >= STRONG_COLOUR[1]


def _around(mask: np.ndarray, margin_px: float) -> tuple[int, int, int, int] | None:
    """The mask's bounding box grown by `margin_px` (x0, y0, x1, y1, within the image), None if it is empty."""
    points = cv2.findNonZero(mask.astype(np.uint8))
    if points is None:
        return None
    x, y, w, h = cv2.boundingRect(points)
    m = int(math.ceil(margin_px))
    return max(x - m, 0), max(y - m, 0), min(x + w + m, mask.shape[1]), min(y + h + m, mask.shape[0])


def mixed_with_the_table(feats: ColourFeatures, table_like: np.ndarray, mm_per_pixel: float) -> np.ndarray:
    """Pixels under MIXED_GREY_SHARE of the least saturated table colour within MIXED_REACH_MM (a pale stripe's
    border with a green one is such a mix too), of a colour unlike the table's, with table that near, all of it
    of one hue: where two of a pattern's colours of far apart hues meet (magenta and green stripes), their blend
    is as grey (sample 010: open short walls run on along a stripe's border, read long)."""
    table = table_like >= GREY_TABLE_LIKENESS
    size = 2 * int(round(MIXED_REACH_MM / mm_per_pixel)) + 1
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    least = cv2.erode(np.where(table, feats.saturation, 1.0).astype(np.float32), kernel)
    saturated = table & (feats.saturation > SATURATED_TABLE)
    weight = cv2.blur(saturated.astype(np.float32), (size, size))
    angle = feats.hue.astype(np.float32) * np.float32(np.pi / 90.0)  # OpenCV hue 0–180 around the circle
    cos = cv2.blur(np.where(saturated, np.cos(angle), 0).astype(np.float32), (size, size))
    sin = cv2.blur(np.where(saturated, np.sin(angle), 0).astype(np.float32), (size, size))
    one_hue = np.hypot(cos, sin) > MIXED_ONE_HUE * weight
    return (one_hue & (weight > 0) & ~table & (feats.saturation < MIXED_GREY_SHARE * least)
            & (feats.value > MIN_GREY_VALUE))


def _wide(mask: np.ndarray, reach_px: int) -> np.ndarray:
    """The parts of a mask more than 2 × reach_px + 1 pixels across."""
    return cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN, disc(reach_px)) > 0


def _near(mask: np.ndarray, reach_px: int) -> np.ndarray:
    """The pixels within reach_px of the mask."""
    return cv2.dilate(mask.astype(np.uint8), disc(reach_px)) > 0


def disc(reach_px: int) -> np.ndarray:
    """A disc-shaped structuring element reaching `reach_px` pixels from its centre."""
    size = odd_window(2 * reach_px + 1)
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))


def _features(view: TableView, source: np.ndarray, window: tuple[int, int, int, int],
              ink_level: np.ndarray | None) -> ColourFeatures:
    """The colour features of the photo's `window` (x0, y0, x1, y1), worked out once for every look: they
    depend on the photo and the card alone (`TableView.derived`)."""
    x0, y0, x1, y1 = window
    ink_key = None if ink_level is None else np.asarray(ink_level).tobytes()
    return view.derived(("features", id(source), ink_key, window),
                        lambda: colour_features(view.normalised(source[y0:y1, x0:x1]), ink_level))


def _tinted_features(view: TableView, source: np.ndarray, window: tuple[int, int, int, int], feats: ColourFeatures,
                     table_like: np.ndarray, ink_level: np.ndarray | None) -> ColourFeatures:
    """The colour features of the photo's `window` balanced on its plastic's own tint at each brightness
    (`plastic_tint`), or `feats` as they are where the tint cannot be told."""
    x0, y0, x1, y1 = window
    normalised = view.normalised(source[y0:y1, x0:x1])
    corners = view.card.table_to_image(card_outline_mm()) - [x0, y0]
    tint = plastic_tint(normalised, feats.saturation, feats.value, table_like < GREY_TABLE_LIKENESS, corners)
    if tint is None:
        return feats
    return colour_features(balanced_on(normalised, tint), ink_level)


@dataclass(frozen=True)
class _WholeColour:
    """The keep colour a table has nearly all over (a red cloth), and the grey plastic read on it (uint8 mask)."""

    colour: str
    grey: np.ndarray


@dataclass(frozen=True)
class _KeepColours:
    """Each keep colour's pixels as first classified (`classified`), and the same in the photo balanced on its
    plastic's own tint (`also`, None without that balance), before they are `finished`."""

    masks: dict[str, np.ndarray]  # bool, each keep colour
    also: dict[str, np.ndarray] | None
    mm_per_pixel: float
    least: int  # pixels a keep's lit top holds at least (MIN_LIT_KEEP_MM2)

    @classmethod
    def classified(cls, feats: ColourFeatures, table: TableModel, mm_per_pixel: float,
                   balanced: ColourFeatures | None = None) -> _KeepColours:
        """Each keep colour's pixels (see `keep_masks`), tested against the table near each pixel: a tablecloth's
        colour borders are table too. A keep of the colour the table has all over (green on green felt) is not
        among them: the pixels stepping away from the table around them (`distinct_from_table`) are as often the
        cloth's own mottling between the walls, whose light differs from the open table's (photos straight from
        above showed 13–36 such keeps on red cloth). Such keeps are looked for where the rules ask for one
        (`reader`: the courtyards no keep claims). `balanced`: the photo balanced on its plastic's own tint."""
        tables = _KeepTables(feats, table, mm_per_pixel)
        least = int(MIN_LIT_KEEP_MM2 / mm_per_pixel ** 2)
        masks = keep_masks(feats, tables.like, tables.shaded_like, least)
        also = None if balanced is None or balanced is feats else \
            keep_masks(balanced, tables.like, tables.shaded_like, least)
        return cls(masks, also, mm_per_pixel, least)

    def finished(self, whole: _WholeColour | None = None) -> dict[str, np.ndarray]:
        """The keep colours' pixels: of the colour the table has all over (`whole`), the pixels unlike the table
        learnt around the card kept only in blobs lit clear of the grey pieces' rims (`_clear_of_rims`); with the
        balance on the plastic's tint, only the blobs of the colour in that balance too (`_blobs_mostly_in`): a
        phone's tone curve on a castle under a warm lamp leaves the plastic's shaded sides tan where the card's
        white is balanced, a keep's yellow in card units, and plastic once its own tint is taken out; a keep is of
        its colour either way."""
        masks = dict(self.masks)
        if whole is not None:
            masks[whole.colour] = _clear_of_rims(masks[whole.colour], whole.grey, self.mm_per_pixel, self.least)
        if self.also is None:
            return masks
        return {colour: _blobs_mostly_in(mask, self.also[colour]) for colour, mask in masks.items()}


def _clear_of_rims(mask: np.ndarray, grey: np.ndarray, mm_per_pixel: float, least: int) -> np.ndarray:
    """The parts of `mask` (bool) at least RIM_MM from the `grey` plastic (uint8 mask) that hold `least` pixels,
    with the rest of `mask` within RIM_MM of them. A photo blends a wall's edge into the table, and a phone's
    sharpening haloes it: on a cloth of a keep's colour the rim along every wall is of the keep's hue, yet unlike
    the cloth (fresh 6969-022: on a red cloth the rims between the walls carved into 28 red keeps where none
    stand). A keep's top, 22 mm across, lies mostly clear of them; its edges by a wall are taken back."""
    rim_px = RIM_MM / mm_per_pixel
    far = mask & (cv2.distanceTransform(np.where(grey > 0, 0, 255).astype(np.uint8), cv2.DIST_L2, 3) > rim_px)
    cores = parts_holding(far, far, least).astype(np.uint8)
    reach = 2 * int(math.ceil(rim_px)) + 1
    return mask & (cv2.dilate(cores, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach))) > 0)


def _blobs_mostly_in(mask: np.ndarray, other: np.ndarray) -> np.ndarray:
    """The blobs of `mask` at least MIN_BLOB_SHARE_IN_BOTH of whose pixels `other` has too, each whole: which
    blobs are keeps is told in both balances, but a keep's outline, whose lean and area tell a double from a
    single, is the card balance's, where that evidence was measured (cut to the pixels of both, a lone yellow
    keep seen from 7° leaned as far as a double's: fresh 9999-012)."""
    count, labels = cv2.connectedComponents(mask.astype(np.uint8), connectivity=8)
    if count <= 1:
        return mask
    pixels = np.bincount(labels.ravel(), minlength=count)
    shared = np.bincount(labels[other], minlength=count)
    kept = shared >= MIN_BLOB_SHARE_IN_BOTH * np.maximum(pixels, 1)
    kept[0] = False
    return kept[labels]


def keep_colours_of_the_table(view: TableView, look: Look, share: float = TABLE_COLOUR_SHARE) -> tuple[str, ...]:
    """The keep colours the table has, all over (a red felt) or in part (the red of a red and green check,
    `share` of it at least), as `look` sees the photo: where a keep of such a colour may hide.
    A share of the table, not where it lies: counted over a sample of the photo (`sample_step`), classified once
    for every share asked."""
    def sampled() -> tuple[ColourFeatures, np.ndarray]:
        step = sample_step(view.photo.shape)
        sample = np.ascontiguousarray(view.photo[::step, ::step])
        feats = colour_features(view.normalised(sample), _ink_level(view, look))
        return feats, table_likeness(feats, table_seen_by(view, look), 1)

    def colours() -> tuple[str, ...]:
        feats, like = view.derived(("table keep colour sample", look.camera_chroma), sampled)
        return tuple(table_keep_colours(feats, like, share))
    return view.derived(("table keep colours", look.camera_chroma, share), colours)


def keeps_apart(view: TableView, look: Look, keeps: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """For the keep colours a table has in part (the red of a red and green check), their pixels standing apart
    from the table around them and from the keeps seen as usual (`keeps`: the photo's keep masks as taken),
    in the view's undistorted image (`keeps_standing_apart`; uint8 masks, 255 = member). Weaker evidence
    than the keep masks: worked out only where the rules ask for a keep, from the whole photo as taken."""
    photo = view.photo
    feats = _features(view, photo, (0, 0, photo.shape[1], photo.shape[0]), _ink_level(view, look))
    mm_per_pixel = view.card.mm_per_pixel()
    tables = _KeepTables(feats, table_seen_by(view, look), mm_per_pixel)
    whole = table_keep_colour(feats, tables.like)
    in_part = [colour for colour in table_keep_colours(feats, tables.like) if colour != whole]
    if not in_part:  # most tables
        return {}
    # A keep's top is one patch: its pixels told apart from the table are joined across the gaps between them.
    steps = {colour: _closed(tables.distinct(photo, colour).astype(np.uint8), MERLON_GAP_MM / mm_per_pixel) > 0
             for colour in in_part}
    apart = keeps_standing_apart(feats, keeps, steps, tables.shaded_like,
                                 int(MIN_APART_KEEP_MM2 / mm_per_pixel ** 2))
    return {c: view.undistort(m.astype(np.uint8) * 255, nearest=True) for c, m in apart.items()}


class _KeepTables:
    """How like the table (and the table in shade) each pixel is, for keeps: tested against the table near each
    pixel, and where a keep colour the table has steps away from the table around (`distinct_from_table`)."""

    def __init__(self, feats: ColourFeatures, table: TableModel, mm_per_pixel: float) -> None:
        self.feats, self.table, self.mm_per_pixel = feats, table, mm_per_pixel
        self.reach = max(1, int(round(1.5 / mm_per_pixel)))
        self.like = table_likeness(feats, table, self.reach)

    @cached_property
    def shaded_like(self) -> np.ndarray:
        return table_likeness(self.feats, self.table, self.reach, shaded=True)

    def distinct(self, photo: np.ndarray, colour: str) -> np.ndarray:
        of_hue = (self.feats.saturation > MIN_KEEP_SATURATION) & in_keep_hue(self.feats.hue, colour)
        grey = self.feats.saturation < MAX_GREY_SATURATION
        return distinct_from_table(photo, self.like >= 0.5, of_hue, grey, self.mm_per_pixel)


def _placed(part: PixelClasses, window: tuple[int, int, int, int], shape: tuple[int, int]) -> PixelClasses:
    """Classes of a window of the photo, put in place in masks of the whole photo."""
    x0, y0, x1, y1 = window

    def whole(mask: np.ndarray) -> np.ndarray:
        out = np.zeros(shape, np.uint8)
        out[y0:y1, x0:x1] = mask
        return out

    return PixelClasses(whole(part.grey), {c: whole(m) for c, m in part.keeps.items()})


def solid_outlines(grey: np.ndarray, mm_per_pixel: float, gap_mm: float,
                   to_table: Callable[[np.ndarray], np.ndarray] | None = None,
                   keeps: np.ndarray | None = None) -> np.ndarray:
    """Fill pieces seen only by their outlines. A wall whose top is the table's own brightness shows
    as its two shaded edges, a tower as a ring: the gap between edges (under `gap_mm`, about a wall's
    thickness) is closed and small enclosed holes (a tower's top) are filled. Solid pieces are left as
    they are; courtyards are far wider than the gap. `to_table` (pixels → table mm; the card's scale
    if not given) measures each hole on the table: far from the card in a tilted photo a courtyard
    looks no bigger than a tower top near it. `keeps` (bool, the photo's keep colours): a hole holding a keep's
    lit top (MIN_LIT_KEEP_MM2) is a courtyard, however little of it the walls' lean and their shadows leave in
    view (fresh 12500-026, 24° under daylight and a lamp: courtyards with keeps came out 700–900 mm², were
    filled as tower tops, and half the castle was carved into one blob)."""
    # First join the merlons of crenellated tops (gaps of about 4 mm), then drop specks (table
    # texture, noise) so that closing the wider gap does not bridge them into a fake solid.
    grey = _closed(grey, MERLON_GAP_MM / mm_per_pixel)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(grey, connectivity=8)
    small = stats[:, cv2.CC_STAT_AREA] < (gap_mm / mm_per_pixel) ** 2
    small[0] = False
    grey[small[labels]] = 0
    closed = _closed(grey, gap_mm / mm_per_pixel)
    contours, hierarchy = cv2.findContours(closed, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return closed
    if to_table is None:  # the photo at the card's scale everywhere

        def to_table(pixels: np.ndarray) -> np.ndarray:
            return pixels * mm_per_pixel

    def hole_area(contour: np.ndarray) -> float:
        return _contour_on_table(contour, to_table)

    holes = [c for c, h in zip(contours, hierarchy[0], strict=True) if h[3] >= 0 and hole_area(c) < MAX_FILLED_HOLE_MM2]
    if keeps is not None:
        holes = [c for c in holes if _keep_held(c, keeps, hole_area(c)) < MIN_LIT_KEEP_MM2]
    cv2.drawContours(closed, holes, -1, 255, cv2.FILLED)
    return closed


def _contour_on_table(contour: np.ndarray, to_table: Callable[[np.ndarray], np.ndarray]) -> float:
    """The area (mm²) a contour of pixels encloses once mapped onto the table (`to_table`: pixels → table mm)."""
    return cv2.contourArea(to_table(contour.reshape(-1, 2).astype(np.float64)).astype(np.float32))


def _keep_held(hole: np.ndarray, keeps: np.ndarray, hole_mm2: float) -> float:
    """How much of the `keeps` mask (bool) a hole's contour (pixels) holds, in mm² at the hole's own scale
    (`hole_mm2`, its area on the table)."""
    x, y, w, h = cv2.boundingRect(hole)
    inside = np.zeros((h, w), np.uint8)
    cv2.drawContours(inside, [hole], -1, 1, cv2.FILLED, offset=(-x, -y))
    held = int(np.count_nonzero(keeps[y:y + h, x:x + w] & (inside > 0)))
    return held * hole_mm2 / max(float(np.count_nonzero(inside)), 1.0)


def _pixel_to_table(view: TableView, distorted: bool, origin: tuple[int, int] = (0, 0)
                    ) -> Callable[[np.ndarray], np.ndarray]:
    """Pixels of the photo as taken (`distorted`) or of the view's undistorted image → table mm;
    `origin`: where the pixels' (0, 0) is in that photo (a window of it)."""
    shift = np.asarray(origin, np.float64)
    if distorted:
        return lambda pixels: view.pose.table_point(pixels + shift, 0.0)
    inverse = np.linalg.inv(view.plane_homography(0.0))
    return lambda pixels: cv2.perspectiveTransform((pixels + shift).reshape(-1, 1, 2), inverse).reshape(-1, 2)


def _no_wider_than_pieces(by_colour: np.ndarray, keys: np.ndarray, table: TableModel, mm_per_pixel: float,
                          to_table: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """Grey by colour (bool; `keys` its pixels' colours, `ColourFeatures.chroma_key`) closed across the merlons'
    gaps, less grey wider than any piece (BROAD_GREY_MM) and, anywhere, less the colours of such grey that lie
    next to the table's learnt ones (`drifted_table_colours`): a uint8 mask (255 = grey)."""
    def closed_and_narrow(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        closed = _closed(mask.astype(np.uint8) * 255, MERLON_GAP_MM / mm_per_pixel)
        return closed, without_broad(closed, BROAD_GREY_MM / mm_per_pixel)

    closed, narrow = closed_and_narrow(by_colour)
    drifted = drifted_table_colours(keys, by_colour & (narrow == 0) & (closed > 0), table, to_table)
    if not drifted.size:
        return narrow
    # Over patches, not along a piece's edge, where grey plastic blends into the table and may take that colour.
    patches = _wide(np.isin(keys, drifted), int(RIM_MM / mm_per_pixel))
    return closed_and_narrow(by_colour & ~patches)[1]


def drifted_table_colours(keys: np.ndarray, broad: np.ndarray, table: TableModel,
                          to_table: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """The colours (`ColourFeatures.chroma_key`) making up DRIFTED_COLOUR_SHARE or more of the `broad` grey (wider
    than any piece; off the card's sheet: paper is no table colour) that lie within a bin of a colour learnt as the
    table's (in each chromaticity share and in brightness): the same table, lit otherwise than around the card. Only
    next to a coloured table's colours: a table colour in grey's own chromaticity bins (GREY_BINS) is the plastic's
    but for its brightness, and a bin brighter or darker is the plastic's lit tops or shaded sides."""
    ys, xs = np.nonzero(broad[::DRIFT_SAMPLE_STEP, ::DRIFT_SAMPLE_STEP])
    if not len(xs):
        return np.empty(0, np.int64)
    points = to_table(np.column_stack([xs, ys]).astype(np.float64) * DRIFT_SAMPLE_STEP)
    outline = card_outline_mm()
    low, high = outline.min(axis=0) - DRIFT_CARD_MARGIN_MM, outline.max(axis=0) + DRIFT_CARD_MARGIN_MM
    off_card = ~np.all((points >= low) & (points <= high), axis=1)
    colours, counts = np.unique(keys[::DRIFT_SAMPLE_STEP, ::DRIFT_SAMPLE_STEP][ys, xs][off_card], return_counts=True)
    learnt = table.histogram.copy()
    # Not from a grey table's colours: those are the plastic's own chromaticity, told from it by brightness alone.
    learnt[np.ix_(GREY_BINS, GREY_BINS)] = 0.0
    bins = learnt.shape
    drifted = []
    for colour in colours[counts >= DRIFTED_COLOUR_SHARE * max(int(off_card.sum()), 1)]:
        r, g, v = np.unravel_index(int(colour), bins)
        if learnt[max(r - 1, 0):r + 2, max(g - 1, 0):g + 2, max(v - 1, 0):v + 2].max() >= DRIFT_LEARNT_DENSITY:
            drifted.append(int(colour))
    return np.array(drifted, np.int64)


def without_broad(mask: np.ndarray, width_px: float) -> np.ndarray:
    """`mask` (uint8, 255 = set) less every disc `width_px` across that fits wholly inside it: what `_wide` opens,
    worked out by two distance transforms, which cost the same at any width (`_wide`'s kernel grows with it)."""
    radius = width_px / 2
    inside = cv2.distanceTransform((mask > 0).astype(np.uint8), cv2.DIST_L2, 5)
    cores = (inside >= radius).astype(np.uint8)
    if not cores.any():
        return mask
    broad = cv2.distanceTransform(1 - cores, cv2.DIST_L2, 5) <= radius
    out = mask.copy()
    out[broad] = 0
    return out


def _closed(mask: np.ndarray, size_px: float) -> np.ndarray:
    size = max(3, int(round(size_px)) | 1)
    return cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size)))


def keep_coloured(classes: PixelClasses, leaving_out: Collection[str] = ()) -> np.ndarray:
    """Where the photo shows any keep colour but those `leaving_out` (bool): a keep in front hides what is behind
    it."""
    hidden = np.zeros(classes.grey.shape, bool)
    for colour, mask in classes.keeps.items():
        if colour not in leaving_out:
            hidden |= mask > 0
    return hidden


def keep_label_image(classes: PixelClasses, colours: list[str]) -> np.ndarray:
    """The keep masks of `colours` as one label image (0 none, i the i-th colour): keep colours never
    overlap, so one warp or remap of it serves them all."""
    labels = np.zeros(classes.grey.shape, np.uint8)
    for index, colour in enumerate(colours, start=1):
        labels[classes.keeps[colour] > 0] = index
    return labels


def undistorted_classes(view: TableView, raw: PixelClasses) -> PixelClasses:
    """Classes found on the photo as taken, brought into the view's undistorted image: the colour work is
    done once per photo even when the lens is refined and the photo read again."""
    colours = list(raw.keeps)
    labels = view.undistort(keep_label_image(raw, colours), nearest=True)  # one remap serves every colour
    keeps = {c: (labels == index).astype(np.uint8) * 255 for index, c in enumerate(colours, start=1)}
    return PixelClasses(view.undistort(raw.grey, nearest=True), keeps)


def warp_mask(view: TableView, mask: np.ndarray, height: float, region: Region) -> np.ndarray:
    warp = view.plane_homography(height) @ region.pixel_to_mm_matrix()
    return warped_where_set(mask, warp, region.size, cv2.INTER_LINEAR) > 127


def warp_labels(view: TableView, labels: np.ndarray, height: float, region: Region) -> np.ndarray:
    """A label image (uint8) of the undistorted photo, seen on the plane at `height` over `region`."""
    warp = view.plane_homography(height) @ region.pixel_to_mm_matrix()
    return warped_where_set(labels, warp, region.size, cv2.INTER_NEAREST)


def warped_where_set(image: np.ndarray, warp: np.ndarray, size: tuple[int, int], interpolation: int) -> np.ndarray:
    """`cv2.warpPerspective(image, warp, size, interpolation | WARP_INVERSE_MAP)` of a single-channel uint8
    image that is mostly 0 (a mask, a label image), worked out only over the output window its set
    pixels can land in: the same result, several times faster for a few keeps' pixels in a big photo."""
    flags = interpolation | cv2.WARP_INVERSE_MAP
    x, y, w, h = cv2.boundingRect(image)
    if w == 0 or h == 0:
        return np.zeros(size[::-1], image.dtype)
    pad = WARP_PAD_PX
    corners = np.array([[x - pad, y - pad, 1], [x + w + pad, y - pad, 1], [x + w + pad, y + h + pad, 1],
                        [x - pad, y + h + pad, 1]], np.float64)
    landing = np.linalg.solve(warp, corners.T)  # the window (image pixels) on the output's pixels
    if np.any(landing[2] <= 0):  # part of it beyond the horizon: no window to speak of
        return cv2.warpPerspective(image, warp, size, flags=flags)
    landing = landing[:2] / landing[2]
    x0, y0 = np.maximum(np.floor(landing.min(axis=1)).astype(int) - 1, 0)
    x1, y1 = np.minimum(np.ceil(landing.max(axis=1)).astype(int) + 2, size)
    out = np.zeros(size[::-1], image.dtype)
    if x1 > x0 and y1 > y0:
        shift = np.array([[1.0, 0, x0], [0, 1, y0], [0, 0, 1]])
        out[y0:y1, x0:x1] = cv2.warpPerspective(image, warp @ shift, (int(x1 - x0), int(y1 - y0)), flags=flags)
    return out


def carve(view: TableView, mask: np.ndarray, heights: list[float], region: Region) -> np.ndarray:
    solid = None
    for h in heights:
        plane = warp_mask(view, mask, h, region)
        solid = plane if solid is None else solid & plane
    return filled_pinholes(solid, region)


def carve_past_keeps(view: TableView, mask: np.ndarray, in_front: np.ndarray, heights: list[float],
                     region: Region) -> np.ndarray:
    """`carve`, but on the lowest plane (the first of `heights`) a pixel of `in_front` (a keep's colour) counts as
    `mask` too: a keep standing between the camera and a wall hides the wall's lowest part, not its upper part
    (fresh 13500-029: a blue double in front of a corner hid its walls' lowest part; carved away there, both
    walls and the corner's tower were lost, and blue scored 20 for 32). The planes above must be `mask` itself: a
    keep alone carves nothing, and the planes higher up still tell a wall from its shadow or the table (taken on
    every plane but the top, fresh 12500-016 read an open long wall short, and by the box's count joined two open
    short walls across a gap as a long one). Over
    416 photos (the samples and eleven fresh sets): scores exact +1, boards exact +2 −1 (13700-027, two towers
    placed off, its scores still right); the photos read worse were all wrong already."""
    solid = warp_mask(view, mask, heights[0], region) | warp_mask(view, in_front, heights[0], region)
    for h in heights[1:]:
        solid &= warp_mask(view, mask, h, region)
    return filled_pinholes(solid, region)


def filled_pinholes(solid: np.ndarray, region: Region) -> np.ndarray:
    """The solid with its enclosed holes smaller than PINHOLE_MM2 filled: a crenel's shaded gap or a
    speck of glare on a piece's top is no hole in the piece (courtyards and keeps are far bigger)."""
    return filled_holes(solid, PINHOLE_MM2 * region.px_per_mm ** 2)


def card_mask(region: Region, margin_mm: float = 12.0, seen: bool = True) -> np.ndarray:
    """The card's sheet (and a margin) on a region: never castle, however grey it looks. Nothing for a
    stand-in for a card not `seen`."""
    mask = np.zeros(region.size[::-1], np.uint8)
    if not seen:
        return mask > 0
    outline = card_outline_mm()
    grown = outline + np.sign(outline - outline.mean(axis=0)) * margin_mm
    cv2.fillConvexPoly(mask, np.round(region.to_pixels(grown)).astype(np.int32), 1)
    return mask > 0


def castle_region(view: TableView, classes: PixelClasses, profile: PieceProfile,
                  px_per_mm: float, with_keeps: bool = False) -> Region | None:
    """The window of table holding the grey pieces (and the keeps, if asked), not the card; or None."""
    extent = view.table_extent()
    coarse = Region(*extent, 0.5)
    # Grey pieces only: keeps stand inside courtyards, and a colourful tablecloth must not widen the window.
    pieces = carve(view, classes.grey, [0.0, profile.wall_height * 0.4, profile.wall_height * 0.8], coarse)
    if with_keeps:
        for mask in classes.keeps.values():
            pieces |= carve(view, mask, [0.0, profile.keep_height * 0.4], coarse)
    pieces &= ~card_mask(coarse, seen=view.card.seen)
    found = _castle_box(pieces.astype(np.uint8), profile, coarse, all_parts=with_keeps)
    if found is None:
        return None
    x0, y0, x1, y1 = found
    lo = coarse.to_mm(np.array([x0, y0])) - 40
    hi = coarse.to_mm(np.array([x1, y1])) + 40
    return Region(float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1]), px_per_mm)


def window_past_cut_walls(region: Region, walls: list[WallReading], reach_mm: float) -> Region | None:
    """The castle's window grown by `reach_mm` on each side where an open wall's far end (`open_point`) lies within
    CUT_WALL_MM of its border or past it: the wall's run may go on beyond the window, cut short there. None where no
    wall is. The window is the grey a coarse first look found, with a margin; a castle's far edge beyond a band of
    shade falls outside it (fresh 16900-004, 26°, grey cloth: two open long walls at the edge read short, cut at
    the border, and by the boxes' count two walls between courtyards left unread)."""
    grow = np.zeros(4)  # x0, y0, x1, y1
    for wall in walls:
        if wall.end is not None:
            continue
        x, y = wall.open_point
        near = np.array([x - region.x0, y - region.y0, region.x1 - x, region.y1 - y]) < CUT_WALL_MM
        grow = np.maximum(grow, near * reach_mm)
    if not grow.any():
        return None
    return Region(region.x0 - grow[0], region.y0 - grow[1], region.x1 + grow[2], region.y1 + grow[3],
                  region.px_per_mm)


def _castle_parts(boxes: np.ndarray, area: np.ndarray, near_px: int) -> list[int]:
    """The groups (labels, each with its box x, y, w, h) making up the castle: the one with most grey, and
    any other holding at least CASTLE_PART_SHARE of its grey whose box lies within two joining distances
    (`near_px`) of its box. A castle read with a stretch of it lost (a keep's shadow, a shade the colours
    took for table) falls apart into big parts close together; a cup or a box is broad, table texture specks."""
    main = int(np.argmax(area))
    mx, my, mw, mh = boxes[main]
    parts = [main]
    for i in np.flatnonzero(area >= CASTLE_PART_SHARE * area[main]):
        x, y, w, h = boxes[i]
        gap = max(x - (mx + mw), mx - (x + w), y - (my + mh), my - (y + h), 0)
        if i != main and gap <= 2 * near_px:
            parts.append(int(i))
    return parts


def _castle_box(pieces: np.ndarray, profile: PieceProfile, coarse: Region,
                all_parts: bool) -> tuple[int, int, int, int] | None:
    """Pixel box of the castle on a coarse mask of grey pieces. The castle is one whole of many thin
    parts close together (carving may cut them apart); a cup or a box is one blob, table texture is
    specks: parts are joined across gaps under NEAR_CASTLE_MM and the group with most grey is taken.
    Pieces laid out apart for `calibrate pieces` (`all_parts`) are all taken."""
    min_area = profile.dimensions.keep_side ** 2 * 0.4 * coarse.px_per_mm ** 2
    size = int(NEAR_CASTLE_MM * coarse.px_per_mm) | 1
    # Only the pieces' bounding box (and a kernel's reach around it) can change: the wide kernels run there.
    ys, xs = np.nonzero(pieces)
    if not len(xs):
        return None
    pad = size // 2 + 1
    x0, y0 = max(0, int(xs.min()) - pad), max(0, int(ys.min()) - pad)
    pieces = pieces[y0:int(ys.max()) + pad + 1, x0:int(xs.max()) + pad + 1]
    if all_parts:
        joined = counted = pieces
    else:
        joined = cv2.dilate(pieces, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size)))
        # A castle is thin: walls and towers, none wider than a tower. Broad grey (a grey-ish table
        # darker in a corner, a cup, a box) is not counted towards a group's size.
        broad = int(BROAD_SHARE * profile.dimensions.tower_diameter * coarse.px_per_mm) | 1
        counted = pieces & ~cv2.morphologyEx(pieces, cv2.MORPH_OPEN,
                                             cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (broad, broad)))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    area = np.bincount(labels[counted > 0], minlength=count)
    area[0] = 0
    chosen = np.flatnonzero(area >= min_area) if all_parts else _castle_parts(stats[:, :4], area, size)
    if not len(chosen) or area[chosen].max() < min_area:
        return None
    ys, xs = np.nonzero(np.isin(labels, chosen) & (pieces > 0))
    return x0 + int(xs.min()), y0 + int(ys.min()), x0 + int(xs.max()) + 1, y0 + int(ys.max()) + 1
