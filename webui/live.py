"""Live mode: a background thread reads a webcam or video, feeds the tracker, stores each new stable
state in the game, and keeps the latest annotated frame for the MJPEG stream."""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path

import cv2
import numpy as np

from tablesight.scoring.castellan.report import score_board
from tablesight.vision.castellan.doubts import find_doubts
from tablesight.vision.castellan.reader import CastellanReader
from tablesight.vision.castellan.tracker import LiveTracker
from tablesight.vision.castellan.trust import reading_trust
from tablesight.webui.events import EventBroker
from tablesight.webui.games import GameError, pose_to_dict, record_state, store_frame, view_of
from tablesight.webui.store import GameStore

RECONNECT_SECONDS = 2.0
LOG = logging.getLogger(__name__)


class LiveSession:
    def __init__(self, source: str, store: GameStore, events: EventBroker, loop_file: bool = False,
                 reader: CastellanReader | None = None, images: Path | None = None) -> None:
        """`reader`: reads the settled frames (with the set's piece profile and the camera's lens, if given);
        `images`: where each stable state's frame is stored as its photo (the page draws the reading over it, and
        pieces are corrected on it, as on an uploaded photo); None: states without a photo."""
        self.source = int(source) if source.isdigit() else source
        self.store, self.events = store, events
        self.game_id = store.create_game("live game")
        self.loop_file = loop_file
        self.reader = reader or CastellanReader()
        self.images = images
        self.status = "starting"
        self._frame: bytes | None = None
        self._frame_lock = threading.Condition()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tablesight-capture", daemon=True)

    def start(self) -> LiveSession:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        tracker = LiveTracker(self.reader)
        while not self._stop.is_set():
            capture = cv2.VideoCapture(self.source)
            if not capture.isOpened():
                self._set_status("camera not available — retrying")
                time.sleep(RECONNECT_SECONDS)
                continue
            fps = capture.get(cv2.CAP_PROP_FPS) or 0
            delay = 1.0 / fps if isinstance(self.source, str) and 0 < fps < 120 else 0.0
            while not self._stop.is_set():
                ok, frame = capture.read()
                if not ok:
                    break
                started = time.perf_counter()
                self._publish_frame(frame, self._followed(tracker, frame))
                time.sleep(max(0.0, delay - (time.perf_counter() - started)))
            capture.release()
            if isinstance(self.source, str) and not self.loop_file:
                self._set_status("video finished")
                return
            self._set_status("camera disconnected — reconnecting")
            time.sleep(RECONNECT_SECONDS)

    def _followed(self, tracker: LiveTracker, frame: np.ndarray) -> str:
        """The frame given to the tracker, a new stable state recorded and published; the status to show. A fault
        in reading one frame skips that frame only: the live view must outlive it (it is logged for a report)."""
        try:
            update = tracker.process(frame)
        except Exception as exc:  # noqa: BLE001 - any reader fault, for one frame
            LOG.exception("a live frame could not be read")
            status = f"a frame could not be read ({type(exc).__name__}): skipped"
            self._set_status(status)
            return status
        self._set_status(update.status)
        if update.changed and update.stable is not None:
            # A new stable state is the board of the reading just made: its doubts are that reading's.
            dims = self.reader.profile.dimensions
            doubts = find_doubts(update.reading, update.stable, dims)
            trust = reading_trust(update.reading, score_board(update.stable, dims), len(doubts))
            photo = self._stored(frame)
            state = record_state(self.store, self.game_id, "live", update.stable, photo,
                                 pose_to_dict(update.reading.card.pose), notes=update.reading.notes,
                                 doubts=[d.to_dict() for d in doubts], profile=self.reader.profile,
                                 trust=trust.to_dict())
            self.events.publish(self.game_id, "state", view_of(state, self.reader.profile))
        return update.status

    def _stored(self, frame: np.ndarray) -> str | None:
        """The frame stored as the state's photo, or None (no folder given, or it cannot be written: the state
        is still recorded, and the status says why it has no photo)."""
        if self.images is None:
            return None
        try:
            return store_frame(self.images, frame)
        except (OSError, GameError) as exc:  # the capture thread must outlive a full disk or a failed encoding
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc).rstrip(".")
            self._set_status(f"the frame could not be stored ({reason}): state kept without it")
            return None

    def _set_status(self, status: str) -> None:
        if status != self.status:
            self.status = status
            self.events.publish(self.game_id, "status", {"status": status})

    def _publish_frame(self, frame: np.ndarray, status: str) -> None:
        scale = 960 / max(frame.shape[1], 1)
        small = cv2.resize(frame, None, fx=scale, fy=scale) if scale < 1 else frame.copy()
        cv2.rectangle(small, (0, 0), (small.shape[1], 28), (0, 0, 0), -1)
        cv2.putText(small, status, (8, 20), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255, 255, 255), 1, cv2.LINE_AA)
        ok, data = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 75])
        if ok:
            with self._frame_lock:
                self._frame = data.tobytes()
                self._frame_lock.notify_all()

    def mjpeg(self):
        """multipart/x-mixed-replace body: one JPEG part per new frame."""
        while not self._stop.is_set():
            with self._frame_lock:
                self._frame_lock.wait(timeout=2.0)
                frame = self._frame
            if frame:
                yield b"--frame\r\nContent-Type: image/jpeg\r\n\r\n" + frame + b"\r\n"
