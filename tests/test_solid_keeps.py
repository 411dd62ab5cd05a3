"""Keeps are solid: a glint read grey inside a keep, and specks of no colour in it, are the keep's."""

import cv2
import numpy as np

from tablesight.vision.castellan.solid_keeps import solid_keeps

SIDE_PX = 24.0


def _masks(size: int = 120) -> tuple[np.ndarray, np.ndarray]:
    """A wall (grey, left to right) and a blue keep beside it, not touching it."""
    grey = np.zeros((size, size), np.uint8)
    grey[20:30, :] = 255
    keep = np.zeros((size, size), np.uint8)
    keep[50:74, 40:64] = 255
    return grey, keep


def test_a_lit_roof_face_read_grey_is_given_back_to_the_keep():
    grey, keep = _masks()
    face = np.array([[52, 52], [52, 72], [62, 62]], np.int32)  # a roof face: a triangle from an edge to the middle
    cv2.fillConvexPoly(grey, face, 255)
    cv2.fillConvexPoly(keep, face, 0)
    grey_after, keeps = solid_keeps(grey, {"blue": keep}, SIDE_PX)
    assert keeps["blue"][50:74, 40:64].all()
    assert not grey_after[50:74, 40:64].any()
    assert grey_after[20:30, :].all()  # the wall is untouched


def test_grey_running_on_beyond_a_keep_stays_grey():
    """A wall seen in a notch of a keep's colour (a double leaning over it) runs on beyond the keep: not a glint."""
    grey, keep = _masks()
    grey[58:66, :] = 255  # a wall straight through the keep's outline
    keep[58:66, 40:64] = 0
    grey_after, keeps = solid_keeps(grey, {"blue": keep}, SIDE_PX)
    assert grey_after[58:66, :].all()
    assert not keeps["blue"][58:66, 40:64].any()


def test_specks_of_no_colour_inside_a_keep_are_filled_and_the_courtyard_around_is_not():
    grey, keep = _masks()
    rng = np.random.default_rng(3)
    specks = rng.random((24, 24)) < 0.15
    specks[[0, -1], :] = specks[:, [0, -1]] = False  # inside the keep, enclosed
    keep[50:74, 40:64][specks] = 0
    ring = np.zeros_like(keep)  # a ring of the colour around a courtyard far bigger than a keep's top
    ring[80:120, 0:40] = 255
    ring[84:116, 4:36] = 0
    _, keeps = solid_keeps(grey, {"blue": keep, "red": ring}, SIDE_PX)
    assert keeps["blue"][50:74, 40:64].all()
    assert not keeps["red"][84:116, 4:36].any()
