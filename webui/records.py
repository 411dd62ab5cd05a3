"""The verification record a tournament organiser keeps: photo hash, board, corrections, scores,
winner, both players and their confirmations."""

from __future__ import annotations

import datetime

from tablesight import __version__
from tablesight.webui.store import GameStore


def _iso(timestamp: float | None) -> str | None:
    if timestamp is None:
        return None
    return datetime.datetime.fromtimestamp(timestamp, datetime.UTC).isoformat(timespec="seconds")


def verification_record(store: GameStore, game: dict) -> dict:
    state = store.latest_state(game["id"])
    photos = [s for s in store.states(game["id"]) if s["source"] in ("photo", "live")]
    report = state["report"] if state else None
    return {
        "kind": "tablesight-verification", "version": __version__, "game": "castellan", "game_id": game["id"],
        "title": game["title"], "created": _iso(game["created"]),
        "players": [{"name": game["player1"], "confirmed": _iso(game["confirmed1"])},
                    {"name": game["player2"], "confirmed": _iso(game["confirmed2"])}],
        "final_photo_sha256": photos[-1]["photo_sha256"] if photos else None,
        "recognised_board": photos[-1]["board"] if photos else None,
        # What the reader said of that board as read (`trust`): "likely misread" makes the corrections count.
        "recognised_board_trust": photos[-1]["report"].get("trust") if photos else None,
        "corrections": [{"at": _iso(c["created"]), "action": c["action"], "undone": bool(c["undone"])}
                        for c in store.corrections(game["id"])],
        "final_board": state["board"] if state else None,
        "scores": report["scores"] if report else {},
        "winner": report["winner"] if report else None,
        "warnings": (report["warnings"] + report.get("history_warnings", [])) if report else [],
        # Pieces the photo left uncertain and nobody settled by hand before confirming.
        "unchecked_doubts": [d["sentence"] for d in report.get("doubts", [])] if report else [],
        # What the reader says of its reading of the final photo (a castle far from the card, no card...).
        "reading_notes": list(report.get("notes", [])) if report else [],
        "notes": game["notes"],
        "confirmed_by_both": bool(game["confirmed1"] and game["confirmed2"]),
    }
