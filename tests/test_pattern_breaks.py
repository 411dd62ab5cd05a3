"""Where a patterned table's pattern is broken (`pattern_breaks`)."""

import cv2
import numpy as np

from tablesight.vision.castellan.pattern_breaks import pattern_breaks, table_periods

PITCH = 40  # px, at 1 px/mm: a grid of thin lines 40 mm apart


def _grid_lab(keep_at: tuple[int, int] | None = None) -> np.ndarray:
    """A yellow table with purple lines every PITCH px, and optionally a keep-sized square of the table's yellow,
    a little darker, somewhere."""
    yy, xx = np.mgrid[0:400, 0:400]
    bgr = np.full((400, 400, 3), (40, 200, 230), np.float32)
    lines = (xx % PITCH < 3) | (yy % PITCH < 3)
    bgr[lines] = (180, 60, 150)
    if keep_at is not None:
        x, y = keep_at
        bgr[y - 11:y + 11, x - 11:x + 11] = (30, 170, 200)
    return cv2.cvtColor(bgr / 255, cv2.COLOR_BGR2Lab)


def test_a_grid_has_its_pitch_for_periods():
    lab = _grid_lab()
    periods = table_periods(lab, np.ones(lab.shape[:2], bool), 1.0)
    assert len(periods) == 2
    assert all(round(float(np.hypot(*p))) in (PITCH, round(PITCH * np.sqrt(2))) for p in periods)


def test_a_keep_of_the_tables_colour_breaks_the_grid_and_the_grid_does_not():
    lab = _grid_lab(keep_at=(222, 178))
    breaks = pattern_breaks(lab, np.ones(lab.shape[:2], bool), [np.array([PITCH, 0.0]), np.array([0.0, PITCH])], 17)
    assert breaks[178, 222] > 10
    assert breaks[60:120, 60:120].max() < 2  # the grid alone, far from the keep
