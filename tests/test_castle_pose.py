"""The camera's tilt from the castle alone (no card): a castle seen at a tilt, read as if from straight
above, is made square and to scale again."""

import cv2
import numpy as np
import pytest

from tablesight.calibration.camera import CameraPose, Lens
from tablesight.calibration.card_detection import virtual_card
from tablesight.calibration.pieces import NOMINAL_PROFILE
from tablesight.vision.castellan.castle_pose import castle_pose
from tablesight.vision.castellan.towers import TowerReading
from tablesight.vision.castellan.walls import WallReading

SIZE = (1600, 1200)
SPAN = 64.0  # short walls' tower spacing in the nominal profile


def _grid_castle(rows: int = 4, cols: int = 5) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """Towers on a grid one short span apart, turned 20° on the table, and the walls joining neighbours."""
    angle = np.radians(20.0)
    turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    points = np.array([[c * SPAN, r * SPAN] for r in range(rows) for c in range(cols)]) @ turn.T + [300.0, 200.0]
    walls = [(r * cols + c, r * cols + c + 1) for r in range(rows) for c in range(cols - 1)]
    walls += [(r * cols + c, (r + 1) * cols + c) for r in range(rows - 1) for c in range(cols)]
    return points, walls


def _tilted_camera(tilt_deg: float) -> CameraPose:
    """A camera 900 mm up, tilted about the table's x axis, looking at the castle."""
    lens = Lens.pinhole(1400.0, SIZE)
    tilt = np.radians(tilt_deg)
    rvec = np.array([-tilt, 0.0, 0.0])
    rotation = cv2.Rodrigues(rvec)[0]
    centre = np.array([400.0, 300.0 + 900.0 * np.tan(tilt), -900.0])
    return CameraPose(lens, rvec, -rotation @ centre)


@pytest.mark.parametrize("tilt_deg", [0.0, 15.0, 30.0])
def test_the_tilt_that_makes_the_castle_square_is_found(tilt_deg):
    truth, joins = _grid_castle()
    camera = _tilted_camera(tilt_deg)
    height = NOMINAL_PROFILE.tower_height * 0.5
    pixels = camera.project(truth, height)
    image = np.zeros((SIZE[1], SIZE[0], 3), np.uint8)
    straight_above = virtual_card(image, 1.2, focal_35mm=None)
    seen = straight_above.pose.table_point(pixels, height)
    towers = [TowerReading(float(x), float(y), 12.0) for x, y in seen]
    walls = [WallReading("short", a, b, None, 1.0) for a, b in joins]
    fitted = castle_pose(straight_above, towers, walls, NOMINAL_PROFILE)
    if tilt_deg == 0.0:
        # Already square, nothing to gain (or a fit hardly different from straight above).
        assert fitted is None or fitted.pose.tilt_deg < 3.0
        return
    assert fitted is not None and not fitted.seen and fitted.focal_source == "castle"
    assert abs(fitted.pose.tilt_deg - tilt_deg) < 2.0
    placed = fitted.pose.table_point(pixels, height)
    spans = [np.hypot(*(placed[b] - placed[a])) for a, b in joins]
    assert np.allclose(spans, SPAN, atol=1.5)


def test_too_few_walls_say_nothing_of_the_tilt():
    truth, joins = _grid_castle(2, 3)
    image = np.zeros((SIZE[1], SIZE[0], 3), np.uint8)
    card = virtual_card(image, 1.2)
    towers = [TowerReading(float(x), float(y), 12.0) for x, y in truth]
    walls = [WallReading("short", a, b, None, 1.0) for a, b in joins[:5]]
    assert castle_pose(card, towers, walls, NOMINAL_PROFILE) is None
