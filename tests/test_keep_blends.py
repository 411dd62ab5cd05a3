"""A keep's edge blended with the table: of two keeps read in one place, the blend is dropped."""

import numpy as np

from tablesight.calibration.card_detection import virtual_card
from tablesight.calibration.pieces import NOMINAL_PROFILE
from tablesight.vision.castellan.keep_blends import is_blend, table_hue_around
from tablesight.vision.castellan.keeps import KeepReading, without_overlaps
from tablesight.vision.table_view import TableView

SIDE = NOMINAL_PROFILE.dimensions.keep_side
TURQUOISE_HUE = 92.0  # OpenCV hue (0–180)


def test_the_colour_between_a_keeps_and_the_tables_is_the_blend():
    assert is_blend("green", "yellow", TURQUOISE_HUE)  # yellow and turquoise mix to green
    assert not is_blend("yellow", "green", TURQUOISE_HUE)
    assert is_blend("yellow", "green", 0.0)  # a green keep on a red cloth leaves a yellow rim
    assert not is_blend("yellow", "red", 20.0)  # orange wood lies between red and yellow: no other colour
    assert not is_blend("red", "blue", 100.0)  # red is not on the way from blue to a cyan table


def test_a_yellow_keep_with_a_wider_green_rim_on_turquoise_stays_yellow():
    top = KeepReading("yellow", 100.0, 100.0, False, True, None, area_share=0.6)
    rim = KeepReading("green", 102.0, 100.0, False, True, None, area_share=0.9)  # its edge mixed with the table
    assert without_overlaps([rim, top], SIDE, (), lambda centre: TURQUOISE_HUE) == [top]
    # On a table of no strong colour nothing tells the blend: the bigger stays, as before.
    assert without_overlaps([rim, top], SIDE, (), lambda centre: None) == [rim]
    assert without_overlaps([rim, top], SIDE, ()) == [rim]


def test_the_tables_hue_is_read_around_a_keep_and_none_on_a_grey_table():
    turquoise = np.zeros((600, 800, 3), np.uint8)
    turquoise[:] = (190, 170, 40)  # BGR: strong cyan-green
    turquoise[250:350, 350:450] = (40, 200, 220)  # a yellow keep's top in the middle
    view = TableView(turquoise, virtual_card(turquoise, 2.0))
    centre = tuple(view.card.image_to_table(np.array([[400.0, 300.0]]))[0])
    hue = table_hue_around(view, centre, SIDE)
    assert hue is not None and 80 <= hue <= 100
    grey = np.full_like(turquoise, 128)
    grey_view = TableView(grey, virtual_card(grey, 2.0))
    assert table_hue_around(grey_view, centre, SIDE) is None
