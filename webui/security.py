"""CSRF tokens on every state-changing request, and an access PIN when not bound to localhost."""

from __future__ import annotations

import hmac
import secrets

from flask import Flask, abort, current_app, redirect, request, session, url_for

SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}
OPEN_ENDPOINTS = {"pages.login", "static"}


def csrf_token() -> str:
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(24)
    return session["csrf"]


def install(app: Flask) -> None:
    app.jinja_env.globals["csrf_token"] = csrf_token

    @app.before_request
    def _guard():
        pin = current_app.config.get("ACCESS_PIN")
        if pin and not session.get("pin_ok") and request.endpoint not in OPEN_ENDPOINTS:
            if request.path.startswith("/api/"):
                abort(401, "enter the access PIN first")
            return redirect(url_for("pages.login", next=request.path))
        if request.method not in SAFE_METHODS:
            sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf_token", "")
            if not sent or not hmac.compare_digest(sent, session.get("csrf", "")):
                abort(400, "the page is out of date (security token missing): reload it and try again")
        return None


def check_pin(entered: str) -> bool:
    pin = current_app.config.get("ACCESS_PIN") or ""
    return bool(pin) and hmac.compare_digest(entered.strip(), pin)
