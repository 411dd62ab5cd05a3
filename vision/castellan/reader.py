"""The photo-to-board pipeline for Castellan: one class wiring the stages, timing each."""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable
from dataclasses import replace

import numpy as np

from tablesight.calibration.camera import Lens
from tablesight.calibration.card import SQUARE_MM, card_outline_mm
from tablesight.calibration.card_detection import CardDetection, through_focal
from tablesight.calibration.card_focus import softness_kernel
from tablesight.calibration.colour_fringes import ColourFringes, measured_fringes, without_fringes
from tablesight.calibration.motion_blur import deblurred
from tablesight.calibration.pieces import NOMINAL_PROFILE, PieceProfile
from tablesight.scoring.castellan.report import Report, score_board
from tablesight.vision.castellan.box_limits import mend_split_long_walls
from tablesight.vision.castellan.card_through_grain import photo_to_read_and_card
from tablesight.vision.castellan.carving import (
    PixelClasses,
    card_mask,
    carve,
    carve_past_keeps,
    castle_region,
    classify_pixels,
    glints_filled,
    keep_coloured,
    keep_colours_of_the_table,
    table_seen_by,
    undistorted_classes,
    undistorted_to_table,
    window_past_cut_walls,
)
from tablesight.vision.castellan.double_keeps import decide_doubles
from tablesight.vision.castellan.inferred_pieces import PieceInference
from tablesight.vision.castellan.keep_blends import on_its_own_colour, table_hue_around
from tablesight.vision.castellan.keeps import (
    KeepPlanes,
    KeepReading,
    beyond_the_castle,
    find_keeps,
    keep_planes,
    keeps_in_the_walls,
    keeps_on_the_castle,
    merge_close,
    ringed_by_towers,
    without_overlaps,
)
from tablesight.vision.castellan.lens_refinement import refine_card_lens, span_scale
from tablesight.vision.castellan.looks import (
    LOOKS,
    TOWER_TOP_SHARE,
    WALL_TOP_SHARE,
    Look,
    Standing,
    fragment,
    keeps_the_pieces,
    misfits,
    no_castle,
)
from tablesight.vision.castellan.reading import PhotoReading, board_of, report_of
from tablesight.vision.castellan.rebuild import rebuild
from tablesight.vision.castellan.shadows import with_shadow_evidence
from tablesight.vision.castellan.specks import drop_specks
from tablesight.vision.castellan.timing import timed
from tablesight.vision.castellan.towers import MIN_PROMINENCE_SHARE, find_towers
from tablesight.vision.castellan.trust import look_misread
from tablesight.vision.castellan.walls import (
    castle_axis,
    find_walls,
    merged_walls,
    settled_towers,
    split_at_towers_in_runs,
    without_open_walls_across_walls,
)
from tablesight.vision.castellan.without_card import CardlessReader, coherence
from tablesight.vision.castellan.working_resolution import card_at_photo_size, working_resolution
from tablesight.vision.denoise import NOISY_LEVELS, quietened
from tablesight.vision.table_view import Region, TableView

# The castle is rectified at about the photo's own resolution there: finer adds no detail, only time.
MIN_PX_PER_MM, MAX_PX_PER_MM = 1.0, 2.5
FAR_FROM_CARD_MM = 850.0  # a castle whose towers are this far from the card (median) gets a note on it
FAR_OFF_FOCAL = 0.15  # (log) a lens refined this far from the card's focal length is refined once more
# Through the card's own lens, a castle's walls measure within 4.4 % of the profile's spans on every sample
# (median 0.996); read with a profile 5 % too small (as a card printed 95 % of its size makes it), 1.018-1.09.
# Beyond this share the card's print (or the profile) is named as the likely cause, with many walls.
PRINT_SCALE_NOTE_SHARE, PRINT_SCALE_MIN_SPANS = 0.05, 20
SETTLED_MOVE_MM = 1.0  # towers settled by their walls further than this have their sockets read again
# A card read for its focal length at a low tilt can be 20 % off or more (seed 7300, photo-024: 0.8 of
# the true one), and through such a lens the castle is carved apart and nothing is read. Such readings
# are tried again through these shares of the card's focal length (then refined by the castle as usual).
OTHER_FOCALS = (0.8, 0.9, 1.12, 1.25)
# Dice are 12-18 mm, a keep 22 mm: a keep seen whole carves over 0.75 of its side² (19 in 20 of 1,000 keeps)
SMALL_KEEP_AREA_SHARE = 0.7


class CastellanReader:
    """Reads a photo of a Castellan castle into a board: the card (or, missing, the castle itself:
    `without_card`), the pixel classes, towers, walls and keeps, the lens refined by the castle, the looks
    weighed against the rules, the castle rebuilt. `read` is the entry point; `first_look`, `read_through`,
    `looked_again` and `inference.towers_after_the_look` are the stages a reading without the card goes through
    too; the pieces inferred where the rules need them are `inferred_pieces`'."""

    def __init__(self, profile: PieceProfile = NOMINAL_PROFILE, lens: Lens | None = None,
                 progress: Callable[[str], None] | None = None) -> None:
        """`progress`: told, in a few words, what the reader is doing as it goes (a reading takes seconds)."""
        self.profile = profile
        self.inference = PieceInference(profile)
        self.lens = lens
        self._say = progress or (lambda _: None)

    def read(self, image: np.ndarray, focal_35mm: float | None = None,
             card: CardDetection | None = None, refinements: int = 1,
             fringes: ColourFringes | None = None, live: bool = False,
             camera_memory: dict | None = None) -> PhotoReading:
        """The pieces in a photo, read through the card's lens, then (`refinements` times: once; the joint
        fit leaves little for a second round, unless it moved the focal length far from the card's)
        through the lens fitted to the card and that reading's castle. A reading that breaks the rules
        is more likely a misreading than an illegal castle: while the best reading so far breaks some,
        the photo is read again with its colours seen another way (LOOKS; see `looked_again`).
        A big photo is read at a working resolution (its `view`); the reading's card is the photo's own,
        at its size, as the overlay draws it and a next frame's reading reuses it; `fringes`: the lens's colour
        fringes if already measured (a live camera's earlier frame), else they are measured on the card. `live`: a
        live camera's frame, whose card (if given) was read from an earlier frame: where no castle is seen, other
        focal lengths are not tried (no castle is most often no castle yet). `camera_memory`: what a live camera's
        frames learnt through its card and still holds (`TableView.camera_memory`), filled in as learnt."""
        reading = self._read(image, focal_35mm, card, refinements, fringes, live, camera_memory)
        return card_at_photo_size(reading, image.shape)

    def _read(self, image: np.ndarray, focal_35mm: float | None, card: CardDetection | None,
              refinements: int, fringes: ColourFringes | None = None, live: bool = False,
              camera_memory: dict | None = None) -> PhotoReading:
        timings: dict[str, float] = {}
        live_card = live and card is not None  # a live camera's card, read from an earlier frame
        with timed(timings, "card"):
            if card is None:
                self._say("finding the reference card")
            image, grain, card = photo_to_read_and_card(image, card, self.lens, focal_35mm)
            if card is not None:  # a shaken or soft photo: its card was found with the blur taken out, its pieces too
                image = _unblurred(image, card)
                if fringes is None and card.seen:
                    fringes = measured_fringes(image, card)
                if fringes is not None and fringes.worth_taking_out:
                    # A lens's colour fringes: their rims along the plastic's edges are taken for neither grey nor
                    # table (sample 002 with 0.3 % fringes through a JPEG: 46 of 63 towers read, 58 without them).
                    image = without_fringes(image, fringes)
        if card is None:
            return _noted_grain(CardlessReader(self, self._say).read(image, focal_35mm, timings), grain)
        self._say("reading the pieces")
        small, first = self.first_look(image, focal_35mm, card, refinements, timings, camera_memory)
        reading = self.looked_again(small, focal_35mm, first, timings)
        if reading is not first:
            self.inference.towers_the_first_look_saw(reading, first)
        if self.lens is None and card.seen and not live_card and no_castle(reading):
            # Not for a live camera's later frames: its card's lens was read once and holds; no castle through it is
            # most often no castle yet (an empty table at a game's start: 1.2 s of other focal lengths a frame).
            reading = self._through_other_focals(image, focal_35mm, card, refinements, reading, timings)
        self.inference.towers_after_the_look(reading)
        self.inference.keeps_the_rules_need(reading)
        if self.lens is None and card.seen_in_part:
            reading = self._or_without_card(image, focal_35mm, reading, timings)
        if reading.card is None or reading.card.seen:  # a reading without the card was rebuilt as it was judged
            walls_before = list(reading.walls)
            self.rebuild(reading)
            if reading.walls != walls_before:
                # A courtyard the mended walls close has had no keep looked for in it (fresh 17500-003: a wall
                # inferred behind a keep closed a courtyard whose green keep, on a green check, the masks missed).
                self.inference.keeps_the_rules_need(reading)
        if reading.view is not None and reading.look is not None:
            with timed(reading.timings_ms, "keeps"):
                reading.table_keep_colours = keep_colours_of_the_table(reading.view, reading.look)
        if self.lens is None:  # first: what the user can do about it matters more than how it was read
            reading.notes[:0] = _far_from_card(reading)
        if card.soft_px is not None:
            reading.notes.append(f"the photo is out of focus (the card's edges spread {card.soft_px:.1f} px): it was "
                                 f"read sharpened; focus on the castle for a surer reading")
        if card.shaken is not None:
            reading.notes.append(f"the photo is shaken ({card.shaken.length_px:.0f} px of motion blur): it was read "
                                 f"with the blur taken out; hold the camera still for a sharper reading")
        reading.fringes = fringes
        if fringes is not None and fringes.worth_taking_out:
            reading.notes.append(f"the lens images blue {_larger_or_smaller(fringes.blue)} and red "
                                 f"{_larger_or_smaller(fringes.red)} than green (colour fringes along the card's "
                                 f"edges): they were taken out before reading")
        return _noted_grain(reading, grain)

    def _through_other_focals(self, image: np.ndarray, focal_35mm: float | None, card: CardDetection,
                              refinements: int, reading: PhotoReading, timings: dict[str, float]) -> PhotoReading:
        """A reading that found no castle against the photo read through other focal lengths (OTHER_FOCALS
        of the card's), with deep shade taken for plastic (the looks seeing most grey): the one making most
        sense of a castle (`_coherence`) is looked at again and kept if it still does, and the notes say
        so. (Tried for readings breaking many rules too, the most coherent reading was not always the
        right one: a sample at 40° tilt came out through a focal length further off than the card's.)"""
        look = next(look for look in LOOKS if look.deep_shade_is_plastic)
        first_score = coherence(reading, self.profile.dimensions)
        best, best_score = None, first_score
        for n, share in enumerate(OTHER_FOCALS):
            self._say(f"no castle seen through the card's lens: trying another focal length "
                      f"({n + 1}/{len(OTHER_FOCALS)})")
            small, other_card = working_resolution(image, through_focal(card, card.pose.lens.focal * share))
            other = self.read_through(small, focal_35mm, other_card, refinements, dict(timings), look)
            score = coherence(other, self.profile.dimensions)
            if score > best_score:
                best, best_score = (small, other), score
        if best is None:
            return reading
        other = self.looked_again(best[0], focal_35mm, best[1], dict(timings))
        if coherence(other, self.profile.dimensions) <= first_score:
            return reading
        # Both focal lengths at the photo's size (the other reading's card is at the working resolution).
        focal = other.card.pose.lens.focal * card.pose.lens.image_size[0] / other.card.pose.lens.image_size[0]
        other.notes.append(f"no castle was seen through the focal length read from the card "
                           f"({card.pose.lens.focal:.0f} px): read through {focal:.0f} px")
        return other

    def _or_without_card(self, image: np.ndarray, focal_35mm: float | None, reading: PhotoReading,
                         timings: dict[str, float]) -> PhotoReading:
        """A reading through a card seen only in part (a corner of it in the photo's corner) against the photo
        read as if no card were there (the castle's own walls giving tilt and scale): the one breaking fewer
        rules (and leaving fewer pieces off the castle) is kept, the card's if they tie. A few corners
        spanning 30 mm place a castle 300 mm away poorly (its tilt above all), and a reading through them
        that lost most of the castle breaks few rules for that alone (`keeps_the_pieces`)."""
        self._say("only a corner of the card is seen: reading the castle by its own walls too")
        without = CardlessReader(self, self._say).read(image, focal_35mm, dict(timings), why=(
            "only a corner of the reference card is in the photo, and the castle's own walls placed it better"))
        if without.board is None:
            return reading
        report, without_report = self._report(reading), self._report(without)
        card_lost_castle = not keeps_the_pieces(reading, report, without, without_report)
        if card_lost_castle or (keeps_the_pieces(without, without_report, reading, report)
                                and misfits(without, without_report) < misfits(reading, report)):
            return without
        return reading

    def first_look(self, image: np.ndarray, focal_35mm: float | None, card: CardDetection, refinements: int,
                    timings: dict[str, float], camera_memory: dict | None = None) -> tuple[np.ndarray, PhotoReading]:
        """The photo at its working resolution and its reading there, seen the usual way (`camera_memory`: as
        for `read`)."""
        image, card = working_resolution(image, card)
        return image, self.read_through(image, focal_35mm, card, refinements, dict(timings), LOOKS[0],
                                        camera_memory=camera_memory)

    def looked_again(self, image: np.ndarray, focal_35mm: float | None, first: PhotoReading,
                      timings: dict[str, float]) -> PhotoReading:
        """The reading breaking fewest rules (and leaving fewest pieces off the castle: `misfits`) per tower it
        read (`misfit_rate`; on a tie, raising fewer warnings) among the first and the other looks, tried
        while the best so far has some, each later look read with the best reading's keeps (weighed for its
        grey alone); another look counts only if it still reads most of the first's pieces (one that lost
        part of the castle breaks fewer rules for that alone). The lens does not depend on how colours are
        seen: the first reading's (refined) one and its view are reused, and only the part of the photo
        around the first reading's castle is seen again."""
        first_standing = self._standing(first, first.look.name)
        # No castle seen the usual way (no tower: a keep or two is no castle, and the window around it would
        # hide the castle): the looks that see more grey than it (`Look.sees_more_grey`) see the whole
        # photo, and any castle beats none. The others see less grey: on an empty table they would only cost
        # time. Two towers or fewer (`no_castle`) may be an early castle, or the tops of a castle whose dark
        # sides went unseen; more pieces left off the castle than it has towers, a fragment of a bigger one:
        # either way the other looks see the whole photo too, and are weighed as usual.
        lost = first.board is None or not first.towers
        whole = no_castle(first) or fragment(first)
        window = None if whole else self._castle_window(first, image.shape)
        best = replace(first_standing, misfits=math.inf) if lost else first_standing
        spent = 0.0  # time spent on the readings not kept
        seen: set[tuple] = set()  # the other looks' ways of seeing so far (their grey as a digest, their planes)
        for look in LOOKS[1:]:
            # Where the usual look saw no castle, a tower or two breaking no rule is no castle yet either: looked on.
            if (not best.misfits and not (lost and no_castle(best.reading))) or (window is None and not whole):
                break
            if lost and not look.sees_more_grey:
                continue
            start = time.perf_counter()
            other = self._read_by_look(image, focal_35mm, first, look, best, window, lost, seen, timings)
            if other is not None and _takes_the_lead(other, best, look, lost, first_standing):
                spent += sum(best.reading.timings_ms.values()) - timings["card"]
                best = other
            else:
                spent += (time.perf_counter() - start) * 1000
        kept_towers = len(best.reading.towers)  # what its misfits were weighed over (it may change below)
        misread_as_kept = look_misread(best.reading, best.report) if best.report is not None else 0
        kept = best.reading
        if kept is not first:  # read once more as the first was: with the keeps' shadows
            start = time.perf_counter()
            kept = self._kept_look_read_again(image, focal_35mm, kept, None if lost else first_standing.misfits,
                                              timings)
            spent += (time.perf_counter() - start) * 1000
        if spent:
            kept.timings_ms["other looks"] = spent
        kept.look_misread, kept.look_towers = misread_as_kept, kept_towers
        if kept is not first and lost:
            kept.notes.append(f"no castle was seen the usual way; read with the colours seen another way "
                              f"({kept.look.name})")
        elif kept is not first:  # kept for fewer misfits per tower, or as few and fewer warnings
            kept.first_look_towers = len(first.towers)
            kept.notes.append(f"read again with the colours seen another way ({kept.look.name}): the rules the "
                              f"first reading broke (and the pieces it left off the castle) took "
                              f"{first_standing.misfits} misread piece(s) at least over {len(first.towers)} towers, "
                              f"this one's {best.misfits} over {kept_towers}")
        return kept

    def _read_by_look(self, image: np.ndarray, focal_35mm: float | None, first: PhotoReading, look: Look,
                      best: Standing, window: tuple[int, int, int, int] | None, lost: bool, seen: set[tuple],
                      timings: dict[str, float]) -> Standing | None:
        """The photo read again through `look` and weighed, or None if `look` sees it as an earlier look did
        (`seen`, which this adds to). Keep colours are seen alike in every look but the one keeping dark colours
        apart and the one balanced on the plastic's own tint: classified once, and a later look is read with the
        best reading's keeps, so that it is weighed for its grey alone (the keeps of those two may be what won
        them the lead)."""
        self._say(f"reading again with the colours seen another way ({look.name})")
        same_keeps = (best.reading.raw_classes is not None and look.camera_chroma == first.look.camera_chroma
                      and not look.own_tint)
        keeps = best.reading.raw_classes.keeps if same_keeps else None
        keeps_from = best.keeps_seen_by if same_keeps else look.name
        look_timings = dict(timings)
        with timed(look_timings, "segment"):
            raw = self._look_classes(image, first, look, window, keeps, self.profile.dimensions.keep_side)
        if raw is not None:
            # A look seeing the photo as an earlier one did (on a table it changes nothing for) and carving it
            # on the same planes reads it alike.
            seen_as = (look.camera_chroma, look.lower_shares, hashlib.sha1(raw.grey.tobytes()).digest(), keeps_from)
            if seen_as in seen:
                return None
            seen.add(seen_as)
        # Single or double hardly moves the rules a look is judged by: the keeps' shadows (~80 ms a reading)
        # are left for the look kept.
        other = self.read_through(image, focal_35mm, first.card, int(lost), look_timings, look, raw_classes=raw,
                                   view=first.view, window=window, keeps=keeps, keep_shadows=False)
        return self._standing(other, keeps_from)

    def _standing(self, reading: PhotoReading, keeps_seen_by: str) -> Standing:
        """`reading` weighed against the other looks' (see `Standing`)."""
        report = self._report(reading)
        return Standing(reading, report, misfits(reading, report), _warning_count(report), keeps_seen_by)

    def _kept_look_read_again(self, image: np.ndarray, focal_35mm: float | None, kept: PhotoReading,
                              first_misfits: int | None, timings: dict[str, float]) -> PhotoReading:
        """The look kept, read once more as the first reading was (with the keeps' shadows). A first reading too
        poor to fit the lens to (too few walls, or misread ones) left the card's lens; the look kept may read
        enough of the castle to fit it — unless through that lens it misreads more than the first reading did
        (`first_misfits`; a look carving from high up fits the lens to the pieces' tops): then the card's."""
        refit = int(self.lens is None and kept.card.focal_source not in ("castle", "assumed"))
        again = self.read_through(image, focal_35mm, kept.card, refit, dict(timings), kept.look,
                                   raw_classes=kept.raw_classes, view=kept.view)
        if refit and first_misfits is not None and misfits(again, self._report(again)) > first_misfits:
            again = self.read_through(image, focal_35mm, kept.card, 0, dict(timings), kept.look,
                                       raw_classes=kept.raw_classes, view=kept.view)
        return again

    @staticmethod
    def _look_classes(image: np.ndarray, first: PhotoReading, look: Look, window: tuple[int, int, int, int] | None,
                      keeps: dict[str, np.ndarray] | None, keep_side_mm: float) -> PixelClasses | None:
        """The photo's pixel classes (as taken) seen through `look` where the first reading's view is, in
        `window` (see `classify_pixels`); None without a view."""
        if first.view is None:
            return None
        return classify_pixels(first.view, table_seen_by(first.view, look), photo=image, look=look, window=window,
                               keeps=keeps, keep_side_mm=keep_side_mm)

    def _castle_window(self, reading: PhotoReading, shape: tuple[int, ...]) -> tuple[int, int, int, int] | None:
        """The part of the photo (x0, y0, x1, y1 pixels, as taken) showing the reading's castle window
        from the table up to a double keep's top, or None without a window."""
        if reading.region is None or reading.card is None:
            return None
        r = reading.region
        corners = np.array([[r.x0, r.y0], [r.x1, r.y0], [r.x1, r.y1], [r.x0, r.y1]])
        top = max(self.profile.tower_height, 2 * self.profile.keep_height)
        pixels = np.vstack([reading.card.pose.project(corners, h) for h in (0.0, top)])
        h, w = shape[:2]
        x0, y0 = np.clip(np.floor(pixels.min(axis=0)).astype(int), 0, [w, h])
        x1, y1 = np.clip(np.ceil(pixels.max(axis=0)).astype(int) + 1, 0, [w, h])
        return (int(x0), int(y0), int(x1), int(y1)) if x1 > x0 and y1 > y0 else None

    def _report(self, reading: PhotoReading) -> Report | None:
        """The reading's board scored (None without a board)."""
        return report_of(reading, self.profile.dimensions)

    def read_through(self, image: np.ndarray, focal_35mm: float | None, card: CardDetection, refinements: int,
                      timings: dict[str, float], look: Look, raw_classes: PixelClasses | None = None,
                      view: TableView | None = None, window: tuple[int, int, int, int] | None = None,
                      keeps: dict[str, np.ndarray] | None = None, keep_shadows: bool = True,
                      max_castle_mm: float | None = None, camera_memory: dict | None = None) -> PhotoReading:
        """One reading through the card's lens, refined from the castle up to `refinements` times.
        `raw_classes`: the photo's pixel classes (as taken) from a first read, reused through a refined lens.
        `view`: the photo through this card, if already made; `window`: only this part of the photo
        (x0, y0, x1, y1 pixels) is classified; `keeps`: the keep colours' masks (as taken) if already
        classified the same way; `keep_shadows`: whether the keeps' shadows are weighed (`shadows`);
        `max_castle_mm`: grey spanning a wider window than this is taken for no castle; `camera_memory`: as for
        `read` (for the view made here, if none is given)."""
        with timed(timings, "segment"):
            view = view or TableView(image, card, camera_memory)
            if raw_classes is None:
                raw_classes = classify_pixels(view, table_seen_by(view, look), photo=image, look=look,
                                              window=window, keeps=keeps,
                                              keep_side_mm=self.profile.dimensions.keep_side)
            classes = undistorted_classes(view, raw_classes)
            px_per_mm = float(np.clip(1.2 / card.mm_per_pixel(), MIN_PX_PER_MM, MAX_PX_PER_MM))
            region = castle_region(view, classes, self.profile, px_per_mm)
            if region is not None and max_castle_mm is not None and \
                    max(region.x1 - region.x0, region.y1 - region.y0) > max_castle_mm:
                region = None
        reading = PhotoReading(None, card, region, timings_ms=timings, view=view, classes=classes,
                               raw_classes=raw_classes, look=look)
        if region is None:
            reading.notes.append("no castle pieces were found beside the card")
            return reading
        notes = list(reading.notes)
        planes, wall_solid = self._read_grey_pieces(view, classes, region, reading)
        # Not without the card: the stand-in's scale is a guess, tried at many, and its walls' ends are as rough.
        grown = window_past_cut_walls(region, reading.walls, self.profile.dimensions.centre_spacing("long")) \
            if card.seen else None
        if grown is not None:  # read again whole: the first pass's notes (towers inferred at open ends) go with it
            reading.region, reading.notes = grown, notes
            region = grown
            planes, wall_solid = self._read_grey_pieces(view, classes, region, reading)
        reading.planes, reading.wall_solid = planes, wall_solid
        if refinements > 0:
            print_note = self._print_scale_note(card, reading) if card.focal_source != "castle" else []
            with timed(timings, "lens"):
                refined = refine_card_lens(card, reading.towers, reading.walls, self.profile,
                                           lens_known=self.lens is not None)
            if refined is not None:
                self._say("reading the pieces again through the lens the castle's walls suggest")
                # Read again through the corrected lens (the first reading only measured it). A focal length
                # far from the card's means the first reading, through the card's, was poor: the better
                # one through the new lens is fitted once more (the fit keeps within reach of its start).
                rounds = refinements - 1
                if card.focal_source != "castle" and _focal_moved(card, refined) > FAR_OFF_FOCAL:
                    rounds = max(rounds, 1)
                again = self.read_through(image, focal_35mm, refined, rounds, timings, look, raw_classes,
                                           keep_shadows=keep_shadows, camera_memory=view.camera_memory)
                again.notes[:0] = print_note
                return again
            reading.notes[:0] = print_note
        # Keeps play no part in the lens: read once, through the final lens.
        with timed(timings, "keeps"):
            self._read_keeps(view, planes, wall_solid, region, reading, keep_shadows)
        with timed(timings, "rebuild"):
            if card.focal_source != "assumed":  # without the card's pose, heights cannot be projected
                self.inference.add_hidden_towers(view, classes, region, planes, wall_solid, reading)
            reading.towers, reading.walls, notes = mend_split_long_walls(
                reading.towers, reading.walls, reading.keep_colours, self.profile.dimensions)
            reading.notes.extend(notes)
            if card.focal_source != "assumed":
                self.inference.walls_the_rules_need(wall_solid, region, planes, reading)
            # After the walls hidden behind keeps: a tower whose only wall a keep hides stands apart until then
            # (sample 041, 40°: its top seen above a yellow double keep, its wall behind it).
            drop_specks(reading)
            self._leave_out_keeps_claiming_nothing(reading)
            reading.board = board_of(reading)
        return reading

    def _print_scale_note(self, card: CardDetection, reading: PhotoReading) -> list[str]:
        """A note if the castle's walls, read through the card's own lens, measure far from the profile's
        spans (PRINT_SCALE_NOTE_SHARE) all over the castle: a card printed at another size (a printer's
        "fit to page"), or a set whose sizes differ from the profile. The castle's fit then bends the lens
        to make the walls the profile's length, and places the castle wrong."""
        ratio, count = span_scale(card.pose, reading.towers, reading.walls, self.profile)
        if count < PRINT_SCALE_MIN_SPANS or abs(ratio - 1) < PRINT_SCALE_NOTE_SHARE:
            return []
        side = "longer" if ratio > 1 else "shorter"
        return [f"the castle's walls measure {abs(ratio - 1):.0%} {side} than the piece profile's through the "
                f"card: check that the card's squares measure {SQUARE_MM:.1f} mm (print it at 100 %, actual "
                f"size), or measure your own pieces once (tablesight calibrate pieces)"]

    def _leave_out_keeps_claiming_nothing(self, reading: PhotoReading) -> None:
        """Keep-coloured pieces where no claim of theirs can be are left out, and the notes say so: any lying
        beyond the castle's outline (a courtyard lies within its towers, so a cup or a player's reserve beside
        the castle cannot claim one, even with a wall or a tower missed); those smaller than a keep
        (SMALL_KEEP_AREA_SHARE) outside every courtyard (a keep stands in the courtyard it claims; a die by the
        castle carves much like a keep seen from above but is smaller), or in a courtyard a keep of another
        colour, seen whole, claims (no play puts a second colour in a claimed courtyard, C7: a patch of the
        table's pattern seen between the walls is the likelier reading); and those of the table's own colour
        outside every courtyard (a keep is only ever placed in one, C5: a lighter patch of a green cloth by a wall's
        end was read as a green keep, fresh 12500-009) but for one towers stand around, whose courtyard's wall may
        have been missed (fresh 12500-029); and those of the colour of the table they stand on whose centres lie
        within the walls or towers (`keeps_in_the_walls`): the table's colour seen beside a wall, between its merlons,
        carves like a keep, and no keep stands inside a wall (fresh 16900-029: 12 green keeps read along the walls on
        a green and blue check, each 7.2 mm or less from a wall's side; true keeps 21 mm and more)."""
        report = score_board(board_of(reading), self.profile.dimensions)
        index_of = {id(placed): i for i, placed in enumerate(report.board.keeps)}  # the board's keeps are the reading's
        yard_of = {index_of[id(placed)]: yard for yard in report.courtyards for placed in yard.keeps}
        small = {i for i, keep in enumerate(reading.keeps)
                 if keep.area_share is not None and keep.area_share < SMALL_KEEP_AREA_SHARE}

        def claimed_by_another_colour(i: int) -> bool:  # by a keep seen whole
            return any(other.color != reading.keeps[i].color and index_of[id(other)] not in small
                       for other in yard_of[i].keeps)

        corners = [t.position for t in reading.towers] + [w.open_point for w in reading.walls if w.open_point]
        beyond = beyond_the_castle(reading.keeps, corners, self.profile.dimensions.keep_side)
        outside = {i for i in small if i not in yard_of} - beyond
        in_claimed = {i for i in small if i in yard_of and claimed_by_another_colour(i)}
        tables_colours = reading.planes.tables_colours if reading.planes is not None else frozenset()
        of_the_table = {i for i, keep in enumerate(reading.keeps) if i not in yard_of and keep.color in tables_colours
                        and not ringed_by_towers(keep, reading.towers, self.profile.dimensions)} - beyond - outside
        in_walls = {i for i in keeps_in_the_walls(reading.keeps, report.board, self.profile.dimensions)
                    if reading.keeps[i].on_its_colour} - beyond - outside - in_claimed - of_the_table
        left_out = beyond | outside | in_claimed | of_the_table | in_walls
        if not left_out:
            return
        reading.keeps = [k for i, k in enumerate(reading.keeps) if i not in left_out]
        reading.stranded += len(left_out)
        if beyond:
            reading.notes.append(f"left out {len(beyond)} keep-coloured piece(s) lying beyond the castle's towers, "
                                 f"where no courtyard can be (a reserve or clutter, not a claim)")
        if outside:
            reading.notes.append(f"left out {len(outside)} keep-coloured piece(s) smaller than a keep standing "
                                 f"outside every courtyard (a die or clutter, not a claim)")
        if in_claimed:
            reading.notes.append(f"left out {len(in_claimed)} keep-coloured patch(es) smaller than a keep in a "
                                 f"courtyard another colour's keep claims (the table seen between the walls, C7)")
        if of_the_table:
            reading.notes.append(f"left out {len(of_the_table)} keep-coloured patch(es) of the table's own colour "
                                 f"outside every courtyard (the table itself, not a keep: keeps stand in courtyards)")
        if in_walls:
            reading.notes.append(f"left out {len(in_walls)} patch(es) of the table's own keep colour read inside a "
                                 f"wall or tower, where no keep can stand (the table seen beside the walls)")

    def _read_grey_pieces(self, view: TableView, classes: PixelClasses, region: Region,
                          reading: PhotoReading) -> tuple[KeepPlanes, np.ndarray]:
        """Towers and walls; returns the keep colours' planes and the walls' carved solid for the keeps."""
        p, timings = self.profile, reading.timings_ms
        card = card_mask(region, seen=view.card.seen)
        lean_removed = view.card.focal_source != "assumed"
        with timed(timings, "towers"):
            tops = reading.look.carve_heights(p.tower_height, TOWER_TOP_SHARE)
            tower_solid = carve(view, classes.grey, tops, region) & ~card
            reading.towers = find_towers(tower_solid, region, p.dimensions, lean_removed)
            reading.tower_solid = tower_solid
        with timed(timings, "keeps"):
            tables_colours = keep_colours_of_the_table(view, reading.look)
            planes = keep_planes(view, classes, region, p, tables_colours)
        with timed(timings, "walls"):
            heights = reading.look.carve_heights(p.wall_height, WALL_TOP_SHARE)
            if lean_removed:  # what stands in front of a wall is known only through the card's pose
                # Not keeps of the table's own colours: the table itself would pass for a keep in front.
                in_front = keep_coloured(classes, leaving_out=tables_colours).astype(np.uint8) * 255
                solid = carve_past_keeps(view, classes.grey, in_front, heights, region)
            else:
                solid = carve(view, classes.grey, heights, region)
            solid &= ~card
            self._read_walls(solid, region, planes, reading, lean_removed)
            if lean_removed:  # without the card's pose a tower's footprint is not round enough to tell
                self.inference.add_towers_at_open_ends(tower_solid, solid, region, planes, reading)
                if any(wall.end is None for wall in reading.walls):
                    # A tower's top may show as a ring, its middle as pale as the table: seen whole once filled.
                    grey = glints_filled(classes.grey, keep_coloured(classes), undistorted_to_table(view))
                    filled = carve(view, grey, tops, region) & ~card
                    self.inference.add_towers_at_open_ends(filled, solid, region, planes, reading,
                                                           filled & ~tower_solid)
                if any(wall.end is None for wall in reading.walls):
                    # A tower's top carved from its full height loses its rim and shaded side to a table whose
                    # colour bleeds into them (fresh 14700-009); carved from a wall's height it is still a tower's
                    # width (a round solid, taller than the walls). Asked the widening `find_towers` asks anywhere.
                    self.inference.add_towers_at_open_ends(solid, solid, region, planes, reading,
                                                           prominence_share=MIN_PROMINENCE_SHARE)
                self.inference.add_towers_where_walls_turn(solid, region, planes, reading)
        return planes, solid

    def _read_walls(self, solid: np.ndarray, region: Region, planes: KeepPlanes, reading: PhotoReading,
                    placed: bool) -> None:
        """Walls from the towers' sockets; then the towers settled by those walls and their sockets read
        again. A keep in front of a wall (its colour on the planes through its body, and on the table plane
        there) hides it; open walls running across another wall are left out."""
        dims = self.profile.dimensions
        axis = castle_axis(reading.towers, dims, solid, region)
        reading.walls = find_walls(reading.towers, solid, region, dims, axis, cover=planes.cover, placed=placed)
        if not placed:  # without the card's pose, tower positions are too rough to settle
            reading.walls = without_open_walls_across_walls(reading.towers, reading.walls, dims)
            return
        settled = settled_towers(reading.towers, reading.walls, dims, axis)
        moved = {i for i, (a, b) in enumerate(zip(reading.towers, settled, strict=True))
                 if np.hypot(a.x - b.x, a.y - b.y) > SETTLED_MOVE_MM}
        again = find_walls(settled, solid, region, dims, axis, cover=planes.cover, only=moved)
        merged = merged_walls(reading.walls, again, reading.towers)
        reading.walls = without_open_walls_across_walls(reading.towers,
                                                        split_at_towers_in_runs(reading.towers, merged, dims), dims)

    def _read_keeps(self, view: TableView, planes: KeepPlanes, solid: np.ndarray, region: Region,
                    reading: PhotoReading, shadows: bool = True) -> None:
        dims = self.profile.dimensions
        found = without_overlaps(merge_close(find_keeps(view, planes, region, self.profile), dims.keep_side),
                                 dims.keep_side, planes.tables_colours,
                                 lambda centre: table_hue_around(view, centre, dims.keep_side))
        reach = dims.centre_spacing("short")
        on_castle = keeps_on_the_castle(found, solid, region, reach)
        if len(on_castle) < len(found):
            reading.stranded += len(found) - len(on_castle)
            reading.notes.append(f"left out {len(found) - len(on_castle)} keep-coloured piece(s) lying more "
                                 f"than {reach:.0f} mm from the castle (a reserve or clutter, in no courtyard)")
        if shadows:
            on_castle = with_shadow_evidence(on_castle, view, reading.classes.grey, planes.flat, solid, region,
                                             reading.towers, reading.walls, self.profile)
        on_castle = [replace(k, on_its_colour=on_its_own_colour(view, k.color, (k.x, k.y), dims.keep_side,
                                                                2 * self.profile.keep_height)) for k in on_castle]
        reading.keeps = decide_doubles(on_castle, planes.tables_colours)
        reading.notes.extend(_keep_doubt_notes(reading.keeps))

    def rebuild(self, reading: PhotoReading) -> None:
        """The kept reading's walls mended where the rules and the photo tell how (`rebuild.rebuild`)."""
        rebuild(reading, self.profile)


def _keep_doubt_notes(keeps: list[KeepReading]) -> list[str]:
    """Why the keeps left single or double in doubt are, by cause."""
    in_line = sum(not k.double_certain and k.lean_cut for k in keeps)
    on_colour = sum(not k.double_certain and not k.lean_cut and k.on_its_colour for k in keeps)
    uncertain = sum(not k.double_certain for k in keeps) - in_line - on_colour
    notes = []
    if on_colour:
        notes.append(f"{on_colour} keep(s) standing on table of their own colour, which their colour runs into, so "
                     f"their height is measured less surely: each is marked ? and listed, to check by eye")
    if uncertain:
        notes.append(f"{uncertain} keep(s) seen from nearly straight above, where a single and a double keep look "
                     f"alike: each is marked ? and listed with what hangs on it, to check by eye")
    if in_line:
        notes.append(f"{in_line} keep(s) whose top runs into the next keep of its colour behind it, so its height "
                     f"is not seen whole: each is marked ? and listed, to check by eye")
    return notes


def _takes_the_lead(other: Standing, best: Standing, look: Look, lost: bool, first: Standing) -> bool:
    """Whether another look's reading replaces the best so far: it reads the photo better (`Standing.beaten_by`)
    and still reads most of the first reading's pieces (`keeps_the_pieces`: one that lost part of the castle
    breaks fewer rules for that alone). Where the usual look saw no castle (`lost`), a reading of keeps without
    a tower is no castle either: a keep-coloured card or die on an empty table, seen through a look taking more
    for plastic. There, too, a castle beats a tower or two (MAX_SPECK_TOWERS: specks, read breaking no rule), and
    they never beat a castle, whatever the rates of misfits per tower say (sample 058 through a vivid tone curve,
    its grey pieces tinted pink on red wood: one tower on a cup, no misfit, read before and kept over the castle's
    64 towers with 3)."""
    castle = bool(other.reading.towers) or not lost
    specks_before, specks_now = no_castle(best.reading), no_castle(other.reading)
    better = specks_before if lost and specks_before != specks_now else best.beaten_by(other, look)
    return (better and castle
            and keeps_the_pieces(other.reading, other.report, first.reading, first.report, first.misfits))


def _warning_count(report: Report | None) -> int:
    return len(report.warnings) if report is not None else 0


def _unblurred(image: np.ndarray, card: CardDetection) -> np.ndarray:
    """The photo with the blur its card was found through taken out: a shaken photo's motion blur, a soft
    photo's softness beyond a sharp one's (`card_focus`); as it is otherwise."""
    if card.shaken is not None:
        return deblurred(image, card.shaken)
    if card.soft_px is not None:
        return quietened(deblurred(image, softness_kernel(card.soft_px)))[0]
    return image


def _larger_or_smaller(share: float) -> str:
    return f"{abs(share):.2%} {'larger' if share >= 0 else 'smaller'}"


def _noted_grain(reading: PhotoReading, grain: float) -> PhotoReading:
    """The reading, with a note if the photo was smoothed for its grain (see `denoise`): last, as what the
    user can do about it matters less than what was read (no card, a castle far from it)."""
    if grain > NOISY_LEVELS:
        reading.notes.append(f"the photo is grainy (about {grain:.0f} levels of noise) and was smoothed "
                             f"before reading: more light or a lower ISO reads more surely")
    return reading


def _far_from_card(reading: PhotoReading) -> list[str]:
    """A note when the castle lies far from the card and the camera is not calibrated: the card's pose is
    extrapolated there, and a castle a metre away is read far less surely (four fresh seeds: 4 of the 18
    photos whose towers lie over FAR_FROM_CARD_MM away scored exactly, 44 of the 69 under 0.7 m)."""
    if reading.card is None or not reading.card.seen or not reading.towers:
        return []
    card_centre = card_outline_mm().mean(axis=0)
    distance = float(np.median([np.hypot(t.x - card_centre[0], t.y - card_centre[1]) for t in reading.towers]))
    if distance <= FAR_FROM_CARD_MM:
        return []
    return [f"the castle is about {distance / 1000:.1f} m from the card: so far from it, pieces are placed less "
            f"surely; for a sure count lay the card beside the castle, or calibrate the camera once "
            f"(tablesight calibrate camera)"]


def _focal_moved(card: CardDetection, refined: CardDetection) -> float:
    """How far (log) the refined lens's focal length is from the card's."""
    return abs(math.log(refined.pose.lens.focal / card.pose.lens.focal))
