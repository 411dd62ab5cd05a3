"""Grey plastic of the photo's own tint.

The card sets the photo's white balance: in card units a neutral grey has equal channels, and
grey plastic is taken to be what is unsaturated (`segmentation.grey_mask`). A box whose grey
is tinted (a greenish or mauve grey), or a castle lit by another light than the card, shows its
plastic saturated in card units, beyond what the usual looks take for grey. The castle is most
of what is on the table that is not table: the commonest chromaticity among the photo's
moderately saturated pixels unlike the table is the plastic's, and the photo balanced on it
shows the plastic neutral again. A phone's tone curve bends each channel's mid-tones apart more than its
highlights: the plastic's shaded sides then take another tint than its lit tops, so the tint is told in bands
of brightness (`PlasticTint`), each pixel balanced on its own brightness's.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from tablesight.vision.segmentation import MIN_GREY_VALUE

MAX_CANDIDATE_SATURATION = 0.4  # a tinted grey at most; keeps are more saturated (their colours are not grey)
MIN_CANDIDATE_PIXELS = 400  # fewer pixels unlike the table say nothing of the plastic's tint
NEAR_CHROMA = 0.04  # pixels within this of the first estimate (r, g, b shares) refine it
CARD_MARGIN_PX = 8  # the card's sheet and its blurred edge are left out
BRIGHTNESS_BANDS = 4  # the bands of brightness (equal shares of the plastic's pixels) the tint is told in


@dataclass(frozen=True)
class PlasticTint:
    """The colour grey plastic takes at each brightness (BGR, card units, mean 1): `tints[i]` at the mean of the
    channels `brightness[i]`, in between interpolated, beyond the ends as at the ends."""

    brightness: np.ndarray
    tints: np.ndarray

    def at(self, brightness: np.ndarray) -> np.ndarray:
        """The tint at each of `brightness` (any shape), in a last axis of three channels."""
        return np.stack([np.interp(brightness, self.brightness, self.tints[:, c]) for c in range(3)], axis=-1)


def plastic_tint(normalised: np.ndarray, saturation: np.ndarray, value: np.ndarray, unlike_table: np.ndarray,
                 card_corners_px: np.ndarray | None = None, bands: int = BRIGHTNESS_BANDS) -> PlasticTint | None:
    """The colour grey plastic takes in this photo at each brightness, told in `bands` bands (equal shares of its
    pixels), or None without enough pixels unlike the table to tell. `normalised`: the photo (or the part
    classified) in card units; `saturation`, `value`: its colour features; `unlike_table`: where its colours are
    not the table's; `card_corners_px`: the card sheet's corners in the same pixels, left out (its white and black
    are neutral whatever the plastic)."""
    colours = _candidate_colours(normalised, saturation, value, unlike_table, card_corners_px)
    if colours is None:
        return None
    brightness = colours.mean(axis=1)
    edges = np.quantile(brightness, np.linspace(0, 1, bands + 1))
    band = np.clip(np.searchsorted(edges, brightness, side="right") - 1, 0, bands - 1)
    least = MIN_CANDIDATE_PIXELS // bands
    centres, tints = [], []
    for i in range(bands):
        tint = _tint_of(colours[band == i], least)
        if tint is not None:
            centres.append(float(np.median(brightness[band == i])))
            tints.append(tint)
    return PlasticTint(np.array(centres), np.array(tints, np.float32)) if tints else None


def _candidate_colours(normalised: np.ndarray, saturation: np.ndarray, value: np.ndarray, unlike_table: np.ndarray,
                       card_corners_px: np.ndarray | None) -> np.ndarray | None:
    """The colours (N × 3, card units) of the pixels that may be grey plastic: moderately saturated, unlike the
    table, off the card's sheet; None if too few."""
    candidates = unlike_table & (saturation < MAX_CANDIDATE_SATURATION) & (value > MIN_GREY_VALUE)
    if card_corners_px is not None:
        sheet = np.zeros(candidates.shape, np.uint8)
        cv2.fillConvexPoly(sheet, np.round(card_corners_px).astype(np.int32), 1)
        sheet = cv2.dilate(sheet, np.ones((2 * CARD_MARGIN_PX + 1,) * 2, np.uint8))
        candidates &= sheet == 0
    if np.count_nonzero(candidates) < MIN_CANDIDATE_PIXELS:
        return None
    return np.maximum(normalised[candidates], 1e-3)


def _tint_of(colours: np.ndarray, least: int) -> np.ndarray | None:
    """The commonest chromaticity of `colours` (BGR, mean 1), refined on those near it; None under `least`."""
    if len(colours) < least:
        return None
    chroma = colours / colours.sum(axis=1, keepdims=True)
    centre = np.median(chroma, axis=0)
    near = np.abs(chroma - centre).max(axis=1) < NEAR_CHROMA
    if np.count_nonzero(near) >= least:
        centre = np.median(chroma[near], axis=0)
    return (centre * 3.0).astype(np.float32)


def balanced_on(normalised: np.ndarray, tint: PlasticTint) -> np.ndarray:
    """The photo in card units balanced on `tint`, each pixel on its brightness's: plastic of that colour comes
    out neutral."""
    return normalised / tint.at(normalised.mean(axis=2)).astype(normalised.dtype)
