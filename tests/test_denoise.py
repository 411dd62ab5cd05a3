"""Camera grain: measured whatever the photo shows, and smoothed only when there is some."""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tablesight.synthetic.dataset import truth_path
from tablesight.vision.castellan.card_through_grain import photo_to_read_and_card
from tablesight.vision.denoise import NOISY_LEVELS, colour_noise_level, noise_level, quietened


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


def _half_size_sample(name: str) -> tuple[np.ndarray, float]:
    """A sample at half size (a webcam's 1137 x 640 or so) and its true focal length there (px)."""
    path = Path(__file__).parent.parent / "samples" / "castellan" / "photos" / name
    photo = cv2.resize(cv2.imread(str(path)), None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    return photo, json.loads(truth_path(path).read_text())["camera"]["matrix"][0][0] * 0.5


def test_grain_in_the_colour_is_told_from_grain_in_the_light():
    clean = np.clip(_scene(), 0, 255).astype(np.uint8)
    rng = np.random.default_rng(3)
    light_only = np.clip(_scene() + rng.normal(0, 4, clean.shape[:2])[..., None], 0, 255).astype(np.uint8)
    each_channel = np.clip(_scene() + rng.normal(0, 4, clean.shape), 0, 255).astype(np.uint8)
    assert colour_noise_level(clean) < 0.5 and noise_level(light_only) > 3.0
    assert colour_noise_level(light_only) < 0.5  # a phone's app leaves this: grain of the light alone
    assert 3.0 < colour_noise_level(each_channel) < 5.0
    assert colour_noise_level(cv2.cvtColor(each_channel, cv2.COLOR_BGR2GRAY)) == 0.0


def test_a_small_photos_card_is_found_and_its_pieces_read_without_smoothing_its_grain_of_light():
    """Sample 056 at half size: its camera's grain, coarser than a pixel at full size, measures 2 levels in the
    light at half size and little in the colour. The 3 x 3 median wiped out most of a 130 px card's marker bits
    (15 of 24 corners, the focal length 37 % off) and the edges of walls 4-8 px wide: the photo, read enlarged,
    is read as it is, its card too."""
    photo, true_focal = _half_size_sample("photo-056.jpg")
    assert noise_level(photo) > NOISY_LEVELS and colour_noise_level(photo) <= NOISY_LEVELS
    read, grain, card = photo_to_read_and_card(photo, None, None, None)
    assert read is photo and grain == 0.0
    assert card.corner_count == 24
    assert card.pose.lens.focal == pytest.approx(true_focal, rel=0.03)


@pytest.mark.parametrize("channels", [3, 1], ids=["grain in each channel", "heavy grain of light alone"])
def test_a_small_photo_with_grain_in_the_colour_or_heavy_grain_is_read_smoothed(channels):
    photo, _ = _half_size_sample("photo-056.jpg")
    noise = np.random.default_rng(4).normal(0, 4, photo.shape[:2] + (channels,))
    grainy = np.clip(photo + noise, 0, 255).astype(np.uint8)
    read, grain, card = photo_to_read_and_card(grainy, None, None, None)
    assert card is not None and grain > NOISY_LEVELS
    assert noise_level(read) < 0.6 * grain
