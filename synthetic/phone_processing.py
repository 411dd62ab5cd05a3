"""What a phone's camera app does to a picture after the sensor: noise reduction that smears fine texture and
colour, a tone curve lifting the shadows and rolling off the highlights (an "HDR" look), local contrast, a
saturation boost and sharpening that rings around every edge.

The generator's photos otherwise come straight from a sensor model (`effects`). Real phone photos never do,
so a set drawn with `random_phone_processing` checks that the reader does not lean on raw-looking pixels:
on edges without halos, on shadows as deep as the light made them, on colours as saturated as the plastic.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class PhoneProcessing:
    denoise: float  # luma smoothing that keeps edges: the bilateral filter's colour sigma (levels)
    chroma_blur: float  # colour smeared over this many pixels (sigma)
    shadow_lift: float  # the tone curve: 0 none, 0.35 a strong HDR look
    highlight_hold: float  # how much the highlights are rolled off (0 none)
    clarity: float  # local contrast: each pixel's log level pushed from its neighbourhood's by this share
    tone_radius: float  # that neighbourhood, as a share of the image's diagonal
    saturation: float  # colour gain around grey
    sharpen: float  # unsharp-mask amount
    sharpen_radius: float  # its sigma in pixels (wider rings wider halos)


def random_phone_processing(rng: np.random.Generator) -> PhoneProcessing:
    """Processing drawn from mild (a good phone in daylight) to heavy (a cheap phone at night, HDR on)."""
    return PhoneProcessing(
        denoise=float(rng.uniform(0.0, 25.0)),
        chroma_blur=float(rng.uniform(0.0, 3.0)),
        shadow_lift=float(rng.uniform(0.0, 0.35)),
        highlight_hold=float(rng.uniform(0.0, 0.4)),
        clarity=float(rng.uniform(0.0, 0.2)),
        tone_radius=float(rng.uniform(0.01, 0.06)),
        saturation=float(rng.uniform(0.9, 1.4)),
        sharpen=float(rng.uniform(0.2, 1.5)),
        sharpen_radius=float(rng.uniform(0.7, 2.5)),
    )


def _tone_gain(luma: np.ndarray, phone: PhoneProcessing) -> np.ndarray:
    """The phone's tone mapping as a gain per pixel (luma 0–1 in): a global curve lifting the shadows and
    rolling off the highlights, then local contrast ("clarity": each pixel's log level pushed away from its
    neighbourhood's, which leaves a faint halo beside every strong edge)."""
    h, w = luma.shape
    luma = np.clip(luma, 1e-3, 1.0)
    curve = luma ** (1.0 - phone.shadow_lift)
    curve = curve - phone.highlight_hold * np.clip(curve - 0.6, 0, None) ** 2
    sigma = max(2.0, phone.tone_radius * float(np.hypot(w, h)))
    log_curve = np.log(np.clip(curve, 1e-3, None))
    toned = np.exp(log_curve + phone.clarity * (log_curve - cv2.GaussianBlur(log_curve, (0, 0), sigma)))
    return toned / luma


def process(image: np.ndarray, phone: PhoneProcessing) -> np.ndarray:
    """A float BGR picture (0–255 levels, noise included) as the phone's app would save it (float 0–255)."""
    bgr = np.clip(image / 255.0, 0, 1).astype(np.float32)
    if phone.denoise > 0.5 or phone.chroma_blur > 0.3:
        luma, cr, cb = cv2.split(cv2.cvtColor(bgr, cv2.COLOR_BGR2YCrCb))  # float: luma 0–1, chroma about 0.5
        if phone.denoise > 0.5:
            luma = cv2.bilateralFilter(luma, 5, phone.denoise / 255.0, 2.0)
        if phone.chroma_blur > 0.3:
            cr = cv2.GaussianBlur(cr, (0, 0), phone.chroma_blur)
            cb = cv2.GaussianBlur(cb, (0, 0), phone.chroma_blur)
        bgr = cv2.cvtColor(cv2.merge([luma, cr, cb]), cv2.COLOR_YCrCb2BGR)
    luma = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    bgr = bgr * _tone_gain(luma, phone)[..., None]
    luma = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    bgr = luma[..., None] + phone.saturation * (bgr - luma[..., None])
    detail = luma - cv2.GaussianBlur(luma, (0, 0), phone.sharpen_radius)
    return 255.0 * (bgr + phone.sharpen * detail[..., None])
