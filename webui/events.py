"""Server-Sent Events: each open page subscribes to its game and gets every new state pushed."""

from __future__ import annotations

import contextlib
import json
import queue
import threading
from collections.abc import Iterator

HEARTBEAT_SECONDS = 15.0


class EventBroker:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: dict[str, list[queue.Queue]] = {}

    def publish(self, game_id: str, event: str, data: dict, passing: bool = False) -> None:
        """Send an event to every page open on the game. A `passing` one (a reading's progress) is dropped
        for a page too far behind to take it, rather than holding up the reading until that page catches up."""
        with self._lock:
            targets = list(self._subscribers.get(game_id, ()))
        for q in targets:
            if not passing:
                q.put((event, data))
                continue
            with contextlib.suppress(queue.Full):
                q.put_nowait((event, data))

    def stream(self, game_id: str, first: tuple[str, dict] | None = None) -> Iterator[str]:
        q: queue.Queue = queue.Queue(maxsize=100)
        with self._lock:
            self._subscribers.setdefault(game_id, []).append(q)
        try:
            yield "retry: 2000\n\n"
            if first:
                yield _format(*first)
            while True:
                try:
                    yield _format(*q.get(timeout=HEARTBEAT_SECONDS))
                except queue.Empty:
                    yield ": keep-alive\n\n"
        finally:
            with self._lock:
                self._subscribers[game_id].remove(q)


def _format(event: str, data: dict) -> str:
    return f"event: {event}\ndata: {json.dumps(data)}\n\n"
