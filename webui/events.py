"""Server-Sent Events: each open page subscribes to its game and gets every new state pushed."""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Iterator

HEARTBEAT_SECONDS = 15.0


class EventBroker:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: dict[str, list[queue.Queue]] = {}

    def publish(self, game_id: str, event: str, data: dict) -> None:
        with self._lock:
            targets = list(self._subscribers.get(game_id, ()))
        for q in targets:
            q.put((event, data))

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
