"""Grey plastic on a faintly tinted table of its own brightness: nearer grey than the table's tint."""

import numpy as np

from tablesight.vision.castellan.looks import LOOKS
from tablesight.vision.segmentation import TableTint, colour_features


class _CardUnits:
    """A stand-in view whose photos are already in card units."""

    @staticmethod
    def normalised(photo: np.ndarray) -> np.ndarray:
        return photo.astype(np.float32)


def _pale_table_with_walls(table_bgr, seed: int = 4) -> np.ndarray:
    """A pale table (card units) with walls of a pale neutral grey as bright as it, and noise."""
    rng = np.random.default_rng(seed)
    image = np.empty((240, 320, 3), np.float32)
    image[:] = table_bgr
    for x in range(40, 300, 64):
        image[20:220, x:x + 10] = 0.76  # walls as bright as the table, but grey
    return image + rng.normal(0, 0.004, image.shape).astype(np.float32)


def test_grey_walls_on_a_lavender_table_of_their_brightness_are_nearer_grey_than_it():
    image = _pale_table_with_walls((0.80, 0.73, 0.76))  # BGR: lavender, about 0.09 saturated
    tint = TableTint.fit(_CardUnits(), image)
    nearer = tint.nearer_grey(image)
    walls = np.zeros(image.shape[:2], bool)
    for x in range(40, 300, 64):
        walls[20:220, x:x + 10] = True
    assert nearer[walls].mean() > 0.95 and nearer[~walls].mean() < 0.01
    # The usual look's colour alone cannot tell them: both are well under the grey plastic's saturation.
    assert np.median(colour_features(image).saturation[~walls]) < 0.2


def test_on_a_table_grey_itself_nothing_is_nearer_grey():
    image = _pale_table_with_walls((0.76, 0.76, 0.76))
    assert not TableTint.fit(_CardUnits(), image).nearer_grey(image).any()


def test_the_look_taking_grey_nearer_than_the_table_is_tried_last_and_where_no_castle_was_seen():
    look = LOOKS[-1]
    assert look.nearer_grey and look.sees_more_grey
