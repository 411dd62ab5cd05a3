"""Colour fringes (lateral chromatic aberration): measured on the card's edges and taken out."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from tablesight.calibration.card_detection import find_card
from tablesight.calibration.colour_fringes import ColourFringes, measured_fringes, without_fringes
from tablesight.synthetic.effects import colour_fringes, jpeg_round_trip

SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "castellan" / "photos" / "photo-016.jpg"


def _fringed(image: np.ndarray, blue: float, red: float) -> np.ndarray:
    """Blue and red imaged larger by these shares about the photo's centre, then saved as a camera's JPEG."""
    return jpeg_round_trip(colour_fringes(image, blue, red), 85)


@pytest.fixture(scope="module")
def photo() -> np.ndarray:
    return cv2.imread(str(SAMPLE))


def test_a_photo_without_fringes_is_left_as_it_is(photo):
    plain = jpeg_round_trip(photo, 85)
    fringes = measured_fringes(plain, find_card(plain))
    assert fringes is not None and not fringes.worth_taking_out
    assert abs(fringes.blue) < 1e-4 and abs(fringes.red) < 1e-4


@pytest.mark.parametrize("blue, red", [(0.003, -0.003), (0.001, -0.001), (-0.002, 0.0015)])
def test_fringes_are_measured_on_the_card_through_a_jpeg(photo, blue, red):
    """Through a JPEG's halved colour resolution the fit recovers most of each channel's scale (it is taken
    out in the same direction, and what is left is a fifth at most)."""
    fringed = _fringed(photo, blue, red)
    fringes = measured_fringes(fringed, find_card(fringed))
    assert fringes is not None and fringes.worth_taking_out
    for found, true in ((fringes.blue, blue), (fringes.red, red)):
        assert 0.75 * abs(true) <= abs(found) <= 1.1 * abs(true) and np.sign(found) == np.sign(true)


def test_fringes_taken_out_leave_the_cards_edges_grey(photo):
    fringed = _fringed(photo, 0.003, -0.003)
    card = find_card(fringed)
    mended = without_fringes(fringed, measured_fringes(fringed, card))
    again = measured_fringes(mended, card)
    assert max(abs(again.blue), abs(again.red)) < 0.2 * 0.003
    assert not ColourFringes(0.0, 0.0).worth_taking_out
