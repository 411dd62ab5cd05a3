"""Rule checks on small hand-made boards: the C2 open-end test."""

from tablesight.scoring.castellan.board import Board, Tower, Wall
from tablesight.scoring.castellan.checks import check_board
from tablesight.scoring.castellan.pieces import NOMINAL_DIMENSIONS as DIMS


def _c2(board: Board) -> list:
    return [w for w in check_board(board, DIMS) if w.rule == "C2"]


def test_two_open_walls_meeting_where_one_tower_would_join_them_have_room():
    # Two short walls pointing at the same missing tower, their open ends 4 mm apart (as read from a
    # photo, or measured by hand): one tower added there serves both.
    towers = (Tower("t1", 0.0, 0.0), Tower("t2", 128.0, 0.0))
    walls = (Wall("w1", "short", ("t1", None), end=(64.0, 0.0)),
             Wall("w2", "short", ("t2", None), end=(61.0, 2.6)))
    assert _c2(Board(towers, walls)) == []


def test_an_open_end_with_a_wall_through_its_spot_has_no_room():
    towers = (Tower("t1", 0.0, 0.0), Tower("t2", 64.0, -64.0), Tower("t3", 64.0, 64.0))
    walls = (Wall("w1", "short", ("t1", None), end=(64.0, 0.0)),
             Wall("w2", "long", ("t2", "t3")))  # runs straight through where t1's tower would stand
    assert len(_c2(Board(towers, walls))) == 1




def test_warnings_between_pieces_name_them():
    """Warnings between pieces name them, so a reader can tell one misread piece breaking several rules
    from several misread pieces (`looks.rules_broken`)."""
    towers = (Tower("t1", 0.0, 0.0), Tower("t2", 64.0, 0.0), Tower("t3", 32.0, -64.0), Tower("t4", 84.0, 0.0))
    walls = (Wall("w1", "short", ("t1", "t2")), Wall("w2", "short", ("t3", None), end=(32.0, 0.0)))
    named = {w.rule: set(w.pieces) for w in check_board(Board(towers, walls), DIMS) if w.pieces}
    assert named == {"C2": {"w1", "w2"}, "C1": {"t2", "t4"}}


def test_a_nearly_level_courtyard_edge_is_tested_quietly_and_right():
    """A polygon edge level but for next to nothing (a board turned by a hair) gives an even-odd test
    without overflow warnings, and the right answer."""
    import warnings

    import numpy as np

    from tablesight.scoring.castellan.geometry import points_in_polygon

    polygon = np.array([[0.0, 0.0], [100.0, 1e-320], [100.0, 100.0], [0.0, 100.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        inside = points_in_polygon(np.array([[50.0, 50.0], [150.0, 50.0], [50.0, -1.0]]), polygon)
    assert inside.tolist() == [True, False, False]


def test_too_many_pieces_stands_at_the_castles_middle_not_at_the_cards_corner():
    from tablesight.scoring.castellan.report import score_board

    towers = [Tower(f"t{i}", 500.0 + 10 * (i % 10), 300.0 + 10 * (i // 10)) for i in range(70)]
    warning = next(w for w in score_board(Board(towers=towers)).warnings if w.code == "too-many-pieces")
    assert abs(warning.where[0] - 545.0) < 1e-6 and abs(warning.where[1] - 330.0) < 1e-6
