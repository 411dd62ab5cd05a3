"""Live tracking: report a new board only once the table is still, never while hands are in view.

Per frame the tracker does only cheap work (a small grey copy, a frame difference and
a skin-colour count); the full reader runs once the picture has settled, and a new
state is accepted only when two settled reads agree. So the score never flickers and
a hand reaching over the castle is never read as pieces. What the camera's frames have
in common is worked out once: the card (while it sits where it was), the lens's colour
fringes, and the table's colours around the card (while that part of the picture is
unchanged: `TableView.camera_memory`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from tablesight.scoring.castellan.board import Board
from tablesight.scoring.castellan.report import Report, score_board
from tablesight.vision.castellan.reader import CastellanReader, PhotoReading
from tablesight.vision.segmentation import table_band_mm

THUMB_WIDTH = 240
MOTION_LEVEL = 4.0  # mean absolute grey difference (0–255) that counts as movement
SKIN_SHARE = 0.004  # share of the frame in skin colour that counts as a hand
SETTLE_FRAMES = 3
NEW_OBJECT_LEVEL = 30  # colour change (0–255) that marks something new over the settled picture
# The table's colours learnt around the card are learnt again once this share of that part of the picture is
# new, or its brightness has moved by this share (a webcam's exposure drifting; its noise moves it < 1.5 %).
BAND_CHANGE_SHARE = 0.02
BAND_EXPOSURE_SHARE = 0.05


@dataclass
class TrackerUpdate:
    frame_index: int
    hands: bool
    moving: bool
    changed: bool  # a new stable state was accepted on this frame
    stable: Board | None
    report: Report | None
    reading: PhotoReading | None = None

    @property
    def status(self) -> str:
        if self.hands:
            return "hands in view — holding last stable state"
        if self.moving:
            return "table moving — waiting for it to settle"
        return "stable"


@dataclass
class LiveTracker:
    reader: CastellanReader = field(default_factory=CastellanReader)
    frame_index: int = 0
    stable_board: Board | None = None
    stable_report: Report | None = None
    last_reading: PhotoReading | None = None
    _previous: np.ndarray | None = None
    _background: np.ndarray | None = None  # the last settled picture (thumbnail)
    _still_frames: int = 0
    _read_since_still: bool = False
    _candidate: tuple | None = None
    _camera_memory: dict | None = None  # what the reader learnt through the card (`TableView.camera_memory`)
    _memory_thumb: np.ndarray | None = None  # the picture it was learnt from

    def process(self, frame: np.ndarray) -> TrackerUpdate:
        self.frame_index += 1
        thumb = _thumbnail(frame)
        grey = cv2.cvtColor(thumb, cv2.COLOR_BGR2GRAY).astype(np.float32)
        moving = self._previous is not None and float(np.abs(grey - self._previous).mean()) > MOTION_LEVEL
        self._previous = grey
        # Until the table has once been still there is nothing to compare with: go by motion alone.
        hands = self._background is not None and has_hands(thumb, self._background)
        if moving or hands:
            self._still_frames, self._read_since_still = 0, False
        else:
            self._still_frames += 1
            if self._still_frames >= SETTLE_FRAMES:
                self._background = thumb
        changed = False
        if self._still_frames >= SETTLE_FRAMES and not self._read_since_still:
            self._read_since_still = True
            changed = self._read(frame, thumb)
        return TrackerUpdate(self.frame_index, hands, moving, changed, self.stable_board, self.stable_report,
                             self.last_reading)

    def _read(self, frame: np.ndarray, thumb: np.ndarray) -> bool:
        last = self.last_reading
        card = _card_if_still_valid(last.card, frame) if last is not None else None
        if card is None or not _band_unchanged(card, frame.shape, self._memory_thumb, thumb):
            self._camera_memory, self._memory_thumb = {}, thumb
        # The camera has not moved: its lens's colour fringes are those measured before.
        reading = self.reader.read(frame, card=card, fringes=last.fringes if card is not None else None, live=True,
                                   camera_memory=self._camera_memory)
        self.last_reading = reading
        board = reading.board
        if board is None and reading.card is not None and reading.region is None:
            board = Board()  # the card and nothing else: the table before the game, or cleared
        if board is None:
            return False
        report = score_board(board)
        key = _summary(report)
        if self.stable_report is not None and key == _summary(self.stable_report):
            self._candidate = None
            return False
        if self._candidate is not None and self._candidate == key:
            self.stable_board, self.stable_report, self._candidate = board, report, None
            return True
        # First sighting of a new state: confirm it on the next settled read before showing it.
        self._candidate = key
        self._read_since_still = False
        self._still_frames = 0
        return False


def _summary(report: Report) -> tuple:
    d = report.to_dict()
    return (d["pieces"]["towers"], d["pieces"]["short_walls"], d["pieces"]["long_walls"],
            tuple(sorted(d["pieces"]["keeps"].items())), tuple(sorted(d["scores"].items())))


def _card_if_still_valid(card, frame: np.ndarray):
    """Reuse the card found before when it still sits where it was (the camera has not moved); never a
    stand-in for a card not found (the card may have been laid down since)."""
    if card is None or not card.seen:
        return None
    pts = np.round(card.image_points).astype(int)
    h, w = frame.shape[:2]
    inside = (pts[:, 0] >= 0) & (pts[:, 0] < w) & (pts[:, 1] >= 0) & (pts[:, 1] < h)
    if not inside.all():
        return None
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    values = grey[pts[:, 1], pts[:, 0]].astype(np.float32)
    # Inner ChArUco corners are where black meets white: mid-grey when the card has not moved.
    mid = (card.white_bgr.mean() + card.black_bgr.mean()) / 2
    return card if np.median(np.abs(values - mid)) < 0.35 * (card.white_bgr.mean() - card.black_bgr.mean()) else None


def _band_unchanged(card, frame_shape: tuple[int, ...], before: np.ndarray | None, thumb: np.ndarray) -> bool:
    """Whether the table around the card, where its colours are learnt (`segmentation.table_band_mm`), looks in
    `thumb` as it did in `before`: little new there (BAND_CHANGE_SHARE) and the same brightness."""
    if before is None or before.shape != thumb.shape:
        return False
    scale = thumb.shape[1] / frame_shape[1]
    band = np.zeros(thumb.shape[:2], np.uint8)
    cv2.fillConvexPoly(band, np.round(card.table_to_image(table_band_mm()) * scale).astype(np.int32), 1)
    inside = band.astype(bool)
    if not inside.any():
        return False
    new = float(_new_over(before, thumb)[inside].mean())
    drift = np.log((thumb[inside].mean() + 1.0) / (before[inside].mean() + 1.0))
    return new <= BAND_CHANGE_SHARE and abs(drift) <= np.log1p(BAND_EXPOSURE_SHARE)


def _thumbnail(frame: np.ndarray) -> np.ndarray:
    """The frame shrunk by a whole factor to about THUMB_WIDTH wide, each pixel the mean of a square of the
    frame's: OpenCV averages whole squares twice as fast as fractional ones (3.5 against 7 ms a 720p frame)."""
    factor = max(1, round(frame.shape[1] / THUMB_WIDTH))
    h, w = (frame.shape[0] // factor) * factor, (frame.shape[1] // factor) * factor
    return cv2.resize(frame[:h, :w], (w // factor, h // factor), interpolation=cv2.INTER_AREA)


def has_hands(thumb: np.ndarray, background: np.ndarray) -> bool:
    """Skin colour (YCrCb range, all skin tones) over a noticeable share of the frame, counted only where the
    picture differs from the last settled one (a wooden table is skin-coloured too) in a part reaching the
    frame's edge: an arm comes in from beyond the frame, while pieces just set down lie within it (grey
    plastic under a warm lamp is skin-coloured too: counted, the sample clip's last walls came within 6 % of
    holding it "in hands" for good, and did with 256-px thumbnails — the settled picture is only renewed once
    no hand is seen)."""
    ycrcb = cv2.cvtColor(thumb, cv2.COLOR_BGR2YCrCb)
    skin = cv2.inRange(ycrcb, (30, 135, 80), (240, 175, 130))
    skin &= _new_from_the_edge(thumb, background)
    skin = cv2.morphologyEx(skin, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return np.count_nonzero(skin) > SKIN_SHARE * skin.size


def _new_from_the_edge(thumb: np.ndarray, background: np.ndarray) -> np.ndarray:
    """Where the picture differs from the settled one (NEW_OBJECT_LEVEL), in parts touching the frame's edge
    (255 = such)."""
    count, labels = cv2.connectedComponents(_new_over(background, thumb).astype(np.uint8), connectivity=8)
    edge = np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]])
    reaching = np.zeros(count, np.uint8)
    reaching[edge] = 255
    reaching[0] = 0  # the unchanged picture
    return reaching[labels]


def _new_over(settled: np.ndarray, thumb: np.ndarray) -> np.ndarray:
    """Where `thumb` shows something new over `settled`: a channel changed by more than NEW_OBJECT_LEVEL."""
    return cv2.absdiff(thumb, settled).max(axis=2) > NEW_OBJECT_LEVEL
