"""The card's pose from its two kinds of corner, each weighed by its scatter."""

import numpy as np

from tablesight.calibration.camera import CameraPose, Lens
from tablesight.calibration.card import board_object_points, charuco_board
from tablesight.calibration.card_fit import corner_weights, solve_pose, weighed_pose

LENS = Lens.pinhole(1400.0, (1600, 1200))
TRUTH = CameraPose(LENS, np.array([0.45, -0.15, 0.2]), np.array([-150.0, -80.0, 900.0]))
CASTLE = np.array([[600.0, 0.0], [700.0, 300.0], [450.0, 500.0], [800.0, -200.0]])  # mm, far beside the card


def _pulled_markers(rng: np.random.Generator, pull_px: float, scatter_px: float) -> tuple[np.ndarray, np.ndarray]:
    """The markers' corners as blur shows them: pulled `pull_px` inside each marker and scattered."""
    table = np.concatenate([np.asarray(m)[:, :2] for m in charuco_board().getObjPoints()])
    pixels = TRUTH.project(table)
    for k in range(0, len(pixels), 4):
        inward = pixels[k:k + 4].mean(axis=0) - pixels[k:k + 4]
        pixels[k:k + 4] += pull_px * inward / np.linalg.norm(inward, axis=1, keepdims=True)
    return table, pixels + rng.normal(0, scatter_px, pixels.shape)


def _castle_error_mm(pose: CameraPose) -> float:
    return float(np.linalg.norm(pose.table_point(TRUTH.project(CASTLE)) - CASTLE, axis=1).max())


def test_markers_pulled_in_by_blur_no_longer_shrink_the_card():
    errors = []
    for seed in (3, 7, 11):
        rng = np.random.default_rng(seed)
        table = board_object_points()[:, :2]
        pixels = TRUTH.project(table) + rng.normal(0, 0.1, (len(table), 2))
        marker_table, marker_pixels = _pulled_markers(rng, pull_px=1.0, scatter_px=0.4)
        alike = solve_pose(LENS, np.vstack([table, marker_table]), np.vstack([pixels, marker_pixels]))
        weighed = weighed_pose(LENS, table, pixels, marker_table, marker_pixels)
        errors.append((_castle_error_mm(alike), _castle_error_mm(weighed)))
    alike, weighed = np.array(errors).T
    assert np.all(weighed < alike)  # the pull shrinks the card: the castle comes out too far
    assert weighed.mean() < 0.5 * alike.mean()


def test_the_markers_weigh_less_the_more_they_scatter():
    rng = np.random.default_rng(4)
    table = board_object_points()[:, :2]
    pixels = TRUTH.project(table) + rng.normal(0, 0.1, (len(table), 2))
    sharp = corner_weights(LENS, table, pixels, *_pulled_markers(rng, 0.0, 0.1))
    soft = corner_weights(LENS, table, pixels, *_pulled_markers(rng, 1.0, 0.5))
    n = len(table)
    assert sharp[n:].mean() > 4 * soft[n:].mean()
    assert np.allclose(sharp[:n], soft[:n])  # the checker corners' own scatter is the same


def test_too_few_checker_corners_weigh_nothing():
    rng = np.random.default_rng(5)
    table = board_object_points()[:6, :2]
    markers = _pulled_markers(rng, 1.0, 0.4)
    assert corner_weights(LENS, table, TRUTH.project(table), *markers) is None
    alike = solve_pose(LENS, np.vstack([table, markers[0]]), np.vstack([TRUTH.project(table), markers[1]]))
    weighed = weighed_pose(LENS, table, TRUTH.project(table), *markers)
    assert np.allclose(weighed.tvec, alike.tvec) and np.allclose(weighed.rvec, alike.rvec)
