"""A shaken photo's motion blur, read from the photo itself, and the photo with it taken out.

A phone moved during the exposure smears everything along one line: the card's markers smear into
one another and are no longer read (7 px of smear lost the card in 13 of the 64 samples). Such a blur
(a box of `length` pixels along `angle`) multiplies the photo's spectrum by a sinc whose zeros repeat
every 1/length along the blur's direction; the log spectrum's own spectrum (the cepstrum) then shows a
deep trough `length` pixels from its centre in that direction. Knowing the blur, a Wiener filter takes
most of it out, and the markers can be read again.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

CROP_SIDE = 1024  # the cepstrum is read on the photo's middle this wide: camera shake blurs all of it alike
LENGTHS_PX = (3.0, 30.0)  # blur lengths looked for
ANGLE_STEP_DEG, LENGTH_STEP_PX = 1.0, 0.5
# How deep the trough must be, in robust spreads of the cepstrum at its distance from the centre: sharp
# samples show at most about 11, samples smeared by 5–10 px 10–55 (5 px is the least that is found).
MIN_TROUGH_DEPTH = 15.0
HARMONIC_SHARE = 0.5  # a trough at a fraction of the deepest's length this deep is the blur's own
WIENER_NOISE_SHARE = 0.01  # noise to signal power: more leaves blur, less amplifies the photo's noise


@dataclass(frozen=True)
class MotionBlur:
    length_px: float
    angle_deg: float  # direction of the smear in the photo, 0–180° from the x axis towards y
    depth: float  # how clearly the cepstrum shows it (robust spreads)

    def kernel(self) -> np.ndarray:
        """The blur as a normalised convolution kernel: a line `length_px` long along `angle_deg`."""
        size = int(np.ceil(self.length_px)) | 1
        kernel = np.zeros((size, size), np.float32)
        centre = size // 2
        direction = np.array([np.cos(np.radians(self.angle_deg)), np.sin(np.radians(self.angle_deg))])
        half = (self.length_px - 1) / 2
        for t in np.linspace(-half, half, max(2, int(self.length_px * 4))):
            x, y = np.round(centre + t * direction).astype(int)
            kernel[y, x] += 1.0
        return kernel / kernel.sum()


def motion_blur(grey: np.ndarray) -> MotionBlur | None:
    """The photo's linear motion blur, or None where the photo shows none (or too little to matter)."""
    h, w = grey.shape
    side_y, side_x = min(h, CROP_SIDE), min(w, CROP_SIDE)
    y0, x0 = (h - side_y) // 2, (w - side_x) // 2
    crop = grey[y0:y0 + side_y, x0:x0 + side_x].astype(np.float32)
    window = np.outer(np.hanning(side_y), np.hanning(side_x)).astype(np.float32)
    spectrum = np.log1p(np.abs(np.fft.fft2((crop - crop.mean()) * window)))
    cepstrum = np.fft.fftshift(np.real(np.fft.ifft2(spectrum))).astype(np.float32)
    angles = np.radians(np.arange(0.0, 180.0, ANGLE_STEP_DEG))
    lengths = np.arange(LENGTHS_PX[0], LENGTHS_PX[1] + 1e-6, LENGTH_STEP_PX)
    a, r = np.meshgrid(angles, lengths)
    polar = cv2.remap(cepstrum, (side_x // 2 + r * np.cos(a)).astype(np.float32),
                      (side_y // 2 + r * np.sin(a)).astype(np.float32), cv2.INTER_LINEAR)
    # Each distance from the centre against its own ring: the cepstrum falls off with distance.
    median = np.median(polar, axis=1, keepdims=True)
    spread = np.median(np.abs(polar - median), axis=1, keepdims=True) + 1e-9
    depth = (median - polar) / spread
    i, j = np.unravel_index(int(np.argmax(depth)), depth.shape)
    if depth[i, j] < MIN_TROUGH_DEPTH:
        return None
    # The sinc's zeros repeat: troughs also lie at twice and three times the length. The blur's own is the
    # first along its direction that is nearly as deep.
    along = depth[:, j]
    first = next(k for k in range(len(along)) if along[k] >= HARMONIC_SHARE * along[i]
                 and (k + 1 == len(along) or along[k] >= along[k + 1]))
    return MotionBlur(float(lengths[first]), float(np.degrees(angles[j])), float(depth[first, j]))


def deblurred(image: np.ndarray, blur: MotionBlur | np.ndarray) -> np.ndarray:
    """The photo (grey or BGR, uint8) with `blur` (a motion blur, or any blur kernel) taken out by a
    Wiener filter. The photo is mirrored beyond its edges (a transform's wrap-around would ring there) to
    a size OpenCV's transform is quick at."""
    kernel = blur.kernel() if isinstance(blur, MotionBlur) else blur
    h, w = image.shape[:2]
    kh, kw = kernel.shape
    size_y, size_x = cv2.getOptimalDFTSize(h + 2 * kh), cv2.getOptimalDFTSize(w + 2 * kw)
    wiener = _wiener_filter(kernel, (size_y, size_x))
    channels = cv2.split(image) if image.ndim == 3 else [image]
    restored = []
    for channel in channels:
        mirrored = cv2.copyMakeBorder(channel, kh, size_y - h - kh, kw, size_x - w - kw, cv2.BORDER_REFLECT_101)
        spectrum = cv2.dft(mirrored.astype(np.float32), flags=cv2.DFT_COMPLEX_OUTPUT)
        back = cv2.idft(cv2.mulSpectrums(spectrum, wiener, 0), flags=cv2.DFT_SCALE | cv2.DFT_REAL_OUTPUT)
        restored.append(np.clip(back[kh:kh + h, kw:kw + w], 0, 255).astype(np.uint8))
    return cv2.merge(restored) if image.ndim == 3 else restored[0]


def _wiener_filter(kernel: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The Wiener filter undoing `kernel` as a spectrum of `size` (OpenCV's two-channel complex layout)."""
    kh, kw = kernel.shape
    padded = np.zeros(size, np.float32)
    padded[:kh, :kw] = kernel
    padded = np.roll(padded, (-(kh // 2), -(kw // 2)), axis=(0, 1))  # the kernel's centre at the origin
    transfer = cv2.dft(padded, flags=cv2.DFT_COMPLEX_OUTPUT)
    re, im = transfer[..., 0], transfer[..., 1]
    power = re * re + im * im + WIENER_NOISE_SHARE
    return np.dstack([re / power, -im / power]).astype(np.float32)  # conj(transfer) / (|transfer|² + noise)
