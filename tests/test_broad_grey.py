"""Grey wider than any piece is not plastic (`carving.without_broad`)."""

import cv2
import numpy as np

from tablesight.vision.castellan.carving import drifted_table_colours, without_broad
from tablesight.vision.segmentation import BINS, TableModel


def test_a_blob_wider_than_any_piece_goes_and_the_thin_wall_reaching_it_stays():
    mask = np.zeros((200, 300), np.uint8)
    cv2.circle(mask, (220, 100), 60, 255, -1)  # a broad pale patch of table
    cv2.rectangle(mask, (10, 95), (170, 105), 255, -1)  # a wall 11 px thick running into it
    cv2.circle(mask, (40, 100), 12, 255, -1)  # a tower on it
    out = without_broad(mask, width_px=50)
    assert not out[100, 220] and not out[60, 220]  # the patch is gone, to its rim
    assert out[100, 40] and out[100, 100] and out[100, 150]  # the tower and the wall stay
    assert (out[:, 250:] > 0).sum() == 0


def test_nothing_narrower_than_the_width_is_touched():
    mask = np.zeros((100, 100), np.uint8)
    cv2.circle(mask, (50, 50), 20, 255, -1)  # 41 px across
    assert np.array_equal(without_broad(mask, width_px=50), mask)


def _table_of(r: int, g: int, v: int) -> TableModel:
    histogram = np.zeros(BINS, np.float32)
    histogram[r, g, v] = 1000.0
    return TableModel(histogram)


def _key(r: int, g: int, v: int) -> int:
    return int(np.ravel_multi_index((r, g, v), BINS))


def _far_from_the_card(pixels: np.ndarray) -> np.ndarray:
    return pixels + 1000.0  # every pixel a metre from the card's sheet


def _on_the_sheet(pixels: np.ndarray) -> np.ndarray:
    return np.zeros_like(pixels) + 50.0  # every pixel on the card's sheet


def test_broad_grey_a_bin_off_the_tables_colour_is_that_table_and_another_grey_is_not():
    keys = np.full((60, 60), _key(17, 14, 9))  # not drawn: only the broad grey's colours are asked about
    keys[:, :30] = _key(16, 14, 9)  # a chromaticity bin off the table learnt around the card
    keys[:, 30:] = _key(16, 17, 9)  # three bins off: a grey box, not the table
    broad = np.ones((60, 60), bool)
    drifted = drifted_table_colours(keys, broad, _table_of(17, 14, 9), _far_from_the_card)
    assert drifted.tolist() == [_key(16, 14, 9)]


def test_the_cards_white_sheet_is_no_table_colour():
    keys = np.full((60, 60), _key(17, 14, 9))
    assert drifted_table_colours(keys, np.ones((60, 60), bool), _table_of(17, 14, 9), _on_the_sheet).size == 0


def test_a_grey_tables_broad_grey_is_not_learnt_a_bin_darker_or_brighter_is_the_plastics_sides_or_tops():
    keys = np.full((60, 60), _key(16, 16, 5))  # a grey table a bin darker than where it was learnt
    drifted = drifted_table_colours(keys, np.ones((60, 60), bool), _table_of(16, 16, 6), _far_from_the_card)
    assert drifted.size == 0
