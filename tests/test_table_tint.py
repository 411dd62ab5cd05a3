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


def test_the_look_taking_grey_nearer_than_the_table_is_tried_where_no_castle_was_seen():
    (look,) = [look for look in LOOKS if look.nearer_grey]
    assert look.sees_more_grey


def test_on_a_noisy_photo_grey_walls_are_told_from_a_blue_grey_table_by_their_averaged_tint():
    """Pixel by pixel a camera's colour noise spreads the table's chromaticity as wide as its step to grey
    (fresh 6767-006): the tint averaged over a few pixels still tells them apart."""
    rng = np.random.default_rng(6)
    image = np.empty((240, 320, 3), np.float32)
    image[:] = (0.75, 0.77, 0.70)  # BGR: a blue-grey table, 0.02 from grey in chromaticity
    walls = np.zeros(image.shape[:2], bool)
    for x in range(40, 300, 64):
        walls[20:220, x:x + 12] = True
    image[walls] = 0.74
    image += rng.normal(0, 0.03, image.shape).astype(np.float32)
    inner = np.zeros_like(walls)
    for x in range(40, 300, 64):
        inner[22:218, x + 3:x + 9] = True  # the walls less their edges, which blend with the table
    pixelwise = TableTint.fit(_CardUnits(), image).nearer_grey(image)
    averaged = TableTint.fit(_CardUnits(), image, blur_px=5).nearer_grey(image)
    assert pixelwise[inner].mean() < 0.5
    assert averaged[inner].mean() > 0.95 and averaged[~walls].mean() < 0.01
