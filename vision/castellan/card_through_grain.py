"""A grainy photo's card: found in the photo smoothed for its grain, or as it is where more of it shows there.

Grain moves a card's corners (6 levels of it: the focal length 12 % off), so a grainy photo is smoothed
(`denoise.quietened`) before its card is looked for. But a small photo's fine texture measures as grain too, and
the 3 x 3 median then wipes out a small card's marker bits.
"""

from __future__ import annotations

import numpy as np

from tablesight.calibration.camera import Lens
from tablesight.calibration.card import board_object_points
from tablesight.calibration.card_detection import CardDetection, find_card
from tablesight.vision.denoise import quietened


def quietened_with_card(image: np.ndarray, card: CardDetection | None, lens: Lens | None,
                         focal_35mm: float | None) -> tuple[np.ndarray, float, CardDetection | None]:
    """The photo smoothed for its grain (`quietened`), its grain, and its card (`card` if given): found in the
    smoothed photo unless more of its corners are found in the photo as it is (sample 056 at half size: smoothed,
    15 of 24 corners, the focal length 37 % off and the castle placed 10-30 cm away; as it is, 24)."""
    smoothed, grain = quietened(image)
    if card is not None:
        return smoothed, grain, card
    card = find_card(smoothed, lens, focal_35mm)
    if smoothed is not image and (card is None or card.corner_count < len(board_object_points())):
        as_taken = find_card(image, lens, focal_35mm)
        if as_taken is not None and (card is None or as_taken.corner_count > card.corner_count):
            card = as_taken
    return smoothed, grain, card
