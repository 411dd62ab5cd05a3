"""Keeps read by the patches of their colour left in a courtyard no keep claims (`keep_fragments`)."""

import cv2
import numpy as np

from tablesight.calibration.card_detection import virtual_card
from tablesight.calibration.pieces import NOMINAL_PROFILE
from tablesight.vision.castellan.keep_fragments import MIN_FRAGMENT_SIDES, keep_fragments_in_courtyards
from tablesight.vision.table_view import TableView

PX_PER_MM = 2.0
COURTYARD = np.array([[-35.0, -35.0], [35.0, -35.0], [35.0, 35.0], [-35.0, 35.0]])  # inside the walls
ROOF_BASE_MM = NOMINAL_PROFILE.keep_height - NOMINAL_PROFILE.keep_roof_height
KEEP_SIDE = NOMINAL_PROFILE.dimensions.keep_side


def _view() -> TableView:
    image = np.full((600, 600, 3), 120, np.uint8)
    return TableView(image, virtual_card(image, PX_PER_MM))


def _mask(view: TableView, triangles_mm: list[np.ndarray]) -> np.ndarray:
    """Keep colour where the triangles (table mm, on a keep's roof base) are seen."""
    mask = np.zeros(view.image.shape[:2], np.uint8)
    for triangle in triangles_mm:
        px = np.round(view.card.table_to_image(np.asarray(triangle, np.float64), ROOF_BASE_MM)).astype(np.int32)
        cv2.fillPoly(mask, [px], 255)
    return mask


# Two triangles of a roof's faces either side of a bleached middle: 0.35 of a keep's top in all.
ROOF_FACES = [np.array([[0.0, 0.0], [13.0, 0.0], [0.0, 13.0]]), np.array([[14.0, 16.0], [14.0, 3.0], [1.0, 16.0]])]


def test_the_patches_left_of_a_keeps_colour_are_read_as_a_keep_of_that_colour():
    view = _view()
    found = keep_fragments_in_courtyards(view, {"yellow": _mask(view, ROOF_FACES)}, [COURTYARD], [], NOMINAL_PROFILE)
    assert [k.color for k in found] == ["yellow"]
    assert abs(found[0].x - 7) <= 3 and abs(found[0].y - 8) <= 3
    assert 0.3 * KEEP_SIDE ** 2 <= found[0].area_mm2 <= 0.4 * KEEP_SIDE ** 2


def test_the_colour_with_most_in_one_place_names_the_keep():
    view = _view()
    red = _mask(view, [ROOF_FACES[0] - [25.0, 25.0]])
    found = keep_fragments_in_courtyards(view, {"red": red, "yellow": _mask(view, ROOF_FACES)}, [COURTYARD], [],
                                         NOMINAL_PROFILE)
    assert [k.color for k in found] == ["yellow"]


def test_specks_scattered_over_a_courtyard_are_no_keep_however_many():
    """As much colour as a keep's patches, spread over the courtyard a few mm² at a time (a table's grain, colour
    fringes), never fills one keep-sized window enough."""
    view = _view()
    specks = [np.array([[x, y], [x + 3.0, y], [x, y + 3.0]]) for x in range(-30, 30, 14) for y in range(-30, 30, 14)]
    assert sum(0.5 * 9 for _ in specks) >= MIN_FRAGMENT_SIDES * KEEP_SIDE ** 2
    assert keep_fragments_in_courtyards(view, {"yellow": _mask(view, specks)}, [COURTYARD], [], NOMINAL_PROFILE) == []


def test_colour_a_keep_read_may_lean_over_is_that_keeps():
    """Keep colour within reach of a keep read (a double in the next courtyard leaning over the wall) claims
    nothing of its own."""
    view = _view()
    mask = _mask(view, ROOF_FACES)
    assert keep_fragments_in_courtyards(view, {"yellow": mask}, [COURTYARD], [(7.0, 8.0)], NOMINAL_PROFILE) == []


def test_a_colour_the_claimed_courtyards_show_as_much_of_is_no_keep():
    """Where the claimed courtyards show half as much of a colour beyond their keeps' reach (a table giving specks
    of it everywhere, a keep's colour reaching past where it may lean), as much in an unclaimed one is no keep."""
    view = _view()
    claimed = COURTYARD + [80.0, 0.0]
    in_claimed = [face * 0.8 + [80.0, 0.0] for face in ROOF_FACES]  # 0.64 of the area: over half
    mask = _mask(view, ROOF_FACES + in_claimed)
    assert keep_fragments_in_courtyards(view, {"yellow": mask}, [COURTYARD], [], NOMINAL_PROFILE, [claimed]) == []
    fainter = _mask(view, ROOF_FACES + [face * 0.6 + [80.0, 0.0] for face in ROOF_FACES])  # 0.36 of it: under half
    found = keep_fragments_in_courtyards(view, {"yellow": fainter}, [COURTYARD], [], NOMINAL_PROFILE, [claimed])
    assert [k.color for k in found] == ["yellow"]


def test_too_little_colour_is_no_keep():
    view = _view()
    small = [face * 0.5 for face in ROOF_FACES]  # a quarter of the area: under MIN_FRAGMENT_SIDES
    assert keep_fragments_in_courtyards(view, {"yellow": _mask(view, small)}, [COURTYARD], [], NOMINAL_PROFILE) == []
