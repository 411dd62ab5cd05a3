"""How soft a photo is, read from its card's edges; and a soft photo read sharpened."""

import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from tablesight.calibration.camera import Lens
from tablesight.calibration.card_detection import find_card
from tablesight.calibration.card_focus import SOFT_EDGE_PX, card_edge_blur_px, is_soft, softness_kernel
from tablesight.inputs import read_photo
from tablesight.synthetic.card_views import card_view

PHOTOS = Path(__file__).parent.parent / "samples" / "castellan" / "photos"
LENS = Lens.pinhole(1100.0, (1280, 720))


def _edge_blur(grey: np.ndarray) -> float | None:
    card = find_card(grey, LENS)
    assert card is not None
    return card_edge_blur_px(grey, card.homography)


@pytest.mark.parametrize("sigma", [1.5, 2.5])
def test_the_blur_added_is_read_from_the_edges(sigma):
    """Gaussian blurs add in squares: the edges of a view blurred by σ spread by √(σ0² + σ²)."""
    grey, _ = card_view(LENS, np.random.default_rng(31))
    sharp = _edge_blur(grey)
    soft = _edge_blur(cv2.GaussianBlur(grey, (0, 0), sigma))
    assert sharp is not None and soft is not None
    assert soft == pytest.approx(math.hypot(sharp, sigma), abs=0.3)


@pytest.mark.parametrize("name", ["photo-000.jpg", "photo-010.jpg", "photo-020.jpg", "photo-030.jpg"])
def test_samples_as_taken_are_not_soft(name):
    card = find_card(read_photo(PHOTOS / name).image)
    assert card is not None and card.soft_px is None


def test_the_softness_kernel_is_a_normalised_blur():
    kernel = softness_kernel(2.0)
    assert kernel.sum() == pytest.approx(1.0, abs=1e-5)
    assert kernel[kernel.shape[0] // 2, kernel.shape[1] // 2] == kernel.max()
    assert not is_soft(None) and not is_soft(SOFT_EDGE_PX - 0.1) and is_soft(SOFT_EDGE_PX)


@pytest.mark.parametrize("name", ["photo-004.jpg", "photo-052.jpg", "photo-056.jpg"])
def test_a_soft_card_is_read_sharpened(name):
    """Samples blurred σ 1.6 px: read as they are, their card's corners wander (0.5-1 px) and the focal
    length read from them 23-29 % off the sharp photo's; read sharpened, 0.1-0.25 px and within 5 %
    (every 4th sample: focal off 6.1 -> 0.2 % median)."""
    image = read_photo(PHOTOS / name).image
    sharp = find_card(image)
    soft = find_card(cv2.GaussianBlur(image, (0, 0), 1.6))
    assert soft is not None and soft.soft_px is not None and soft.soft_px >= SOFT_EDGE_PX
    ids = list(sharp.corner_ids)
    offsets = [np.linalg.norm(p - sharp.image_points[ids.index(i)])
               for i, p in zip(soft.corner_ids, soft.image_points, strict=True) if i in ids]
    assert np.median(offsets) < 0.3
    assert soft.pose.lens.matrix[0, 0] == pytest.approx(sharp.pose.lens.matrix[0, 0], rel=0.05)


def test_a_soft_photo_is_read_and_the_user_told():
    from tablesight.vision.castellan.reader import CastellanReader

    reading = CastellanReader().read(cv2.GaussianBlur(read_photo(PHOTOS / "photo-004.jpg").image, (0, 0), 1.6))
    assert reading.board is not None and len(reading.board.towers) > 0
    assert any("out of focus" in note for note in reading.notes)
