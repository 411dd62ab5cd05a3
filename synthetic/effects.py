"""What a real camera does to a picture: lens distortion, vignetting, exposure, noise, blur, JPEG."""

from __future__ import annotations

import math

import cv2
import numpy as np


def pinhole_canvas(matrix: np.ndarray, distortion: np.ndarray,
                   size: tuple[int, int]) -> tuple[np.ndarray, tuple[int, int]]:
    """The camera matrix and image size of a pinhole picture that holds all a lens with `distortion` sees in an
    image of `size`: barrel distortion draws the photo's edges from beyond the pinhole's frame (a real lens
    shows more of the table there, never a mirror of it). The canvas is at most twice as wide and high."""
    if not np.any(distortion):
        return matrix, size
    w, h = size
    edge_x, edge_y = np.linspace(0, w - 1, 65), np.linspace(0, h - 1, 65)
    border = np.concatenate([np.column_stack([edge_x, np.zeros(65)]), np.column_stack([edge_x, np.full(65, h - 1.0)]),
                             np.column_stack([np.zeros(65), edge_y]), np.column_stack([np.full(65, w - 1.0), edge_y])])
    ideal = cv2.undistortPoints(border.reshape(-1, 1, 2), matrix, distortion, P=matrix).reshape(-1, 2)
    (low_x, low_y), (high_x, high_y) = ideal.min(axis=0), ideal.max(axis=0)
    left, top = _margin(-low_x, w), _margin(-low_y, h)
    right, bottom = _margin(high_x - (w - 1), w), _margin(high_y - (h - 1), h)
    canvas = matrix.astype(np.float64).copy()
    canvas[0, 2] += left
    canvas[1, 2] += top
    return canvas, (w + left + right, h + top + bottom)


def _margin(beyond: float, side: int) -> int:
    """Pixels to add to a side of the frame that the lens sees `beyond` pixels past (2 spare, at most half); none
    where it sees nothing past it (a pincushion lens: its picture is drawn as before, texture and all)."""
    return 0 if beyond <= 0 else int(min(math.ceil(beyond) + 2, side // 2))


def distort(image: np.ndarray, matrix: np.ndarray, distortion: np.ndarray, canvas: np.ndarray | None = None,
            size: tuple[int, int] | None = None) -> np.ndarray:
    """The image (of `size`, by default the picture's) a lens of `matrix` with `distortion` would record, from an
    ideal pinhole picture drawn through `canvas` (by default `matrix`; a wider frame from `pinhole_canvas`)."""
    if not np.any(distortion):
        return image
    w, h = size or image.shape[1::-1]
    xs, ys = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
    pts = np.stack([xs.ravel(), ys.ravel()], axis=1).reshape(-1, 1, 2)
    ideal = cv2.undistortPoints(pts, matrix, distortion, P=matrix).reshape(h, w, 2)
    shift = (canvas if canvas is not None else matrix)[:2, 2] - matrix[:2, 2]
    ideal = (ideal + shift.astype(np.float32)).astype(np.float32)
    return cv2.remap(image, ideal[..., 0], ideal[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def vignette(image: np.ndarray, strength: float) -> np.ndarray:
    h, w = image.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    r2 = ((xs - w / 2) ** 2 + (ys - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
    return image * (1 - strength * r2)[..., None]


SRGB_GAMMA = 2.2  # sRGB's curve, near enough


def srgb_to_linear(levels: np.ndarray) -> np.ndarray:
    """Colour levels (0–255) as sRGB encodes them, back to linear light on the same 0–255 scale."""
    return 255.0 * (np.clip(levels, 0, 255) / 255.0) ** SRGB_GAMMA


def camera_response(image: np.ndarray, exposure: float, white_balance: np.ndarray, gamma: float) -> np.ndarray:
    """Linear light to 8-bit-like values: exposure, a white-balance error and a tone curve."""
    scaled = np.clip(image * exposure * white_balance[None, None, :] / 255.0, 0, 1)
    return 255.0 * scaled ** (1.0 / gamma)


def sensor_noise(image: np.ndarray, rng: np.random.Generator, sigma: float) -> np.ndarray:
    if sigma <= 0:
        return image
    shot = np.sqrt(np.clip(image, 0, 255) / 255.0)
    return image + rng.normal(0, 1, image.shape).astype(np.float32) * sigma * (0.4 + shot)


def blur(image: np.ndarray, sigma: float, motion_px: float, angle: float) -> np.ndarray:
    if sigma > 0.2:
        image = cv2.GaussianBlur(image, (0, 0), sigma)
    if motion_px >= 2:
        image = cv2.filter2D(image, -1, motion_kernel(motion_px, angle))
    return image


def motion_kernel(length_px: float, angle: float) -> np.ndarray:
    """A straight smear of `length_px` at `angle`, centred on the kernel's middle: the picture is smeared,
    not moved (a line drawn between whole-pixel ends shifted every photo by up to half a pixel)."""
    size = int(length_px) | 1
    c = size // 2
    kernel = np.zeros((size, size), np.float32)
    for t in np.linspace(-c, c, 8 * size + 1):  # points along the smear, spread bilinearly
        x, y = c + t * np.cos(angle), c + t * np.sin(angle)
        x0, y0 = int(np.floor(x)), int(np.floor(y))
        fx, fy = x - x0, y - y0
        for xi, yi, wgt in ((x0, y0, (1 - fx) * (1 - fy)), (x0 + 1, y0, fx * (1 - fy)),
                            (x0, y0 + 1, (1 - fx) * fy), (x0 + 1, y0 + 1, fx * fy)):
            if 0 <= xi < size and 0 <= yi < size:
                kernel[yi, xi] += wgt
    return kernel / kernel.sum()


def jpeg_round_trip(image: np.ndarray, quality: int) -> np.ndarray:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    assert ok
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def colour_fringes(image: np.ndarray, blue: float, red: float) -> np.ndarray:
    """Lateral chromatic aberration: the blue and the red channel imaged larger by these shares (negative:
    smaller) than green about the picture's centre (0.001: a pixel apart at a 1600 × 1200 picture's corners)."""
    h, w = image.shape[:2]
    out = image.copy()
    for channel, share in ((0, blue), (2, red)):
        warp = cv2.getRotationMatrix2D((w / 2, h / 2), 0, 1 + share)
        out[..., channel] = cv2.warpAffine(image[..., channel], warp, (w, h), borderMode=cv2.BORDER_REFLECT)
    return out


def vivid_tone_curve(image: np.ndarray) -> np.ndarray:
    """A phone's vivid look: an S-shaped tone curve on each channel, stretched to the full range, and 30 %
    more saturation. Per channel on purpose: under a cast the curve bends each channel differently (a warm-lit
    grey comes out tan in its mid-tones, a faint cream in its highlights), which the generator's
    `phone_processing` (a curve on brightness alone, hues kept) does not."""
    x = image.astype(np.float32) / 255
    curved = 1 / (1 + np.exp(-6 * (x - 0.5)))
    curved = (curved - curved.min()) / max(float(curved.max() - curved.min()), 1e-6)
    hsv = cv2.cvtColor((curved * 255).astype(np.uint8), cv2.COLOR_BGR2HSV).astype(np.float32)
    hsv[..., 1] = np.clip(hsv[..., 1] * 1.3, 0, 255)
    return cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR)
