"""Where a patterned table's pattern is broken (`pattern_breaks`)."""

import cv2
import numpy as np

from tablesight.vision.castellan.courtyard_keeps import MIN_CONTRAST
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


def _wide_check_under_a_lamp() -> np.ndarray:
    """A red and deep red check of 75 mm squares (at 1 px/mm) turned 17°, its edges soft, lit by a lamp whose
    light falls off across the table."""
    yy, xx = np.mgrid[0:700, 0:700].astype(np.float32)
    turn = np.radians(17.0)
    u, v = xx * np.cos(turn) + yy * np.sin(turn), -xx * np.sin(turn) + yy * np.cos(turn)
    check = ((np.floor(u / 75) + np.floor(v / 75)) % 2).astype(bool)
    bgr = np.where(check[..., None], np.float32([40, 30, 230]), np.float32([70, 40, 150]))
    bgr = cv2.GaussianBlur(bgr, (0, 0), 2.0)
    fall_off = 1.0 - 0.35 * np.hypot(xx - 150, yy - 100) / 700
    return cv2.cvtColor(np.clip(bgr * fall_off[..., None] / 255, 0, 1).astype(np.float32), cv2.COLOR_BGR2Lab)


def test_a_check_of_squares_wider_than_a_keep_under_a_lamp_has_its_period_to_a_millimetre():
    """Fresh 14000-012: such a check looks a few mm away more like itself than a period away under the lamp's
    fall-off; it is still a pattern (its period repeats it far better than most shifts do), and its period is
    where the difference is least, not a shift beside it nearly as good as the best to the check's typical."""
    lab = _wide_check_under_a_lamp()
    periods = table_periods(lab, np.ones(lab.shape[:2], bool), 1.0)
    assert len(periods) == 2
    for period in periods:
        length = float(np.hypot(*period))
        assert min(abs(length - 150), abs(length - 75 * np.sqrt(2))) < 1.0


def _wide_stripes_with_their_edges_unseen() -> tuple[np.ndarray, np.ndarray]:
    """Lime and purple stripes 40 mm wide (at 1 px/mm) turned 63°, with a camera's noise, and where the table is
    seen: not along the stripes' edges, whose blend of the two colours is taken for neither (fresh 16700-010)."""
    yy, xx = np.mgrid[0:500, 0:500].astype(np.float32)
    turn = np.radians(63.0)
    across = xx * np.cos(turn) + yy * np.sin(turn)
    lime = (across // 40) % 2 == 0
    bgr = np.where(lime[..., None], np.float32([60, 216, 99]), np.float32([141, 56, 107]))
    bgr += np.random.default_rng(3).normal(0.0, 4.0, bgr.shape).astype(np.float32)
    lab = cv2.cvtColor(np.clip(bgr / 255, 0, 1).astype(np.float32), cv2.COLOR_BGR2Lab)
    edge = np.minimum(across % 40, 40 - across % 40) < 3
    return lab, ~edge


def test_wide_stripes_are_a_pattern_though_many_shifts_map_them_onto_themselves():
    """Every shift along the stripes, and along them a period across, maps them onto themselves: over a tenth of
    all shifts. Their best shift is still far better than a typical one (TYPICAL_PERCENTILE), so the stripes have
    periods, one along them, and a keep of the lime's hue breaks them."""
    lab, seen = _wide_stripes_with_their_edges_unseen()
    periods = table_periods(lab, seen, 1.0)
    assert len(periods) == 2
    along = np.array([-np.sin(np.radians(63.0)), np.cos(np.radians(63.0))])
    assert any(abs(float(np.dot(p, along))) > 0.95 * float(np.hypot(*p)) for p in periods)
    green_keep = cv2.cvtColor(np.float32([[[17 / 255, 136 / 255, 46 / 255]]]), cv2.COLOR_BGR2Lab)
    lab[240:262, 240:262] = green_keep
    breaks = pattern_breaks(lab, seen, periods, 17)
    assert breaks[251, 251] > 20
    stripes_alone = np.where(np.isfinite(breaks), breaks, np.nan)[:150, :150]
    assert np.nanmedian(stripes_alone) < MIN_CONTRAST  # their noise, less than a keep must stand out by
