"""The web companion's API through Flask's test client: uploads, corrections, safety."""

import io
import json
import re
from pathlib import Path

import pytest

from tablesight.webui import create_app

PHOTO = Path(__file__).resolve().parent.parent / "samples" / "castellan" / "photos" / "photo-003.jpg"


@pytest.fixture
def app(tmp_path):
    return create_app({"DATA_DIR": tmp_path, "TESTING": True})


@pytest.fixture
def client(app):
    client = app.test_client()
    page = client.get("/").get_data(as_text=True)
    client.csrf = re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)
    return client


def _post(client, path, **kwargs):
    return client.post(path, headers={"X-CSRF-Token": client.csrf}, **kwargs)


def _game(client) -> str:
    return _post(client, "/api/games", json={"title": "t"}).get_json()["id"]


@pytest.fixture(scope="module")
def photo_bytes():
    return PHOTO.read_bytes()


def test_upload_then_correct_then_undo(client, photo_bytes):
    game = _game(client)
    res = _post(client, f"/api/games/{game}/photo", data={"photo": (io.BytesIO(photo_bytes), "castle.jpg")})
    assert res.status_code == 200
    state = res.get_json()["state"]
    truth = json.loads(PHOTO.with_suffix("").with_suffix(".truth.json").read_text())
    assert state["report"]["scores"] == truth["report"]["scores"]
    keep = next(m for m in state["marks"] if m["kind"] == "keep")
    before = state["report"]["scores"][keep["color"]]
    corrected = _post(client, f"/api/games/{game}/corrections", json={"action": "delete", "id": keep["id"]})
    assert corrected.status_code == 200
    assert corrected.get_json()["state"]["report"]["scores"][keep["color"]] < before
    undone = _post(client, f"/api/games/{game}/undo").get_json()["state"]
    assert undone["report"]["scores"] == truth["report"]["scores"]
    record = client.get(f"/api/games/{game}/record.json").get_json()
    assert [c["undone"] for c in record["corrections"]] == [True]
    assert record["final_photo_sha256"] and len(record["final_photo_sha256"]) == 64


def test_state_changes_need_the_csrf_token(client):
    res = client.post("/api/games", json={})
    assert res.status_code == 400 and "security token" in res.get_json()["error"]


def test_not_an_image_gets_a_clear_4xx_and_the_server_goes_on(client):
    game = _game(client)
    res = _post(client, f"/api/games/{game}/photo", data={"photo": (io.BytesIO(b"%PDF-1.4 nope"), "x.jpg")})
    assert res.status_code == 400 and "not an image" in res.get_json()["error"]
    assert client.get(f"/api/games/{game}").status_code == 200


def test_oversized_upload_is_refused(client, app):
    app.config["MAX_CONTENT_LENGTH"] = 1000
    game = _game(client)
    res = _post(client, f"/api/games/{game}/photo", data={"photo": (io.BytesIO(b"x" * 5000), "x.jpg")})
    assert res.status_code == 413 and "too large" in res.get_json()["error"]


def test_photo_without_card_is_explained(client):
    import cv2
    import numpy as np

    ok, data = cv2.imencode(".png", np.full((300, 400, 3), 128, np.uint8))
    game = _game(client)
    res = _post(client, f"/api/games/{game}/photo", data={"photo": (io.BytesIO(data.tobytes()), "x.png")})
    assert res.status_code == 422 and "reference card" in res.get_json()["error"]


def test_names_are_escaped_everywhere(client):
    game = _game(client)
    evil = "<script>alert(1)</script>"
    _post(client, f"/api/games/{game}/players", json={"player1": evil, "player2": "Bo"})
    for page in (f"/games/{game}", f"/games/{game}/record", "/records", "/"):
        html = client.get(page).get_data(as_text=True)
        assert evil not in html


def test_unknown_game_and_bad_paths_are_404(client):
    assert client.get("/api/games/../../etc/passwd").status_code == 404
    assert client.get("/api/photos/..%2F..%2Fgames.sqlite3.jpg").status_code == 404
    assert client.get("/games/nosuchgame00").status_code == 404


def test_pin_is_required_when_set(tmp_path):
    app = create_app({"DATA_DIR": tmp_path, "ACCESS_PIN": "123456"})
    client = app.test_client()
    assert client.get("/").status_code == 302
    assert client.get("/api/games/abcdefabcdef").status_code == 401
    page = client.get("/login").get_data(as_text=True)
    token = re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)
    assert client.post("/login", data={"pin": "000000", "csrf_token": token}).status_code == 200
    assert client.post("/login", data={"pin": "123456", "csrf_token": token}).status_code == 302
    assert client.get("/").status_code == 200
