"""`tablesight score BOARD.json`: reports, exit codes and one-sentence errors."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tablesight.cli import main

BOARD = Path(__file__).resolve().parent.parent / "samples" / "castellan" / "boards" / "double-keep.json"


def test_text_report_shows_table_scores_and_winner(capsys):
    assert main(["score", str(BOARD)]) == 0
    out = capsys.readouterr().out
    assert "courtyard" in out and "Scores: red 8, blue 4" in out and "Winner: red" in out


def test_json_report_follows_interface(capsys):
    assert main(["score", str(BOARD), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert set(report) >= {"game", "pieces", "courtyards", "scores", "winner", "warnings", "board"}
    assert report["pieces"]["keeps"] == {"blue": 1, "red": 2}
    assert report["scores"] == {"blue": 4, "red": 8}


@pytest.mark.parametrize("content, code, fragment", [
    (None, 3, "does not exist"),
    (b"", 3, "is empty"),
    (b"{\"towers\": [", 3, "is not valid JSON"),
    (b"\xff\xfe\x00garbage", 3, "not a text file"),
    (b'{"towers":[{"id":"t1","x":NaN,"y":0}]}', 3, "not a finite number"),
    (b'{"towers":[],"walls":[{"id":"w7","kind":"short","ends":["t1","t99"]}]}', 3,
     "names tower t1, which does not exist"),
    (b"[" * 100000, 3, "nested too deeply"),
])
def test_bad_board_files_get_one_sentence(tmp_path, capsys, content, code, fragment):
    path = tmp_path / "board.json"
    if content is not None:
        path.write_bytes(content)
    assert main(["score", str(path)]) == code
    captured = capsys.readouterr()
    assert captured.out == ""
    assert fragment in captured.err
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err


@pytest.mark.parametrize("name, content, fragment", [
    ("game.log", b"12:01 red placed a tower\n", "neither a photo tablesight can read"),
    ("scores.csv", b"red,4\nblue,8\n", "neither a photo tablesight can read"),
    ("board.txt", b'{"towers": [', "is not valid JSON (line 1"),  # JSON by its look: where it breaks helps
])
def test_a_file_neither_photo_nor_board_says_so(tmp_path, capsys, name, content, fragment):
    path = tmp_path / name
    path.write_bytes(content)
    assert main(["score", str(path)]) == 3
    captured = capsys.readouterr()
    assert fragment in captured.err and captured.err.count("\n") == 1 and captured.out == ""


def test_huge_file_is_refused_before_reading(tmp_path, capsys):
    path = tmp_path / "big.json"
    with path.open("wb") as f:
        f.truncate(50 * 1024 * 1024)
    assert main(["score", str(path)]) == 3
    assert "larger than any board file" in capsys.readouterr().err


def test_bad_usage_exits_2(capsys):
    assert main(["score"]) == 2
    assert main(["score", str(BOARD), "--frobnicate"]) == 2
    assert "--help" in capsys.readouterr().err


def test_console_script_runs_without_traceback(tmp_path):
    result = subprocess.run([sys.executable, "-m", "tablesight", "score", str(tmp_path / "x.json")],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 3
    assert result.stderr.startswith("tablesight: ") and "Traceback" not in result.stderr


def test_serve_with_an_unreadable_piece_profile_says_so_and_starts_no_server(tmp_path, capsys):
    bad = tmp_path / "pieces.json"
    bad.write_text("{not json")
    assert main(["serve", "--profile", str(bad), "--data", str(tmp_path)]) == 3
    captured = capsys.readouterr()
    assert "piece profile" in captured.err and captured.err.count("\n") == 1 and "Traceback" not in captured.err
    assert "tablesight companion on" not in captured.out


def test_a_folder_given_to_score_says_to_give_one_photo_or_board(tmp_path, capsys):
    assert main(["score", str(tmp_path)]) == 3
    err = capsys.readouterr().err
    assert "is a folder" in err and "one photo" in err and err.count("\n") == 1
