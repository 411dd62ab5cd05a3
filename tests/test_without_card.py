"""The reading without the card: judged as it will be reported."""

from pathlib import Path

import cv2
import numpy as np

import tablesight.vision.castellan.without_card as without_card
from tablesight.calibration.pieces import NOMINAL_PROFILE
from tablesight.vision.castellan.reading import PhotoReading


class _Inference:
    """Stands in for the pieces inferred: records the readings keeps were looked for in."""

    def __init__(self):
        self.keeps_looked_for = []

    def keeps_the_rules_need(self, reading):
        self.keeps_looked_for.append(reading)


class _Stages:
    """Stands in for the reader's stages: its rebuild mends the reading (as an open wall read through a tower
    is mended into the wall to it), which alone makes it make sense of a castle."""

    profile = None

    def __init__(self):
        self.rebuilt = []
        self.inference = _Inference()

    def rebuild(self, reading):
        self.rebuilt.append(reading)
        reading.notes.append("mended")


def test_a_reading_without_the_card_is_judged_once_its_walls_are_mended(monkeypatch):
    reading = PhotoReading(board=None, card=None)
    monkeypatch.setattr(without_card, "_castle_scale", lambda *args: (1.0, without_card.NO_CARD_SCALES, False))
    monkeypatch.setattr(without_card.CardlessReader, "dims", property(lambda self: None))
    monkeypatch.setattr(without_card.CardlessReader, "_best_scale", lambda self, *args, **kw: (None, reading))
    monkeypatch.setattr(without_card.CardlessReader, "_through_castle_tilt", lambda self, *args: reading)
    monkeypatch.setattr(without_card, "made_sense_of", lambda read, dims: "mended" in read.notes)
    monkeypatch.setattr(without_card, "coherence", lambda read, dims: 0.0)
    monkeypatch.setattr(without_card.CardlessReader, "_tilted_by_edges", lambda self, *args: [])
    reading.card = type("Card", (), {"focal_source": "castle", "pose": type("Pose", (), {"tilt_deg": 20.0})})()
    stages = _Stages()
    read = without_card.CardlessReader(stages, lambda message: None).read(np.zeros((8, 8, 3), np.uint8), None, {})
    assert stages.rebuilt == [reading]
    assert stages.inference.keeps_looked_for == [reading]  # keeps of the table's colour, once it makes sense
    assert read is reading and "no reference card in the photo" in read.notes[0]


def test_the_scale_kept_reads_a_castle_where_any_scale_does():
    # (coherence, towers) per scale tried: a lone tower breaks no rule, but a castle was read at other scales.
    tries = [(-8.0, 6), (-2.0, 1), (-5.0, 10), (-5.0, 9), (-float("inf"), 0)]
    assert without_card.most_coherent(tries) == 2  # the first of the two equals weighed; not the lone tower
    # Texture read as many towers at a scale far too small does not shut out the castle at the right one.
    assert without_card.most_coherent([(-362.0, 158), (58.0, 64), (-2.0, 1)]) == 1
    assert without_card.most_coherent([(-2.0, 1), (-3.0, 2)]) == 0  # no castle at any scale: all weighed
    assert without_card.most_coherent([(-float("inf"), 0)]) is None


def test_the_walls_spacing_is_found_by_another_look_where_the_usual_one_sees_no_grey():
    """Fresh 15800-027: a warm lamp on a sandy cloth, the card cut by the frame to a corner with no marker whole.
    Without the card's white, the usual look sees 0.8 % of the photo grey and no spacing (the scale was then
    guessed from the card's paper as 1.23 px/mm); the plastic's own tint shows the walls repeating at the truth's
    scale (0.77 px/mm where the castle stands)."""
    photo = cv2.imread(str(Path(__file__).parent / "data" / "warm-grey-on-sand-card-cut-by-the-frame.jpg"))
    scale, factors, by_spacing = without_card._castle_scale(photo, NOMINAL_PROFILE, None)
    assert by_spacing and factors == without_card.SPACED_SCALES
    assert abs(scale / 0.775 - 1) < 0.1
