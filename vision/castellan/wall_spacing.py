"""A castle's scale from how far apart its walls run, for a photo without the card.

A castle's walls lie along two square axes, and parallel walls lie a short wall's centre spacing apart (or
a multiple of it: a long wall spans two). Summed along one axis's direction, the grey plastic piles up on
each wall's line; the profile across the walls then repeats at that spacing, which its autocorrelation
shows as a peak. The spacing in pixels over the spacing in millimetres is the scale. Many walls add up to
it, where a wall's width (a few pixels, its merlons and shaded side in or out of the grey by the light)
gave the scale only within a factor of two.

A photo from straight above is assumed: a tilt foreshortens one axis, and the two axes' spacings are
averaged. The scale is a first guess for the scales `without_card` tries. Measured on 154 photos (the
samples and three fresh sets, their card painted out): where both axes repeat alike (96), within 20 % of
the true scale for 91; where they disagree (39), the shorter spacing within 20 % for 31; the walls' width
alone, for 50 of the 154.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from tablesight.vision.castellan.edge_tilt import castle_region

MAX_SIDE_PX = 600  # the castle's grey is reduced to this for the profiles (a spacing spans tens of pixels)
ANGLE_STEP_DEG = 1.0
SECOND_AXIS_SLACK_DEG = 20.0  # the second axis lies within this of square to the first (a tilt skews them)
# Peaks the autocorrelation must reach (of its value at no shift) to be a spacing, not noise.
MIN_PEAK = 0.1
# The spacing is the shortest shift peaking at this share of the highest peak or more: the walls repeat at
# its multiples too, as high where most lines hold a wall.
STRONG_PEAK_SHARE = 0.6
AXES_AGREE = 1.2  # the two axes' spacings within this ratio are the same spacing, foreshortened
MIN_SPACINGS_ACROSS = 2.0  # the castle's grey must span this many spacings for one to be told


@dataclass(frozen=True)
class SpacingScale:
    """The scale (pixels per millimetre) the walls' spacing gives, and whether the castle's two axes gave
    the same spacing (within AXES_AGREE): then it is within a few per cent from straight above."""

    px_per_mm: float
    axes_agree: bool


def scale_from_wall_spacing(grey: np.ndarray, spacing_mm: float,
                            scale_range: tuple[float, float] = (0.15, 6.0)) -> SpacingScale | None:
    """The scale from the repeat of the castle's walls in the photo's `grey` plastic mask, the walls' lines
    `spacing_mm` apart (a short wall's centre spacing); None where either axis tells no repeat (one axis
    alone often repeats at twice the spacing: long walls). `scale_range`: the scales (px/mm) a photo of a
    castle can have."""
    castle, factor = _castle_grey(grey)
    if castle is None:
        return None
    scales = []
    for profile in _wall_axis_profiles(castle):
        lag = _profile_spacing(profile, (scale_range[0] * spacing_mm * factor, scale_range[1] * spacing_mm * factor))
        if lag is None:
            return None
        scales.append(lag / factor / spacing_mm)
    if max(scales) / min(scales) > AXES_AGREE:
        # The axes disagree: one repeats at a multiple of the spacing (long walls along it, gaps between
        # walls: fresh 11500-013), more often than at a part of it (a wall's two edges, a table's stripes).
        return SpacingScale(min(scales), axes_agree=False)
    return SpacingScale(float(np.exp(np.mean(np.log(scales)))), axes_agree=True)


def _castle_grey(grey: np.ndarray) -> tuple[np.ndarray | None, float]:
    """The grey of the photo's larger parts (the castle), cropped and reduced to MAX_SIDE_PX (float 0/1),
    and the factor it was reduced by."""
    region = castle_region(grey)
    if region is None:
        return None, 1.0
    castle = ((grey > 0) & (region > 0)).astype(np.float32)
    ys, xs = np.nonzero(castle)
    castle = castle[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    factor = min(1.0, MAX_SIDE_PX / max(castle.shape))
    if factor < 1.0:
        castle = cv2.resize(castle, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    return castle, factor


def _wall_axis_profiles(castle: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The castle's grey summed along the two directions it piles up most sharply along (`_profile_across`): its
    walls' two axes, the second within SECOND_AXIS_SLACK_DEG of square to the first."""
    angles = np.arange(0.0, 180.0, ANGLE_STEP_DEG)
    profiles = [_profile_across(castle, a) for a in angles]
    sharpness = np.array([np.sum(profile ** 2) for profile in profiles])
    first = int(np.argmax(sharpness))
    near_square = np.abs((angles - angles[first]) % 180.0 - 90.0) <= SECOND_AXIS_SLACK_DEG
    second = int(np.flatnonzero(near_square)[np.argmax(sharpness[near_square])])
    return profiles[first], profiles[second]


def _profile_across(castle: np.ndarray, angle_deg: float) -> np.ndarray:
    """The castle's grey summed along the direction `angle_deg` (degrees from the photo's x axis): one value
    per line across it."""
    h, w = castle.shape
    side = int(math.hypot(h, w)) + 2
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), angle_deg, 1.0)
    turn[:, 2] += (side / 2 - w / 2, side / 2 - h / 2)
    return cv2.warpAffine(castle, turn, (side, side), flags=cv2.INTER_AREA).sum(axis=1)


def _profile_spacing(profile: np.ndarray, lag_range: tuple[float, float]) -> float | None:
    """The spacing (in the profile's samples) at which `profile` repeats, within `lag_range`: the shortest peak of
    its autocorrelation reaching STRONG_PEAK_SHARE of the highest, refined to a fraction of a sample; or None."""
    centred = profile - profile.mean()
    n = len(centred)
    # Each shift's mean product over the samples that overlap at it, over the value at no shift.
    auto = np.correlate(centred, centred, "full")[n - 1:] / np.arange(n, 0, -1)
    if auto[0] <= 0:
        return None
    auto = auto / auto[0]
    longest = min(lag_range[1], n / MIN_SPACINGS_ACROSS)
    first_rise = next((i for i in range(1, n - 1) if auto[i + 1] >= auto[i]), n)
    peaks = [i for i in range(max(first_rise, int(lag_range[0])), int(longest))
             if auto[i] >= MIN_PEAK and auto[i] >= auto[i - 1] and auto[i] >= auto[i + 1]]
    if not peaks:
        return None
    top = max(auto[i] for i in peaks)
    best = next(i for i in peaks if auto[i] >= STRONG_PEAK_SHARE * top)
    return _refined_peak(auto, best)


def _refined_peak(values: np.ndarray, i: int) -> float:
    """The peak at sample `i` refined by the parabola through it and its neighbours."""
    left, mid, right = values[i - 1], values[i], values[i + 1]
    curve = left - 2 * mid + right
    return float(i) if curve >= 0 else i + 0.5 * (left - right) / curve
