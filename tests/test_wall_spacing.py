"""The castle's scale from its walls' spacing (`wall_spacing`), on drawn masks of known scale."""

import math

import cv2
import numpy as np
import pytest

from tablesight.vision.castellan.wall_spacing import scale_from_wall_spacing

SPACING_MM = 64.0


def castle_mask(px_per_mm: float, heading_deg: float, cells: tuple[int, int] = (5, 4), size: int = 900,
                wall_mm: float = 12.0, tower_mm: float = 24.0, skip: set | None = None) -> np.ndarray:
    """A castle's grey as a photo from straight above shows it: walls along a lattice of SPACING_MM cells
    turned by `heading_deg`, a tower at each node; `skip`: lattice walls left out ((i, j, axis))."""
    mask = np.zeros((size, size), np.uint8)
    turn = math.radians(heading_deg)
    axes = np.array([[math.cos(turn), math.sin(turn)], [-math.sin(turn), math.cos(turn)]])
    step = SPACING_MM * px_per_mm
    origin = np.array([size / 2, size / 2]) - step * (np.array(cells) / 2) @ axes

    def node(i: int, j: int) -> tuple[int, int]:
        x, y = origin + step * (np.array([i, j]) @ axes)
        return int(round(x)), int(round(y))

    for i in range(cells[0] + 1):
        for j in range(cells[1] + 1):
            for axis, (di, dj) in enumerate(((1, 0), (0, 1))):
                if i + di <= cells[0] and j + dj <= cells[1] and (i, j, axis) not in (skip or set()):
                    cv2.line(mask, node(i, j), node(i + di, j + dj), 1, max(1, round(wall_mm * px_per_mm)))
            cv2.circle(mask, node(i, j), max(1, round(tower_mm / 2 * px_per_mm)), 1, -1)
    return mask


@pytest.mark.parametrize("px_per_mm, heading", [(0.6, 0.0), (0.9, 17.0), (1.4, 38.0), (2.2, 71.0)])
def test_the_scale_comes_from_the_walls_spacing(px_per_mm, heading):
    found = scale_from_wall_spacing(castle_mask(px_per_mm, heading, size=int(900 * max(1.0, px_per_mm))),
                                    SPACING_MM)
    assert found.axes_agree
    assert found.px_per_mm == pytest.approx(px_per_mm, rel=0.03)


def test_walls_missing_here_and_there_leave_the_spacing():
    skip = {(0, 0, 0), (2, 1, 1), (3, 3, 0), (4, 2, 1), (1, 3, 0), (5, 1, 1)}
    found = scale_from_wall_spacing(castle_mask(1.0, 24.0, skip=skip), SPACING_MM)
    assert found.px_per_mm == pytest.approx(1.0, rel=0.03)


def test_grey_without_a_repeat_tells_no_scale():
    blob = np.zeros((600, 600), np.uint8)
    cv2.circle(blob, (300, 300), 120, 1, -1)
    assert scale_from_wall_spacing(blob, SPACING_MM) is None
    assert scale_from_wall_spacing(np.zeros((100, 100), np.uint8), SPACING_MM) is None


def test_one_courtyard_gives_the_spacing_and_one_wall_none():
    assert scale_from_wall_spacing(castle_mask(1.0, 30.0, cells=(1, 1)), SPACING_MM).px_per_mm == pytest.approx(
        1.0, rel=0.03)
    assert scale_from_wall_spacing(castle_mask(1.0, 30.0, cells=(1, 0)), SPACING_MM) is None
