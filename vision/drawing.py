"""Small drawing helpers shared by the recognition overlays."""

from __future__ import annotations

import cv2
import numpy as np

FONT = cv2.FONT_HERSHEY_SIMPLEX


def text_with_outline(out: np.ndarray, text: str, origin: tuple[int, int], size: float, scale: int,
                      colour: tuple[int, int, int] = (255, 255, 255)) -> None:
    """Text (white unless told) ringed in black, readable on any photo. The ring is the text's own shape
    grown by a few pixels, not the text drawn again thicker: OpenCV 5 draws its fonts' thickness as their
    weight, bolder and wider, which left the outline beside the letters instead of around them."""
    (width, height), baseline = cv2.getTextSize(text, FONT, size, scale)
    ring = 2 * scale
    pad = ring + 2 * scale + height // 2  # room for the ring, and for glyphs a font draws past its box
    x, y = origin
    # The text's box (with its ring) in the picture, and the same box in a mask of its own.
    left, top = x - pad, y - height - pad
    mask = np.zeros((height + baseline + 2 * pad, width + 2 * pad), np.uint8)
    cv2.putText(mask, text, (pad, pad + height), FONT, size, 255, scale, cv2.LINE_AA)
    grown = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * ring + 1, 2 * ring + 1)))
    x0, y0 = max(0, left), max(0, top)
    x1, y1 = min(out.shape[1], left + mask.shape[1]), min(out.shape[0], top + mask.shape[0])
    if x0 >= x1 or y0 >= y1:
        return  # wholly outside the picture
    box = (slice(y0 - top, y1 - top), slice(x0 - left, x1 - left))
    region = out[y0:y1, x0:x1].astype(np.float32)
    behind = grown[box][..., None].astype(np.float32) / 255.0
    letters = mask[box][..., None].astype(np.float32) / 255.0
    region *= 1.0 - behind  # the ring (and the letters' place) in black
    region = region * (1.0 - letters) + np.array(colour, np.float32) * letters
    out[y0:y1, x0:x1] = np.clip(region + 0.5, 0, 255).astype(out.dtype)
