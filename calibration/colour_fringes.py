"""Lateral chromatic aberration (colour fringes): measured on the card's edges, taken out of the photo.

A lens that bends red and blue by slightly other amounts than green images them a little larger or smaller
about the optical axis: black-and-white edges far from the photo's centre get a red rim on one side and a
blue one on the other, which the colour classes take for neither grey plastic nor table. The card is black
and white, so any colour along its edges is such a fringe: a channel imaged larger by a share `s` differs
from green by about −s · (p · ∇G) at pixel p (from the centre). The cameras' JPEG keeps colour at half
resolution, so both sides are compared blurred, and the fit is repeated on the photo corrected by what it
found (0.3 % fringes through a JPEG at quality 85: 86 % of them found in one round, 92 % in two).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from tablesight.calibration.card import card_outline_mm
from tablesight.calibration.card_detection import CardDetection

CHROMA_BLUR_PX = 2.5  # about a JPEG's halved colour resolution, blurred further by its compression
ROUNDS = 2
MIN_EDGE_PIXELS = 400  # fewer card-edge pixels (a card a few dozen pixels across) tell too little
MAX_CROP_SIDE = 600  # a bigger card is measured reduced to this (a 12 MP photo's: 190-890 ms -> 50-65 ms)
MAX_FIT_PIXELS = 20_000  # the fit takes every n-th edge pixel beyond this many
# Below this (0.4 px 1,000 px from the centre) a photo is left as it is: on 416 photos without fringes (the
# samples, nine generated sets, the samples at 720p; 384 of them measured) the measure stays under 0.029 %; 0.1 %
# fringes (a pixel at a 1600 × 1200 photo's corners) measure 0.08-0.09 % through a JPEG.
MIN_SHARE = 4e-4
# A card this near the photo's centre (its median corner, in shares of the half diagonal) shows fringes too
# small to tell from its print's own edges (they grow with the distance from the centre).
MIN_CARD_DISTANCE_SHARE = 0.25
MAX_SHARE = 0.01  # beyond this the measure is something else (a coloured card, a print in colour)
TRIM_ROUNDS, TRIM_SPREADS = 2, 3.0
SURE_ERRORS = 4.0


@dataclass(frozen=True)
class ColourFringes:
    """How much larger than green the blue and the red channel are imaged (shares about the photo's centre)."""

    blue: float
    red: float
    blue_error: float = 0.0  # their standard errors (the last round's fit)
    red_error: float = 0.0

    @property
    def worth_taking_out(self) -> bool:
        """Whether either channel is off by more than MIN_SHARE and SURE_ERRORS of its error (a card near the photo's
        centre, its edges at a small distance from it, tells the shares loosely)."""
        return any(MIN_SHARE <= abs(share) <= MAX_SHARE and abs(share) >= SURE_ERRORS * error
                   for share, error in ((self.blue, self.blue_error), (self.red, self.red_error)))


def measured_fringes(image: np.ndarray, card: CardDetection) -> ColourFringes | None:
    """The photo's colour fringes measured on its card (None where the card shows too little edge, or lies near
    the photo's centre), refined over ROUNDS on the photo's card region corrected by the fringes found so far."""
    half_diagonal = float(np.hypot(*image.shape[:2])) / 2
    distance = np.linalg.norm(card.image_points - _centre(image), axis=1)
    if np.median(distance) < MIN_CARD_DISTANCE_SHARE * half_diagonal:
        return None
    crop = _card_crop(image, card)
    if crop is None:
        return None
    patch, origin, inside = crop
    centre = _centre(image) - origin
    scale = min(1.0, MAX_CROP_SIDE / max(patch.shape[:2]))
    if scale < 1.0:  # a big card: fringes are shares of the distance from the centre, whatever the scale
        patch = cv2.resize(patch, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        inside = cv2.resize(inside, (patch.shape[1], patch.shape[0]), interpolation=cv2.INTER_NEAREST)
        centre = centre * scale
    # The card's own edges only: the table's colours beside its rim, blurred in, would pass for fringes.
    rim = 2 * int(np.ceil(3 * CHROMA_BLUR_PX)) + 5
    inside = cv2.erode(inside, np.ones((rim, rim), np.uint8)) > 0
    fit = _EdgeFit.of(patch, card, centre, inside)
    if fit is None:
        return None
    total = ColourFringes(0.0, 0.0)
    for _ in range(ROUNDS):
        step = fit.fringes(_shrunk(patch, total, centre))
        total = ColourFringes(total.blue + step.blue, total.red + step.red, step.blue_error, step.red_error)
    return total


def without_fringes(image: np.ndarray, fringes: ColourFringes) -> np.ndarray:
    """The photo with its blue and red channels scaled back onto green about its centre."""
    return _shrunk(image, fringes, _centre(image))


def _centre(image: np.ndarray) -> np.ndarray:
    return np.array([image.shape[1] / 2, image.shape[0] / 2])


def _shrunk(image: np.ndarray, fringes: ColourFringes, centre: np.ndarray) -> np.ndarray:
    """The picture with blue and red scaled by 1 / (1 + their share) about `centre`; green as it is."""
    out = image.copy()
    h, w = image.shape[:2]
    for channel, share in ((0, fringes.blue), (2, fringes.red)):
        if share:
            warp = cv2.getRotationMatrix2D((float(centre[0]), float(centre[1])), 0, 1 / (1 + share))
            out[..., channel] = cv2.warpAffine(image[..., channel], warp, (w, h), flags=cv2.INTER_LINEAR,
                                               borderMode=cv2.BORDER_REPLICATE)
    return out


def _card_crop(image: np.ndarray, card: CardDetection, pad: int = 8
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The photo around the card, the crop's top-left corner and where the card lies in it."""
    h, w = image.shape[:2]
    outline = np.round(card.table_to_image(card_outline_mm())).astype(np.int32)
    x, y, bw, bh = cv2.boundingRect(outline)
    x0, y0, x1, y1 = max(0, x - pad), max(0, y - pad), min(w, x + bw + pad), min(h, y + bh + pad)
    if x1 - x0 < 16 or y1 - y0 < 16:
        return None
    inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(inside, outline - [x0, y0], 1)
    return image[y0:y1, x0:x1], np.array([x0, y0], float), inside


@dataclass(frozen=True)
class _EdgeFit:
    """What each round's fit is made against, worked out once: green is never corrected, so the card's sharper
    edge pixels and the blurred radial change of green (with green itself and a constant, for what the card's
    white balance leaves) stay as they are; only blue and red less green change between rounds."""

    pixels: tuple[np.ndarray, np.ndarray]  # (rows, columns) of the edge pixels fitted
    design: np.ndarray
    black: np.ndarray
    span: np.ndarray

    @classmethod
    def of(cls, patch: np.ndarray, card: CardDetection, centre: np.ndarray, inside: np.ndarray) -> _EdgeFit | None:
        """None where the card shows fewer than MIN_EDGE_PIXELS edge pixels."""
        black = np.asarray(card.black_bgr, np.float32)
        span = np.maximum(np.asarray(card.white_bgr, np.float32) - black, 1.0)
        green = (patch[..., 1].astype(np.float32) - black[1]) / span[1]
        gx = cv2.Sobel(green, cv2.CV_32F, 1, 0, ksize=3) / 8
        gy = cv2.Sobel(green, cv2.CV_32F, 0, 1, ksize=3) / 8
        ys, xs = np.mgrid[0:patch.shape[0], 0:patch.shape[1]].astype(np.float32)
        radial = _blurred((xs - centre[0]) * gx + (ys - centre[1]) * gy)
        on_edges = inside & (np.abs(radial) > np.percentile(np.abs(radial[inside]), 50)) if inside.any() else inside
        if on_edges.sum() < MIN_EDGE_PIXELS:
            return None
        step = max(1, int(on_edges.sum()) // MAX_FIT_PIXELS)
        rows, columns = np.nonzero(on_edges)
        pixels = (rows[::step], columns[::step])
        design = np.stack([radial[pixels], _blurred(green)[pixels], np.ones(len(pixels[0]), np.float32)], 1)
        return cls(pixels, design, black, span)

    def fringes(self, patch: np.ndarray) -> ColourFringes:
        """One round's fit on the (corrected) patch: each channel less green, blurred, against the design."""
        levels = (patch.astype(np.float32) - self.black) / self.span
        green = np.ascontiguousarray(levels[..., 1])
        shares, errors = [], []
        for channel in (0, 2):
            difference = _blurred(np.ascontiguousarray(levels[..., channel]) - green)[self.pixels]
            share, error = _trimmed_fit(self.design, difference)
            shares.append(-share)  # imaged larger by s: the channel less green is −s · (p · ∇G)
            errors.append(error)
        return ColourFringes(*shares, *errors)


def _trimmed_fit(design: np.ndarray, values: np.ndarray) -> tuple[float, float]:
    """The first coefficient of a least-squares fit refitted without the pixels it fits worst (beyond
    TRIM_SPREADS robust spreads: the coloured edges of something lying over the card, a die or a card's corner,
    are not fringes), and its standard error, the blurred pixels counted as one per blur's area."""
    kept = np.ones(len(values), bool)
    for _ in range(TRIM_ROUNDS):
        coefficients, *_ = np.linalg.lstsq(design[kept], values[kept], rcond=None)
        residual = values - design @ coefficients
        spread = 1.4826 * float(np.median(np.abs(residual[kept]))) + 1e-6
        kept = np.abs(residual) <= TRIM_SPREADS * spread
    coefficients, *_ = np.linalg.lstsq(design[kept], values[kept], rcond=None)
    residual = values[kept] - design[kept] @ coefficients
    covariance = np.linalg.pinv(design[kept].T @ design[kept]) * float(np.mean(residual ** 2))
    correlated = 2 * np.pi * CHROMA_BLUR_PX ** 2  # pixels a blur makes alike
    return float(coefficients[0]), float(np.sqrt(max(covariance[0, 0], 0.0) * correlated))


def _blurred(values: np.ndarray) -> np.ndarray:
    return cv2.GaussianBlur(values, (0, 0), CHROMA_BLUR_PX)
