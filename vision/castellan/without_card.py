"""Reading a photo the reference card is missing from: the castle is its own ruler and square.

Without the card nothing gives the table plane but the castle itself. The photo is read as if taken from
straight above, at a range of scales around the one its walls' spacing gives (`wall_spacing`; where that
tells nothing, a wider range around the one how wide its walls look suggests), and the reading that makes
most sense of a castle (walls joining towers, few rules broken: `coherence`) is kept; its walls then
give the camera's tilt (`castle_pose`), read through again while that makes more sense. Where the view from
straight above makes no sense of a castle, the tilt its straight edges suggest (`edge_tilt`) is tried. A
castle not made sense of is not reported: its pieces would be guesses.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

import cv2
import numpy as np

from tablesight.calibration.card_detection import virtual_card
from tablesight.calibration.pieces import PieceProfile
from tablesight.scoring.castellan.pieces import PieceDimensions
from tablesight.scoring.castellan.report import score_board
from tablesight.vision.castellan.carving import classify_pixels, table_seen_by
from tablesight.vision.castellan.castle_pose import castle_pose
from tablesight.vision.castellan.edge_tilt import tilt_from_edges, tilt_of
from tablesight.vision.castellan.looks import LOOKS, MAX_SPECK_TOWERS, misfits
from tablesight.vision.castellan.reading import PhotoReading
from tablesight.vision.castellan.wall_spacing import SpacingScale, scale_from_wall_spacing
from tablesight.vision.castellan.working_resolution import working_resolution
from tablesight.vision.segmentation import TableModel
from tablesight.vision.table_view import TableView

if TYPE_CHECKING:
    from tablesight.vision.castellan.reader import CastellanReader

# A reading breaking more rules than this (or leaving more pieces off the castle) is a misreading, not a
# castle: a finished game breaks a rule or two (a courtyard left unclaimed), not dozens.
MAX_MISFITS_WITHOUT_CARD, NO_CARD_MISFITS_PER_TOWER = 2, 0.1
# The scales tried, as factors of the one how wide the walls look suggests, and the most times the camera's
# tilt is fitted to the castle and the photo read through it.
NO_CARD_SCALES = tuple(float(f) for f in np.geomspace(0.5, 1.6, 12))
# ... and around the one the walls' spacing gives where both axes agree on it (within a few per cent from
# straight above; a tilt or a table's own lines put it up to 20 % off).
SPACED_SCALES = tuple(float(f) for f in np.geomspace(0.8, 1.25, 5))
NO_CARD_TILT_ROUNDS = 3
# A scale tried at which the castle's grey would span more than this (twice the widest castle generated,
# 1.27 m) is no castle's: it is not read on (through a scale far too small every reading took 10-15 s).
MAX_CASTLE_SIDE_MM = 2500.0
# Less grey than this share of the photo, seen the usual way, gives no width for the walls to guess a scale by.
MIN_GREY_SHARE = 0.002
APPARENT_WALL_WIDTH = 1.3  # walls look about this much wider than they are (merlons, a little side)


class CardlessReader:
    """A photo without the card read through the stages of `stages` (a `CastellanReader`), each at a scale
    and tilt the castle suggests; `say` is told what it is doing (a reading without the card takes seconds
    to a minute)."""

    def __init__(self, stages: CastellanReader, say: Callable[[str], None]) -> None:
        self.stages, self._say = stages, say

    @property
    def profile(self) -> PieceProfile:
        return self.stages.profile

    @property
    def dims(self) -> PieceDimensions:
        return self.stages.profile.dimensions

    def read(self, image: np.ndarray, focal_35mm: float | None, timings: dict[str, float],
             why: str = "no reference card in the photo") -> PhotoReading:
        """No card in the photo: read it as taken from straight above at the scale (tried over a range around
        the one the walls' spacing or width gives) that makes most sense of the castle, then through the tilt
        the castle's own walls suggest (`castle_pose`), and say so. Where that makes no sense of a castle, the
        same from the tilt the castle's straight edges suggest (`tilt_from_edges`): a view tilted 20° read
        from straight above can read too little of the castle for its walls to give the tilt."""
        missing = PhotoReading(None, None, notes=["the reference card was not found in the photo"], timings_ms=timings)
        scale, factors, by_spacing = _castle_scale(image, self.profile, focal_35mm)
        if scale is None:
            return missing
        straight = self._best_scale(image, focal_35mm, scale, timings, factors=factors)
        if by_spacing:
            # The walls' spacing gives the scale within a few per cent: there the photo is seen every way the
            # reader sees a photo with its card (the scales above are tried the usual way only: a grey tinted
            # by mixed light, fresh 11400-007, was seen as one tower at every scale).
            spaced = self._every_look(image, focal_35mm, scale, timings)
            if straight is None or coherence(spaced[1], self.dims) > coherence(straight[1], self.dims):
                straight = spaced
        reading = None if straight is None else self._through_castle_tilt(*straight, focal_35mm, timings)
        if reading is None or not made_sense_of(reading, self.dims):
            for tilted in self._tilted_by_edges(image, focal_35mm, scale, factors, by_spacing, straight, timings):
                other = self._through_castle_tilt(*tilted, focal_35mm, timings)
                if reading is None or coherence(other, self.dims) > coherence(reading, self.dims):
                    reading = other
        if reading is None:
            return missing
        # Judged as it would be reported: an open wall read through a tower breaks several rules until mended.
        self.stages.rebuild(reading)
        if not made_sense_of(reading, self.dims):
            # A castle seen but not made sense of (its tilt or scale misjudged, or lost when looked at
            # again): its pieces would be guesses, so none are reported.
            # "Not found", not "not there": a card cut to a strip by the frame's edge, or too small to read, is seen
            # by the player (fresh 15800-021 and -027: a few of its squares in the photo's top edge).
            missing.notes[0] = ("the reference card was not found in the photo, and without it the castle could not "
                                "be read reliably: lay the card flat beside the castle, whole in the frame, and take "
                                "the photo again")
            return missing
        self.stages.inference.keeps_the_rules_need(reading)
        if reading.card.focal_source == "castle":
            how = (f"the camera's tilt ({reading.card.pose.tilt_deg:.0f}°) and the scale taken from the castle's "
                   f"walls")
        elif reading.card.pose.tilt_deg >= 1.0:
            how = (f"the camera's tilt ({reading.card.pose.tilt_deg:.0f}°) taken from the castle's straight edges, "
                   f"the scale from its walls")
        else:
            how = "read as if taken from straight above, the scale from the castle's walls"
        reading.notes.insert(0, f"{why}: {how}; lay the card beside the castle for a reliable reading")
        return reading

    def _through_castle_tilt(self, image: np.ndarray, first: PhotoReading, focal_35mm: float | None,
                             timings: dict[str, float]) -> PhotoReading:
        """A first reading without the card seen through the tilt its walls suggest, then looked at again."""
        small, tilted = self._tilted(image, first, focal_35mm, timings)
        reading = self.stages.looked_again(small, focal_35mm, tilted, timings)
        self.stages.inference.towers_after_the_look(reading)
        return reading

    def _every_look(self, image: np.ndarray, focal_35mm: float | None, scale: float,
                    timings: dict[str, float]) -> tuple[np.ndarray, PhotoReading]:
        """The photo (at its working resolution) and its reading as if taken from straight above at `scale`,
        looked at again the other ways where the usual one breaks rules (`looked_again`)."""
        self._say("no reference card: reading the castle at the scale its walls' spacing gives")
        small, first = self.stages.first_look(image, focal_35mm, virtual_card(image, scale, focal_35mm), 0, timings)
        return small, self.stages.looked_again(small, focal_35mm, first, timings)

    def _tilted_by_edges(self, image: np.ndarray, focal_35mm: float | None, scale: float,
                         factors: tuple[float, ...], by_spacing: bool, straight: tuple[np.ndarray, PhotoReading] | None,
                         timings: dict[str, float]) -> list[tuple[np.ndarray, PhotoReading]]:
        """The photo (at its working resolution) and its readings through the tilt the castle's straight edges
        suggest, found near the grey plastic of the reading from straight above (`straight`; None: no tower
        read so, and the photo is looked at once at `scale`): one at the scale making most sense of the
        castle among `factors` of `scale`, and where `scale` came from how wide the walls look (not `by_spacing`), one
        around it corrected for the walls' sides a tilted view shows (how wide the walls look takes them in:
        half as wide again at 19°, yet the guess was right as it was at 31°). None where the edges tell no
        tilt."""
        small, seen = straight or self.stages.first_look(image, focal_35mm, virtual_card(image, scale, focal_35mm),
                                                         0, timings)
        if seen.raw_classes is None:
            return []
        rotation = tilt_from_edges(small, seen.raw_classes.grey, seen.card.pose.lens)
        if rotation is None:
            return []
        if by_spacing:
            found = [self._best_scale(image, focal_35mm, scale, timings, rotation, factors)]
        else:
            top = APPARENT_WALL_WIDTH * self.dims.wall_thickness
            # A wall's side, on average over headings.
            sides = 2 / math.pi * self.profile.wall_height * math.tan(tilt_of(rotation))
            found = [self._best_scale(image, focal_35mm, guess, timings, rotation)
                     for guess in (scale, scale * top / (top + sides))]
        return [f for f in found if f is not None]

    def _best_scale(self, image: np.ndarray, focal_35mm: float | None, scale: float, timings: dict[str, float],
                    rotation: np.ndarray | None = None,
                    factors: tuple[float, ...] = NO_CARD_SCALES) -> tuple[np.ndarray, PhotoReading] | None:
        """The photo (at its working resolution) and its reading as if taken from straight above (or tilted
        by `rotation`, see `virtual_card`), at the scale that makes most sense of the castle (`most_coherent`):
        the guess is only rough (how wide the walls look: a tilted view shows their sides), so `factors` of it
        are tried, then the best corrected by its walls' spans. None if no tower is read at any."""
        how = "straight above" if rotation is None else "tilted as its edges suggest"
        best, best_score, tried = None, -math.inf, []
        # Every scale is tried at the working resolution of the middle one, and never on a photo enlarged (up to
        # four times its pixels, 6 s a reading on a 3 MP photo): only the scale kept is read at its own.
        small, _ = working_resolution(image, virtual_card(image, scale, focal_35mm, rotation))
        if small.shape[1] > image.shape[1]:
            small = image
        share = small.shape[1] / image.shape[1]
        for n, factor in enumerate(factors):
            self._say(f"no reference card: trying the castle's scale, seen {how} ({n + 1}/{len(factors)})")
            card = virtual_card(small, scale * factor * share, focal_35mm, rotation)
            reading = self.stages.read_through(small, focal_35mm, card, 0, dict(timings), LOOKS[0],
                                               max_castle_mm=MAX_CASTLE_SIDE_MM)
            tried.append((coherence(reading, self.dims), len(reading.towers), reading, scale * factor))
        chosen = most_coherent([(score, towers) for score, towers, _, _ in tried])
        if chosen is not None:
            best_score, _, reading, best_scale = tried[chosen]
            best = (small, reading)
        for _ in range(2):
            ratio = _span_ratio(best[1], self.profile) if best else None
            if ratio is None:
                break
            best_scale /= ratio
            card = virtual_card(image, best_scale, focal_35mm, rotation)
            small, reading = self.stages.first_look(image, focal_35mm, card, 0, timings)
            score = coherence(reading, self.dims)
            if score <= best_score:
                break
            best, best_score = (small, reading), score
        return best if best and best[1].towers else None

    def _tilted(self, image: np.ndarray, reading: PhotoReading, focal_35mm: float | None,
                timings: dict[str, float]) -> tuple[np.ndarray, PhotoReading]:
        """A reading without the card seen again through the tilt its castle's walls suggest (each tilt
        fitted to the reading before), while that makes more sense of the castle."""
        score = coherence(reading, self.dims)
        for n in range(NO_CARD_TILT_ROUNDS):
            stand_in = castle_pose(reading.card, reading.towers, reading.walls, self.profile)
            if stand_in is None:
                break
            self._say(f"no reference card: reading the castle through the tilt its walls suggest ({n + 1})")
            small, tilted = self.stages.first_look(image, focal_35mm, stand_in, 0, timings)
            tilted_score = coherence(tilted, self.dims)
            if tilted_score <= score:
                break
            image, reading, score = small, tilted, tilted_score
        return image, reading


def _castle_scale(image: np.ndarray, profile: PieceProfile,
                  focal_35mm: float | None) -> tuple[float | None, tuple[float, ...], bool]:
    """Pixels per millimetre guessed from how far apart the castle's walls run (`wall_spacing`), or where
    that tells nothing, from how wide they look (None without enough grey plastic); the factors of it to try
    (a few around a spacing both axes agree on, a wide range otherwise); and whether the spacing gave it."""
    probe = virtual_card(image, 1.0, focal_35mm)
    view = TableView(image, probe)
    spacing_mm = profile.dimensions.centre_spacing("short")
    grey = classify_pixels(view, TableModel.learn(view)).grey
    enough_grey = cv2.countNonZero(grey) >= MIN_GREY_SHARE * grey.size
    spaced = (scale_from_wall_spacing(grey, spacing_mm) if enough_grey else None) or \
        _spacing_seen_other_ways(view, spacing_mm)
    if spaced is not None:
        return spaced.px_per_mm, SPACED_SCALES if spaced.axes_agree else NO_CARD_SCALES, True
    if not enough_grey:
        return None, NO_CARD_SCALES, False
    return _scale_from_wall_width(grey, profile), NO_CARD_SCALES, False


def _spacing_seen_other_ways(view: TableView, spacing_mm: float) -> SpacingScale | None:
    """The walls' spacing where the usual look tells none, from the grey the other looks see (LOOKS): the median of
    the scales on which both axes agree, None where no look gives one. Without the card's white to balance on, grey
    plastic lit by a warm lamp on a sandy cloth is of neither the table's colour nor grey (fresh 15800-027: the usual
    look saw 0.8 % of the photo grey and no spacing; the plastic's own tint, 0.79 px/mm, the truth 0.77). Not where
    the usual look's axes disagree: there one other look agreeing is a minority's word, and the narrow search around
    it lost fresh 14400-018 (scores right) while gaining sample 008 without its card."""
    scales = []
    for look in LOOKS[1:]:
        grey = classify_pixels(view, table_seen_by(view, look), look=look).grey
        spaced = scale_from_wall_spacing(grey, spacing_mm)
        if spaced is not None and spaced.axes_agree:
            scales.append(spaced.px_per_mm)
    return SpacingScale(float(np.median(scales)), True) if scales else None


def _scale_from_wall_width(grey: np.ndarray, profile: PieceProfile) -> float | None:
    """Pixels per millimetre guessed from how wide the `grey` walls look (their tops and a little side)."""
    from skimage.morphology import skeletonize

    dist = cv2.distanceTransform((grey > 0).astype(np.uint8), cv2.DIST_L2, 5)
    values = dist[skeletonize(grey > 0)]
    values = values[values >= 1.5]
    if values.size < 50:
        return None
    return float(np.median(values)) / (APPARENT_WALL_WIDTH * profile.dimensions.wall_thickness / 2)


def _span_ratio(reading: PhotoReading, profile: PieceProfile) -> float | None:
    """Median of measured over expected span of the walls joining two towers (1.0: the scale is right)."""
    ratios = []
    for w in reading.walls:
        if w.end is not None:
            a, b = reading.towers[w.start], reading.towers[w.end]
            ratios.append(np.hypot(a.x - b.x, a.y - b.y) / profile.dimensions.centre_spacing(w.kind))
    return float(np.median(ratios)) if len(ratios) >= 3 else None


def made_sense_of(reading: PhotoReading, dimensions: PieceDimensions) -> bool:
    """Whether a reading without the card found a castle (two towers at least) breaking few rules for its
    size."""
    if reading.board is None or len(reading.board.towers) < 2:
        return False
    allowed = MAX_MISFITS_WITHOUT_CARD + NO_CARD_MISFITS_PER_TOWER * len(reading.towers)
    return misfits(reading, score_board(reading.board, dimensions)) <= allowed


def most_coherent(tries: list[tuple[float, int]]) -> int | None:
    """Which of the readings tried (their `coherence` and towers read) makes most sense of a castle, or None
    where none makes any. A reading of a tower or two (MAX_SPECK_TOWERS: no castle) breaks few rules for want
    of pieces: where any reading tried holds a castle, only those are weighed (fresh 13300-001, seen through
    the tilt its edges give: at one scale a lone tower and 2 misread pieces outweighed 3 towers and 7, and the
    walls' tilt fit then had nothing to work on; from the 3, it reads 10 of the 11). Not weighed against the
    most towers any scale reads: at scales far too small a table's texture reads as a hundred towers or more."""
    castles = [n for n, (_, towers) in enumerate(tries) if towers > MAX_SPECK_TOWERS]
    weighed = [(tries[n][0], n) for n in (castles or range(len(tries))) if tries[n][0] > -math.inf]
    return max(weighed, key=lambda w: (w[0], -w[1]))[1] if weighed else None  # the first of equals


def coherence(reading: PhotoReading, dimensions: PieceDimensions) -> float:
    """How much sense a reading without the card makes of a castle: walls joining two towers, less twice the
    misread pieces its broken rules take (a wrong scale or tilt reads many walls, wrongly)."""
    if reading.board is None:
        return -math.inf
    joined = sum(w.end is not None for w in reading.walls)
    return joined - 2 * misfits(reading, score_board(reading.board, dimensions))
