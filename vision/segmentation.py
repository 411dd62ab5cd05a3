"""Pixel classes on a rectified plane: grey plastic, each keep colour, and the table.

Colours are first normalised by the card (paper = 1, ink = 0 per channel), which
removes exposure and the light's colour cast. The table's own colours are learnt
from a band of table around the card, so a grey-ish or patterned table is not
taken for pieces; grey plastic is what is unsaturated and unlike that table.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from tablesight.calibration.card import card_outline_mm
from tablesight.vision.table_view import Region, TableView

# OpenCV hues (0–180) of the keep colours. Wider ranges (amber yellow from 14, yellowish green from 42.5,
# teal blue from 92) read keeps of other shades (a re-render of seed 3434 with keep colours drawn wider:
# 14 -> 15 of 32), but blurred or heavily compressed photos then lost keeps to their blended edges
# (the samples soft: 15 -> 12, JPEG q25: 16 -> 13) and the samples as taken one double: not kept. Yellow
# alone from 15, not 18 (session 55): a yellow keep's hue over 1,050 keeps of realistic sets lies at 16.7–32
# (1 % under 18.3: an amber yellow under a flash, fresh 9898-021) while red's stops at 4.5.
KEEP_HUES = {"red": (-12.0, 10.0), "yellow": (15.0, 40.0), "green": (45.0, 85.0), "blue": (95.0, 130.0)}
MIN_KEEP_SATURATION = 0.35
WHOLE_TABLE_COLOUR_SHARE = 0.8  # a table (felt, a cloth) this much of one keep colour is that colour
TABLE_COLOUR_SHARE = 0.3  # ... and a table this much of it (a cloth's check) has that colour in part
# (not a pattern of two colours, whose borders would step from the mean of both)
MIN_LIT_KEEP_VALUE = 0.1  # card-normalised brightness of a keep's lit sides
MIN_SHADED_KEEP_VALUE = 0.02  # ... and of its sides in its own shade, joined to a lit side
BRIGHTER_SLACK_BINS = 1  # the table a bin darker than a pixel (0.65 stop: light fall-off) still counts
SHADE_DRIFT_BINS = 2  # chromaticity bins a table colour may drift in deep shade
MAX_GREY_SATURATION = 0.2
GREY_TABLE_LIKENESS = 8.0  # a colour this much likelier table than not is no grey plastic (`grey_mask`)
# Grey pieces on a pale table of their own colour are about a stop darker than it; the shade between
# walls is about half a stop (seed 1818, photo-014: 1.0 and 0.54).
DEEP_SHADE_STOPS = 0.5
MIN_GREY_VALUE = 0.07  # card-normalised brightness below which a pixel's colour is mostly noise
# A grey piece's sides turned from a lamp or the sun can be a few % of the card's white (seed 7100,
# photo-005: 4–8 %), lit only by the room's or the sky's light, bluer than the card's: their saturation
# in card units is that colour and noise, an absolute chroma of about this over their value.
DARKEST_GREY = 0.03
DARK_CHROMA = 0.015
# Dark grey plastic's sides turned from the sun are darker than the card's ink (card units 0–0.02, 5 stops
# below a pale wood: fresh 6363-005, a castle lost to its tops alone). The walls' cast shadows on a dark grey
# cloth fall as deep (6363-007, at the 1/64 floor), so only a look of its own takes these for plastic.
FAR_DARKER_STOPS = 3.0
MIN_STEP_STOPS = 0.2  # least step from the table's brightness (in stops) taken for plastic
# Steps from the table right around a pixel (`steps_from_table_around`): its median brightness over about a
# tower's width, steps measured within this many stops of the table's light (the median is of 8-bit levels).
STEPS_AROUND_MM, STEP_RANGE_STOPS, STEP_SPREADS = 25.0, 2.0, 4.0
MIN_LOCAL_STEP_STOPS = 0.1  # ... and at least this (the table around is measured, not modelled: a finer floor)
# Grey plastic on a faintly tinted table of its own brightness (a pale lavender board, fresh 5353-029: the
# table 0.013 from grey in chromaticity, spread 0.002; the plastic's tops 0.003): nearer grey than the
# table by this many of the table's spreads (`TableTint`), the spread taken as at least MIN_TINT_SPREAD.
NEARER_GREY_SPREADS, MIN_TINT_SPREAD = 3.0, 0.002
INK_SHARE_RESTORED = 0.5  # chromaticity from halfway between card units and the camera's levels
BINS = (40, 40, 10)
SHARE_BINS = 1.2  # chromaticity shares are binned from 0 to 1/1.2 (a colour's r or g share is rarely more)
SECTORS = 8
TABLE_BAND_MM = 110.0  # the table's colours are learnt this far around the card's sheet
# A pixel of the table band lying between the chromaticities around it (BLEND_WINDOW px square), by more
# than this share of their span and this many bins either way, where they span this many times their
# typical span, is a blend of two colours and not learnt (`steady_colour`), if both are coloured: this far
# from grey in chromaticity bins (about 0.08 of the shares). Eight sets and fresh 5656: scores 212 -> 217
# of 320, keep errors 374 -> 360 (keeps on an orange cloth with green lines, on two-coloured stripes).
BLEND_WINDOW, BLEND_SHARE, MIN_BLEND_BINS, STEADY_SPREADS, MIN_COLOURED_BINS = 5, 0.25, 2.0, 3.0, 4.0
TABLE_SAMPLES = 160  # the table's light and tint vary smoothly: the photo is sampled this often along its longer side
# Histogram smoothing (in bins): chromaticity is steady, brightness varies with the light over the table
# (lamp fall-off, vignetting: 0.9 bin is about 0.6 stop). Hues (at a brightness or brighter) a little more
# tolerant of chromaticity.
CHROMA_SMOOTH, VALUE_SMOOTH, HUE_SMOOTH = 0.25, 0.9, 0.4
SHARED_EDGE_BINS = 0.25  # a table sample this near a chromaticity bin's edge is learnt in part in the next bin
GREY_BINS = (15, 16)  # the chromaticity bins grey (a share of 1/3, bin 16.0) lies between, for r and for g


@dataclass(frozen=True)
class ColourFeatures:
    value: np.ndarray  # mean of the normalised channels
    saturation: np.ndarray  # (max - min) / max, 0 for grey
    hue: np.ndarray  # OpenCV hue 0–180
    chroma_key: np.ndarray  # flat histogram bin index of (r, g chromaticity, log value)


def colour_features(normalised: np.ndarray, ink_level: np.ndarray | None = None) -> ColourFeatures:
    """Per-pixel colour features of a card-normalised BGR float image (OpenCV ops: fast on big photos).
    `ink_level` (see `TableView.ink_level`): chromaticity is taken part way back towards the camera's own
    levels. In card units a dark saturated colour (a green keep on green felt) is darker than the ink in
    its weak channels, which clip to 0, and all such colours share one chromaticity; the camera's levels
    keep them apart (at the price of greying dark colours a little)."""
    n = _clipped(normalised)
    b, g, r = cv2.split(n)
    hi = cv2.max(cv2.max(b, g), r)
    lo = cv2.min(cv2.min(b, g), r)
    total = cv2.add(cv2.add(b, g), r)
    value = total * (1.0 / 3.0)
    saturation = cv2.divide(cv2.subtract(hi, lo), cv2.max(hi, 0.04))
    hsv = cv2.cvtColor(n * (1.0 / 1.6), cv2.COLOR_BGR2HSV)
    r_bins, g_bins = _chroma_bins(normalised, n, ink_level)
    key = _colour_key(r_bins.astype(np.int32), g_bins.astype(np.int32), _value_bin(value))
    return ColourFeatures(value, saturation, hsv[..., 0] * 0.5, key)


def _chroma_bins(normalised: np.ndarray, clipped: np.ndarray,
                 ink_level: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """The r and g chromaticity shares of each pixel in histogram bins, as fractions (a pixel's bin is their
    whole part): of the `clipped` channels, or part way back to the camera's levels (`colour_features`)."""
    channels = clipped
    if ink_level is not None:
        lifted = normalised + INK_SHARE_RESTORED * np.asarray(ink_level, np.float32)
        channels = np.clip(lifted, 0.0, 2.0, dtype=np.float32)
    b, g, r = cv2.split(channels)
    safe = cv2.max(cv2.add(cv2.add(b, g), r), 1e-3)
    r_bins = np.clip(cv2.divide(r, safe) * (BINS[0] * SHARE_BINS), 0, BINS[0] - 1e-3)
    g_bins = np.clip(cv2.divide(g, safe) * (BINS[1] * SHARE_BINS), 0, BINS[1] - 1e-3)
    return r_bins, g_bins


def _colour_key(rb: np.ndarray, gb: np.ndarray, vb: np.ndarray) -> np.ndarray:
    """The flat histogram index of chromaticity bins `rb`, `gb` and brightness bin `vb`."""
    return (rb * BINS[1] + gb) * BINS[2] + vb


def _value_bin(value: np.ndarray) -> np.ndarray:
    return np.clip((np.log2(cv2.max(value, 1 / 64)) + 6) * (BINS[2] / 6.5), 0, BINS[2] - 1).astype(np.int32)


def soft_chroma_keys(normalised: np.ndarray, ink_level: np.ndarray | None = None
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each pixel's colour as its histogram key (`ColourFeatures.chroma_key`), and as the keys of the four
    chromaticity bins around it with weights (each ... × 4, summing to 1): its own bin's, shared with the next
    where it lies near their edge (`_linear_split`). A plain table's colour is steadier than a bin is wide:
    learnt bin by bin, one lying near a bin's edge is learnt in one bin and met in the next a little way
    across the photo, where the light shifts it by a few thousandths (fresh 5858-024: a pink-grey table at r
    bin 15.9 near the card, 16.1 elsewhere, taken for grey plastic all over)."""
    n = _clipped(normalised)
    b, g, r = cv2.split(n)
    vb = _value_bin(cv2.add(cv2.add(b, g), r) * (1.0 / 3.0))
    r_bins, g_bins = _chroma_bins(normalised, n, ink_level)
    own = _colour_key(r_bins.astype(np.int32), g_bins.astype(np.int32), vb)
    keys, weights = [], []
    r_low, r_share = _linear_split(r_bins, BINS[0])
    g_low, g_share = _linear_split(g_bins, BINS[1])
    for r_step, r_weight in ((0, 1 - r_share), (1, r_share)):
        for g_step, g_weight in ((0, 1 - g_share), (1, g_share)):
            rb, gb = r_low + r_step, g_low + g_step
            # Grey plastic's own bins (grey lies on their edges) are learnt only from samples in them: near
            # grey, the plastic is what is looked for (a castle read a metre from the card on a table at g bin
            # 15.9 lost its grey in bin 16 to the table's share).
            keys.append(np.where(np.isin(rb, GREY_BINS) & np.isin(gb, GREY_BINS), own, _colour_key(rb, gb, vb)))
            weights.append(r_weight * g_weight)
    return own, np.stack(keys, axis=-1), np.stack(weights, axis=-1).astype(np.float32)


def _linear_split(bins: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray]:
    """The lower of the two bins either side of the bin edge nearest each fractional bin position, and the
    share going to the upper one: half at the edge, falling linearly to none SHARED_EDGE_BINS from it."""
    edge = np.clip(np.round(bins), 1, count - 1)
    upper_share = np.clip(0.5 + (bins - edge) / (2 * SHARED_EDGE_BINS), 0.0, 1.0)
    return (edge - 1).astype(np.int32), upper_share.astype(np.float32)


def _clipped(normalised: np.ndarray) -> np.ndarray:
    return np.clip(normalised, 0.0, 1.6, dtype=np.float32)


class TableModel:
    """How likely a colour is to be table, learnt from the table around the card."""

    def __init__(self, histogram: np.ndarray, hue_source: np.ndarray | None = None) -> None:
        """`histogram`: the table's colours (density per bin); `hue_source`: the one its hues are learnt from,
        if another (`_voted`)."""
        self.histogram = histogram
        # The table's hues at a brightness or brighter (a shadow is darker than the table, never brighter),
        # a little more tolerant of chromaticity (see `hue_likelihood`).
        source = histogram if hue_source is None else hue_source
        brighter = np.flip(np.cumsum(np.flip(source, axis=2), axis=2), axis=2)
        slack = BRIGHTER_SLACK_BINS
        hues = np.concatenate([brighter[..., :1]] * slack + [brighter[..., :-slack]], axis=2)
        for axis in (0, 1):
            hues = _blur_axis(hues, axis=axis, sigma=HUE_SMOOTH)
        self.hue_histogram = hues.astype(np.float32)
        # In the castle's shade a table colour is lit by other light (the sky, the bounce off the table)
        # and its chromaticity drifts: any chromaticity a few bins from a table hue may be table there.
        drift = np.ones((2 * SHADE_DRIFT_BINS + 1,) * 2, np.uint8)
        self.shaded_hue_histogram = np.stack([cv2.dilate(np.ascontiguousarray(self.hue_histogram[..., v]), drift)
                                              for v in range(BINS[2])], axis=2)

    @classmethod
    def learn(cls, view: TableView, ink_level: np.ndarray | None = None) -> TableModel:
        """Learn from a band of table around the card. Pieces or clutter may lie in part of the
        band, so a colour counts as table only where it appears all around the card.
        `ink_level`: as for `colour_features` (the features the model will be asked about)."""
        if not view.card.seen:
            return cls.learn_from_border(view, ink_level)
        outline = card_outline_mm()
        (x0, y0), _, (x1, y1), _ = table_band_mm()
        region = Region(float(x0), float(y0), float(x1), float(y1), 1.0)
        own, keys, weights = soft_chroma_keys(view.rectify(0.0, region), ink_level)
        inner = np.zeros(region.size[::-1], np.uint8)
        card_px = region.to_pixels(outline + np.sign(outline - outline.mean(axis=0)) * 15)
        cv2.fillConvexPoly(inner, np.round(card_px).astype(np.int32), 1)
        band = (inner == 0) & view.visible(0.0, region) & steady_colour(own)
        ys, xs = np.nonzero(band)
        centre = region.to_pixels(outline.mean(axis=0))
        sector = ((np.arctan2(ys - centre[1], xs - centre[0]) + np.pi) / (2 * np.pi) * SECTORS).astype(int) % SECTORS
        return cls._voted(own[ys, xs], sector, (keys[ys, xs], weights[ys, xs]))

    @classmethod
    def learn_from_border(cls, view: TableView, ink_level: np.ndarray | None = None) -> TableModel:
        """Without a card: learn from a band along the photo's edges (the game is framed in the middle)."""
        image = view.image
        h, w = image.shape[:2]
        step = max(1, max(h, w) // 800)
        small = image[::step, ::step]
        sh, sw = small.shape[:2]
        margin = max(2, int(0.07 * min(sh, sw)))
        band = np.ones((sh, sw), bool)
        band[margin:sh - margin, margin:sw - margin] = False
        own, keys, weights = soft_chroma_keys(view.normalised(small), ink_level)
        band &= steady_colour(own)
        ys, xs = np.nonzero(band)
        sector = ((np.arctan2(ys - sh / 2, xs - sw / 2) + np.pi) / (2 * np.pi) * SECTORS).astype(int) % SECTORS
        return cls._voted(own[ys, xs], sector, (keys[ys, xs], weights[ys, xs]))

    @classmethod
    def _voted(cls, keys: np.ndarray, sector: np.ndarray,
               shared: tuple[np.ndarray, np.ndarray] | None = None) -> TableModel:
        """A colour counts as table only if most sectors of the sample band show it. `keys`: each sample's own
        bin; `shared`: its bins and its share in each (`soft_chroma_keys`, one row per sample), if the
        table's colours are learnt so. Its hues are learnt from the samples' own bins all the same: a hue
        test tolerant of the next bin would take a grey piece's shaded sides for the shade of a grey table."""
        own = _voted_histogram(keys[:, None], np.ones((len(keys), 1), np.float32), sector)
        if shared is None:
            return cls(own)
        return cls(_voted_histogram(*shared, sector), hue_source=own)

    def likelihood(self, feats: ColourFeatures) -> np.ndarray:
        return self.histogram.ravel()[feats.chroma_key]

    def hue_likelihood(self, feats: ColourFeatures, shaded: bool = False) -> np.ndarray:
        """Like `likelihood`, at the pixel's brightness or brighter: a table colour in the castle's
        shadow is still table, but a colour far brighter than the table ever is (a red keep on a
        black table whose dark grain has every chromaticity) is not.
        `shaded`: also the chromaticities a table colour drifts to in deep shade."""
        hues = self.shaded_hue_histogram if shaded else self.hue_histogram
        return hues.ravel()[feats.chroma_key]


def table_band_mm() -> np.ndarray:
    """The corners of the window the table's colours are learnt in (`TableModel.learn`): the card's sheet and
    TABLE_BAND_MM around it, in table mm, clockwise from its lowest x and y."""
    outline = card_outline_mm()
    (x0, y0), (x1, y1) = outline.min(axis=0) - TABLE_BAND_MM, outline.max(axis=0) + TABLE_BAND_MM
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])


def _voted_histogram(keys: np.ndarray, weights: np.ndarray, sector: np.ndarray) -> np.ndarray:
    """The colours most sectors of the sample band show, as a density per bin ("one bin in a thousand" is
    1.0). `keys`, `weights`: each sample's bins and its share in each, one row per sample."""
    votes = np.zeros(BINS, np.float32)
    total = np.zeros(BINS, np.float32)
    seen = 0
    for k in range(SECTORS):
        chosen = sector == k
        if chosen.sum() < 50:
            continue
        seen += 1
        hist = np.bincount(keys[chosen].ravel(), weights=weights[chosen].ravel(),
                           minlength=int(np.prod(BINS))).astype(np.float32).reshape(BINS)
        hist = _smooth(hist)
        votes += hist > hist.max() * 0.01
        total += hist / hist.max()
    hist = np.where(votes >= max(1, seen * 0.6), total, 0.0)
    return hist / max(float(hist.sum()), 1e-9) * 1000.0


def steady_colour(chroma_key: np.ndarray) -> np.ndarray:
    """Where a pixel's chromaticity is not a blend between two colours of a pattern whose hues differ (an
    orange cloth's green lines blend to a keep's yellow): it lies well between the chromaticities around
    it (`_lies_between`), and both are coloured (`_between_colours`; a blend of white and green is a paler
    green, of the green's own hue). A pattern's own colours, even in thin lines, are at one end of the
    span. The table's blends need not be learnt: a pixel beside a table colour is taken as table anyway
    (`table_likeness`)."""
    point = np.stack([chroma_key // (BINS[1] * BINS[2]), (chroma_key // BINS[2]) % BINS[1]], axis=-1)
    point = point.astype(np.float32)
    kernel = np.ones((BLEND_WINDOW, BLEND_WINDOW), np.uint8)
    low = np.stack([cv2.erode(np.ascontiguousarray(point[..., i]), kernel) for i in (0, 1)], axis=-1)
    high = np.stack([cv2.dilate(np.ascontiguousarray(point[..., i]), kernel) for i in (0, 1)], axis=-1)
    return ~(_lies_between(point, low, high) & _between_colours(point, low, high))


def _lies_between(point: np.ndarray, low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """Where a pixel's chromaticity bins (r, g: `point`) lie more than BLEND_SHARE of the span around it
    (and MIN_BLEND_BINS) from its lowest and highest (`low`, `high`) in r or g, where that span is more
    than STEADY_SPREADS times its typical size over the image (a dark table's noise)."""
    span = high - low
    margin = np.maximum(BLEND_SHARE * span, MIN_BLEND_BINS)
    wide = span > STEADY_SPREADS * np.maximum(np.median(span.reshape(-1, 2), axis=0), 1.0)
    return (wide & (point - low > margin) & (high - point > margin)).any(axis=-1)


def _between_colours(point: np.ndarray, low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """Where the two chromaticities a pixel lies between are both coloured (MIN_COLOURED_BINS from grey):
    the corners of the span around it, paired the way its r and g shares vary together there (rising
    together, or one falling as the other rises)."""
    r, g = np.ascontiguousarray(point[..., 0]), np.ascontiguousarray(point[..., 1])
    size = (BLEND_WINDOW, BLEND_WINDOW)
    falls = (cv2.blur(r * g, size) - cv2.blur(r, size) * cv2.blur(g, size) < 0)[..., None]
    ends = (np.where(falls, np.stack([low[..., 0], high[..., 1]], axis=-1), low),
            np.where(falls, np.stack([high[..., 0], low[..., 1]], axis=-1), high))
    grey = np.float32(BINS[0] * SHARE_BINS / 3)  # a third of the shares, in bins
    return np.logical_and.reduce([np.linalg.norm(end - grey, axis=-1) > MIN_COLOURED_BINS for end in ends])


def _smooth(hist: np.ndarray) -> np.ndarray:
    """Tolerate small colour shifts and strong shading (shadows) of the same table colour."""
    for axis, sigma in ((0, CHROMA_SMOOTH), (1, CHROMA_SMOOTH), (2, VALUE_SMOOTH)):  # r, g chromaticity; brightness
        hist = _blur_axis(hist, axis=axis, sigma=sigma)
    return hist


def _blur_axis(volume: np.ndarray, axis: int, sigma: float) -> np.ndarray:
    from scipy.ndimage import gaussian_filter1d

    return gaussian_filter1d(volume, sigma, axis=axis, mode="constant", truncate=3.0)


def table_likeness(feats: ColourFeatures, table: TableModel, reach_px: int = 2, shaded: bool = False) -> np.ndarray:
    """Table likelihood of the hue at the pixel's brightness or brighter, taking the most table-like
    value nearby: the blended pixels on the border between two table colours (a tablecloth's
    pattern) count as table.
    `shaded`: as a table colour may look in deep shade (see `TableModel.hue_likelihood`)."""
    likelihood = table.hue_likelihood(feats, shaded).astype(np.float32)
    size = 2 * reach_px + 1
    return cv2.dilate(likelihood, np.ones((size, size), np.uint8))


def sample_step(shape: tuple[int, ...]) -> int:
    """Every how many pixels the photo is sampled for the table's smooth light and tint (TABLE_SAMPLES)."""
    return max(1, max(shape[:2]) // TABLE_SAMPLES)


def chromaticity(normalised: np.ndarray) -> np.ndarray:
    """Each pixel's r and g shares less a third (h, w, 2): (0, 0) is grey, whatever its brightness."""
    n = _clipped(normalised)
    total = cv2.max(n[..., 0] + n[..., 1] + n[..., 2], 1e-3)
    return np.dstack([n[..., 2] / total - 1 / 3, n[..., 1] / total - 1 / 3])


@dataclass(frozen=True)
class TableTint:
    """The table's chromaticity (see `chromaticity`) and its spread about it (grain, pattern, noise),
    from the photo sampled (`sample_step`): the table fills most of it."""

    chroma: np.ndarray
    sigma: float
    blur_px: int = 1  # chromaticity averaged over squares this wide (`blurred_chromaticity`)

    @classmethod
    def fit(cls, view: TableView, photo: np.ndarray, blur_px: int = 1) -> TableTint:
        """`blur_px`: chromaticity is averaged over squares this wide (`blurred_chromaticity`), as
        `nearer_grey` will be asked about it."""
        step = sample_step(photo.shape)
        normalised = view.normalised(photo)
        value = _clipped(normalised[::step, ::step]).mean(axis=2)
        sample = blurred_chromaticity(normalised, blur_px)[::step, ::step][value > MIN_GREY_VALUE]
        if not len(sample):
            return cls(np.zeros(2), MIN_TINT_SPREAD, blur_px)
        centre = np.median(sample, axis=0)
        spread = robust_spread(np.linalg.norm(sample - centre, axis=1))
        return cls(centre, max(spread, MIN_TINT_SPREAD), blur_px)

    def nearer_grey(self, normalised: np.ndarray) -> np.ndarray:
        """Pixels nearer grey in chromaticity than the table by NEARER_GREY_SPREADS of its spread: grey
        plastic on a tinted table of its own brightness; nothing on a table grey itself."""
        reach = float(np.linalg.norm(self.chroma)) - NEARER_GREY_SPREADS * self.sigma
        return np.linalg.norm(blurred_chromaticity(normalised, self.blur_px), axis=2) < reach


def blurred_chromaticity(normalised: np.ndarray, blur_px: int) -> np.ndarray:
    """`chromaticity` averaged over squares `blur_px` wide: a camera's colour noise is fine-grained (and
    its chroma sampled at half size), a piece's tint is not. On a noisy photo the table's spread of
    chromaticity pixel by pixel can be as wide as the step from it to grey plastic (fresh 6767-006: a
    blue-grey table 0.021 from grey, spread 0.005)."""
    chroma = chromaticity(normalised).astype(np.float32)
    return chroma if blur_px <= 1 else cv2.blur(chroma, (blur_px, blur_px))


@dataclass(frozen=True)
class TableLight:
    """The light over the table: a smooth surface of log brightness over the photo (lamp fall-off,
    vignetting), and the table's own spread of brightness around it (its grain, pattern and noise).

    Fitted as a quadratic to the whole photo, refitting without what strays far from it (the pieces,
    the card, clutter), so a dense castle does not pull it down."""

    coef: np.ndarray
    sigma: float
    shape: tuple[int, int]  # the photo's (height, width), which the surface's coordinates are shares of

    @classmethod
    def fit(cls, view: TableView, photo: np.ndarray) -> TableLight:
        """From the photo's brightness in card units (`ColourFeatures.value`), sampled (`sample_step`: the
        light is smooth): however little of the photo is then classified."""
        h, w = photo.shape[:2]
        step = sample_step(photo.shape)
        b, g, r = cv2.split(_clipped(view.normalised(photo[::step, ::step])))
        sample = np.log2(np.maximum(cv2.add(cv2.add(b, g), r) * (1.0 / 3.0), 1 / 64)).ravel()
        ys, xs = np.mgrid[0:h:step, 0:w:step]
        design = _quadratic_terms(xs.ravel() / w, ys.ravel() / h)
        inliers = np.ones(sample.shape, bool)
        sigma = 1.0
        for _ in range(4):
            coef, *_ = np.linalg.lstsq(design[inliers], sample[inliers], rcond=None)
            residual = sample - design @ coef
            sigma = max(robust_spread(residual[inliers]), 0.01)
            inliers = np.abs(residual) < 2.5 * sigma
        return cls(coef, sigma, (h, w))

    def surface(self, window: tuple[int, int, int, int] | None = None) -> np.ndarray:
        """Log brightness of the light at each pixel of the photo, or of its `window` (x0, y0, x1, y1).
        The surface is smooth: evaluated on a coarse grid and enlarged."""
        h, w = self.shape
        gy, gx = np.mgrid[0:65, 0:65] / 64.0
        coarse = (_quadratic_terms(gx.ravel(), gy.ravel()) @ self.coef).reshape(65, 65).astype(np.float32)
        whole = cv2.resize(coarse, (w, h), interpolation=cv2.INTER_LINEAR)
        if window is None:
            return whole
        x0, y0, x1, y1 = window
        return whole[y0:y1, x0:x1]


def brightness_steps(feats: ColourFeatures, light: TableLight,
                     window: tuple[int, int, int, int] | None = None) -> tuple[np.ndarray, float]:
    """How much brighter (+) or darker (-) each pixel is than the table's smooth light there, in
    stops, and the table's own spread of such steps. `feats` are of the photo `light` was fitted to, or
    of its `window` (x0, y0, x1, y1)."""
    log_value = np.log2(np.maximum(feats.value, 1 / 64))
    return log_value.astype(np.float32) - light.surface(window), light.sigma


def robust_spread(deviations: np.ndarray) -> float:
    """The spread of deviations from a centre as a Gaussian's sigma, from their median absolute size: the
    pieces and clutter among them, a minority, do not widen it. 0 for none."""
    return 1.4826 * float(np.median(np.abs(deviations))) if deviations.size else 0.0


def odd_window(size: float) -> int:
    """A filter window `size` pixels across, as the odd whole number (3 at least) a centred filter takes."""
    return max(3, int(size) // 2 * 2 + 1)


def _quadratic_terms(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.stack([np.ones_like(x), x, y, x * x, x * y, y * y], axis=-1).reshape(-1, 6)


def stands_out(feats: ColourFeatures, table_hue: np.ndarray, light: TableLight,
               window: tuple[int, int, int, int] | None = None, plastic_below: float | None = None) -> np.ndarray:
    """Unsaturated pixels that step away from the table's light further than the table ever does:
    pieces on a table of their own colour, which colour alone cannot tell apart. A darker step of
    the table's own hue is a shadow (cast by the pieces), not plastic — unless it is more than
    `plastic_below` stops darker. `light`, `window`: as for `brightness_steps`."""
    steps, sigma = brightness_steps(feats, light, window)
    level = max(MIN_STEP_STOPS, 4.0 * sigma)
    brighter = steps > level
    darker = (steps < -level) & (table_hue < 8.0)
    if plastic_below is not None:
        darker |= steps < -plastic_below
    return (brighter | darker) & (feats.saturation < MAX_GREY_SATURATION)


def steps_from_table_around(feats: ColourFeatures, light: TableLight, mm_per_pixel: float,
                            window: tuple[int, int, int, int] | None = None,
                            around_mm: float = STEPS_AROUND_MM) -> np.ndarray:
    """Unsaturated pixels stepping away, brighter or darker, from the table right around them (the median
    brightness over `around_mm`, STEPS_AROUND_MM unless told) by more than STEP_SPREADS of such steps' spread
    over the photo: a grey piece's lit top and shaded sides on a plain table of its own colour and brightness,
    mottled or unevenly lit, whose spread about the smooth light (`TableLight`) is as wide as the step to the pieces
    (fresh 6363-031: 0.041 stops about the light, 0.026 about the table around). Broad shade (a wall's
    cast shadow under a lamp) steps too: the carving keeps only what stands up."""
    steps, _ = brightness_steps(feats, light, window)
    levels = np.clip((steps + STEP_RANGE_STOPS) * (127.5 / STEP_RANGE_STOPS), 0, 255).astype(np.uint8)
    size = min(255, odd_window(around_mm / mm_per_pixel))  # medianBlur's widest on 8-bit levels
    around = cv2.medianBlur(levels, size).astype(np.float32) * (STEP_RANGE_STOPS / 127.5) - STEP_RANGE_STOPS
    local = steps - around
    spread = robust_spread(local[::5, ::5])
    return (np.abs(local) > max(MIN_LOCAL_STEP_STOPS, STEP_SPREADS * spread)) & (feats.saturation < MAX_GREY_SATURATION)


def far_darker(feats: ColourFeatures, light: TableLight, window: tuple[int, int, int, int] | None = None
               ) -> np.ndarray:
    """Pixels too dark for their colour to be read (MIN_GREY_VALUE) and far darker than the table's light
    there (FAR_DARKER_STOPS): the sides of dark grey plastic turned from the light, darker than the card's
    ink — and, under a hard light or on a dark cloth, the deepest cast shadows (the carving keeps only what
    stands up; the look taking these is weighed against the others). On a table within that many stops of
    the darkest brightness measured (1/64 of the card's white), nothing is marked."""
    steps, _ = brightness_steps(feats, light, window)
    return (feats.value <= MIN_GREY_VALUE) & (steps < -FAR_DARKER_STOPS)


def grey_mask(feats: ColourFeatures, table_like: np.ndarray, table_threshold: float = GREY_TABLE_LIKENESS,
              max_saturation: float = MAX_GREY_SATURATION, dark_sides: bool = False) -> np.ndarray:
    """Grey plastic: unsaturated (below `max_saturation`), not too dark, and a colour the table around the
    card does not have. `dark_sides`: down to DARKEST_GREY, allowing the darker pixels the chroma their
    noise (and the shade's own light, bluer than the card's) gives them (DARK_CHROMA)."""
    darkest, most_saturated = MIN_GREY_VALUE, max_saturation
    if dark_sides:
        darkest, most_saturated = DARKEST_GREY, max_saturation + DARK_CHROMA / np.maximum(feats.value, DARKEST_GREY)
    return (feats.saturation < most_saturated) & (feats.value > darkest) & (table_like < table_threshold)


def keep_masks(feats: ColourFeatures, table_like: np.ndarray, shaded_table_like: np.ndarray,
               min_lit_pixels: int = 1) -> dict[str, np.ndarray]:
    """Each keep colour: saturated, of the colour's hue, unlike the table. A keep's sides in its own
    shade are as saturated as its lit sides but far darker (a few % of the card's white): dark pixels
    count where they join a lit part of the same colour, never on their own (dark noise has any hue),
    and only if unlike the table as it looks in shade (`shaded_table_like`: the walls' shadows), to a
    lit part of at least `min_lit_pixels` (a keep's top faces the light; specks of a table pattern
    do not make a keep out of the shadows they touch)."""
    masks = {}
    for colour in KEEP_HUES:
        lit, shaded = _keep_coloured(feats, colour, shaded_table_like)
        lit_unlike = lit & (table_like < 0.5)
        masks[colour] = _joined(shaded | lit_unlike, lit_unlike, min_lit_pixels)
    return masks


def keeps_standing_apart(feats: ColourFeatures, masks: dict[str, np.ndarray], apart: dict[str, np.ndarray],
                         shaded_table_like: np.ndarray, min_lit_pixels: int) -> dict[str, np.ndarray]:
    """For keep colours the table has in part (`table_keep_colours`: red keeps on a red and green check), the
    parts of the colour that step away from the table around them (`apart`: `distinct_from_table`) and stand
    apart from the colour's keeps seen as usual (`masks`; their outlines stay as the table's colours left
    them), with `min_lit_pixels` lit at least (a keep's top). A check's square seen between walls steps away
    from the pattern around it too: these are weaker evidence than `keep_masks`."""
    out = {}
    for colour, steps in apart.items():
        lit, shaded = _keep_coloured(feats, colour, shaded_table_like)
        lit_apart = lit & steps
        seen = masks[colour] > 0
        seen = parts_holding(seen, seen, min_lit_pixels)  # the keeps seen as usual, not specks
        out[colour] = _apart_from(shaded | lit_apart, lit_apart, seen, min_lit_pixels)
    return out


def _keep_coloured(feats: ColourFeatures, colour: str, shaded_table_like: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray]:
    """The pixels of a keep colour's hue lit as a keep's top is, and those in its own shade unlike the
    table in shade (see `keep_masks`)."""
    saturated = (feats.saturation > MIN_KEEP_SATURATION) & in_keep_hue(feats.hue, colour)
    lit = saturated & (feats.value > MIN_LIT_KEEP_VALUE)
    shaded = saturated & (feats.value > MIN_SHADED_KEEP_VALUE) & (shaded_table_like < 0.5)
    return lit, shaded


def parts_holding(weak: np.ndarray, strong: np.ndarray, min_strong: int) -> np.ndarray:
    """The parts of `weak` (bool, 8-connected) holding at least `min_strong` pixels of `strong`."""
    count, labels = cv2.connectedComponents(weak.astype(np.uint8), connectivity=8)
    anchored = np.bincount(labels[strong], minlength=count) >= min_strong
    anchored[0] = False
    return anchored[labels]


def _apart_from(weak: np.ndarray, strong: np.ndarray, other: np.ndarray, min_strong: int) -> np.ndarray:
    """The parts of `weak` (8-connected; a superset of `strong`) holding at least `min_strong` pixels of
    `strong` and no pixel of `other`."""
    return parts_holding(weak, strong, min_strong) & ~parts_holding(weak, other, 1)


def table_keep_colour(feats: ColourFeatures, table_like: np.ndarray) -> str | None:
    """The keep colour the table is, nearly all over (green felt), if any."""
    colours = table_keep_colours(feats, table_like, WHOLE_TABLE_COLOUR_SHARE)
    return colours[0] if colours else None


def table_keep_colours(feats: ColourFeatures, table_like: np.ndarray, share: float = TABLE_COLOUR_SHARE
                       ) -> list[str]:
    """The keep colours the table has over `share` of it or more: green felt, or the red squares of a red
    and green check."""
    table = table_like >= 0.5
    count = np.count_nonzero(table)
    saturated = table & (feats.saturation > MIN_KEEP_SATURATION)
    return [colour for colour in KEEP_HUES
            if count and np.count_nonzero(saturated & in_keep_hue(feats.hue, colour)) > share * count]


def in_keep_hue(hue: np.ndarray, colour: str) -> np.ndarray:
    """Where an OpenCV hue image (0–180) is of the keep colour's hue (red wraps around 0)."""
    lo, hi = KEEP_HUES[colour]
    return ((hue >= lo) & (hue <= hi)) if lo >= 0 else ((hue >= 180 + lo) | (hue <= hi))


def _joined(weak: np.ndarray, strong: np.ndarray, min_strong: int) -> np.ndarray:
    """The parts of `weak` (a superset of `strong`) holding at least `min_strong` pixels of `strong`;
    smaller strong parts are kept as they are."""
    if np.count_nonzero(strong) < min_strong:  # too little of this colour in the photo to anchor anything
        return strong
    return parts_holding(weak, strong, min_strong) | strong
