"""The live tracker on the sample clip: it settles before reading, never reads while hands are in view,
and keeps up with the camera."""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tablesight.scoring.castellan.board_json import board_from_dict
from tablesight.scoring.castellan.report import score_board
from tablesight.vision.castellan.tracker import SETTLE_FRAMES, LiveTracker, has_hands

VIDEO = Path(__file__).resolve().parent.parent / "samples" / "castellan" / "video.mp4"


@pytest.fixture(scope="module")
def frames():
    capture = cv2.VideoCapture(str(VIDEO))
    out = []
    while True:
        ok, frame = capture.read()
        if not ok:
            break
        out.append(frame)
    assert len(out) > 100
    return out


def test_hands_are_seen_exactly_when_the_truth_says(frames):
    truth = json.loads(VIDEO.with_suffix(".truth.json").read_text())["frames"]
    tracker = LiveTracker()
    seen = [tracker.process(frame).hands for frame in frames]
    expected = [f["hands"] for f in truth[: len(frames)]]
    agree = sum(a == b for a, b in zip(seen, expected, strict=True)) / len(frames)
    assert agree > 0.95
    assert not any(s and not e for s, e in zip(seen, expected, strict=True))  # a hand is never invented


def test_no_state_is_accepted_while_hands_are_in_view(frames):
    truth = json.loads(VIDEO.with_suffix(".truth.json").read_text())["frames"]
    tracker = LiveTracker()
    accepted_with_hands = [i for i, frame in enumerate(frames)
                           if tracker.process(frame).changed and truth[i]["hands"]]
    assert accepted_with_hands == []


def test_the_stable_states_are_the_truths_from_the_empty_table_on(frames):
    truth = json.loads(VIDEO.with_suffix(".truth.json").read_text())["states"]
    tracker = LiveTracker()
    accepted = [update.report for update in map(tracker.process, frames) if update.changed]

    def counted(report):
        return report.to_dict()["pieces"], report.to_dict()["scores"]

    assert [counted(r) for r in accepted] == [counted(score_board(board_from_dict(b))) for b in truth]


def test_a_still_table_is_read_once_and_not_again(frames):
    tracker = LiveTracker()
    readings = {id(tracker.process(frames[40]).reading) for _ in range(12)} - {id(None)}
    # Settling takes a few frames, then one read and one confirming read; afterwards nothing is re-read.
    assert 1 <= len(readings) <= 2


def test_skin_is_hands_only_where_the_picture_changed():
    table = np.full((90, 160, 3), (60, 110, 170), np.uint8)  # a wooden (skin-like) table
    assert not has_hands(table, table)
    with_arm = table.copy()
    cv2.line(with_arm, (0, 80), (90, 30), (110, 145, 200), 12)
    assert has_hands(with_arm, table)


def test_pieces_set_down_in_skin_colour_are_not_hands_an_arm_from_the_edge_is():
    """Grey plastic under a warm lamp is skin-coloured: new walls within the frame are pieces, while the same
    colour reaching in from the frame's edge is an arm (the sample clip's last walls were taken for hands
    for good once its thumbnails were 256 pixels wide instead of 240)."""
    table = np.full((90, 160, 3), (40, 60, 90), np.uint8)  # dark wood
    warm_grey = (110, 145, 200)  # skin-coloured in YCrCb
    walls = table.copy()
    for y in (30, 45, 60):
        cv2.line(walls, (50, y), (110, y), warm_grey, 6)
    assert not has_hands(walls, table)
    arm = walls.copy()
    cv2.line(arm, (159, 20), (115, 45), warm_grey, 10)
    assert has_hands(arm, table)


def test_a_stand_in_for_a_card_not_found_is_never_reused_for_the_next_frame():
    from tablesight.calibration.card_detection import virtual_card
    from tablesight.vision.castellan.tracker import _card_if_still_valid

    # Noise from black to white: a card's corners (mid-grey between its white and black) would pass.
    frame = np.random.default_rng(1).integers(0, 256, (720, 1280, 3), dtype=np.uint8)
    assert _card_if_still_valid(virtual_card(frame, 1.0), frame) is None


def test_a_still_camera_s_colour_fringes_are_measured_once(monkeypatch):
    """A lens does not change between frames: once the card is reused (the camera has not moved), so are its
    colour fringes. Sample 002 through a lens with 0.3 % fringes, shown still: the settled read measures them,
    the confirming read takes them from it, and both take them out."""
    from tablesight.calibration import colour_fringes as fringes_module
    from tablesight.synthetic.effects import colour_fringes
    from tablesight.vision.castellan import reader as reader_module

    measures = []

    def counted(*args):
        measures.append(fringes_module.measured_fringes(*args))
        return measures[-1]

    monkeypatch.setattr(reader_module, "measured_fringes", counted)
    photo = cv2.imread(str(VIDEO.parent / "photos" / "photo-002.jpg"))
    fringed = colour_fringes(photo, 0.003, -0.003)
    tracker = LiveTracker()
    readings = [tracker.process(fringed).reading for _ in range(SETTLE_FRAMES + 3)]
    read = [r for i, r in enumerate(readings) if r is not None and r is not readings[i - 1]]
    assert len(read) == 2 and len(measures) == 1
    assert measures[0].worth_taking_out and all(r.fringes is measures[0] for r in read)
    assert all(any("colour fringes" in note for note in r.notes) for r in read)


def test_an_empty_table_seen_live_is_not_read_again_through_other_focal_lengths(frames, monkeypatch):
    """A live camera's card, once read, holds its lens: where a later settled frame shows no castle (the empty
    table at the clip's start), it is not read again through other focal lengths (1.2 s a frame); the first
    frame, whose card is found there, still may be."""
    from tablesight.vision.castellan.reader import CastellanReader

    tried = []
    original = CastellanReader._through_other_focals

    def counted(self, *args, **kwargs):
        tried.append(args)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(CastellanReader, "_through_other_focals", counted)
    reader = CastellanReader()
    first = reader.read(frames[0])
    assert not first.towers and len(tried) == 1
    again = reader.read(frames[1], card=first.card, fringes=first.fringes, live=True)
    assert not again.towers and len(tried) == 1


def test_a_still_camera_s_table_colours_are_learnt_once_and_again_when_the_table_by_the_card_changes(
        frames, monkeypatch):
    """The table's colours around the card are the same in every frame of a still camera: the confirming read
    takes them from the first settled one. Something new around the card, or the exposure drifting there, has
    them learnt again; a change elsewhere (the castle growing) does not."""
    from tablesight.vision.castellan.tracker import _band_unchanged, _thumbnail
    from tablesight.vision.segmentation import TableModel, table_band_mm

    learnt = []
    original = TableModel.learn.__func__

    def counted(cls, *args, **kwargs):
        learnt.append(args)
        return original(cls, *args, **kwargs)

    monkeypatch.setattr(TableModel, "learn", classmethod(counted))
    tracker = LiveTracker()
    readings = [tracker.process(frames[40]).reading for _ in range(SETTLE_FRAMES + 3)]
    read = [r for i, r in enumerate(readings) if r is not None and r is not readings[i - 1]]
    assert len(read) == 2
    after_first = len(learnt)
    tracker._read_since_still = False  # settled again: read once more, as after hands that changed nothing
    tracker.process(frames[40])
    assert after_first >= 1 and len(learnt) == after_first  # the later reads learnt nothing anew

    card, frame = read[0].card, frames[40]
    thumb = _thumbnail(frame)
    assert _band_unchanged(card, frame.shape, thumb, thumb)
    assert not _band_unchanged(card, frame.shape, thumb, cv2.convertScaleAbs(thumb, alpha=1.1))  # exposure
    band = card.table_to_image(table_band_mm())  # corners of the band, the card within it
    near_card = frame.copy()
    x, y = np.round(card.image_points.mean(axis=0) + 0.75 * (band[1] - card.image_points.mean(axis=0))).astype(int)
    cv2.rectangle(near_card, (int(x) - 60, int(y) - 60), (int(x) + 60, int(y) + 60), (200, 40, 40), -1)
    assert not _band_unchanged(card, frame.shape, thumb, _thumbnail(near_card))
    far_away = frame.copy()
    far = np.array([w for w in ((0, 0), (frame.shape[1] - 120, 0), (0, frame.shape[0] - 120),
                                (frame.shape[1] - 120, frame.shape[0] - 120))
                    if cv2.pointPolygonTest(band.astype(np.float32), (w[0] + 60.0, w[1] + 60.0), True) < -150][0])
    cv2.rectangle(far_away, tuple(int(v) for v in far), tuple(int(v) + 120 for v in far), (200, 40, 40), -1)
    assert _band_unchanged(card, frame.shape, thumb, _thumbnail(far_away))
