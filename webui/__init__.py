"""The web companion: a Flask application factory (``create_app``) and its blueprints."""

from __future__ import annotations

import secrets
from pathlib import Path

from flask import Flask, jsonify, render_template, request
from werkzeug.exceptions import HTTPException, InternalServerError, RequestEntityTooLarge

from tablesight.calibration.pieces import NOMINAL_PROFILE
from tablesight.webui import api, catan_view, pages, security
from tablesight.webui.events import EventBroker
from tablesight.webui.store import GameStore, default_data_dir

MAX_UPLOAD_BYTES = 40 * 1024 * 1024


def create_app(config: dict | None = None) -> Flask:
    app = Flask(__name__)
    data_dir = Path((config or {}).get("DATA_DIR") or default_data_dir())
    app.config.update(
        SECRET_KEY=secrets.token_hex(32),
        MAX_CONTENT_LENGTH=MAX_UPLOAD_BYTES,
        DATA_DIR=data_dir,
        IMAGES_DIR=data_dir / "photos",
        ACCESS_PIN=None,
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_HTTPONLY=True,
        PIECE_PROFILE=NOMINAL_PROFILE,  # the pieces photos are read with (`serve --profile`)
        LENS=None,  # the camera's lens, if calibrated (`serve --lens`)
    )
    app.config.update(config or {})
    app.extensions["tablesight.store"] = GameStore(Path(app.config["DATA_DIR"]) / "games.sqlite3")
    app.extensions["tablesight.events"] = EventBroker()
    security.install(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(catan_view.bp)
    _install_error_pages(app)
    return app


def _install_error_pages(app: Flask) -> None:
    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        message = exc.description if isinstance(exc.description, str) else exc.name
        if isinstance(exc, RequestEntityTooLarge):
            message = f"the file is too large ({MAX_UPLOAD_BYTES // (1024 * 1024)} MB at most)"
        fault = getattr(exc, "original_exception", None)
        if isinstance(exc, InternalServerError) and fault is not None:  # a bug of ours, logged by Flask
            message = (f"tablesight hit a fault of its own ({type(fault).__name__}); the game is as it was. "
                       f"Please report it with the photo")
        if request.path.startswith("/api/"):
            return jsonify(error=message), exc.code
        return render_template("error.html", code=exc.code, message=message), exc.code
