"""Towers the carving lost where an open wall ends and another wall leaves across it (`corner_towers`)."""

import numpy as np
from drawn_footprints import REGION, footprint

from tablesight.scoring.castellan.pieces import NOMINAL_DIMENSIONS as DIMS
from tablesight.vision.castellan.corner_towers import towers_where_walls_turn
from tablesight.vision.castellan.towers import find_towers
from tablesight.vision.castellan.walls import find_walls


def read(solid):
    towers = find_towers(solid, REGION, DIMS)
    return towers, find_walls(towers, solid, REGION, DIMS, axis=0.0)


def test_a_corner_tower_carved_no_wider_than_its_walls_is_inferred_where_a_wall_leaves_across_the_open_end():
    # A short wall from the tower at (100, 100) to a corner at (164, 100) whose tower shows only as its walls'
    # width (its top a ring of merlons, its body the table's grey), and a long wall leaving it at a right angle.
    solid = footprint([(100, 100)], [((100, 100), (164, 100)), ((164, 100), (164, 100 + 12 + 104))])
    towers, walls = read(solid)
    assert len(towers) == 1 and [w.end for w in walls] == [None]
    found = towers_where_walls_turn(towers, walls, solid, REGION, DIMS, 0.0)
    assert len(found) == 1
    tower, ending = found[0]
    assert np.hypot(tower.x - 164, tower.y - 100) < 4 and tower.inferred and ending == (0,)


def test_no_tower_is_inferred_at_an_open_end_with_nothing_across_it_or_only_a_wall_read_already():
    # An ordinary open end: the wall stops, nothing leaves it.
    bare = footprint([(100, 100)], [((100, 100), (164 - 12, 100))])
    assert towers_where_walls_turn(*read(bare), bare, REGION, DIMS, 0.0) == []
    # The open end touching the middle of a long wall already read between towers at (164, 36) and (164, 164):
    # the body leaving across it is that wall's, not another wall in a tower there.
    passing = footprint([(100, 100), (164, 36), (164, 164)], [((100, 100), (164 - 5, 100)), ((164, 36), (164, 164))])
    towers, walls = read(passing)
    assert any(w.kind == "long" and w.end is not None for w in walls)
    assert any(w.end is None for w in walls)
    assert towers_where_walls_turn(towers, walls, passing, REGION, DIMS, 0.0) == []


def test_no_tower_is_inferred_where_an_open_wall_and_a_wall_body_across_it_end_at_a_gap_showing_the_table():
    # A gap left for a tower at (164, 100): the short wall from (100, 100) and a long wall's body running down
    # from there both stop short of it, the table showing between them.
    r = DIMS.tower_radius
    gap = footprint([(100, 100)], [((100, 100), (164 - r - 2, 100)), ((164, 100 + r + 2), (164, 100 + r + 104))])
    towers, walls = read(gap)
    assert [w.end for w in walls] == [None]
    assert towers_where_walls_turn(towers, walls, gap, REGION, DIMS, 0.0) == []
