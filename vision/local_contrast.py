"""Pieces of the table's own colour: what steps away from the table right around it.

A green keep on green felt: the table's colour model (`segmentation.TableModel`) takes
the keep for table, since the table has that colour. The keep still differs from the
felt right beside it — a little yellower or more saturated — by less than the felt varies
across the photo (light fall-off, the cast of a window) but by more than it varies over a
few centimetres. So each pixel's chromaticity is compared with the table's mean around
it, a few keeps wide, after smoothing over a few millimetres (a keep's top is a patch,
the felt's grain is not), against the spread such steps have over the whole photo.
A keep differing from the table only in brightness (red on red) is not found this way:
the table beside a lit wall is brighter too. Nor is the table's own mottling between the walls
told from a keep this way (the light there differs from the open table's): what steps away is
weak evidence, taken for a keep only where the rules ask for one (`carving.keeps_apart`).
"""

from __future__ import annotations

import cv2
import numpy as np

from tablesight.vision.segmentation import odd_window, robust_spread

WORKING_MM_PER_PIXEL = 1.0  # the steps are measured at about this scale: a keep's top is ~20 px across
TABLE_AROUND_MM = 61.0  # the table a pixel is compared with: about three keeps across
SMOOTHING_MM = 4.0  # a keep's top is a patch (~20 mm across); the felt's grain and the photo's noise are not
MIN_STEP_SPREADS = 4.0  # a step this many times the table's usual step (robust spread) is a piece
MIN_CHROMA_STEP = 0.03  # ... and never less than this chromaticity step (r, g shares of the sum)
BLEND_MM = 2.0  # how far a wall's grey blends into the table beside it in a photo (blur, JPEG)
MAX_DARKER_STOPS = 0.5  # a piece's top faces the light; far darker than the table around is a shadow


def distinct_from_table(photo: np.ndarray, table: np.ndarray, of_hue: np.ndarray, grey: np.ndarray,
                        mm_per_pixel: float) -> np.ndarray:
    """Where the photo, among its pixels `of_hue` (bool: saturated, of the keep hue the table has), steps
    away in chromaticity from the table around it (bool, the photo's size): further than the table's
    own texture steps, and not into shadow.
    `photo`: BGR as taken. The camera's own levels, not the card's: those clip a dark felt's weak
    channels to nothing, and so all its shades to one chromaticity.
    `table` (bool): the pixels whose colour the table has. Only they make the table around a pixel
    (in a castle, walls and other keeps fill much of a few keeps' width); other hues are left out of
    the smoothing too, so a red keep's step does not spill onto the green felt beside it.
    `grey` (bool): the unsaturated pixels (walls, towers), whose rims are left out."""
    h, w = photo.shape[:2]
    scale = min(1.0, mm_per_pixel / WORKING_MM_PER_PIXEL)
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    small = cv2.resize(photo, size, interpolation=cv2.INTER_AREA) if scale < 1.0 else photo
    mm_here = mm_per_pixel / scale
    coloured, table = (cv2.resize(mask.astype(np.float32), size, interpolation=cv2.INTER_AREA)
                       for mask in (of_hue, table))
    steps = _Steps(coloured, table * coloured, mm_here)
    b, g, r = cv2.split(small.astype(np.float32) + 1.0)  # + 1: no channel is nothing
    total = b + g + r
    chroma_step = cv2.magnitude(steps.of(r / total), steps.of(g / total))
    compared = steps.weight >= 0.5  # mostly grey around: no colour to compare
    level = max(MIN_STEP_SPREADS * robust_spread(chroma_step[compared][::7]), MIN_CHROMA_STEP)
    # Brightness alone is no evidence: the table beside a lit wall is brighter too (light bouncing off it).
    not_shade = steps.of(np.log2(total * (1.0 / 3.0))) > -MAX_DARKER_STOPS
    clear = _clear_of(grey, size, (BLEND_MM + SMOOTHING_MM / 2) / mm_here)
    distinct = (compared & (chroma_step > level) & not_shade & clear).astype(np.uint8)
    if scale < 1.0:
        distinct = cv2.resize(distinct, (w, h), interpolation=cv2.INTER_NEAREST)
    return distinct.astype(bool)


class _Steps:
    """Steps of a channel from the table's mean around each pixel, smoothed over the `coloured` pixels."""

    def __init__(self, coloured: np.ndarray, table: np.ndarray, mm_per_pixel: float) -> None:
        self.coloured, self.table = coloured, table
        self.window = odd_window(TABLE_AROUND_MM / mm_per_pixel)
        self.sigma = SMOOTHING_MM / mm_per_pixel
        self.weight = _smoothed(coloured, self.sigma)

    def of(self, channel: np.ndarray) -> np.ndarray:
        step = (channel - _table_mean(channel, self.table, self.window)) * self.coloured
        return _smoothed(step, self.sigma) / np.maximum(self.weight, 1e-3)


def _clear_of(grey: np.ndarray, size: tuple[int, int], reach_px: float) -> np.ndarray:
    """Pixels (at `size`) farther than `reach_px` from any `grey` one. Along a grey wall a photo blends its
    grey into the table's colour, a step in chromaticity the smoothing spreads, which along a wall's end
    or round a tower can make a keep-sized blob."""
    rim = odd_window(2 * reach_px)
    near = cv2.dilate(cv2.resize(grey.astype(np.uint8), size, interpolation=cv2.INTER_NEAREST),
                      np.ones((rim, rim), np.uint8))
    return near == 0


def _table_mean(channel: np.ndarray, weight: np.ndarray, window: int) -> np.ndarray:
    """The mean of `channel` over the table (`weight`) in a `window`-pixel square around each pixel."""
    box = (window, window)
    return cv2.boxFilter(channel * weight, -1, box) / np.maximum(cv2.boxFilter(weight, -1, box), 1e-3)


def _smoothed(image: np.ndarray, sigma: float) -> np.ndarray:
    return cv2.GaussianBlur(image, (0, 0), max(sigma, 0.5))
