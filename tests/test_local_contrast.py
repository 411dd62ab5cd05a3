"""Keeps of the table's own colour: told from the felt around them by a small step in chromaticity."""

import cv2
import numpy as np
import pytest

from tablesight.vision.local_contrast import distinct_from_table

MM_PER_PIXEL = 1.0
FELT_BGR = (40.0, 95.0, 30.0)


def _felt(seed: int = 0, size: int = 240, grain: float = 4.0) -> np.ndarray:
    """Green felt with per-pixel grain and a slow fall-off of the light across it, BGR as taken."""
    rng = np.random.default_rng(seed)
    ys, xs = np.mgrid[0:size, 0:size]
    light = 0.8 + 0.4 * xs / size  # half a stop across: no global colour test could cope
    felt = np.array(FELT_BGR) * light[..., None] + rng.normal(0.0, grain, (size, size, 3))
    return felt


def _found(photo: np.ndarray, of_hue: np.ndarray | None = None) -> np.ndarray:
    photo = np.clip(photo, 0, 255).astype(np.uint8)
    of_hue = np.ones(photo.shape[:2], bool) if of_hue is None else of_hue
    return distinct_from_table(photo, of_hue.copy(), of_hue, np.zeros_like(of_hue), MM_PER_PIXEL)


def test_a_green_keep_on_green_felt_is_found_and_the_felt_is_not():
    photo = _felt()
    photo[100:120, 60:80] = (30.0, 120.0, 45.0)  # a yellower, lighter green, 20 mm across
    found = _found(photo)
    assert found[105:115, 65:75].mean() > 0.9
    outside = np.ones_like(found)
    outside[90:130, 50:90] = False
    assert found[outside].mean() < 0.002


@pytest.mark.parametrize("seed", range(3))
def test_plain_felt_shows_no_keep(seed):
    found = _found(_felt(seed))
    assert found.mean() < 0.002


def test_brightness_alone_is_no_keep():
    """The felt beside a lit wall is brighter but of the same colour: not a keep."""
    photo = _felt()
    photo[100:120, 60:80] *= 1.6
    assert _found(photo)[100:120, 60:80].mean() < 0.05


def test_a_red_keep_does_not_spill_onto_the_felt_beside_it():
    photo = _felt()
    photo[100:120, 60:80] = (20.0, 20.0, 160.0)
    of_hue = np.ones(photo.shape[:2], bool)
    of_hue[100:120, 60:80] = False  # red is not of the felt's hue
    found = _found(photo, of_hue)
    assert found[90:130, 50:90].mean() < 0.01


def test_deep_shade_is_no_keep():
    """A wall's shadow on the felt drifts in colour (lit by the sky) but is over a stop darker: not a keep. Its
    blurred borders may step in colour only: slivers a keep-sized opening removes."""
    photo = _felt()
    photo[100:112, 20:200] = np.array((25.0, 28.0, 8.0))  # over a stop darker, and bluer
    found = _found(photo).astype(np.uint8)
    assert not found[103:109, 26:194].any()
    assert not cv2.morphologyEx(found, cv2.MORPH_OPEN, np.ones((7, 7), np.uint8)).any()


def test_the_blended_rim_of_a_grey_wall_is_no_keep():
    """A blurred photo blends a wall's grey into the felt beside it: a step in chromaticity, but along
    the wall, where the rim round a wall's end or a tower can make a keep-sized blob. Left out."""
    photo = _felt()
    photo[100:110, 40:200] = (150.0, 150.0, 150.0)  # a grey wall
    photo = cv2.GaussianBlur(np.clip(photo, 0, 255).astype(np.uint8), (0, 0), 2.0)
    levels = photo.astype(float)
    saturation = (levels.max(axis=2) - levels.min(axis=2)) / np.maximum(levels.max(axis=2), 1.0)
    grey, of_hue = saturation < 0.2, saturation > 0.35  # as the pixel classes take them
    found = distinct_from_table(photo, of_hue.copy(), of_hue, np.zeros_like(grey), MM_PER_PIXEL)
    assert found[90:120, 40:200].any()  # the rim steps in colour ...
    assert not distinct_from_table(photo, of_hue.copy(), of_hue, grey, MM_PER_PIXEL).any()  # ... left out
