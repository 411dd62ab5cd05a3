"""The resolution a photo is read at: about WORKING_PX_PER_MM on the table near the card, whatever the camera.

More pixels than that add time, not detail; far fewer (a webcam's 720p) lose pieces between the pixels.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import cv2
import numpy as np

from tablesight.calibration.card_detection import CardDetection

if TYPE_CHECKING:
    from tablesight.vision.castellan.reading import PhotoReading

WORKING_PX_PER_MM = 1.6
# A photo far coarser than that near the card (a webcam's 720p: 0.35-0.8 px/mm) is read at ENLARGEMENT times its
# size: its colours are then told, and its pieces carved, between its pixels, not on them (the samples at 720p:
# scores 41 -> 47 of 64, towers P/R 0.94 / 0.90 -> 0.98 / 0.94; a tower between two short walls no longer merges
# into a long wall, a keep's lean is measured finer; the 352 photos 258 -> 259, none lost). Photos of 0.8-1.3
# px/mm enlarged towards WORKING_PX_PER_MM too: 352 photos 258 -> 266, but 11 lost and two of them read wrong
# and trusted; with the card's corners weighed in the photo's own pixels in the lens fit, the 720p towers
# 0.96 / 0.92. The card's corners are weighed in the pixels read (an enlarged photo's card weighs more against
# its castle's walls, which a coarse photo places less surely).
ENLARGEMENT = 2.0
SMALLER_FROM = 0.9  # a photo is made smaller only when this share of its size or less would do


def working_resolution(image: np.ndarray, card: CardDetection) -> tuple[np.ndarray, CardDetection]:
    """The photo and its card at about WORKING_PX_PER_MM near the card: big ones made smaller, those coarser
    than half of it enlarged (ENLARGEMENT), others as they are."""
    factor = _scale_factor(card)
    if factor >= ENLARGEMENT:
        factor = ENLARGEMENT
        resized = cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_CUBIC)
    elif factor >= SMALLER_FROM:
        return image, card
    else:
        resized = cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    size = (resized.shape[1], resized.shape[0])
    return resized, card.scaled(size[0] / image.shape[1], size)


def read_enlarged(card: CardDetection) -> bool:
    """Whether the photo of this card is coarse enough to be read enlarged (see `working_resolution`)."""
    return _scale_factor(card) >= ENLARGEMENT


def _scale_factor(card: CardDetection) -> float:
    return WORKING_PX_PER_MM * card.mm_per_pixel()


def card_at_photo_size(reading: PhotoReading, shape: tuple[int, ...]) -> PhotoReading:
    """The reading with its card (found in the photo, read at a working resolution) at the photo's size."""
    h, w = shape[:2]
    card = reading.card
    if card is not None and card.pose.lens.image_size != (w, h):
        reading.card = card.scaled(w / card.pose.lens.image_size[0], (w, h))
    return reading
