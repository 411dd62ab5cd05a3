"""Where a patterned table's pattern is broken: a keep of the table's own colour on a check, stripes or a grid.

A keep whose colour the table has is no brighter nor more distinct from the table around it than the pattern's
own squares or lines are, but it is not the pattern: the table one period away looks like the table here, and a
keep does not. The table's periods are found outside the courtyards (the shifts that best map the table onto
itself: a check's diagonal, a grid's pitch, a shift along stripes; a cloth's mottle or a plain table has none),
and each keep-sized patch is scored by how far (CIELAB ΔE) it differs from its copies a period away, taking the
copy it is most like (one copy may fall on a wall or in a shadow).
"""

from __future__ import annotations

import cv2
import numpy as np

# A period is longer than a keep and a half (its copies never overlap it, so it breaks the pattern most at its
# centre), and short enough to repeat within a castle.
MIN_PERIOD_MM, MAX_PERIOD_MM = 33.0, 160.0
MIN_OVERLAP = 0.3  # a shift is weighed only where this share of the table still overlaps itself
# A table has a pattern where it repeats itself at a period more exactly than it resembles itself a few mm away
# (NEARBY_MM; the mean squared colour difference under this share of that): a check, a grid, stripes or grain
# do, and the pattern is broken where something else stands; a cloth's mottle and a plain table's light change
# more over a period than over a few mm, and are read by contrast instead (`courtyard_keeps`).
MAX_PERIOD_DIFFERENCE_SHARE = 0.5
NEARBY_MM = (2.0, 6.0)
# ... or where it repeats itself at a period far more exactly than at most shifts (under this share of their
# TYPICAL_PERCENTILE): a check of squares much wider than NEARBY_MM resembles itself a few mm away, edges aside,
# as closely as a period away under a lamp's fall-off (fresh 14000-012: a red check of 75 mm squares, 0.9 of it;
# 0.08 of its 10th percentile). Over 115 tables (session 95) plain, wood and cloth tables' best shifts came to 0.32
# of their 10th percentile and more; patterned tables' to 0.23 and less, but for three of finer patterns. Wide stripes
# map onto themselves at every shift along them, and along them a period across: over a tenth of all shifts, so their
# 10th percentile is a shift as good as the best (fresh 16700-010: lime and purple stripes 40 mm wide, the best shift
# 0.76 of the 10th percentile, 0.02 of the 25th; no pattern was seen, and five green keeps on the lime went unread).
# A typical shift is taken at the 25th percentile (session 114).
MAX_TYPICAL_SHARE, TYPICAL_PERCENTILE = 0.25, 25
NEAR_BEST_SHARE = 0.1  # of the way from the best shift's difference to a typical one's (TYPICAL_PERCENTILE)
SEARCH_PX_PER_MM = 0.5  # the periods are looked for at this scale (a pattern's period to 2 mm)
MIN_SEEN_SHARE = 0.5  # a patch and its copy must both show table over this share of it


def table_periods(lab: np.ndarray, table: np.ndarray, px_per_mm: float, count: int = 2) -> list[np.ndarray]:
    """Up to `count` shifts (x, y pixels of `lab`), no two in line, that best map the table (`table` pixels of
    `lab`, a Lab image) onto itself: the least mean squared colour difference where the table overlaps itself.
    An empty list if the table has no pattern (MAX_PERIOD_DIFFERENCE_SHARE, MAX_TYPICAL_SHARE)."""
    scale = SEARCH_PX_PER_MM / px_per_mm
    small = cv2.resize(lab, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA).astype(np.float64)
    mask = cv2.resize(table.astype(np.float32), None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) > 0.99
    msd = _mean_squared_differences(small, mask.astype(np.float64))
    h, w = mask.shape
    dy = np.fft.fftfreq(2 * h, 1 / (2 * h))[:, None]
    dx = np.fft.fftfreq(2 * w, 1 / (2 * w))[None, :]
    length = np.hypot(dx, dy) / SEARCH_PX_PER_MM
    nearby = msd[(length >= NEARBY_MM[0]) & (length <= NEARBY_MM[1]) & np.isfinite(msd)]
    msd[(length < MIN_PERIOD_MM) | (length > MAX_PERIOD_MM)] = np.inf
    weighed = msd[np.isfinite(msd)]
    if not weighed.size or not nearby.size:
        return []
    best, typical = weighed.min(), np.percentile(weighed, TYPICAL_PERCENTILE)
    if best > MAX_PERIOD_DIFFERENCE_SHARE * np.median(nearby) and best > MAX_TYPICAL_SHARE * typical:
        return []
    # Of the shifts nearly as good as the best (a period's multiples), the shortest: it overlaps most. Only
    # shifts where the difference is least around them: beside a period of a sharp check the difference climbs
    # steeply, but from so high a typical level that a shift a few mm off would still pass as nearly the best.
    near_best = best + NEAR_BEST_SHARE * (typical - best)
    least_around = msd == _shifted_minimum(msd)
    ys, xs = np.nonzero((msd <= near_best) & least_around)
    periods: list[np.ndarray] = []
    for i in np.argsort(length[ys, xs], kind="stable"):
        shift = _refined(msd, ys[i], xs[i], dx[0, xs[i]], dy[ys[i], 0]) / scale
        if all(_turned_apart(shift, p) for p in periods):
            periods.append(shift)
        if len(periods) == count:
            break
    return periods


def _shifted_minimum(msd: np.ndarray) -> np.ndarray:
    """Each shift's least difference over the 3 × 3 shifts around it (FFT order: the shifts wrap round)."""
    around = np.full_like(msd, np.inf)
    for oy in (-1, 0, 1):
        for ox in (-1, 0, 1):
            around = np.minimum(around, np.roll(msd, (oy, ox), axis=(0, 1)))
    return around


def _refined(msd: np.ndarray, y: int, x: int, shift_x: float, shift_y: float) -> np.ndarray:
    """The shift (x, y, search pixels) at the least of a parabola through the differences either side of the
    grid's least along each axis: a period between the search's pixels blurs a sharp pattern's edges."""
    h, w = msd.shape
    out = []
    for shift, before, here, after in ((shift_x, msd[y, (x - 1) % w], msd[y, x], msd[y, (x + 1) % w]),
                                       (shift_y, msd[(y - 1) % h, x], msd[y, x], msd[(y + 1) % h, x])):
        curvature = before - 2 * here + after
        step = 0.5 * (before - after) / curvature if np.isfinite(curvature) and curvature > 0 else 0.0
        out.append(shift + float(np.clip(step, -0.5, 0.5)))
    return np.array(out)


def pattern_breaks(lab: np.ndarray, seen: np.ndarray, periods: list[np.ndarray], patch_px: int) -> np.ndarray:
    """At each pixel: the mean colour difference (ΔE) over the patch `patch_px` across centred there between the
    table and its copy a period away (either way along each of `periods`, twice it, and their sum and difference),
    from the copy most alike; inf where no copy shows enough table (`seen`) with the patch."""
    h, w = seen.shape
    best = np.full((h, w), np.inf, np.float32)
    area = float(patch_px * patch_px)
    for period in _copies_apart(periods):
        for shift in (period, -period):
            move = np.float32([[1, 0, -shift[0]], [0, 1, -shift[1]]])
            copy = cv2.warpAffine(lab, move, (w, h), flags=cv2.INTER_LINEAR)
            copy_seen = cv2.warpAffine(seen.astype(np.uint8), move, (w, h), flags=cv2.INTER_NEAREST) > 0
            both = (seen & copy_seen).astype(np.float32)
            difference = np.linalg.norm(lab - copy, axis=-1) * both
            n = cv2.boxFilter(both, -1, (patch_px, patch_px), normalize=False, borderType=cv2.BORDER_CONSTANT)
            mean = cv2.boxFilter(difference, -1, (patch_px, patch_px), normalize=False,
                                 borderType=cv2.BORDER_CONSTANT) / np.maximum(n, 1.0)
            best = np.minimum(best, np.where(n >= MIN_SEEN_SHARE * area, mean, np.inf))
    return best


def _copies_apart(periods: list[np.ndarray]) -> list[np.ndarray]:
    """The shifts a copy of the table is taken at: each period and twice it, and with two, their sum and difference
    (periods too). More copies, more often one falls clear of the castle's walls (where none shows, nothing is
    told): a period about a courtyard's half-width puts a keep's nearest copies on its walls."""
    shifts = [*periods, *(2 * p for p in periods)]
    if len(periods) == 2:
        shifts += [periods[0] + periods[1], periods[0] - periods[1]]
    return shifts


def _mean_squared_differences(image: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """For every shift d (FFT order, padded so none wraps): the mean over pixels x where the mask holds at x and
    x + d of |image(x) − image(x + d)|², by correlations (inf where under MIN_OVERLAP of the mask overlaps)."""
    size = (2 * mask.shape[0], 2 * mask.shape[1])
    # Each sum over x of a(x) b(x + d) is a correlation, conj(A)·B in the frequency domain: summed there, two
    # inverse transforms give the overlap and the summed squared differences.
    spectrum_of_mask = np.fft.rfft2(mask, s=size)
    summed = np.zeros_like(spectrum_of_mask)
    for c in range(image.shape[2]):
        channel = image[..., c] * mask
        spectrum_of_power = np.fft.rfft2(channel * image[..., c], s=size)
        spectrum_of_channel = np.fft.rfft2(channel, s=size)
        summed += (np.conj(spectrum_of_power) * spectrum_of_mask + np.conj(spectrum_of_mask) * spectrum_of_power
                   - 2 * np.conj(spectrum_of_channel) * spectrum_of_channel)
    overlap = np.fft.irfft2(np.conj(spectrum_of_mask) * spectrum_of_mask, s=size)
    squared = np.fft.irfft2(summed, s=size)
    enough = overlap > MIN_OVERLAP * max(overlap[0, 0], 1.0)
    return np.where(enough, squared / np.maximum(overlap, 1.0), np.inf)


def _turned_apart(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two shifts are at least 30° out of line (a period's multiples say nothing new)."""
    sine = abs(a[0] * b[1] - a[1] * b[0]) / (np.linalg.norm(a) * np.linalg.norm(b))
    return bool(sine > 0.5)
