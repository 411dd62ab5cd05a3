"""How the readings of a photo's looks are weighed against each other (`reader._takes_the_lead`)."""

import math

from tablesight.scoring.castellan.board import Board, Tower
from tablesight.scoring.castellan.report import score_board
from tablesight.vision.castellan.looks import LOOKS, Standing
from tablesight.vision.castellan.reader import _takes_the_lead
from tablesight.vision.castellan.reading import PhotoReading
from tablesight.vision.castellan.towers import TowerReading


def _standing(towers: int, misfits: float) -> Standing:
    """A reading of `towers` towers in a row, weighed at `misfits`."""
    read = [TowerReading(64.0 * i, 0.0, 12.0) for i in range(towers)]
    board = Board(tuple(Tower(f"t{i}", t.x, t.y) for i, t in enumerate(read)), (), ())
    return Standing(PhotoReading(board, None, towers=read), score_board(board), misfits, 0, "as usual")


def test_where_the_usual_look_saw_no_castle_a_castle_beats_a_tower_and_a_tower_never_beats_a_castle():
    """A tower or two breaking no rule is no castle: it leads over nothing, but a castle with misfits takes the
    lead from it whatever their rates per tower say, and it never takes the lead from a castle."""
    nothing = Standing(PhotoReading(None, None), None, math.inf, 0, "as usual")
    look = LOOKS[-1]
    speck, castle = _standing(1, 0), _standing(40, 3)
    assert _takes_the_lead(speck, nothing, look, True, nothing)
    assert _takes_the_lead(castle, speck, look, True, nothing)
    assert not _takes_the_lead(speck, castle, look, True, nothing)
    # Where the usual look saw a castle, rates decide as before: fewer misfits a tower lead.
    assert _takes_the_lead(_standing(40, 1), castle, LOOKS[1], False, castle)
    assert not _takes_the_lead(_standing(40, 5), castle, LOOKS[1], False, castle)
