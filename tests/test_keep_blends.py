"""A keep's edge blended with the table: of two keeps read in one place, the blend is dropped; a keep on table of
its own colour is told."""

import numpy as np

from tablesight.calibration.card_detection import virtual_card
from tablesight.calibration.pieces import NOMINAL_PROFILE
from tablesight.vision.castellan.double_keeps import decide_doubles
from tablesight.vision.castellan.keep_blends import is_blend, on_its_own_colour, table_hue_around
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


def _green_keep_on(table_bgr: tuple[int, int, int], patch_bgr: tuple[int, int, int] | None = None):
    """A green keep's top (photo middle, 2 px a mm, seen from straight above) on a blue table, on a patch of
    `patch_bgr` 120 mm square around it if given; the view and the keep's centre (table mm)."""
    image = np.zeros((600, 800, 3), np.uint8)
    image[:] = table_bgr
    if patch_bgr is not None:
        image[180:420, 280:520] = patch_bgr
    image[278:322, 378:422] = (40, 160, 40)  # the keep's top, 22 mm square
    view = TableView(image, virtual_card(image, 2.0))
    return view, tuple(view.card.image_to_table(np.array([[400.0, 300.0]]))[0])


def test_a_keep_on_a_patch_of_its_own_colour_is_told_and_not_on_the_table_beside_it():
    blue, light_green, red = (200, 120, 40), (120, 220, 100), (40, 40, 200)
    view, centre = _green_keep_on(blue, light_green)
    assert on_its_own_colour(view, "green", centre, SIDE, 64.0)
    plain, centre = _green_keep_on(blue)
    assert not on_its_own_colour(plain, "green", centre, SIDE, 64.0)
    assert on_its_own_colour(plain, "blue", centre, SIDE, 64.0)  # a blue keep there would stand on its colour
    other, centre = _green_keep_on(blue, red)
    assert not on_its_own_colour(other, "green", centre, SIDE, 64.0)


def test_a_keep_on_its_own_colour_is_called_certain_only_at_the_tables_colours_odds():
    """Fresh 15200-028: a green single on a green diamond measured a double's lean, width and shadow, and was
    called double for certain (the photo "read cleanly", green 25 for 21)."""
    measured = dict(lean_share=1.31, lean_span_mm=7.1, width_share=1.27, width_span_mm=7.1, area_share=1.15)
    singles = [KeepReading("green", 200.0 * i, 0.0, False, True, None, lean_share=0.1, lean_span_mm=7.1,
                           width_share=0.1, width_span_mm=7.1, area_share=1.1) for i in range(1, 5)]
    on_patch = KeepReading("green", 0.0, 0.0, False, True, None, on_its_colour=True, **measured)
    on_table = KeepReading("green", 0.0, 0.0, False, True, None, **measured)
    assert decide_doubles([on_table, *singles])[0].double_certain
    called = decide_doubles([on_patch, *singles])[0]
    assert called.double and not called.double_certain
