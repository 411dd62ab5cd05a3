"""Games, board states, corrections and verification records in SQLite (one file per installation)."""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
import uuid
from contextlib import contextmanager
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY, created REAL NOT NULL, title TEXT NOT NULL DEFAULT '',
    player1 TEXT NOT NULL DEFAULT '', player2 TEXT NOT NULL DEFAULT '',
    confirmed1 REAL, confirmed2 REAL, notes TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS states (
    id INTEGER PRIMARY KEY AUTOINCREMENT, game_id TEXT NOT NULL REFERENCES games(id),
    created REAL NOT NULL, source TEXT NOT NULL, board TEXT NOT NULL, report TEXT NOT NULL,
    photo_sha256 TEXT, pose TEXT
);
CREATE TABLE IF NOT EXISTS corrections (
    id INTEGER PRIMARY KEY AUTOINCREMENT, game_id TEXT NOT NULL REFERENCES games(id),
    created REAL NOT NULL, action TEXT NOT NULL, state_id INTEGER NOT NULL, undone INTEGER NOT NULL DEFAULT 0
);
"""


def default_data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "tablesight"


class GameStore:
    """All reads and writes go through short transactions; SQLite's journal keeps a killed
    server's data intact, so a game survives a crash mid-way."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._lock = threading.Lock()
        with self._connect() as db:
            db.executescript(SCHEMA)

    @contextmanager
    def _connect(self):
        db = sqlite3.connect(self.path, timeout=10)
        db.row_factory = sqlite3.Row
        try:
            with db:
                yield db
        finally:
            db.close()

    def create_game(self, title: str = "") -> str:
        game_id = uuid.uuid4().hex[:12]
        with self._connect() as db:
            db.execute("INSERT INTO games (id, created, title) VALUES (?, ?, ?)", (game_id, time.time(), title))
        return game_id

    def game(self, game_id: str) -> dict | None:
        with self._connect() as db:
            row = db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        return dict(row) if row else None

    def games(self) -> list[dict]:
        with self._connect() as db:
            rows = db.execute("SELECT * FROM games ORDER BY created DESC").fetchall()
        return [dict(r) for r in rows]

    def update_game(self, game_id: str, **fields) -> None:
        allowed = {"title", "player1", "player2", "confirmed1", "confirmed2", "notes"}
        items = [(k, v) for k, v in fields.items() if k in allowed]
        if not items:
            return
        with self._connect() as db:
            db.execute(f"UPDATE games SET {', '.join(f'{k} = ?' for k, _ in items)} WHERE id = ?",
                       [v for _, v in items] + [game_id])

    def add_state(self, game_id: str, source: str, board: dict, report: dict,
                  photo_sha256: str | None = None, pose: dict | None = None) -> int:
        with self._lock, self._connect() as db:
            cur = db.execute(
                "INSERT INTO states (game_id, created, source, board, report, photo_sha256, pose) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game_id, time.time(), source, json.dumps(board), json.dumps(report), photo_sha256,
                 json.dumps(pose) if pose else None))
            return int(cur.lastrowid)

    def latest_state(self, game_id: str) -> dict | None:
        with self._connect() as db:
            row = db.execute("SELECT * FROM states WHERE game_id = ? ORDER BY id DESC LIMIT 1", (game_id,)).fetchone()
        return _state(row)

    def states(self, game_id: str) -> list[dict]:
        with self._connect() as db:
            rows = db.execute("SELECT * FROM states WHERE game_id = ? ORDER BY id", (game_id,)).fetchall()
        return [_state(r) for r in rows]

    def add_correction(self, game_id: str, action: dict, state_id: int) -> int:
        with self._connect() as db:
            cur = db.execute("INSERT INTO corrections (game_id, created, action, state_id) VALUES (?, ?, ?, ?)",
                             (game_id, time.time(), json.dumps(action), state_id))
            return int(cur.lastrowid)

    def corrections(self, game_id: str) -> list[dict]:
        with self._connect() as db:
            rows = db.execute("SELECT * FROM corrections WHERE game_id = ? ORDER BY id", (game_id,)).fetchall()
        return [{**dict(r), "action": json.loads(r["action"])} for r in rows]

    def last_live_correction(self, game_id: str) -> dict | None:
        live = [c for c in self.corrections(game_id) if not c["undone"]]
        return live[-1] if live else None

    def mark_undone(self, correction_id: int) -> None:
        with self._connect() as db:
            db.execute("UPDATE corrections SET undone = 1 WHERE id = ?", (correction_id,))

    def state(self, state_id: int) -> dict | None:
        with self._connect() as db:
            row = db.execute("SELECT * FROM states WHERE id = ?", (state_id,)).fetchone()
        return _state(row)

    def state_before(self, game_id: str, state_id: int) -> dict | None:
        with self._connect() as db:
            row = db.execute("SELECT * FROM states WHERE game_id = ? AND id < ? ORDER BY id DESC LIMIT 1",
                             (game_id, state_id)).fetchone()
        return _state(row)


def _state(row) -> dict | None:
    if row is None:
        return None
    out = dict(row)
    out["board"] = json.loads(out["board"])
    out["report"] = json.loads(out["report"])
    out["pose"] = json.loads(out["pose"]) if out["pose"] else None
    return out
