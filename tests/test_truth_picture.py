"""A reading against its truth: which pieces were missed and which read that are not there."""

import json
from dataclasses import replace
from pathlib import Path

from tablesight.scoring.castellan.board_json import board_from_dict
from tablesight.vision.castellan.evaluate import PhotoScore, compare, differences, keep_colour_note

TRUTH = Path(__file__).resolve().parent.parent / "samples" / "castellan" / "photos" / "photo-003.truth.json"


def _truth():
    return board_from_dict(json.loads(TRUTH.read_text())["board"])


def test_a_reading_equal_to_its_truth_differs_in_nothing():
    truth = _truth()
    diff = differences(truth, truth)
    assert diff.count() == 0
    assert len(diff.agreed["tower"]) == len(truth.towers)


def test_a_tower_not_there_is_extra_and_a_moved_keep_is_both_missed_and_extra():
    truth = _truth()
    keep = truth.keeps[0]
    moved = replace(keep, x=keep.x + 60.0)
    stray = replace(truth.towers[0], id="stray", x=truth.towers[0].x + 1000.0)
    read = replace(truth, towers=(*truth.towers, stray), keeps=(moved, *truth.keeps[1:]))
    diff = differences(truth, read)
    assert diff.extra["tower"] == [stray.position] and diff.missed["tower"] == []
    assert diff.missed["keep"] == [keep.position] and diff.extra["keep"] == [moved.position]
    assert diff.count() == 3


def test_a_keep_read_single_for_a_double_is_both_missed_and_extra():
    truth = _truth()
    keep = truth.keeps[0]
    read = replace(truth, keeps=(replace(keep, double=not keep.double), *truth.keeps[1:]))
    diff = differences(truth, read)
    assert diff.missed["keep"] == [keep.position] and diff.extra["keep"] == [keep.position]


def test_a_photo_read_whole_but_off_its_place_shows_its_towers_aligned_on_its_line():
    from collections import Counter

    from tablesight.vision.castellan.evaluate import PhotoScore, _shifted

    off = PhotoScore("photo-001.jpg", {}, counts={"tower": Counter(tp=5, fp=9, fn=12)},
                     aligned_counts={"tower": Counter(tp=14, fp=0, fn=3)})
    placed = PhotoScore("photo-002.jpg", {}, counts={"tower": Counter(tp=13, fp=1, fn=4)},
                        aligned_counts={"tower": Counter(tp=14, fp=0, fn=3)})
    assert _shifted(off) == " (aligned t14/0/3)"
    assert _shifted(placed) == ""


def test_a_photo_read_right_without_the_card_counts_as_right_once_checked(monkeypatch):
    """Read without the card, a photo's places are in a frame of the reader's own: the castle is turned and moved
    onto the truth before its pieces are matched and its doubts settled (before, every piece counted as missed,
    and a doubt that would set the scores right could not be settled by place)."""
    from tablesight.vision.castellan.evaluate import evaluate_photo
    from tablesight.vision.castellan.keeps import KeepReading
    from tablesight.vision.castellan.reader import CastellanReader
    from tablesight.vision.castellan.reading import PhotoReading
    from tablesight.vision.castellan.towers import TowerReading

    truth = _truth()
    # Its own frame: a quarter-turn and 17° more, elsewhere on the table; the first keep's height misread, in doubt.
    first = truth.keeps[0]
    misread = replace(truth, keeps=(replace(first, double=not first.double), *truth.keeps[1:]))
    board = misread.transformed(107.0, 310.0, -45.0)
    # A reading's pieces are its board's (its doubts are listed from them, as `score` lists them).
    towers = [TowerReading(t.x, t.y, 12.0) for t in board.towers]
    keeps = [KeepReading(k.color, k.x, k.y, k.double, i > 0, None) for i, k in enumerate(board.keeps)]
    monkeypatch.setattr(CastellanReader, "read",
                        lambda self, image, focal=None: PhotoReading(board, None, towers=towers, keeps=keeps))
    result = evaluate_photo(TRUTH.with_name("photo-003.jpg"), CastellanReader())
    assert (result.counts["tower"]["tp"], result.counts["tower"]["fp"]) == (len(truth.towers), 0)
    assert result.counts["short"]["fn"] == result.counts["long"]["fn"] == 0
    assert not result.scores_exact and result.scores_exact_once_checked
    assert result.doubts == 1


def test_a_keep_read_in_another_colour_is_counted_and_named_on_its_photos_line():
    truth = _truth()
    keep = truth.keeps[0]
    other = next(c for c in ("red", "blue", "yellow", "green") if c != keep.color)
    read = replace(truth, keeps=(replace(keep, color=other), *truth.keeps[1:]))
    _, right, total = compare(truth, read)
    assert (right, total) == (len(truth.keeps) - 1, len(truth.keeps))
    line = keep_colour_note(PhotoScore("photo-003.jpg", {}, keep_colour_right=right, keep_colour_total=total))
    assert line == " keep colour wrong: 1"
    assert keep_colour_note(PhotoScore("photo-003.jpg", {}, keep_colour_right=total, keep_colour_total=total)) == ""
