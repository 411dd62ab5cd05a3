"""The recognition overlay's text: readable on any photo, and a courtyard's warning beside its value."""

import cv2
import numpy as np
import pytest

from tablesight.calibration.card_detection import virtual_card
from tablesight.calibration.pieces import NOMINAL_PROFILE
from tablesight.scoring.castellan.board import Board, Tower, Wall
from tablesight.vision.castellan.annotate import _beside_labels, annotate
from tablesight.vision.castellan.doubts import Doubt
from tablesight.vision.castellan.reading import PhotoReading
from tablesight.vision.drawing import text_with_outline


def test_a_warning_on_a_courtyard_label_moves_below_it():
    label = np.array([400.0, 300.0])
    moved = _beside_labels(np.array([405.0, 296.0]), [label], scale=1)
    assert moved[1] >= label[1] + 16  # below the text, which runs up from its origin
    assert moved[0] == 405.0


def test_a_warning_away_from_every_label_stays_where_it_is():
    where = np.array([100.0, 100.0])
    assert np.array_equal(_beside_labels(where, [np.array([400.0, 300.0])], scale=1), where)


def test_labels_are_measured_at_the_overlays_scale():
    label = np.array([1000.0, 1000.0])
    near_at_scale_3 = np.array([1090.0, 1000.0])  # 90 px right: inside a scale-3 label, outside a scale-1 one
    assert _beside_labels(near_at_scale_3, [label], scale=3)[1] > 1000.0
    assert _beside_labels(near_at_scale_3, [label], scale=1)[1] == 1000.0


@pytest.mark.parametrize("scale", [1, 2, 3])
def test_overlay_text_is_ringed_in_black_around_its_letters(scale):
    """White text on a pale photo is readable only with a dark ring round each letter (OpenCV 5 draws a font's
    thickness as its weight: the text drawn again thicker in black came out wider, beside the letters)."""
    image = np.full((120 * scale, 400 * scale, 3), 210, np.uint8)
    text_with_outline(image, "blue: 45 ?", (10 * scale, 60 * scale), 0.8 * scale, scale)
    letters = (image.min(axis=2) >= 240).astype(np.uint8)
    assert letters.sum() > 100 * scale
    # The band round the letters, past their own smoothed edge (a pixel) and within the ring's width.
    inner = cv2.dilate(letters, np.ones((3, 3), np.uint8))
    outer = cv2.dilate(letters, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * scale + 3, 2 * scale + 3)))
    band = (outer > 0) & (inner == 0)
    assert (image.max(axis=2) < 100)[band].mean() > 0.8


def _two_towers_and_a_wall():
    """A photo of a plain table seen straight down at 2 px/mm, read as two towers joined by a long wall."""
    image = np.full((600, 800, 3), 90, np.uint8)
    card = virtual_card(image, 2.0)
    middle = card.image_to_table(np.array([[400.0, 300.0]]))[0]
    a, b = Tower("t1", middle[0] - 60, middle[1]), Tower("t2", middle[0] + 60, middle[1])
    board = Board(towers=(a, b), walls=(Wall("w1", "long", ("t1", "t2")),))
    return image, PhotoReading(board, card), card


def test_the_overlay_marks_exactly_the_pieces_the_report_lists_in_doubt():
    image, reading, card = _two_towers_and_a_wall()
    plain = annotate(image, reading, None, NOMINAL_PROFILE)
    doubt = Doubt("tower", "t2", reading.board.towers[1].position, "tower in a long wall's run",
                  "the middle of a long wall", {}, {})
    marked = annotate(image, reading, None, NOMINAL_PROFILE, [doubt])
    changed = np.argwhere((marked != plain).any(axis=2))
    assert len(changed) > 20  # a "?" was drawn …
    t1, t2 = card.table_to_image(np.array([reading.board.towers[0].position, reading.board.towers[1].position]),
                                 NOMINAL_PROFILE.tower_height)
    rows, cols = changed[:, 0], changed[:, 1]
    # … beside the doubted tower, and nowhere near the other.
    assert np.hypot(cols - t2[0], rows - t2[1]).max() < 60  # the ring (~30 px) and the mark beside it
    assert np.hypot(cols - t1[0], rows - t1[1]).min() > 150
