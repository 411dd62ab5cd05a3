"""A grainy photo: its card found through the grain, and its pieces read smoothed where that helps them.

Grain moves a card's corners (6 levels of it: the focal length 12 % off), so a grainy photo is smoothed
(`denoise.quietened`) before its card is looked for. But the 3 x 3 median also wipes out a small card's marker
bits, and a coarse photo's pieces lose their edges to it: a photo coarse enough to be read enlarged
(`working_resolution.read_enlarged`, walls 4-8 px wide) is read as it is unless its grain is in the colour
or heavy.
"""

from __future__ import annotations

import numpy as np

from tablesight.calibration.camera import Lens
from tablesight.calibration.card import board_object_points
from tablesight.calibration.card_detection import CardDetection, find_card
from tablesight.vision.castellan.working_resolution import read_enlarged
from tablesight.vision.denoise import NOISY_LEVELS, colour_noise_level, quietened

# A photo read enlarged is smoothed for grain in the light alone only past this much of it (8-bit levels): the
# samples at half size, 1.7-2.5 levels, read better as they are (48 -> 51 of 64 scores exact), but with grain of
# light added (every fourth sample at half size, 3.5-4 levels) worse: towers P/R 0.944 / 0.936 smoothed, 0.925 /
# 0.905 not (at 5 levels 0.917 / 0.908 against 0.885 / 0.871).
ENLARGED_LIGHT_GRAIN_MAX = 2 * NOISY_LEVELS


def photo_to_read_and_card(image: np.ndarray, card: CardDetection | None, lens: Lens | None,
                           focal_35mm: float | None) -> tuple[np.ndarray, float, CardDetection | None]:
    """The photo its pieces are read from, the grain it was smoothed for (0 if it was not smoothed), and its card
    (`card` if given, else `_card_through_grain`). A grainy photo is smoothed (`quietened`) unless it is read
    enlarged with its grain in the light alone and under ENLARGED_LIGHT_GRAIN_MAX: the samples at half size, their
    camera's grain (coarser than a pixel, the halving brings it to pixel scale) measuring 1.7-2.5 levels in the
    light and under 0.7 in the colour, read smoothed 48 of 64 scores exact, as they are 51; under 3 levels of
    grain in each channel the median is worth its loss (sample 048, read enlarged, without it: three walls lost,
    its scores wrong)."""
    smoothed, grain = quietened(image)
    if card is None:
        card = _card_through_grain(image, smoothed, lens, focal_35mm)
    if smoothed is image:
        return image, 0.0, card
    if (card is not None and read_enlarged(card) and grain <= ENLARGED_LIGHT_GRAIN_MAX
            and colour_noise_level(image) <= NOISY_LEVELS):
        return image, 0.0, card
    return smoothed, grain, card


def _card_through_grain(image: np.ndarray, smoothed: np.ndarray, lens: Lens | None,
                        focal_35mm: float | None) -> CardDetection | None:
    """The card found in the photo smoothed for its grain, unless more of its corners are found in the photo as
    it is (sample 056 at half size: smoothed, 15 of 24 corners, the focal length 37 % off and the castle placed
    10-30 cm away; as it is, 24)."""
    card = find_card(smoothed, lens, focal_35mm)
    if smoothed is not image and (card is None or card.corner_count < len(board_object_points())):
        as_taken = find_card(image, lens, focal_35mm)
        if as_taken is not None and (card is None or as_taken.corner_count > card.corner_count):
            card = as_taken
    return card
