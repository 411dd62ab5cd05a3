"""A photo seen through its card: undistorted once, then rectified onto any plane above the table.

A plane h mm above the table maps to the undistorted image by the homography
K [r1 r2 t - h r3]. Rectifying onto the plane of a piece's top puts that top at its
true table position whatever the camera tilt, which is how pieces with height are read.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import cv2
import numpy as np

from tablesight.calibration.card_detection import CardDetection

CLIPPED_LEVEL = 250  # a channel this bright (JPEG rounds 255 down a little) may have been clipped


def _lift_clipped(raw: np.ndarray, normalised: np.ndarray) -> None:
    """In place: each channel of `normalised` (card units, contiguous) whose `raw` value may have been
    clipped, lifted to its pixel's brightest channel where that is higher. Clipped pixels are few: only
    they are touched."""
    channels = np.flatnonzero(raw.reshape(-1) >= CLIPPED_LEVEL)
    if channels.size == 0:
        return
    marked = np.zeros(raw.shape[0] * raw.shape[1], bool)
    marked[channels // 3] = True
    pixels = np.flatnonzero(marked)
    flat = normalised.reshape(-1, 3)
    values, hit = flat[pixels], raw.reshape(-1, 3)[pixels] >= CLIPPED_LEVEL
    flat[pixels] = np.where(hit, np.maximum(values, values.max(axis=1, keepdims=True)), values)


@dataclass(frozen=True)
class Region:
    """An axis-aligned window of the table (mm) sampled at `px_per_mm`."""

    x0: float
    y0: float
    x1: float
    y1: float
    px_per_mm: float

    @property
    def size(self) -> tuple[int, int]:
        return (max(1, int(round((self.x1 - self.x0) * self.px_per_mm))),
                max(1, int(round((self.y1 - self.y0) * self.px_per_mm))))

    def to_pixels(self, points_mm: np.ndarray) -> np.ndarray:
        return (np.asarray(points_mm, dtype=np.float64) - [self.x0, self.y0]) * self.px_per_mm

    def to_mm(self, pixels: np.ndarray) -> np.ndarray:
        return np.asarray(pixels, dtype=np.float64) / self.px_per_mm + [self.x0, self.y0]

    def sample(self, image: np.ndarray, points_mm: np.ndarray, outside=0) -> np.ndarray:
        """Values of an image over this region at table points (mm, any shape ending in 2), each from the
        pixel it falls in; `outside` for points beyond the image."""
        points_mm = np.asarray(points_mm, dtype=np.float64)
        px = np.floor(self.to_pixels(points_mm.reshape(-1, 2))).astype(int)
        h, w = image.shape[:2]
        inside = (px[:, 0] >= 0) & (px[:, 0] < w) & (px[:, 1] >= 0) & (px[:, 1] < h)
        values = np.full(len(px), outside, dtype=image.dtype)
        values[inside] = image[px[inside, 1], px[inside, 0]]
        return values.reshape(points_mm.shape[:-1])

    def area_within(self, mask: np.ndarray, centre: tuple[float, float], radius_mm: float) -> float:
        """The mm² of `mask` (bool, over this region) within `radius_mm` of `centre` (mm); only the disc's window is
        read."""
        x, y = self.to_pixels(np.array(centre))
        radius = radius_mm * self.px_per_mm
        x0, y0 = max(0, int(x - radius)), max(0, int(y - radius))
        window = mask[y0:max(0, int(y + radius) + 2), x0:max(0, int(x + radius) + 2)]
        rows, cols = np.ogrid[y0:y0 + window.shape[0], x0:x0 + window.shape[1]]
        disc = (cols - x) ** 2 + (rows - y) ** 2 <= radius ** 2
        return float(np.count_nonzero(window & disc)) / self.px_per_mm ** 2

    def pixel_to_mm_matrix(self) -> np.ndarray:
        s = 1.0 / self.px_per_mm
        return np.array([[s, 0, self.x0 + 0.5 * s], [0, s, self.y0 + 0.5 * s], [0, 0, 1]])


class TableView:
    def __init__(self, image: np.ndarray, card: CardDetection, camera_memory: dict | None = None) -> None:
        """`camera_memory`: what a live camera's earlier frames learnt through this card and still holds (the
        table's colours around it), shared with the views of its later frames and filled in as learnt; None:
        a photo, whose views learn everything afresh."""
        self.card = card
        self.camera_memory = camera_memory
        self.pose = card.pose
        lens = card.pose.lens
        self._maps = None
        if np.any(lens.distortion):
            self._maps = cv2.initUndistortRectifyMap(lens.matrix, lens.distortion, None, lens.matrix,
                                                     lens.image_size, cv2.CV_16SC2)
        self._photo = image
        self._derived: dict[Hashable, Any] = {}
        white, black = card.white_bgr, card.black_bgr
        span = np.maximum(white - black, 20.0)
        # Paper white → 1, ink black → 0 in each channel: exposure and white balance from the card.
        self.gain = (1.0 / span).astype(np.float32)
        self.offset = (-black / span).astype(np.float32)

    def derived(self, key: Hashable, make: Callable[[], Any]) -> Any:
        """Something worked out from this photo through this card alone (the table's colours, its light, a
        window's colour features), made once however many ways the photo is looked at. Callers must not
        change what they are given."""
        if key not in self._derived:
            self._derived[key] = make()
        return self._derived[key]

    def remembered(self, key: Hashable, make: Callable[[], Any]) -> Any:
        """Like `derived`, for what holds for every frame of a live camera while its card does (`camera_memory`):
        made once for them all."""
        if self.camera_memory is None:
            return self.derived(key, make)
        if key not in self.camera_memory:
            self.camera_memory[key] = make()
        return self.camera_memory[key]

    @property
    def ink_level(self) -> np.ndarray:
        """The card's ink in the camera's own levels, per channel (in card units the ink is 0)."""
        return -self.offset

    @property
    def photo(self) -> np.ndarray:
        """The photo as taken (distorted by its lens)."""
        return self._photo

    @cached_property
    def image(self) -> np.ndarray:
        """The photo as an ideal pinhole camera would record it (undistorted when first needed)."""
        return self.undistort(self._photo)

    @property
    def image_shape(self) -> tuple[int, ...]:
        return self._photo.shape

    def normalised(self, image: np.ndarray) -> np.ndarray:
        """A BGR photo (or part of it) in card units: float, paper 1 and ink 0 in each channel. A channel
        the camera clipped is at least what it shows: it is lifted to the pixel's brightest channel where
        that is higher (a pale grey piece under a warm lamp, its red clipped, would otherwise come out
        cyan)."""
        if image.dtype == np.uint8 and image.ndim == 3:  # a table lookup: far faster than float arithmetic
            levels = np.arange(256, dtype=np.float32)[:, None] * self.gain + self.offset
            out = cv2.LUT(image, levels.astype(np.float32).reshape(1, 256, 3))
            _lift_clipped(image, out)
            return out
        return image.astype(np.float32) * self.gain + self.offset

    def undistort(self, image: np.ndarray, nearest: bool = False) -> np.ndarray:
        """An image (or a mask) of the photo as an ideal pinhole camera with the same K would record it."""
        if self._maps is None:
            return image
        interpolation = cv2.INTER_NEAREST if nearest else cv2.INTER_LINEAR
        return cv2.remap(image, self._maps[0], self._maps[1], interpolation)

    def plane_homography(self, height: float) -> np.ndarray:
        """Table (x, y) mm on the plane `height` mm above the table → undistorted image pixels."""
        rotation = self.pose.rotation
        t = self.pose.tvec.reshape(3) - height * rotation[:, 2]
        return self.pose.lens.matrix @ np.column_stack([rotation[:, 0], rotation[:, 1], t])

    def plane_pixels(self, points_mm: np.ndarray, height: float,
                     shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
        """Where table points (x, y mm) on the plane `height` mm above the table fall in the undistorted
        image: the integer columns and rows of those inside an image of `shape` (the others left out)."""
        pixels = cv2.perspectiveTransform(np.asarray(points_mm, np.float64).reshape(-1, 1, 2),
                                          self.plane_homography(height)).reshape(-1, 2).astype(int)
        inside = (pixels[:, 0] >= 0) & (pixels[:, 0] < shape[1]) & (pixels[:, 1] >= 0) & (pixels[:, 1] < shape[0])
        return pixels[inside, 0], pixels[inside, 1]

    def rectify(self, height: float, region: Region, normalised: bool = True) -> np.ndarray:
        """The plane at `height` seen from straight above over `region` (BGR, float 0–1 if normalised)."""
        warp = self.plane_homography(height) @ region.pixel_to_mm_matrix()
        out = cv2.warpPerspective(self.image, warp, region.size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                  borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
        if not normalised:
            return out
        return self.normalised(out)

    def visible(self, height: float, region: Region) -> np.ndarray:
        """Mask of the region's pixels that fall inside the photo."""
        warp = self.plane_homography(height) @ region.pixel_to_mm_matrix()
        ones = np.full(self.image_shape[:2], 255, np.uint8)
        return cv2.warpPerspective(ones, warp, region.size, flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP) > 0

    def table_extent(self, limit_mm: float = 2500.0) -> tuple[float, float, float, float]:
        """Bounds of the visible table, clipped to `limit_mm` around the card."""
        h, w = self.image_shape[:2]
        border = np.array([[x, y] for x in np.linspace(0, w - 1, 7) for y in (0, h - 1)]
                          + [[x, y] for y in np.linspace(0, h - 1, 7) for x in (0, w - 1)], dtype=np.float64)
        inverse = np.linalg.inv(self.plane_homography(0.0))
        pts = cv2.perspectiveTransform(border.reshape(-1, 1, 2), inverse).reshape(-1, 2)
        # Around the card, or around the middle of the photo when there is none.
        if not self.card.seen:
            centre = cv2.perspectiveTransform(np.array([[[w / 2, h / 2]]], dtype=np.float64), inverse).reshape(2)
        else:
            centre = np.array([126.0, 90.0])
        pts = np.clip(pts, centre - limit_mm, centre + limit_mm)
        lo, hi = pts.min(axis=0), pts.max(axis=0)
        return float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1])
