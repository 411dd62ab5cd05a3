"""Camera grain: measured whatever the photo shows, and smoothed only when there is some."""

import cv2
import numpy as np

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
