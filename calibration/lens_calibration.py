"""Lens calibration from several photos of the reference card (`tablesight calibrate camera`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from tablesight.calibration.camera import Lens
from tablesight.calibration.card import board_object_points
from tablesight.calibration.card_detection import find_corners

MIN_VIEWS = 4
MIN_CORNERS_PER_VIEW = 8


class LensCalibrationError(ValueError):
    """Not enough usable views; the message says what to do."""


@dataclass(frozen=True)
class LensCalibration:
    lens: Lens
    rms_px: float
    views_used: int
    views_rejected: list[str]


def calibrate_lens(images: Sequence[tuple[str, np.ndarray]],
                   progress: Callable[[int, int], None] | None = None) -> LensCalibration:
    """Intrinsics and distortion from named BGR/grey images of the card at several angles."""
    objects, pixels, rejected = [], [], []
    size: tuple[int, int] | None = None
    for index, (name, image) in enumerate(images):
        grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        this_size = (grey.shape[1], grey.shape[0])
        if size is None:
            size = this_size
        found = find_corners(grey) if this_size == size else None
        if found is None or len(found[1]) < MIN_CORNERS_PER_VIEW:
            rejected.append(name)
        else:
            pts, ids = found
            objects.append(board_object_points()[ids].astype(np.float32))
            pixels.append(pts.astype(np.float32).reshape(-1, 1, 2))
        if progress:
            progress(index + 1, len(images))
    if len(objects) < MIN_VIEWS or size is None:
        raise LensCalibrationError(
            f"the card was found in {len(objects)} photo(s) of the same size; "
            f"at least {MIN_VIEWS} are needed, taken from different angles")
    flags = cv2.CALIB_FIX_K3 | cv2.CALIB_ZERO_TANGENT_DIST | cv2.CALIB_FIX_ASPECT_RATIO  # square pixels
    guess = Lens.pinhole(0.9 * max(size), size).matrix
    rms, matrix, distortion, _, _ = cv2.calibrateCamera(objects, pixels, size, guess, None,
                                                        flags=flags | cv2.CALIB_USE_INTRINSIC_GUESS)
    return LensCalibration(Lens(matrix, distortion.ravel(), size), float(rms), len(objects), rejected)
