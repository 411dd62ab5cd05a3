"""Grey plastic of the photo's own tint.

The card sets the photo's white balance: in card units a neutral grey has equal channels, and
grey plastic is taken to be what is unsaturated (`segmentation.grey_mask`). A box whose grey
is tinted (a greenish or mauve grey), or a castle lit by another light than the card, shows its
plastic saturated in card units, beyond what the usual looks take for grey. The castle is most
of what is on the table that is not table: the commonest chromaticity among the photo's
moderately saturated pixels unlike the table is the plastic's, and the photo balanced on it
shows the plastic neutral again.
"""

from __future__ import annotations

import cv2
import numpy as np

from tablesight.vision.segmentation import MIN_GREY_VALUE

MAX_CANDIDATE_SATURATION = 0.4  # a tinted grey at most; keeps are more saturated (their colours are not grey)
MIN_CANDIDATE_PIXELS = 400  # fewer pixels unlike the table say nothing of the plastic's tint
NEAR_CHROMA = 0.04  # pixels within this of the first estimate (r, g, b shares) refine it
CARD_MARGIN_PX = 8  # the card's sheet and its blurred edge are left out


def plastic_tint(normalised: np.ndarray, saturation: np.ndarray, value: np.ndarray, unlike_table: np.ndarray,
                 card_corners_px: np.ndarray | None = None) -> np.ndarray | None:
    """The colour grey plastic takes in this photo (BGR, card units, mean 1), or None without enough
    pixels unlike the table to tell. `normalised`: the photo (or the part classified) in card units;
    `saturation`, `value`: its colour features; `unlike_table`: where its colours are not the table's;
    `card_corners_px`: the card sheet's corners in the same pixels, left out (its white and black are
    neutral whatever the plastic)."""
    candidates = unlike_table & (saturation < MAX_CANDIDATE_SATURATION) & (value > MIN_GREY_VALUE)
    if card_corners_px is not None:
        sheet = np.zeros(candidates.shape, np.uint8)
        cv2.fillConvexPoly(sheet, np.round(card_corners_px).astype(np.int32), 1)
        sheet = cv2.dilate(sheet, np.ones((2 * CARD_MARGIN_PX + 1,) * 2, np.uint8))
        candidates &= sheet == 0
    if np.count_nonzero(candidates) < MIN_CANDIDATE_PIXELS:
        return None
    colours = np.maximum(normalised[candidates], 1e-3)
    chroma = colours / colours.sum(axis=1, keepdims=True)
    centre = np.median(chroma, axis=0)
    near = np.abs(chroma - centre).max(axis=1) < NEAR_CHROMA
    if np.count_nonzero(near) >= MIN_CANDIDATE_PIXELS:
        centre = np.median(chroma[near], axis=0)
    return (centre * 3.0).astype(np.float32)


def balanced_on(normalised: np.ndarray, tint: np.ndarray) -> np.ndarray:
    """The photo in card units balanced on `tint`: plastic of that colour comes out neutral."""
    return normalised / tint.reshape(1, 1, 3)
