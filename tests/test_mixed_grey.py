"""Grey blurred into a strongly coloured table (`carving.mixed_with_the_table`): a thin wall whose colour a phone's
chroma smoothing mixed with the table's is grey though over the plain saturation limit; a blend of two of a
pattern's colours, one of them pale, is not; nor is anything with no table near. Open walls read again on it
(`walls.open_walls_grown_long`): an open short wall that runs on as a long one from its socket is that long one."""

import cv2
import numpy as np

from tablesight.vision.castellan.carving import mixed_with_the_table
from tablesight.vision.castellan.towers import TowerReading
from tablesight.vision.castellan.walls import WallReading, open_walls_grown_long
from tablesight.vision.segmentation import MAX_GREY_SATURATION, colour_features

ORANGE, PALE, GREEN, GREY = (0.25, 0.6, 0.95), (0.85, 0.9, 0.88), (0.1, 0.75, 0.15), (0.55, 0.55, 0.55)  # BGR
MM_PER_PIXEL = 0.8


def _blurred(cover: np.ndarray, under, over, sigma: float = 1.5) -> tuple[np.ndarray, np.ndarray]:
    """`over` where `cover` is set, `under` elsewhere, blurred as a phone smooths its chroma; with the share of
    `over` in each pixel."""
    share = cv2.GaussianBlur(cover.astype(np.float32), (0, 0), sigma)
    image = (1 - share[..., None]) * np.float32(under) + share[..., None] * np.float32(over)
    return image, share


def _table_like(share: np.ndarray) -> np.ndarray:
    """As the table model finds it: table where the pixel is nearly all table, unlike it elsewhere."""
    return np.where(share < 0.1, 255.0, 0.0).astype(np.float32)


def test_a_thin_grey_wall_blurred_into_an_orange_table_is_grey_at_its_core():
    wall = np.zeros((80, 80), bool)
    wall[:, 38:42] = True  # 4 px: a wall's top seen from afar
    image, share = _blurred(wall, ORANGE, GREY)
    feats = colour_features(image)
    core = np.s_[:, 39:41]
    assert (feats.saturation[core] > MAX_GREY_SATURATION).all()  # lost to the plain limit
    found = mixed_with_the_table(feats, _table_like(share), MM_PER_PIXEL)
    assert found[core].all()
    assert not found[share < 0.4].any()


def test_the_blend_of_a_pale_stripe_and_a_green_one_is_not_grey():
    stripes = np.zeros((80, 80), bool)
    stripes[:, 40:] = True
    image, share = _blurred(stripes, PALE, GREEN)
    blend = (share > 0.1) & (share < 0.9)
    table_like = np.where(blend, 0.0, 255.0).astype(np.float32)  # blends are not learnt as table (strict)
    assert not mixed_with_the_table(colour_features(image), table_like, MM_PER_PIXEL).any()


def test_the_blend_of_magenta_and_green_stripes_is_not_grey_though_both_are_strongly_coloured():
    stripes = np.zeros((80, 80), bool)
    stripes[:, 40:] = True
    image, share = _blurred(stripes, (0.8, 0.2, 0.8), GREEN)
    feats = colour_features(image)
    blend = (share > 0.1) & (share < 0.9)
    assert (feats.saturation[blend] < 0.4 * 0.75).any()  # as grey as a wall mixed into either
    table_like = np.where(blend, 0.0, 255.0).astype(np.float32)
    assert not mixed_with_the_table(feats, table_like, MM_PER_PIXEL).any()


def test_a_dull_patch_far_from_any_table_is_not_taken_for_grey():
    patch = np.zeros((120, 120), bool)
    patch[20:100, 20:100] = True  # a dull brown cup, wider than the reach to the table
    image, share = _blurred(patch, ORANGE, (0.3, 0.35, 0.45), sigma=0.5)
    found = mixed_with_the_table(colour_features(image), _table_like(share), MM_PER_PIXEL)
    assert not found[40:80, 40:80].any()


def test_an_open_short_wall_read_again_as_an_open_long_one_from_its_socket_grows_long():
    towers = [TowerReading(0.0, 0.0, 12.0), TowerReading(64.0, 0.0, 12.0)]
    walls = [WallReading("short", 0, None, (-64.0, 0.0), 1.0),  # open, leaving tower 0 towards -x
             WallReading("short", 0, 1, None, 1.0),
             WallReading("short", 1, None, (64.0, 64.0), 1.0)]  # open, leaving tower 1 towards +y
    again = [WallReading("long", 0, None, (-128.0, 2.0), 0.9),  # the same socket, running on
             WallReading("long", 1, None, (192.0, 0.0), 0.9)]  # another socket of tower 1: not its open wall
    assert open_walls_grown_long(walls, again, towers) == [(0, again[0])]
