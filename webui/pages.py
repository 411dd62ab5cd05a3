"""The HTML pages: start, game view, printable record, list of records, stream overlay, PIN login."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, redirect, render_template, request, session, url_for

from tablesight.webui.records import verification_record
from tablesight.webui.rules import CASTELLAN_RULES
from tablesight.webui.security import check_pin

bp = Blueprint("pages", __name__)


def _store():
    return current_app.extensions["tablesight.store"]


def _game_or_404(game_id: str) -> dict:
    game = _store().game(game_id) if len(game_id) == 12 and game_id.isalnum() else None
    if game is None:
        abort(404, "no such game")
    return game


@bp.get("/")
def index():
    live = current_app.extensions.get("tablesight.live")
    if live is not None:
        return redirect(url_for("pages.game", game_id=live.game_id))
    if current_app.config.get("GAME") == "catan":
        return redirect(url_for("catan.catan_form"))
    return render_template("index.html", games=_store().games()[:20])


@bp.post("/games")
def new_game():
    game_id = _store().create_game(request.form.get("title", "")[:120])
    return redirect(url_for("pages.game", game_id=game_id))


@bp.get("/games/<game_id>")
def game(game_id: str):
    live = current_app.extensions.get("tablesight.live")
    this_camera = live is not None and live.game_id == game_id
    # The camera's status as it is now: the page hears of later changes (events), not of those before it opened.
    return render_template("game.html", game=_game_or_404(game_id), rules=CASTELLAN_RULES, live=this_camera,
                           live_status=live.status if this_camera else None)


@bp.get("/games/<game_id>/record")
def record(game_id: str):
    doc = verification_record(_store(), _game_or_404(game_id))
    return render_template("record.html", record=doc, rules=CASTELLAN_RULES)


@bp.get("/records")
def records():
    docs = [verification_record(_store(), g) for g in _store().games()]
    return render_template("records.html", records=docs)


@bp.get("/games/<game_id>/overlay")
def overlay(game_id: str):
    return render_template("overlay.html", game=_game_or_404(game_id))


@bp.get("/live/stream.mjpg")
def live_stream():
    from flask import Response

    live = current_app.extensions.get("tablesight.live")
    if live is None:
        abort(404, "live mode is off: start with `tablesight serve --camera 0`")
    return Response(live.mjpeg(), mimetype="multipart/x-mixed-replace; boundary=frame")


@bp.get("/rules")
def rules():
    return render_template("rules.html", rules=CASTELLAN_RULES)


@bp.route("/login", methods=["GET", "POST"])
def login():
    error = None
    if request.method == "POST":
        if check_pin(request.form.get("pin", "")):
            session["pin_ok"] = True
            target = request.args.get("next", "/")
            return redirect(target if target.startswith("/") and not target.startswith("//") else "/")
        error = "That PIN is not right."
    return render_template("login.html", error=error)
