"""Camera grain: measured whatever the photo shows, and smoothed only when there is some."""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tablesight.synthetic.dataset import truth_path
from tablesight.vision.castellan.card_through_grain import quietened_with_card
from tablesight.vision.denoise import NOISY_LEVELS, noise_level, quietened


def _scene() -> np.ndarray:
    """A table with a few sharp-edged grey pieces and a smooth fall-off of light: edges and gradients, no grain."""
    ys, xs = np.mgrid[0:400, 0:600]
    image = np.dstack([60 + 0.1 * xs, 80 + 0.05 * ys, 70 + 0.02 * (xs + ys)]).astype(np.float32)
    for x in range(40, 560, 90):
        cv2.rectangle(image, (x, 100), (x + 12, 300), (150, 150, 150), -1)
        cv2.circle(image, (x + 6, 90), 14, (170, 170, 170), -1)
    return image


def test_grain_is_measured_and_edges_and_gradients_are_not_taken_for_it():
    clean = np.clip(_scene(), 0, 255).astype(np.uint8)
    grainy = np.clip(_scene() + np.random.default_rng(1).normal(0, 6, clean.shape), 0, 255).astype(np.uint8)
    assert noise_level(clean) < 0.5
    assert 3.0 < noise_level(grainy) < 7.0  # the grey mean of three channels of 6 levels each: about 3.5


def test_only_a_grainy_photo_is_smoothed_and_smoothing_takes_most_of_its_grain():
    clean = np.clip(_scene(), 0, 255).astype(np.uint8)
    same, level = quietened(clean)
    assert same is clean and level <= NOISY_LEVELS
    grainy = np.clip(_scene() + np.random.default_rng(2).normal(0, 6, clean.shape), 0, 255).astype(np.uint8)
    smoothed, level = quietened(grainy)
    assert level > NOISY_LEVELS and noise_level(smoothed) < 0.6 * level
    # A piece's edge stays where it was (a median moves no straight edge).
    assert abs(int(smoothed[200, 45, 0]) - 150) < 12 and abs(int(smoothed[200, 30, 0]) - int(clean[200, 30, 0])) < 12


def test_a_small_photos_card_is_found_where_more_of_its_corners_show():
    """Sample 056 at half size: its table's fine texture measures as grain, and the 3 x 3 median that smooths
    it wipes out most of a 130 px card's marker bits (15 of 24 corners, the focal length 37 % off). The card is
    then taken from the photo as it is, where all its corners show; the pieces are still read smoothed."""
    path = Path(__file__).parent.parent / "samples" / "castellan" / "photos" / "photo-056.jpg"
    full = cv2.imread(str(path))
    photo = cv2.resize(full, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    true_focal = json.loads(truth_path(path).read_text())["camera"]["matrix"][0][0] * 0.5
    smoothed, grain, card = quietened_with_card(photo, None, None, None)
    assert grain > NOISY_LEVELS and smoothed is not photo
    assert card.corner_count == 24
    assert card.pose.lens.focal == pytest.approx(true_focal, rel=0.03)
