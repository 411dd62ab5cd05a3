"""A mostly-empty mask warped onto a table plane only where its pixels can land: the same as warping it all."""

import cv2
import numpy as np
import pytest

from tablesight.vision.castellan.carving import warped_where_set


def _scene(seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    mask = np.zeros((720, 1280), np.uint8)
    for _ in range(int(rng.integers(1, 6))):
        centre = (int(rng.integers(0, 1280)), int(rng.integers(0, 720)))
        cv2.circle(mask, centre, int(rng.integers(3, 50)), int(rng.choice([1, 2, 255])), -1)
    # region pixel → image pixel, as a tilted plane gives
    warp = np.array([[0.8 + rng.uniform(-0.2, 0.2), rng.uniform(-0.3, 0.3), rng.uniform(-200, 300)],
                     [rng.uniform(-0.3, 0.3), 0.8 + rng.uniform(-0.2, 0.2), rng.uniform(-200, 200)],
                     [rng.uniform(-3e-4, 3e-4), rng.uniform(-3e-4, 3e-4), 1.0]])
    return mask, warp


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("interpolation", [cv2.INTER_LINEAR, cv2.INTER_NEAREST])
def test_the_window_gives_what_the_whole_warp_gives(seed, interpolation):
    mask, warp = _scene(seed)
    whole = cv2.warpPerspective(mask, warp, (900, 800), flags=interpolation | cv2.WARP_INVERSE_MAP)
    windowed = warped_where_set(mask, warp, (900, 800), interpolation)
    assert windowed.shape == whole.shape and windowed.dtype == whole.dtype
    # OpenCV's fixed-point coordinates may round an edge pixel the other way now and then, no more
    assert np.count_nonzero(windowed != whole) <= 1e-4 * whole.size
    assert windowed.any() == whole.any()


def test_an_empty_mask_lands_nowhere():
    mask, warp = _scene(0)
    assert not warped_where_set(np.zeros_like(mask), warp, (300, 200), cv2.INTER_LINEAR).any()
