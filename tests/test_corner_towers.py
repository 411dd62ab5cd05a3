"""Towers the carving lost where an open wall ends and another wall leaves across it (`corner_towers`)."""

import numpy as np
from drawn_footprints import REGION, footprint

from tablesight.scoring.castellan.pieces import NOMINAL_DIMENSIONS as DIMS
from tablesight.vision.castellan.corner_towers import towers_where_walls_leave_long_walls, towers_where_walls_turn
from tablesight.vision.castellan.towers import find_towers
from tablesight.vision.castellan.walls import KeepCover, find_walls


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


def test_a_tower_lost_in_a_long_walls_run_is_inferred_where_a_wall_leaves_its_middle_across_it():
    # Towers at (100, 100) and (228, 100) joined through a lost tower at (164, 100), whose third wall runs down from
    # it, open at (164, 164): the run reads as one long wall, the third wall not at all.
    solid = footprint([(100, 100), (228, 100)], [((100, 100), (228, 100)), ((164, 100), (164, 164 - 12))])
    towers, walls = read(solid)
    assert [w.kind for w in walls] == ["long"]
    found = towers_where_walls_leave_long_walls(towers, walls, solid, REGION, DIMS, 0.0)
    assert len(found) == 1
    tee = found[0]
    assert np.hypot(tee.tower.x - 164, tee.tower.y - 100) < 1 and tee.tower.inferred and tee.long_wall == 0
    assert [(w.kind, w.end) for w in tee.leaving] == [("short", None)]
    assert abs(tee.leaving[0].open_point[0] - 164) < 4 and tee.leaving[0].open_point[1] > 150


def test_no_tower_is_inferred_in_a_long_walls_run_with_nothing_across_its_middle_or_only_a_wall_read_there():
    plain = footprint([(100, 100), (228, 100)], [((100, 100), (228, 100))])
    assert towers_where_walls_leave_long_walls(*read(plain), plain, REGION, DIMS, 0.0) == []
    # A long wall between towers at (164, 36) and (164, 164) crossing the run's middle: read already, no tee.
    crossed = footprint([(100, 100), (228, 100), (164, 36), (164, 164)],
                        [((100, 100), (228, 100)), ((164, 36), (164, 164))])
    towers, walls = read(crossed)
    assert sorted(w.kind for w in walls) == ["long", "long"]
    assert towers_where_walls_leave_long_walls(towers, walls, crossed, REGION, DIMS, 0.0) == []


def test_no_tower_is_inferred_in_a_long_walls_run_where_the_strip_leaving_its_middle_runs_between_two_keeps():
    # Two keeps in the courtyard below the run, 14 mm apart either side of its middle: the courtyard's floor between
    # them, its shade taken for plastic, carves as a wall-wide strip leaving the middle, but no table shows beside it.
    solid = footprint([(100, 100), (228, 100)], [((100, 100), (228, 100)), ((164, 100), (164, 164 - 12))])
    keeps = np.zeros_like(solid)
    for x in (164 - 7 - 22, 164 + 7):
        (x0, y0), (x1, y1) = REGION.to_pixels(np.array([x, 110])), REGION.to_pixels(np.array([x + 22, 150]))
        keeps[int(y0):int(y1), int(x0):int(x1)] = True
    towers, walls = read(solid)
    assert [w.kind for w in walls] == ["long"]
    cover = KeepCover(walls=keeps, gaps=keeps)
    assert towers_where_walls_leave_long_walls(towers, walls, solid, REGION, DIMS, 0.0, cover) == []
