"""Grey plastic of a plain table's own colour and brightness, on a mottled table: its steps from the table
right around it, which the table's smooth light cannot tell from the mottling."""

import numpy as np

from tablesight.vision.castellan.looks import LOCAL_STEPS_WIDE_MM, LOOKS
from tablesight.vision.segmentation import TableLight, colour_features, stands_out, steps_from_table_around


class _CardUnits:
    """A stand-in view whose photos are already in card units."""

    @staticmethod
    def normalised(photo: np.ndarray) -> np.ndarray:
        return photo.astype(np.float32)


def _mottled_table_with_walls(seed: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """A pale grey table mottled by ±0.15 stop blotches 60 px across, with walls (1 px = 1 mm) whose lit tops
    are 0.15 stop brighter than the table beside them and whose shaded sides 0.25 stop darker; and the walls."""
    rng = np.random.default_rng(seed)
    ys, xs = np.mgrid[0:300, 0:400]
    blotch = 0.15 * np.sin(xs / 19.0 + 1.0) * np.cos(ys / 23.0)
    stops = blotch.copy()
    walls = np.zeros(stops.shape, bool)
    for x in range(40, 380, 70):
        stops[30:270, x:x + 7] += 0.15
        stops[30:270, x + 7:x + 10] -= 0.25
        walls[30:270, x:x + 10] = True
    value = 0.7 * 2.0 ** stops + rng.normal(0, 0.004, stops.shape)
    return np.repeat(value[..., None], 3, axis=2).astype(np.float32), walls


def test_walls_of_a_mottled_tables_own_brightness_step_from_the_table_right_around_them():
    image, walls = _mottled_table_with_walls()
    feats = colour_features(image)
    light = TableLight.fit(_CardUnits(), image)
    found = steps_from_table_around(feats, light, mm_per_pixel=1.0)
    assert found[walls].mean() > 0.8
    assert found[~walls].mean() < 0.02
    # Measured against the smooth light alone, the mottling's spread hides most of them.
    assert stands_out(feats, np.zeros(walls.shape, np.float32), light)[walls].mean() < 0.5


def test_a_plain_table_with_nothing_on_it_has_no_steps():
    rng = np.random.default_rng(5)
    image = np.full((200, 300, 3), 0.6, np.float32) + rng.normal(0, 0.004, (200, 300, 1)).astype(np.float32)
    found = steps_from_table_around(colour_features(image), TableLight.fit(_CardUnits(), image), mm_per_pixel=1.0)
    assert found.mean() < 0.001


def test_a_tower_filling_the_usual_window_steps_from_the_table_only_over_a_wider_one():
    """A tower (24 mm across) a little brighter than a plain table: the usual 25 mm window is mostly tower, its
    median steps with it and the tower's middle goes unseen; over LOCAL_STEPS_WIDE_MM it is seen whole."""
    rng = np.random.default_rng(7)
    ys, xs = np.mgrid[0:200, 0:200]
    tower = (xs - 100) ** 2 + (ys - 100) ** 2 <= 12 ** 2
    stops = np.where(tower, 0.3, 0.0) + rng.normal(0, 0.01, tower.shape)
    image = np.repeat((0.6 * 2.0 ** stops)[..., None], 3, axis=2).astype(np.float32)
    feats, light = colour_features(image), TableLight.fit(_CardUnits(), image)
    usual = steps_from_table_around(feats, light, mm_per_pixel=1.0)
    wide = steps_from_table_around(feats, light, mm_per_pixel=1.0, around_mm=LOCAL_STEPS_WIDE_MM)
    assert usual[tower].mean() < 0.6
    assert wide[tower].mean() > 0.95
    assert wide[~tower].mean() < 0.01


def test_the_looks_taking_steps_from_the_table_around_are_tried_last_and_where_no_castle_was_seen():
    steps = LOOKS[-3:]  # as the other looks carve, from higher up (only the pieces' tops step out), by steps alone
    assert all(look.local_steps and look.sees_more_grey for look in steps)
    assert steps[1].lower_shares[0] > steps[0].lower_shares[0]
    # The last takes no grey by colour (a JPEG-blocked pale table's specks) and steps over a tower's width and more.
    assert [look.grey_by_colour for look in steps] == [True, True, False]
    assert steps[2].steps_around_mm > 2 * steps[0].steps_around_mm
    # They take broad shade for plastic too: a reading through them must break fewer rules, not merely warn less.
    # So must the looks taking deep shade for plastic (a wall's cast shadow near nadir); the others win ties.
    assert not any(look.wins_ties for look in steps)
    assert all(other.wins_ties != other.deep_shade_is_plastic for other in LOOKS[:-3])
    assert not any(other.local_steps or not other.grey_by_colour for other in LOOKS[:-3])
