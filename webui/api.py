"""JSON API used by the pages: photos, corrections, undo, players, records, events."""

from __future__ import annotations

import re

from flask import Blueprint, Response, abort, current_app, jsonify, request, send_from_directory

from tablesight.errors import TablesightError
from tablesight.webui.games import GameError, apply_correction, ingest_photo, undo, view_of

bp = Blueprint("api", __name__, url_prefix="/api")
GAME_ID = re.compile(r"^[0-9a-f]{12}$")
SHA = re.compile(r"^[0-9a-f]{64}$")
# What browsers label photos as (an iPhone's HEIF photo is image/heic or image/heif); the content decides.
IMAGE_TYPES = {"image/jpeg", "image/png", "image/webp", "image/heic", "image/heif", "application/octet-stream", ""}


def _store():
    return current_app.extensions["tablesight.store"]


def _profile():
    """The set's pieces (`serve --profile`): photos are read, rules checked and pieces drawn with them."""
    return current_app.config["PIECE_PROFILE"]


def _game(game_id: str) -> dict:
    if not GAME_ID.match(game_id):
        abort(404, "no such game")
    game = _store().game(game_id)
    if game is None:
        abort(404, "no such game")
    return game


def _publish(game_id: str, state: dict) -> dict:
    view = view_of(state, _profile())
    current_app.extensions["tablesight.events"].publish(game_id, "state", view)
    return view


@bp.errorhandler(GameError)
def _game_error(exc: GameError):
    return jsonify(error=str(exc)), exc.status


@bp.errorhandler(TablesightError)
def _read_error(exc: TablesightError):
    return jsonify(error=exc.sentence), 422 if exc.exit_code == 4 else 400


@bp.post("/games")
def create_game():
    title = str((request.get_json(silent=True) or {}).get("title", ""))[:120]
    return jsonify(id=_store().create_game(title)), 201


@bp.get("/games/<game_id>")
def game_state(game_id: str):
    game = _game(game_id)
    return jsonify(game=game, **view_of(_store().latest_state(game_id), _profile()))


@bp.post("/games/<game_id>/photo")
def upload_photo(game_id: str):
    _game(game_id)
    upload = request.files.get("photo")
    if upload is None:
        abort(400, "no photo in the request: choose a photo first")
    if upload.mimetype not in IMAGE_TYPES:
        abort(415, f"{upload.mimetype} is not a photo: send a JPEG, PNG or HEIC")
    data = upload.read()
    if not data:
        abort(400, "the photo is empty")
    events = current_app.extensions["tablesight.events"]
    # Each step of a long reading (a photo without the card takes half a minute or more) shown on the page.
    state = ingest_photo(_store(), current_app.config["IMAGES_DIR"], game_id, data, "the photo",
                         profile=_profile(), lens=current_app.config["LENS"],
                         progress=lambda step: events.publish(game_id, "reading", {"step": step}, passing=True))
    return jsonify(_publish(game_id, state))


@bp.post("/games/<game_id>/corrections")
def correct(game_id: str):
    _game(game_id)
    action = request.get_json(silent=True)
    if not isinstance(action, dict):
        abort(400, "a correction is a JSON object")
    return jsonify(_publish(game_id, apply_correction(_store(), game_id, action, _profile())))


@bp.post("/games/<game_id>/undo")
def undo_last(game_id: str):
    _game(game_id)
    return jsonify(_publish(game_id, undo(_store(), game_id, _profile())))


@bp.post("/games/<game_id>/players")
def set_players(game_id: str):
    _game(game_id)
    doc = request.get_json(silent=True) or {}
    fields = {k: str(doc[k])[:80] for k in ("player1", "player2", "title") if k in doc}
    if "notes" in doc:
        fields["notes"] = str(doc["notes"])[:2000]
    _store().update_game(game_id, **fields)
    return jsonify(game=_store().game(game_id))


@bp.post("/games/<game_id>/confirm/<int:player>")
def confirm(game_id: str, player: int):
    game = _game(game_id)
    if player not in (1, 2):
        abort(404, "players are 1 and 2")
    if not game[f"player{player}"]:
        abort(400, "enter both players' names before confirming")
    import time

    _store().update_game(game_id, **{f"confirmed{player}": time.time()})
    return jsonify(game=_store().game(game_id))


@bp.get("/games/<game_id>/record.json")
def record_json(game_id: str):
    from tablesight.webui.records import verification_record

    return jsonify(verification_record(_store(), _game(game_id)))


@bp.get("/games/<game_id>/events")
def events(game_id: str):
    _game(game_id)
    first = ("state", view_of(_store().latest_state(game_id), _profile()))
    stream = current_app.extensions["tablesight.events"].stream(game_id, first)
    return Response(stream, mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@bp.get("/photos/<sha>.jpg")
def photo(sha: str):
    if not SHA.match(sha):
        abort(404)
    return send_from_directory(current_app.config["IMAGES_DIR"], f"{sha}.jpg", max_age=3600)
