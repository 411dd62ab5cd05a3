"""Single or double calls in doubt made for a colour's likeliest score (`likeliest_scores`)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from tablesight.scoring.castellan.board import Board, Keep, Tower, Wall
from tablesight.scoring.castellan.pieces import NOMINAL_DIMENSIONS as DIMS
from tablesight.scoring.castellan.report import score_board
from tablesight.vision.castellan.keeps import KeepReading
from tablesight.vision.castellan.likeliest_scores import doubles_for_the_likeliest_scores
from tablesight.vision.castellan.reading import PhotoReading, board_of
from tablesight.vision.castellan.towers import TowerReading
from tablesight.vision.castellan.walls import WallReading

SPAN = 64.0
# Two rows of five towers: courtyards A and B of four towers each, C of six (no wall at x = 192 between the rows).
XS = [0.0, SPAN, 2 * SPAN, 3 * SPAN, 4 * SPAN]
CORNERS = [(x, 0.0) for x in XS] + [(x, SPAN) for x in XS]
SIDES = [(i, i + 1) for i in range(4)] + [(i + 5, i + 6) for i in range(4)] + [(i, i + 5) for i in (0, 1, 2, 4)]
MIDDLES = {"A": 0.5 * SPAN, "B": 1.5 * SPAN, "C": 3 * SPAN}


def _reading(keeps: list[KeepReading]) -> PhotoReading:
    towers = [TowerReading(x, y, 12.0) for x, y in CORNERS]
    walls = [WallReading("short", a, b, None, 1.0) for a, b in SIDES]
    reading = PhotoReading(None, None, towers=towers, walls=walls, keeps=keeps)
    reading.board = board_of(reading)
    return reading


def _keep(yard: str, chance: float, double: bool = False, certain: bool = False) -> KeepReading:
    return KeepReading("red", MIDDLES[yard], SPAN / 2, double, certain, None, double_chance=chance)


def _red(reading: PhotoReading) -> int:
    return score_board(reading.board, DIMS).scores["red"]


def _board_double(reading: PhotoReading) -> list[Keep]:
    return [k for k in reading.board.keeps if k.double]


def test_the_layout_has_two_courtyards_of_four_towers_and_one_of_six():
    board = Board(tuple(Tower(f"t{i}", x, y) for i, (x, y) in enumerate(CORNERS)),
                  tuple(Wall(f"w{n}", "short", (f"t{a}", f"t{b}")) for n, (a, b) in enumerate(SIDES)),
                  tuple(Keep("red", MIDDLES[y], SPAN / 2) for y in "ABC"))
    assert sorted(c.value for c in score_board(board, DIMS).courtyards) == [4, 4, 6]


def test_two_doubtful_calls_giving_one_score_outweigh_a_likelier_single_call():
    # C's keep is the likeliest double (0.4), but A's or B's (0.3 each) both give red 4 + 4 + 4 + 6 = 18.
    reading = _reading([_keep("A", 0.3), _keep("B", 0.3), _keep("C", 0.4, double=True)])
    assert _red(reading) == 4 + 4 + 12
    doubles_for_the_likeliest_scores(reading, DIMS)
    assert _red(reading) == 8 + 4 + 6
    (double,) = _board_double(reading)
    assert double.position == (MIDDLES["A"], SPAN / 2)
    assert not any(k.double_certain for k in reading.keeps)  # still listed to check
    assert any("red 18 at 60%" in note for note in reading.notes)


def test_the_likeliest_call_stays_where_its_score_is_the_likeliest():
    reading = _reading([_keep("A", 0.2), _keep("B", 0.2), _keep("C", 0.6, double=True)])
    doubles_for_the_likeliest_scores(reading, DIMS)
    assert _red(reading) == 4 + 4 + 12
    assert not reading.notes


def test_no_double_is_called_where_the_chances_of_none_outweigh_each_score_with_one():
    # No double at 0.45 (red 14); A at 0.3 and B at 0.25 (red 18 either way, 0.55 together) outweigh it.
    reading = _reading([_keep("A", 0.3), _keep("B", 0.25), _keep("C", 0.0)])
    assert _red(reading) == 14
    doubles_for_the_likeliest_scores(reading, DIMS)
    assert _red(reading) == 18
    # ... and with A and B less likely, none stays called.
    reading = _reading([_keep("A", 0.2), _keep("B", 0.2), _keep("C", 0.1)])
    doubles_for_the_likeliest_scores(reading, DIMS)
    assert _red(reading) == 14 and not _board_double(reading)


def test_certain_calls_and_keeps_not_weighed_together_are_left_as_read():
    certain = _reading([_keep("A", 0.3, certain=True), _keep("B", 0.3, certain=True),
                        _keep("C", 0.4, double=True, certain=True)])
    doubles_for_the_likeliest_scores(certain, DIMS)
    assert _red(certain) == 20
    unweighed = _reading([_keep("A", 0.3), _keep("B", 0.3), KeepReading("red", MIDDLES["C"], SPAN / 2, True, False,
                                                                       None)])
    doubles_for_the_likeliest_scores(unweighed, DIMS)
    assert _red(unweighed) == 20


def test_a_tie_between_scores_keeps_the_call_as_read():
    # No double at 0.5 (red 14), A or B at 0.25 each (red 18, 0.5 together): as read.
    reading = _reading([_keep("A", 0.25), _keep("B", 0.25), _keep("C", 0.0)])
    doubles_for_the_likeliest_scores(reading, DIMS)
    assert _red(reading) == 14 and not reading.notes


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(0.0, 1.0), min_size=4, max_size=4).filter(lambda w: sum(w) > 0.01))
def test_the_call_made_gives_the_likeliest_score_and_one_double_at_most(weights):
    none, *yards = (w / sum(weights) for w in weights)
    likeliest = max(range(3), key=lambda i: yards[i])
    called = likeliest if yards[likeliest] > none else None
    keeps = [_keep(y, chance, double=i == called) for i, (y, chance) in enumerate(zip("ABC", yards, strict=True))]
    reading = _reading(keeps)
    doubles_for_the_likeliest_scores(reading, DIMS)
    by_score = {14: none}  # red's score by hypothesis: none 14, A or B 18, C 20
    for score, chance in zip((18, 18, 20), yards, strict=True):
        by_score[score] = by_score.get(score, 0.0) + chance
    assert len(_board_double(reading)) <= 1
    assert by_score[_red(reading)] >= max(by_score.values()) - 1e-9
