"""Walls told from the table by the step in colour across their tops (`wall_steps`)."""

import cv2
import numpy as np
import pytest

from tablesight.calibration.card_detection import virtual_card
from tablesight.calibration.pieces import NOMINAL_PROFILE
from tablesight.vision.castellan.towers import TowerReading
from tablesight.vision.castellan.wall_steps import MIN_STEP_SHARE, wall_step_share, walls_seen_by_their_step
from tablesight.vision.table_view import TableView

PX_PER_MM = 2.0
PINK = (200, 196, 214)  # a pale pink cloth (BGR)
PLASTIC = (150, 146, 160)  # grey plastic lit darker than it, of nearly its tint: the table in shade to the colours
A, B = np.array([-64.0, 0.0]), np.array([0.0, 0.0])  # two towers a short wall's span apart


def _table(seed: int, bands: list[tuple[np.ndarray, np.ndarray, float]], colours: list | None = None) -> TableView:
    """A grainy pink cloth seen straight down, the towers at A and B drawn as grey discs, and a band 10 mm wide
    along each (start, end, height mm) given: of the plastic, or of the `colours` given."""
    rng = np.random.default_rng(seed)
    image = np.clip(np.array(PINK) + rng.normal(0, 3, (500, 700, 3)), 0, 255).astype(np.uint8)
    card = virtual_card(image, PX_PER_MM)

    def px(points, height):
        return np.round(card.table_to_image(np.asarray(points, np.float64), height)).astype(np.int32)

    for (start, end, height), colour in zip(bands, colours or [PLASTIC] * len(bands), strict=True):
        a, b = px([start, end], height)
        cv2.line(image, tuple(a), tuple(b), colour, int(10 * PX_PER_MM))
    for centre in (A, B):
        cv2.circle(image, tuple(px([centre], 36.0)[0]), int(12 * PX_PER_MM), PLASTIC, -1)
    return TableView(image, virtual_card(image, PX_PER_MM))


@pytest.mark.parametrize("seed", [1, 2])
def test_a_wall_darker_than_the_table_and_of_its_tint_is_seen_all_along(seed):
    view = _table(seed, [(A, B, NOMINAL_PROFILE.wall_height)])
    assert wall_step_share(view, A, B, NOMINAL_PROFILE) >= 0.9


@pytest.mark.parametrize("seed", [1, 2])
def test_the_table_between_two_towers_is_no_wall(seed):
    view = _table(seed, [])
    assert wall_step_share(view, A, B, NOMINAL_PROFILE) == 0.0


def test_a_dark_band_beside_the_line_between_two_towers_is_no_wall():
    """A shadow lies beside what casts it: a band as dark as the plastic running 12 mm off the towers' line leaves
    the table on one side of where the wall's top would be."""
    offset = np.array([0.0, 12.0])
    view = _table(3, [(A + offset, B + offset, 0.0)])
    assert wall_step_share(view, A, B, NOMINAL_PROFILE) < 0.2


def test_a_wall_only_half_way_between_two_towers_is_not_seen_all_along():
    view = _table(4, [(A, (A + B) / 2, NOMINAL_PROFILE.wall_height)])
    assert 0.3 < wall_step_share(view, A, B, NOMINAL_PROFILE) < MIN_STEP_SHARE


def test_a_band_of_several_colours_is_no_wall():
    """A line between two towers running over other pieces (a steep photo's leaning walls and keeps) steps from the
    table, but is not one plastic all along."""
    height, along = NOMINAL_PROFILE.wall_height, (B - A) / np.linalg.norm(B - A)
    thirds = [A + along * mm for mm in (0.0, 27.0, 37.0, 64.0)]  # the body sampled (16-48 mm out of A) in three
    view = _table(6, [(thirds[k], thirds[k + 1], height) for k in range(3)], [PLASTIC, (60, 170, 60), (190, 90, 30)])
    assert wall_step_share(view, A, B, NOMINAL_PROFILE) == 0.0


def test_the_wall_seen_by_its_step_joins_the_two_towers_and_is_flagged():
    view = _table(5, [(A, B, NOMINAL_PROFILE.wall_height)])
    towers = [TowerReading(*A, 12.0), TowerReading(*B, 12.0)]
    found = list(walls_seen_by_their_step(view, towers, [], NOMINAL_PROFILE, 0.0))
    assert [(w.kind, w.start, w.end, w.by_step) for w in found] == [("short", 0, 1, True)]
