"""Grey plastic of the photo's own tint: found from the pixels unlike the table, the card left out."""

import numpy as np

from tablesight.vision.castellan.carving import _blobs_mostly_in
from tablesight.vision.castellan.looks import LOOKS
from tablesight.vision.plastic_tint import balanced_on, plastic_tint
from tablesight.vision.segmentation import MAX_GREY_SATURATION, colour_features

MAUVE_GREY = (0.33, 0.24, 0.31)  # card units, BGR: a grey plastic tinted well beyond the usual looks' grey


def _table_with_castle(seed: int = 3) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A red cloth (card units) with walls of mauve grey, two keeps, and the card's white sheet with its
    black squares; and where the colours are unlike the table, and the sheet's corners."""
    rng = np.random.default_rng(seed)
    image = np.empty((240, 320, 3), np.float32)
    image[:] = (0.12, 0.1, 0.45)
    for x in range(60, 300, 48):
        image[30:230, x:x + 8] = MAUVE_GREY  # walls one way ...
    for y in range(40, 230, 48):
        image[y:y + 8, 60:300] = MAUVE_GREY  # ... and the other
    image[100:112, 100:112] = (0.1, 0.7, 0.8)  # a yellow keep
    image[150:162, 200:212] = (0.7, 0.25, 0.1)  # a blue keep
    image[5:60, 5:50] = 1.0  # the card's sheet ...
    image[15:50:10, 10:45] = 0.0  # ... and its ink
    image += rng.normal(0, 0.01, image.shape).astype(np.float32)
    unlike_table = np.abs(image - (0.12, 0.1, 0.45)).max(axis=2) > 0.08
    corners = np.array([[5, 5], [49, 5], [49, 59], [5, 59]], float)
    return image, unlike_table, corners


def test_the_plastic_of_a_tinted_grey_comes_out_neutral_once_the_photo_is_balanced_on_its_tint():
    image, unlike_table, corners = _table_with_castle()
    feats = colour_features(image)
    wall = (slice(120, 140), slice(60, 68))
    assert np.median(feats.saturation[wall]) > MAX_GREY_SATURATION  # the usual look takes it for no grey
    tint = plastic_tint(image, feats.saturation, feats.value, unlike_table, corners, bands=1)
    expected = np.array(MAUVE_GREY) / np.mean(MAUVE_GREY)
    assert np.allclose(tint.tints, [expected], atol=0.03)
    balanced = colour_features(balanced_on(image, tint))
    assert np.median(balanced.saturation[wall]) < MAX_GREY_SATURATION / 2  # well within the grey seen as usual


def test_grey_a_tone_curve_tints_more_in_its_mid_tones_comes_out_neutral_at_every_brightness():
    """A phone's tone curve, applied to each channel, pulls a warm-lit grey's channels further apart in its
    mid-tones than in its highlights: the walls' lit tops a faint cream, their shaded sides tan. One tint for
    the photo leaves one of the two tinted; a tint for each brightness balances both."""
    image, unlike_table, corners = _table_with_castle()
    tops, sides = (0.80, 0.86, 0.88), (0.28, 0.42, 0.46)  # BGR card units: cream, tan
    lit = np.zeros(image.shape[:2], bool)
    for x in range(60, 300, 48):
        lit[30:230, x:x + 4] = True  # each wall's lit half ...
    for y in range(40, 230, 48):
        lit[y:y + 4, 60:300] = True
    walls = np.all(np.abs(image - MAUVE_GREY) < 0.05, axis=2)
    image[walls & lit], image[walls & ~lit] = tops, sides  # ... and its shaded half
    feats = colour_features(image)
    banded = plastic_tint(image, feats.saturation, feats.value, unlike_table, corners)
    balanced = colour_features(balanced_on(image, banded))
    assert np.median(balanced.saturation[walls & lit]) < MAX_GREY_SATURATION / 2
    assert np.median(balanced.saturation[walls & ~lit]) < MAX_GREY_SATURATION / 2
    one = colour_features(balanced_on(image, plastic_tint(image, feats.saturation, feats.value, unlike_table, corners,
                                                          bands=1)))
    worst = max(np.median(one.saturation[walls & lit]), np.median(one.saturation[walls & ~lit]))
    assert worst > MAX_GREY_SATURATION / 2


def test_without_the_card_left_out_its_white_and_black_would_not_change_the_tint_found():
    image, unlike_table, corners = _table_with_castle()
    feats = colour_features(image)
    with_card = plastic_tint(image, feats.saturation, feats.value, unlike_table, None, bands=1)
    without = plastic_tint(image, feats.saturation, feats.value, unlike_table, corners, bands=1)
    # The walls outnumber the sheet: the commonest colour wins.
    assert np.allclose(with_card.tints, without.tints, atol=0.03)


def test_a_table_with_nothing_on_it_says_nothing_of_the_plastic():
    image = np.full((100, 100, 3), (0.12, 0.1, 0.45), np.float32)
    feats = colour_features(image)
    assert plastic_tint(image, feats.saturation, feats.value, np.zeros((100, 100), bool)) is None


def test_where_the_usual_look_sees_no_castle_the_looks_seeing_more_grey_are_tried():
    seeing_more = {look.name for look in LOOKS if look.sees_more_grey}
    assert "grey of the plastic's own tint" in seeing_more
    assert "grey tinted by mixed light" in seeing_more
    assert "shadows taken for table" not in seeing_more and "as usual" not in seeing_more


def test_a_keep_blob_mostly_of_its_colour_in_the_plastics_balance_too_stays_whole():
    """The look balanced on the plastic's own tint keeps a keep-coloured blob only if it is of that colour in
    both balances, but whole, with its card-balance outline: its lean and area, which tell a double from a
    single, are measured there."""
    card_balance = np.zeros((100, 200), bool)
    card_balance[10:50, 10:50] = True  # a keep, its shaded side (rows 40-50) grey in the plastic's balance
    card_balance[60:90, 120:190] = True  # tan plastic sides, grey in the plastic's balance
    plastic_balance = np.zeros_like(card_balance)
    plastic_balance[10:40, 10:50] = True
    plastic_balance[60:65, 120:190] = True  # a sliver of the sides still yellow
    kept = _blobs_mostly_in(card_balance, plastic_balance)
    assert kept[10:50, 10:50].all()
    assert not kept[60:90, 120:190].any()
    assert np.count_nonzero(kept) == 40 * 40
