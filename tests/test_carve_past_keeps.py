"""A wall behind a keep, seen at a tilt: the keep hides the wall's lowest part, not its upper part, and the wall
is still carved; a keep alone carves nothing."""

import cv2
import numpy as np

from tablesight.calibration.card_detection import virtual_card
from tablesight.calibration.pieces import NOMINAL_PROFILE
from tablesight.vision.castellan.carving import carve, carve_past_keeps
from tablesight.vision.castellan.looks import LOOKS, WALL_TOP_SHARE
from tablesight.vision.table_view import Region, TableView

TILT = np.radians(30.0)
SIZE = (1200, 900)


def _view() -> TableView:
    """A photo tilted 30° about the table's x axis (the camera towards -y)."""
    rotation = cv2.Rodrigues(np.array([TILT, 0.0, 0.0]))[0]
    image = np.zeros((SIZE[1], SIZE[0], 3), np.uint8)
    return TableView(image, virtual_card(image, 3.0, rotation=rotation))


def _box_hull(view: TableView, centre, half_x: float, half_y: float, height: float) -> np.ndarray:
    """The pixels (uint8, 255) a box standing on the table covers in the photo."""
    x, y = centre
    corners = np.array([[x + sx * half_x, y + sy * half_y] for sx in (-1, 1) for sy in (-1, 1)])
    pixels = np.vstack([view.card.pose.project(corners, h) for h in (0.0, height)])
    mask = np.zeros((SIZE[1], SIZE[0]), np.uint8)
    cv2.fillConvexPoly(mask, cv2.convexHull(pixels.astype(np.float32)).astype(np.int32), 255)
    return mask


def _scene(view: TableView, with_wall: bool = True) -> tuple[np.ndarray, np.ndarray, tuple[float, float]]:
    """Grey and keep-colour pixels of a wall running along x, and a double keep standing 44 mm from the wall on
    the camera's side (in front of its lowest part only: rays from higher up the wall pass over the keep)."""
    dims, wall_height = NOMINAL_PROFILE.dimensions, NOMINAL_PROFILE.wall_height
    camera = view.card.pose.centre[:2]
    middle = view.card.table_points.mean(axis=0)
    towards_camera = np.sign(camera[1] - middle[1])
    keep_centre = (middle[0], middle[1] + towards_camera * 44.0)
    keep = _box_hull(view, keep_centre, dims.keep_side / 2, dims.keep_side / 2, 2 * NOMINAL_PROFILE.keep_height)
    grey = np.zeros_like(keep)
    if with_wall:
        grey = _box_hull(view, middle, 40.0, dims.wall_thickness / 2, wall_height)
        grey[keep > 0] = 0  # the keep stands in front
    return grey, keep, (float(middle[0]), float(middle[1]))


def _solid_at(solid: np.ndarray, region: Region, point) -> bool:
    return bool(region.sample(solid.astype(np.uint8), np.array([point]))[0])


def test_a_wall_whose_lowest_part_a_keep_in_front_hides_is_still_carved():
    view = _view()
    grey, keep, middle = _scene(view)
    region = Region(middle[0] - 80, middle[1] - 80, middle[0] + 80, middle[1] + 80, 2.0)
    heights = LOOKS[0].carve_heights(NOMINAL_PROFILE.wall_height, WALL_TOP_SHARE)
    assert not _solid_at(carve(view, grey, heights, region), region, middle)  # the lowest plane sees the keep
    assert _solid_at(carve_past_keeps(view, grey, keep, heights, region), region, middle)
    # Only where the wall is: the keep's own place on the table is no wall.
    assert not _solid_at(carve_past_keeps(view, grey, keep, heights, region), region,
                         (middle[0], middle[1] + np.sign(view.card.pose.centre[1] - middle[1]) * 44.0))


def test_a_keep_alone_carves_nothing():
    view = _view()
    grey, keep, middle = _scene(view, with_wall=False)
    region = Region(middle[0] - 80, middle[1] - 80, middle[0] + 80, middle[1] + 80, 2.0)
    heights = LOOKS[0].carve_heights(NOMINAL_PROFILE.wall_height, WALL_TOP_SHARE)
    assert not carve_past_keeps(view, grey, keep, heights, region).any()
