"""A shaken photo's motion blur read from the photo, and the card found once it is taken out."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from tablesight.calibration.camera import Lens
from tablesight.calibration.card_detection import find_card
from tablesight.calibration.motion_blur import MotionBlur, deblurred, motion_blur
from tablesight.inputs import read_photo
from tablesight.synthetic.card_views import card_view

PHOTOS = Path(__file__).parent.parent / "samples" / "castellan" / "photos"
LENS = Lens.pinhole(1100.0, (1280, 720))


def _shaken(image: np.ndarray, length: float, angle: float) -> np.ndarray:
    return cv2.filter2D(image, -1, MotionBlur(length, angle, 0.0).kernel())


@pytest.mark.parametrize(("length", "angle"), [(9.0, 30.0), (12.0, 115.0), (7.0, 0.0)])
def test_the_blur_is_read_from_the_photo(length, angle):
    image, _ = card_view(LENS, np.random.default_rng(21))
    grey = image  # the card views are grey
    blur = motion_blur(_shaken(grey, length, angle))
    assert blur is not None
    assert abs(blur.length_px - length) <= 1.5
    assert min(abs(blur.angle_deg - angle), 180 - abs(blur.angle_deg - angle)) <= 5.0


@pytest.mark.parametrize("name", ["photo-000.jpg", "photo-001.jpg", "photo-002.jpg"])
def test_a_sharp_photo_shows_no_blur(name):
    """(A close-up of the card alone can show a trough: its markers' bits repeat. The blur is only looked
    for where no card was found otherwise, so such a reading costs time, not a wrong card.)"""
    grey = cv2.cvtColor(read_photo(PHOTOS / name).image, cv2.COLOR_BGR2GRAY)
    assert motion_blur(grey) is None


def test_taking_the_blur_out_brings_the_edges_back():
    image, _ = card_view(LENS, np.random.default_rng(23))
    grey = image  # the card views are grey
    shaken = _shaken(grey, 9.0, 30.0)
    restored = deblurred(shaken, motion_blur(shaken))

    def sharpness(g: np.ndarray) -> float:
        return float(np.mean(np.abs(cv2.Laplacian(g.astype(np.float32), cv2.CV_32F))))

    assert sharpness(restored) > 1.5 * sharpness(shaken)


def test_the_card_is_found_in_a_shaken_sample_where_the_photo_lost_it():
    """Sample 056 smeared 7 px sideways: its markers run into one another and no try reads them (nor the
    squares). Unshaken, the card is found, and its corners are where the sharp photo has them."""
    image = read_photo(PHOTOS / "photo-056.jpg").image
    sharp = find_card(image)
    shaken = find_card(cv2.filter2D(image, -1, np.full((1, 7), 1 / 7, np.float32)))
    assert shaken is not None and shaken.corner_count >= 12
    ids = list(sharp.corner_ids)
    offsets = [np.linalg.norm(p - sharp.image_points[ids.index(i)])
               for i, p in zip(shaken.corner_ids, shaken.image_points, strict=True) if i in ids]
    assert np.median(offsets) < 0.5


def test_a_shaken_photo_is_read_unshaken_and_the_user_told():
    """Sample 058 smeared 7 px sideways: its card is only found unshaken, and the pieces are read from the
    unshaken photo too (over every other sample smeared so, towers missed: read smeared 132 of 1,183,
    read unshaken 89)."""
    import json

    from tablesight.scoring.castellan.board_json import board_from_dict
    from tablesight.synthetic.dataset import truth_path
    from tablesight.vision.castellan.evaluate import compare
    from tablesight.vision.castellan.reader import CastellanReader

    path = PHOTOS / "photo-058.jpg"
    truth = board_from_dict(json.loads(truth_path(path).read_text())["board"])
    reading = CastellanReader().read(cv2.filter2D(read_photo(path).image, -1, np.full((1, 7), 1 / 7, np.float32)))
    counts, *_ = compare(truth, reading.board)
    assert counts["tower"]["tp"] >= 62 and counts["tower"]["fp"] <= 2
    assert any("shaken" in note for note in reading.notes)
