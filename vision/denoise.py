"""Camera noise: measured in the photo, and smoothed away where it would speckle the pixel classes.

A webcam in a dim room or a phone's small sensor leaves grain of several levels in each channel: the
per-pixel tests of colour (how saturated, how far from the table's light) then flip from pixel to
pixel, and the table comes out strewn with grey specks while the pieces fray. A 3 × 3 median keeps
the pieces' edges and takes most of the grain (the samples with 6 levels of noise added: towers
found .71 precision / .79 recall before, .94 / .89 after).

Grain is measured twice: in the light (`noise_level`) and in the colour (`colour_noise_level`). A phone's
app smooths the colour's grain away and leaves the light's; a webcam's or a raw sensor's grain is in each
channel on its own, and speckles the tests of colour (sample 016 under 3 levels of it in each channel, read
unsmoothed: its plain dark table taken for 800 towers). Where the median costs a coarse photo its pieces'
edges, only grain in the colour is worth that (`card_through_grain`).
"""

from __future__ import annotations

import cv2
import numpy as np

NOISY_LEVELS = 1.5  # grain (standard deviation, 8-bit levels) from which the photo is smoothed
# Immerkær's mask: the difference of two Laplacians, blind to a smooth image and to straight edges; on
# white noise of deviation s its response has deviation 6 s.
NOISE_MASK = np.array([[1, -2, 1], [-2, 4, -2], [1, -2, 1]], np.float32)
NOISE_MASK_GAIN = 6.0
NOISE_SAMPLE_PX = 1024


def noise_level(image: np.ndarray) -> float:
    """The photo's grain in the light (8-bit levels): the robust spread of its grey's response to NOISE_MASK,
    so edges and texture, a minority of the pixels, do not count. Measured on the middle NOISE_SAMPLE_PX
    square at most (grain is the same all over; a 12 MP photo need not be read whole for it)."""
    middle = _middle(image)
    return _spread(middle if middle.ndim == 2 else cv2.cvtColor(middle, cv2.COLOR_BGR2GRAY))


def colour_noise_level(image: np.ndarray) -> float:
    """The photo's grain in the colour (8-bit levels): as `noise_level`, of the larger of its two opponent
    colours (blue against red, green against both; each scaled so that grain of s levels in each channel
    alone measures s). 0 for a grey-scale photo."""
    middle = _middle(image)
    if middle.ndim == 2:
        return 0.0
    b, g, r = cv2.split(middle.astype(np.float32))
    return max(_spread((b - r) / np.sqrt(2.0)), _spread((2 * g - b - r) / np.sqrt(6.0)))


def _middle(image: np.ndarray) -> np.ndarray:
    h, w = image.shape[:2]
    y0, x0 = max(0, (h - NOISE_SAMPLE_PX) // 2), max(0, (w - NOISE_SAMPLE_PX) // 2)
    return image[y0:y0 + NOISE_SAMPLE_PX, x0:x0 + NOISE_SAMPLE_PX]


def _spread(channel: np.ndarray) -> float:
    """The robust deviation of a channel's pixel-to-pixel grain (Immerkær's mask, the median absolute response)."""
    response = cv2.filter2D(channel.astype(np.float32), -1, NOISE_MASK)[1:-1, 1:-1]
    return 1.4826 * float(np.median(np.abs(response))) / NOISE_MASK_GAIN


def quietened(image: np.ndarray) -> tuple[np.ndarray, float]:
    """The photo with its grain smoothed if it has more than NOISY_LEVELS, and its grain as measured."""
    level = noise_level(image)
    return (cv2.medianBlur(image, 3) if level > NOISY_LEVELS else image), level
