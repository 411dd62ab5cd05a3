"""The camera's tilt from the castle's straight edges (no card): walls drawn through a tilted camera are
made square again, and a stand-in card tilted so reads the castle square and evenly spaced."""

import math

import cv2
import numpy as np
import pytest

from tablesight.calibration.camera import CameraPose, Lens
from tablesight.calibration.card_detection import virtual_card
from tablesight.vision.castellan.edge_tilt import tilt_from_edges

SIZE = (1600, 1200)
SPAN, THICK = 64.0, 10.0  # short walls' tower spacing and the walls' thickness (mm)


def _camera(tilt_deg: float, heading_deg: float) -> CameraPose:
    """A camera 900 mm from the castle's middle, tilted by `tilt_deg` towards `heading_deg` on the table."""
    tilt, heading = math.radians(tilt_deg), math.radians(heading_deg)
    # Looking straight down (camera z = table z), then turned by the heading and tilted about camera x.
    to_camera = cv2.Rodrigues(np.array([-tilt, 0.0, 0.0]))[0] @ cv2.Rodrigues(np.array([0.0, 0.0, heading]))[0]
    middle = np.array([128.0, 96.0, 0.0])
    centre = middle - to_camera.T @ np.array([0.0, 0.0, 900.0])
    return CameraPose(Lens.pinhole(1400.0, SIZE), cv2.Rodrigues(to_camera)[0].ravel(), -to_camera @ centre)


def _walls(rows: int = 4, cols: int = 5, both_ways: bool = True) -> list[np.ndarray]:
    """Each wall's footprint (4 corners, mm) on a grid one span apart, turned 25° on the table."""
    angle = math.radians(25.0)
    turn = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    half = THICK / 2
    walls = [np.array([[0, r * SPAN - half], [(cols - 1) * SPAN, r * SPAN - half],
                       [(cols - 1) * SPAN, r * SPAN + half], [0, r * SPAN + half]]) for r in range(rows)]
    if both_ways:
        walls += [np.array([[c * SPAN - half, 0], [c * SPAN + half, 0], [c * SPAN + half, (rows - 1) * SPAN],
                            [c * SPAN - half, (rows - 1) * SPAN]]) for c in range(cols)]
    return [w @ turn.T for w in walls]


def _photo(camera: CameraPose, walls: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Grey walls on a brown table through `camera`, and the walls' mask."""
    image = np.full((SIZE[1], SIZE[0], 3), (40, 70, 120), np.uint8)
    grey = np.zeros(image.shape[:2], np.uint8)
    for wall in walls:
        corners = np.round(camera.project(wall.astype(np.float64))).astype(np.int32)
        cv2.fillConvexPoly(image, corners, (150, 150, 150))
        cv2.fillConvexPoly(grey, corners, 255)
    return image, grey


@pytest.mark.parametrize(("tilt_deg", "heading_deg"), [(18.0, 0.0), (30.0, 60.0), (38.0, 200.0)])
def test_the_tilt_that_squares_the_castles_edges_is_found(tilt_deg, heading_deg):
    camera = _camera(tilt_deg, heading_deg)
    image, grey = _photo(camera, _walls())
    rotation = tilt_from_edges(image, grey, camera.lens)
    assert rotation is not None
    normal_seen = rotation.T @ np.array([0.0, 0.0, 1.0])  # the table's normal in the camera's frame
    normal_true = camera.rotation @ np.array([0.0, 0.0, 1.0])
    assert math.degrees(math.acos(min(1.0, abs(float(normal_seen @ normal_true))))) < 2.0

    # A stand-in card tilted so reads the grid square and evenly spaced (its scale is the stand-in's).
    card = virtual_card(image, 1.0, rotation=rotation)
    corners = np.array([[0.0, 0.0], [4 * SPAN, 0.0], [0.0, 3 * SPAN], [4 * SPAN, 3 * SPAN]])
    turn = math.radians(25.0)
    corners = corners @ np.array([[math.cos(turn), math.sin(turn)], [-math.sin(turn), math.cos(turn)]])
    seen = card.pose.table_point(camera.project(corners))
    along, across = seen[1] - seen[0], seen[2] - seen[0]
    assert abs(float(along @ across)) / (np.linalg.norm(along) * np.linalg.norm(across)) < 0.03  # square
    assert np.linalg.norm(along) / np.linalg.norm(across) == pytest.approx(4 / 3, rel=0.03)
    assert np.allclose(seen[3] - seen[0], along + across, atol=0.03 * np.linalg.norm(along))


def test_a_castle_seen_from_straight_above_needs_no_tilt():
    camera = _camera(0.0, 0.0)
    image, grey = _photo(camera, _walls())
    assert tilt_from_edges(image, grey, camera.lens) is None


def test_walls_all_one_way_say_nothing_of_the_tilt():
    camera = _camera(25.0, 30.0)
    image, grey = _photo(camera, _walls(both_ways=False))
    assert tilt_from_edges(image, grey, camera.lens) is None


def test_a_stand_in_card_without_a_tilt_looks_straight_down():
    image = np.zeros((SIZE[1], SIZE[0], 3), np.uint8)
    assert virtual_card(image, 1.2).pose.tilt_deg == pytest.approx(0.0, abs=1e-9)
    assert virtual_card(image, 1.2, rotation=np.eye(3)).pose.tilt_deg == pytest.approx(0.0, abs=1e-9)
