"""Towers in a run of wall longer than any wall (`overlong_runs`): an open long wall whose strip runs on past its
reach has a tower in it, placed where a tower's top shows above the walls."""

from types import SimpleNamespace

import numpy as np
import pytest
from drawn_footprints import REGION, footprint

import tablesight.vision.castellan.overlong_runs as overlong_runs
from tablesight.calibration.pieces import NOMINAL_PROFILE
from tablesight.scoring.castellan.pieces import NOMINAL_DIMENSIONS as DIMS
from tablesight.vision.castellan.carving import PixelClasses
from tablesight.vision.castellan.reading import PhotoReading, board_of
from tablesight.vision.castellan.towers import find_towers
from tablesight.vision.castellan.walls import KeepCover, find_walls

SHORT, LONG, R = DIMS.centre_spacing("short"), DIMS.centre_spacing("long"), DIMS.tower_radius
CLASSES = PixelClasses(np.zeros(REGION.size[::-1], np.uint8), {})


def read(solid):
    towers = find_towers(solid, REGION, DIMS)
    return towers, find_walls(towers, solid, REGION, DIMS, axis=0.0)


@pytest.fixture
def steps_at(monkeypatch):
    """The height step seen at each place along the run (x, table mm), as `height_step` would measure it."""
    seen = {}
    monkeypatch.setattr(overlong_runs, "height_step", lambda view, grey, hidden, point, u, profile: min(
        seen.items(), key=lambda item: abs(item[0] - point[0]))[1])
    return seen


def found_in(solid):
    towers, walls = read(solid)
    return overlong_runs.towers_in_overlong_runs(None, CLASSES, towers, walls, solid, REGION, NOMINAL_PROFILE)


def test_a_tower_is_found_where_its_top_shows_in_an_open_run_longer_than_any_wall(steps_at):
    # A tower at (100, 100), then a short wall, a tower lost at (164, 100) and an open long wall: one strip that reads
    # as an open long wall from (100, 100) running on 64 mm past its reach.
    solid = footprint([(100, 100)], [((100, 100), (100 + SHORT + LONG - R, 100))])
    towers, walls = read(solid)
    assert [(w.kind, w.end) for w in walls] == [("long", None)]
    steps_at.update({100 + SHORT: (0.7, 0.7), 100 + LONG: (0.0, 0.1)})
    [run] = found_in(solid)
    assert np.hypot(run.tower.x - (100 + SHORT), run.tower.y - 100) < 1 and not run.at_end and run.tower.in_run
    assert run.runs_on_mm >= SHORT - 2 * R
    # The same strip with the tower's top seen a long span along: the long wall reaches that tower.
    steps_at.update({100 + SHORT: (0.1, 0.3), 100 + LONG: (0.9, 0.9)})
    [run] = found_in(solid)
    assert abs(run.tower.x - (100 + LONG)) < 1 and run.at_end


def test_no_tower_is_found_in_an_open_long_wall_ending_where_a_long_wall_ends_or_showing_no_tower_above_it(steps_at):
    steps_at.update({100 + SHORT: (0.9, 0.9), 100 + LONG: (0.9, 0.9)})
    plain = footprint([(100, 100)], [((100, 100), (100 + LONG - R, 100))])
    assert found_in(plain) == []  # the run's length says no tower is there, whatever the height seems to
    overlong = footprint([(100, 100)], [((100, 100), (100 + SHORT + LONG - R, 100))])
    steps_at.update({100 + SHORT: (0.1, 0.9), 100 + LONG: (0.15, 0.3)})
    assert found_in(overlong) == []  # a tower stands in it, but nothing says where: left as read


def test_a_tower_found_in_an_overlong_run_is_joined_to_the_walls_either_side(steps_at):
    solid = footprint([(100, 100)], [((100, 100), (100 + SHORT + LONG - R, 100))])
    towers, walls = read(solid)
    steps_at.update({100 + SHORT: (0.7, 0.7), 100 + LONG: (0.0, 0.1)})
    cover = KeepCover(np.zeros_like(solid), np.zeros_like(solid))
    reading = PhotoReading(None, SimpleNamespace(focal_source="card"), region=REGION, towers=towers, walls=walls,
                           keeps=[], classes=CLASSES, view=object(), wall_solid=solid,
                           planes=SimpleNamespace(cover=cover))
    reading.board = board_of(reading)
    overlong_runs.read_towers_in_overlong_runs(reading, NOMINAL_PROFILE)
    assert len(reading.towers) == 2
    assert sorted((w.kind, w.end is None) for w in reading.walls) == [("long", True), ("short", False)]
    assert any("runs on" in note for note in reading.notes)


def test_a_tower_found_in_an_overlong_run_stands_on_the_strip_not_on_the_open_walls_line(steps_at):
    """Fresh 15000-002 (11°): the open long wall's direction, read from its body alone, was a couple of degrees off,
    and the tower at its end stood 4.5 mm aside the strip running on, too far for the wall beyond to be read from its
    sockets. The tower is placed on the line through the strip's middle, fitted along the body and the run beyond."""
    solid = footprint([(100, 100)], [((100, 100), (100 + LONG + SHORT - R, 100))])
    towers, walls = read(solid)
    [wall] = walls
    tilted = (100 + LONG, 100 + LONG * np.tan(np.radians(2.5)))  # the open wall's line, 5.6 mm off at its end
    walls = [type(wall)(wall.kind, wall.start, None, tilted, wall.filled)]
    steps_at.update({100 + SHORT: (0.1, 0.3), 100 + LONG: (0.9, 0.9)})
    [run] = overlong_runs.towers_in_overlong_runs(None, CLASSES, towers, walls, solid, REGION, NOMINAL_PROFILE)
    assert run.at_end and np.hypot(run.tower.x - (100 + LONG), run.tower.y - 100) < 1.5
