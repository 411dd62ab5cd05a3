import json
import math

import pytest

from tablesight.scoring.castellan.board_json import BoardFormatError, board_from_dict, board_to_dict
from tablesight.scoring.castellan.simulator import simulate_game


def _board(**changes):
    doc = {"game": "castellan",
           "towers": [{"id": "t1", "x": 0, "y": 0}, {"id": "t2", "x": 64, "y": 0}],
           "walls": [{"id": "w1", "kind": "short", "ends": ["t1", "t2"]}],
           "keeps": [{"color": "red", "x": 10, "y": 10}]}
    doc.update(changes)
    return doc


def test_round_trip_keeps_everything():
    board = simulate_game(4)[-1].board
    again = board_from_dict(json.loads(json.dumps(board_to_dict(board))))
    assert board_to_dict(again) == board_to_dict(board)


@pytest.mark.parametrize("changes, message", [
    ({"walls": [{"id": "w7", "kind": "short", "ends": ["t1", "t99"]}]},
     "wall w7 names tower t99, which does not exist"),
    ({"towers": [{"id": "t1", "x": math.nan, "y": 0}]}, "tower t1 x is nan, not a finite number"),
    ({"towers": [{"id": "t1", "x": "3", "y": 0}]}, "tower t1 x must be a number"),
    ({"towers": [{"id": "t1", "x": 0, "y": 0}, {"id": "t1", "x": 5, "y": 0}], "walls": []},
     "two towers share the id t1"),
    ({"walls": [{"id": "w1", "kind": "medium", "ends": ["t1", "t2"]}]}, "wall w1 has kind 'medium'"),
    ({"walls": [{"id": "w1", "kind": "short", "ends": ["t1", None]}]}, "open second end, so it needs 'to'"),
    ({"walls": [{"id": "w1", "kind": "short", "ends": ["t1", "t1"]}]}, "both ends in the same tower"),
    ({"keeps": [{"color": "purple", "x": 0, "y": 0}]}, "keep #1 has colour 'purple'"),
    ({"keeps": [{"color": "red", "x": 0, "y": 0, "double": "yes"}]}, "'double' must be true or false"),
    ({"game": "catan"}, "for game 'catan'"),
    ({"towers": {"t1": [0, 0]}}, "'towers' must be a list"),
    ({"towers": [{"id": "t1", "x": 1e12, "y": 0}], "walls": []}, "farther than any table"),
])
def test_validation_names_the_first_problem(changes, message):
    with pytest.raises(BoardFormatError, match=message.replace("(", r"\(").replace(")", r"\)")):
        board_from_dict(_board(**changes))


def test_open_end_with_position_is_accepted():
    board = board_from_dict(_board(walls=[{"id": "w1", "kind": "short", "ends": ["t1", None],
                                           "to": [0, 64]}]))
    assert board.walls[0].end == (0.0, 64.0)
    assert not board.walls[0].is_closed
