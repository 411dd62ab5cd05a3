"""Blobs filled to their convex hulls: a keep whose colour a washed-out roof face cuts apart is whole again, and
what is not a keep's shape (a thin fringe, a ring around a courtyard) stays as it is."""

import cv2
import numpy as np

from tablesight.vision.mask_holes import filled_to_hulls

SIDE = 24  # a keep's side in pixels
HULLS = (0.5 * SIDE ** 2, 4.0 * SIDE ** 2)


def test_a_keep_notched_by_a_washed_out_roof_face_is_filled_to_its_square():
    mask = np.zeros((120, 120), np.uint8)
    mask[40:64, 40:64] = 1
    cv2.fillConvexPoly(mask, np.array([[44, 40], [59, 40], [52, 52]], np.int32), 0)  # a face from its edge inwards
    filled = filled_to_hulls(mask > 0, HULLS, 0.4)
    assert filled[40:64, 40:64].all()
    assert np.count_nonzero(filled) == SIDE * SIDE


def test_a_thin_fringe_and_a_ring_around_a_courtyard_stay_as_they_are():
    mask = np.zeros((160, 160), bool)
    mask[10:12, 10:60] = True  # an L of a wall's coloured fringe: little of its hull
    mask[10:60, 10:12] = True
    mask[80:120, 80:120] = True  # a ring of the table's colour around a courtyard
    mask[84:116, 84:116] = False
    assert np.array_equal(filled_to_hulls(mask, HULLS, 0.4), mask)


def test_a_blob_larger_than_a_keep_or_smaller_stays_as_it_is():
    mask = np.zeros((200, 200), bool)
    mask[10:90, 10:90] = True  # 11 keep sides², a patch of table
    mask[20:40, 20:40] = False
    mask[150:160, 150:160] = True  # a speck
    mask[150:155, 152:158] = False
    assert np.array_equal(filled_to_hulls(mask, HULLS, 0.4), mask)


def test_a_triangle_of_a_check_cut_by_a_walls_shade_is_not_filled_as_a_keep_would_be():
    mask = np.zeros((120, 120), np.uint8)
    triangle = np.array([[20, 80], [80, 80], [50, 40]], np.int32)  # fills half its enclosing rectangle
    cv2.fillConvexPoly(mask, triangle, 1)
    cv2.fillConvexPoly(mask, np.array([[40, 80], [60, 80], [50, 70]], np.int32), 0)  # notched from its base
    assert np.array_equal(filled_to_hulls(mask > 0, HULLS, 0.4, 0.7), mask > 0)
    assert np.count_nonzero(filled_to_hulls(mask > 0, HULLS, 0.4)) > np.count_nonzero(mask)  # without the gate
