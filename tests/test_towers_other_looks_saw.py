"""A tower the look kept lost in a long wall's run, taken from the other looks tried where two of them saw it
(`PieceInference.towers_in_runs_other_looks_saw`)."""

from types import SimpleNamespace

import pytest

from tablesight.calibration.pieces import NOMINAL_PROFILE
from tablesight.vision.castellan.inferred_pieces import MAX_RUN_WITNESS_MISFITS, PieceInference
from tablesight.vision.castellan.reading import LookWitness, PhotoReading, board_of
from tablesight.vision.castellan.towers import TowerReading
from tablesight.vision.castellan.walls import WallReading

CASTLE = [TowerReading(0.0, 0.0, 12.0), TowerReading(128.0, 0.0, 12.0), TowerReading(0.0, 64.0, 12.0)]
MIDDLE = TowerReading(65.0, 1.0, 11.0)  # where the run read as a long wall holds a tower


def _reading(*witnesses: LookWitness) -> PhotoReading:
    """The look kept: a long wall from (0, 0) to (128, 0) and a short wall off its end; the card's pose known."""
    walls = [WallReading("long", 0, 1, None, 1.0), WallReading("short", 0, 2, None, 1.0)]
    reading = PhotoReading(None, SimpleNamespace(focal_source="card"), towers=list(CASTLE), walls=walls,
                           planes=SimpleNamespace(), other_looks=list(witnesses))
    reading.board = board_of(reading)
    return reading


def test_a_tower_two_other_looks_saw_in_a_long_walls_run_splits_it():
    reading = _reading(LookWitness("a", [*CASTLE, MIDDLE], 0.1), LookWitness("b", [*CASTLE, MIDDLE], 0.3))
    PieceInference(NOMINAL_PROFILE).towers_in_runs_other_looks_saw(reading)
    assert len(reading.towers) == 4 and reading.towers[3].position == MIDDLE.position
    assert reading.towers[3].one_look and reading.towers[3].seen_by == "2 other ways"
    assert sorted((w.kind, w.start, w.end) for w in reading.walls) == [("short", 0, 2), ("short", 0, 3),
                                                                        ("short", 1, 3)]
    assert any("in the middle of a long wall's run" in note for note in reading.notes)
    assert len(reading.board.towers) == 4


@pytest.mark.parametrize("witnesses", [
    [LookWitness("a", [*CASTLE, MIDDLE], 0.1)],  # one look alone may read a shaded long wall's middle
    [LookWitness("a", [*CASTLE, MIDDLE], 0.1), LookWitness("b", [*CASTLE, MIDDLE], MAX_RUN_WITNESS_MISFITS + 0.1)],
    [LookWitness("a", [*CASTLE, MIDDLE], 0.1), LookWitness("b", list(CASTLE), 0.1)],
])
def test_a_tower_fewer_than_two_sure_looks_saw_is_not_taken(witnesses):
    reading = _reading(*witnesses)
    PieceInference(NOMINAL_PROFILE).towers_in_runs_other_looks_saw(reading)
    assert len(reading.towers) == 3 and [w.kind for w in reading.walls] == ["long", "short"]
