"""Every hand-checked sample board scores exactly as counted by hand."""

import json
from pathlib import Path

import pytest

from tablesight.scoring.castellan.board_json import board_from_dict
from tablesight.scoring.castellan.report import score_board

BOARDS = Path(__file__).resolve().parent.parent / "samples" / "castellan" / "boards"
NAMES = sorted(p.name.removesuffix(".expected.json") for p in BOARDS.glob("*.expected.json"))


def _yards(courtyards):
    return sorted((y["owner"] or "", y["double"], y["towers"], y["value"]) for y in courtyards)


def test_catalogue_is_complete():
    assert len(NAMES) >= 17


@pytest.mark.parametrize("name", NAMES)
def test_sample_board_matches_hand_count(name):
    board = board_from_dict(json.loads((BOARDS / f"{name}.json").read_text()))
    expected = json.loads((BOARDS / f"{name}.expected.json").read_text())
    report = score_board(board).to_dict()
    assert _yards(report["courtyards"]) == _yards(expected["courtyards"])
    assert report["scores"] == expected["scores"]
    assert report["winner"] == expected["winner"]
    got = sorted((w["rule"] or "", w["code"]) for w in report["warnings"])
    assert got == sorted((r or "", c) for r, c in expected["warnings"])
