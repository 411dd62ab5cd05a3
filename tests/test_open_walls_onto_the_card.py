"""An open wall running onto the reference card, where pieces are never read (`carving.card_mask`): seen up to the
card and past a short wall's body, it is an open long wall (samples 011 and 024)."""

from types import SimpleNamespace

import cv2
import numpy as np

from tablesight.calibration.pieces import NOMINAL_PROFILE
from tablesight.vision.castellan.carving import card_mask
from tablesight.vision.castellan.reading import PhotoReading, board_of
from tablesight.vision.castellan.rebuild import _open_walls_onto_the_card
from tablesight.vision.castellan.towers import TowerReading
from tablesight.vision.castellan.walls import WallReading
from tablesight.vision.table_view import Region

DIMS = NOMINAL_PROFILE.dimensions
REGION = Region(0.0, 0.0, 400.0, 400.0, 2.0)  # the card's sheet ends at y = 195 mm, its mask 12 mm further
TOWER = (150.0, 300.0)


def reading_with_strip_to(y_end: float) -> PhotoReading:
    """A tower below the card with an open short wall read towards it, its strip carved up to `y_end` (mm)."""
    solid = np.zeros(REGION.size[::-1], np.uint8)
    cv2.line(solid, tuple(int(v) for v in REGION.to_pixels(TOWER)),
             tuple(int(v) for v in REGION.to_pixels((TOWER[0], y_end))), 1, int(DIMS.wall_thickness * REGION.px_per_mm))
    cv2.circle(solid, tuple(int(v) for v in REGION.to_pixels(TOWER)), int(DIMS.tower_radius * REGION.px_per_mm), 1, -1)
    walls = [WallReading("short", 0, None, (TOWER[0], TOWER[1] - DIMS.centre_spacing("short")), 0.9)]
    reading = PhotoReading(None, None, region=REGION, towers=[TowerReading(*TOWER, DIMS.tower_radius)], walls=walls,
                           view=SimpleNamespace(card=SimpleNamespace(seen=True)),
                           wall_solid=solid.astype(bool) & ~card_mask(REGION))
    reading.board = board_of(reading)
    return reading


def test_an_open_wall_seen_up_to_the_card_past_a_short_walls_body_is_read_long():
    reading = reading_with_strip_to(150.0)  # on under the card: carved up to its mask only (y = 207)
    _open_walls_onto_the_card(reading, NOMINAL_PROFILE)
    [wall] = reading.walls
    assert wall.kind == "long" and wall.end is None
    assert np.allclose(wall.open_point, (TOWER[0], TOWER[1] - DIMS.centre_spacing("long")))
    assert "onto the reference card" in reading.notes[0]
    assert [w.kind for w in reading.board.walls] == ["long"]


def test_an_open_short_wall_with_the_table_seen_before_the_card_stays_short():
    reading = reading_with_strip_to(TOWER[1] - DIMS.centre_spacing("short") + DIMS.tower_radius)  # its body's end
    _open_walls_onto_the_card(reading, NOMINAL_PROFILE)
    assert [w.kind for w in reading.walls] == ["short"] and not reading.notes
