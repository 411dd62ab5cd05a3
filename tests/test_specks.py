"""Towers standing apart from the castle: left out as specks, kept aside, and joined again by walls seen by their
step from the table (`specks`)."""

import cv2
import numpy as np

from tablesight.calibration.card_detection import virtual_card
from tablesight.calibration.pieces import NOMINAL_PROFILE
from tablesight.vision.castellan.reading import PhotoReading
from tablesight.vision.castellan.specks import drop_specks, join_apart_by_steps
from tablesight.vision.castellan.towers import TowerReading
from tablesight.vision.castellan.walls import WallReading
from tablesight.vision.table_view import TableView

PX_PER_MM = 2.0
PINK = (200, 196, 214)  # a pale pink cloth (BGR)
PLASTIC = (150, 146, 160)  # grey plastic lit darker than it, of nearly its tint: the table in shade to the colours
# A row of three towers a short wall's span apart; the wall X-A is read, the one A-B lost to the colour classes.
X, A, B = np.array([-128.0, 0.0]), np.array([-64.0, 0.0]), np.array([0.0, 0.0])


def _photo(wall_between_a_and_b: bool, seed: int = 1) -> TableView:
    """A grainy pink cloth seen straight down, the three towers drawn as grey discs, the wall X-A as a grey band
    and, if asked, the wall A-B too."""
    rng = np.random.default_rng(seed)
    image = np.clip(np.array(PINK) + rng.normal(0, 3, (500, 800, 3)), 0, 255).astype(np.uint8)
    card = virtual_card(image, PX_PER_MM)

    def px(point, height):
        return tuple(np.round(card.table_to_image(np.asarray([point], np.float64), height)[0]).astype(int))

    walls = [(X, A), (A, B)] if wall_between_a_and_b else [(X, A)]
    for start, end in walls:
        cv2.line(image, px(start, NOMINAL_PROFILE.wall_height), px(end, NOMINAL_PROFILE.wall_height), PLASTIC,
                 int(10 * PX_PER_MM))
    for centre in (X, A, B):
        cv2.circle(image, px(centre, NOMINAL_PROFILE.tower_height), int(12 * PX_PER_MM), PLASTIC, -1)
    return TableView(image, virtual_card(image, PX_PER_MM))


def _reading(view: TableView | None = None) -> PhotoReading:
    """The row as read before the specks are left out: the wall X-A read, B with an open wall away from the row."""
    towers = [TowerReading(*X, 12.0), TowerReading(*A, 12.0), TowerReading(*B, 12.0)]
    walls = [WallReading("short", 0, 1, None, 1.0), WallReading("short", 2, None, (0.0, 64.0), 0.9)]
    return PhotoReading(None, None if view is None else view.card, towers=towers, walls=walls, view=view)


def test_a_tower_standing_apart_is_left_out_and_kept_aside_with_its_walls():
    reading = _reading()
    drop_specks(reading)
    assert [t.position for t in reading.towers] == [tuple(X), tuple(A)]
    assert [(w.start, w.end) for w in reading.walls] == [(0, 1)]
    assert [t.position for t in reading.apart.towers] == [tuple(B)]
    assert [(w.start, w.end, w.open_point) for w in reading.apart.walls] == [(0, None, (0.0, 64.0))]
    assert reading.stranded == 1
    assert "left out 1 tower(s) standing apart from the castle in groups of at most 2" in reading.notes[-1]


def test_a_tower_set_apart_is_joined_again_by_the_wall_its_step_shows():
    reading = _reading(_photo(wall_between_a_and_b=True))
    drop_specks(reading)
    assert join_apart_by_steps(reading, NOMINAL_PROFILE, 0.0) == 1
    assert [t.position for t in reading.towers] == [tuple(X), tuple(A), tuple(B)]
    assert {(w.start, w.end, w.by_step) for w in reading.walls} == {(0, 1, False), (1, 2, True), (2, None, False)}
    assert not reading.apart.towers and reading.stranded == 0
    assert not any("standing apart from the castle in groups" in note for note in reading.notes)
    assert any("joins towers standing apart to the castle" in note for note in reading.notes)


def test_a_tower_set_apart_with_bare_table_between_it_and_the_castle_stays_apart():
    reading = _reading(_photo(wall_between_a_and_b=False))
    drop_specks(reading)
    assert join_apart_by_steps(reading, NOMINAL_PROFILE, 0.0) == 0
    assert [t.position for t in reading.towers] == [tuple(X), tuple(A)]
    assert [t.position for t in reading.apart.towers] == [tuple(B)] and reading.stranded == 1
    assert "left out 1 tower(s) standing apart" in reading.notes[-1]
