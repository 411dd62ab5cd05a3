"""The web companion's API through Flask's test client: uploads, corrections, safety."""

import io
import json
import re
from pathlib import Path

import pytest
from werkzeug.datastructures import FileStorage

from tablesight.webui import create_app

PHOTO = Path(__file__).resolve().parent.parent / "samples" / "castellan" / "photos" / "photo-003.jpg"


@pytest.fixture
def app(tmp_path):
    return create_app({"DATA_DIR": tmp_path, "TESTING": True})


@pytest.fixture
def client(app):
    return _browsing(app)


def _browsing(app):
    """A test client holding the page's CSRF token, as a browser that opened the page would."""
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


@pytest.mark.parametrize("label", ["image/heif", "image/heic"])
def test_a_photo_labelled_heif_or_heic_is_read_by_its_content(client, label):
    import cv2
    import numpy as np

    ok, data = cv2.imencode(".png", np.full((300, 400, 3), 128, np.uint8))
    game = _game(client)
    photo = FileStorage(io.BytesIO(data.tobytes()), "IMG_0001.HEIC", content_type=label)
    res = _post(client, f"/api/games/{game}/photo", data={"photo": photo})
    assert res.status_code == 422 and "reference card" in res.get_json()["error"]  # read, not refused (415)


def test_a_file_that_says_it_is_not_a_photo_is_refused(client):
    game = _game(client)
    text = FileStorage(io.BytesIO(b"castle notes"), "notes.txt", content_type="text/plain")
    res = _post(client, f"/api/games/{game}/photo", data={"photo": text})
    assert res.status_code == 415 and "send a JPEG, PNG or HEIC" in res.get_json()["error"]


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


def test_history_flags_building_in_an_opponents_courtyard_and_late_double_keeps():
    from tablesight.scoring.castellan.board import Board, Keep, Tower, Wall
    from tablesight.webui.games import history_warnings

    towers = (Tower("a", 0, 0), Tower("b", 128, 0), Tower("c", 128, 128), Tower("d", 0, 128))
    walls = (Wall("w1", "long", ("a", "b")), Wall("w2", "long", ("b", "c")), Wall("w3", "long", ("c", "d")),
             Wall("w4", "long", ("d", "a")))
    before = Board(towers, walls, (Keep("red", 30, 30),))
    blue_builds_inside = Board(towers + (Tower("e", 64, 64),), walls, (Keep("red", 30, 30), Keep("blue", 300, 300)))
    assert [w["rule"] for w in history_warnings(before, blue_builds_inside)] == ["C7"]
    late_double = Board(towers, walls, (Keep("red", 30, 30), Keep("red", 90, 90, double=True)))
    assert "C8" in [w["rule"] for w in history_warnings(before, late_double)]
    ring = (Tower("p", 0, 0), Tower("q", 64, 0), Tower("r", 128, 0), Tower("s", 128, 64), Tower("t", 64, 64),
            Tower("u", 0, 64))
    pairs = zip(ring, ring[1:] + ring[:1], strict=True)
    sides = tuple(Wall(f"v{i}", "short", (a.id, b.id)) for i, (a, b) in enumerate(pairs))
    owned = Board(ring, sides, (Keep("red", 32, 32),))
    split = sides + (Wall("mid", "short", ("q", "t")),)
    split_for_blue = Board(ring, split, (Keep("red", 32, 32), Keep("blue", 96, 32)))
    assert [w["rule"] for w in history_warnings(owned, split_for_blue)] == ["C6"]
    split_for_red = Board(ring, split, (Keep("red", 32, 32), Keep("red", 96, 32)))
    assert history_warnings(owned, split_for_red) == []


def test_a_fault_reading_an_upload_is_one_sentence_and_leaves_the_game_as_it_was(tmp_path, photo_bytes, monkeypatch):
    """Served as users run it (not TESTING, where Flask re-raises): a reader bug gives the page one sentence."""
    import tablesight.webui.games as games

    def broken(*args, **kwargs):
        raise ValueError("a reader bug")

    monkeypatch.setattr(games, "score_photo", broken)
    served = create_app({"DATA_DIR": tmp_path})
    served.logger.disabled = True  # Flask logs the traceback for the report; not wanted in the test's output
    client = _browsing(served)
    game = _game(client)
    res = _post(client, f"/api/games/{game}/photo", data={"photo": (io.BytesIO(photo_bytes), "castle.jpg")})
    assert res.status_code == 500
    assert "fault of its own (ValueError)" in res.get_json()["error"]
    assert client.get(f"/api/games/{game}").get_json()["state"] is None


def test_live_session_survives_a_missing_camera(tmp_path):
    import time

    from tablesight.webui.events import EventBroker
    from tablesight.webui.live import LiveSession
    from tablesight.webui.store import GameStore

    live = LiveSession(str(tmp_path / "unplugged.mp4"), GameStore(tmp_path / "g.sqlite3"), EventBroker())
    live.start()
    deadline = time.time() + 5
    while live.status == "starting" and time.time() < deadline:
        time.sleep(0.05)
    assert "not available" in live.status
    live.stop()


def test_a_live_camera_s_stable_states_carry_the_frame_they_were_read_from(tmp_path):
    """Each stable state of a live game has its frame as its photo, so the page draws the reading over the camera's
    view and pieces can be corrected on it; the photo's name is the SHA-256 of the file stored (the record's hash)."""
    import hashlib
    import time

    from tablesight.webui.events import EventBroker
    from tablesight.webui.games import view_of
    from tablesight.webui.live import LiveSession
    from tablesight.webui.store import GameStore

    store = GameStore(tmp_path / "g.sqlite3")
    video = PHOTO.parent.parent / "video.mp4"
    live = LiveSession(str(video), store, EventBroker(), images=tmp_path / "photos").start()
    deadline = time.time() + 120
    while live.status != "video finished" and time.time() < deadline:
        time.sleep(0.2)
    live.stop()
    state = store.latest_state(live.game_id)
    assert state is not None and state["photo_sha256"]
    stored = tmp_path / "photos" / f"{state['photo_sha256']}.jpg"
    assert hashlib.sha256(stored.read_bytes()).hexdigest() == state["photo_sha256"]
    view = view_of(state)["state"]
    assert tuple(view["image_size"]) == (1280, 720) and any(m["kind"] == "tower" for m in view["marks"])


def test_a_live_frame_that_cannot_be_stored_leaves_the_state_without_a_photo_and_says_why(tmp_path):
    """A full disk or a file in the way must not end the camera's thread: the state is kept, without its photo."""
    import numpy as np

    from tablesight.webui.events import EventBroker
    from tablesight.webui.live import LiveSession
    from tablesight.webui.store import GameStore

    (tmp_path / "photos").write_text("a file where the photos folder should be")
    live = LiveSession("0", GameStore(tmp_path / "g.sqlite3"), EventBroker(), images=tmp_path / "photos")
    assert live._stored(np.zeros((8, 8, 3), np.uint8)) is None
    assert live.status.startswith("the frame could not be stored (") and "state kept without it" in live.status


def test_a_live_frame_the_reader_fails_on_is_skipped_and_the_next_one_read(tmp_path):
    """A fault of the reader on one frame must not end the camera's thread: that frame is skipped, said so."""
    from types import SimpleNamespace

    import numpy as np

    from tablesight.webui.events import EventBroker
    from tablesight.webui.live import LiveSession
    from tablesight.webui.store import GameStore

    class FaultyOnce:
        calls = 0

        def process(self, frame):
            self.calls += 1
            if self.calls == 1:
                raise ValueError("a reader bug")
            return SimpleNamespace(status="watching", changed=False, stable=None)

    live = LiveSession("0", GameStore(tmp_path / "g.sqlite3"), EventBroker())
    tracker, frame = FaultyOnce(), np.zeros((8, 8, 3), np.uint8)
    assert live._followed(tracker, frame) == "a frame could not be read (ValueError): skipped"
    assert live.status == "a frame could not be read (ValueError): skipped"
    assert live._followed(tracker, frame) == "watching" and live.status == "watching"


def test_a_live_game_page_shows_the_camera_s_status_as_it_is_when_opened(app, client):
    """Status changes reach an open page as events; a page opened later shows the status of the moment."""
    from types import SimpleNamespace

    game = _game(client)
    app.extensions["tablesight.live"] = SimpleNamespace(game_id=game, status="camera disconnected — reconnecting")
    page = client.get(f"/games/{game}").get_data(as_text=True)
    assert "camera disconnected — reconnecting" in page and "connecting to the camera…" not in page


def test_catan_page_refuses_a_missing_or_unreadable_photo(client):
    assert _post(client, "/catan", data={}).status_code == 400
    response = _post(client, "/catan", data={"photo": (io.BytesIO(b"not a photo"), "board.jpg")},
                     content_type="multipart/form-data")
    assert response.status_code == 400
    assert "not an image" in response.get_data(as_text=True)


def test_catan_page_needs_the_csrf_token(client):
    response = client.post("/catan", data={"photo": (io.BytesIO(b"x"), "board.jpg")},
                           content_type="multipart/form-data")
    assert response.status_code in (400, 403)


def test_serving_catan_opens_on_the_catan_page(tmp_path):
    client = create_app({"DATA_DIR": tmp_path, "GAME": "catan"}).test_client()
    response = client.get("/")
    assert response.status_code == 302 and response.headers["Location"].endswith("/catan")


def test_doubts_survive_a_correction_of_another_piece_and_come_back_on_undo(client):
    nearly_straight_down = PHOTO.with_name("photo-016.jpg")  # 2.3° tilt: keeps single or double in doubt
    game = _game(client)
    res = _post(client, f"/api/games/{game}/photo",
                data={"photo": (io.BytesIO(nearly_straight_down.read_bytes()), "castle.jpg")})
    doubts = res.get_json()["state"]["report"]["doubts"]
    assert len(doubts) >= 2 and all(d["sentence"] for d in doubts)
    first = doubts[0]  # a keep: setting it as it may be settles it
    mark = next(m for m in res.get_json()["state"]["marks"] if m["id"] == first["id"])
    corrected = _post(client, f"/api/games/{game}/corrections",
                      json={"action": "set_keep", "id": first["id"], "double": not mark["double"]}).get_json()
    left = corrected["state"]["report"]["doubts"]
    assert len(left) == len(doubts) - 1
    assert (first["x"], first["y"]) not in {(d["x"], d["y"]) for d in left}
    undone = _post(client, f"/api/games/{game}/undo").get_json()["state"]
    assert undone["report"]["doubts"] == doubts
    # The organiser's record names what nobody checked.
    record = client.get(f"/api/games/{game}/record.json").get_json()
    assert record["unchecked_doubts"] == [d["sentence"] for d in doubts]
    assert doubts[0]["sentence"] in client.get(f"/games/{game}/record").get_data(as_text=True)


def test_the_record_keeps_what_the_reader_said_of_the_photo(client):
    """A castle a metre from the card: the organiser's record carries the reader's note on it."""
    far = Path(__file__).resolve().parent / "data" / "far-castle.jpg"
    game = _game(client)
    res = _post(client, f"/api/games/{game}/photo", data={"photo": (io.BytesIO(far.read_bytes()), "castle.jpg")})
    notes = res.get_json()["state"]["report"]["notes"]
    record = client.get(f"/api/games/{game}/record.json").get_json()
    assert record["reading_notes"] == notes and "1.0 m from the card" in notes[0]
    assert "1.0 m from the card" in client.get(f"/games/{game}/record").get_data(as_text=True)
    # Misread in places (23 pieces break the rules): the state says so, and so does the record, even once the
    # board is corrected by hand (a correction's state carries no such word: the board is then the players').
    trust = res.get_json()["state"]["report"]["trust"]
    assert trust["level"] == "misread"
    mark = res.get_json()["state"]["marks"][0]
    corrected = _post(client, f"/api/games/{game}/corrections", json={"action": "delete", "id": mark["id"]})
    assert "trust" not in corrected.get_json()["state"]["report"]
    record = client.get(f"/api/games/{game}/record.json").get_json()
    assert record["recognised_board_trust"] == trust
    assert "likely misread" in client.get(f"/games/{game}/record").get_data(as_text=True)


def test_photos_are_read_with_the_profiles_the_server_was_given(tmp_path, photo_bytes, monkeypatch):
    """`serve --profile P.json --lens C.json`: uploads are read with the set's piece profile and the lens."""
    from tablesight.calibration.camera import Lens
    from tablesight.calibration.pieces import NOMINAL_PROFILE, PieceProfile
    from tablesight.photo_scoring import score_photo
    from tablesight.scoring.castellan.pieces import PieceDimensions
    from tablesight.webui import games

    profile = PieceProfile(PieceDimensions(tower_diameter=28, short_wall_length=46, long_wall_length=120),
                           tower_height=41.0)
    lens = Lens.from_dict(json.loads(PHOTO.with_suffix("").with_suffix(".truth.json").read_text())["camera"])
    seen = []

    def spy(photo, profile_used, lens_used, *args, **kwargs):
        seen.append((profile_used, lens_used))
        return score_photo(photo, NOMINAL_PROFILE, lens_used, *args, **kwargs)

    monkeypatch.setattr(games, "score_photo", spy)
    app = create_app({"DATA_DIR": tmp_path, "TESTING": True, "PIECE_PROFILE": profile, "LENS": lens})
    client = app.test_client()
    client.csrf = re.search(r'name="csrf-token" content="([^"]+)"', client.get("/").get_data(as_text=True)).group(1)
    game = _game(client)
    res = _post(client, f"/api/games/{game}/photo", data={"photo": (io.BytesIO(photo_bytes), "castle.jpg")})
    assert res.status_code == 200
    assert seen == [(profile, lens)]
    # The towers are drawn at the set's tower height, not the nominal one.
    stored = app.extensions["tablesight.store"].latest_state(game)
    drawn = next(m["px"] for m in res.get_json()["state"]["marks"] if m["kind"] == "tower")
    assert drawn == next(m["px"] for m in games.view_of(stored, profile)["state"]["marks"] if m["kind"] == "tower")
    assert drawn != next(m["px"] for m in games.view_of(stored)["state"]["marks"] if m["kind"] == "tower")


def test_the_readers_steps_are_pushed_to_the_game_page_while_a_photo_is_read(client, app, photo_bytes):
    """The page shows what the reader is doing (a photo without the card takes half a minute or more): each
    step goes out on the game's events as "reading", before the new state."""
    broker = app.extensions["tablesight.events"]
    sent = []
    publish = broker.publish
    broker.publish = lambda game_id, event, data, **kw: (sent.append((game_id, event, data)),
                                                         publish(game_id, event, data, **kw))
    game = _game(client)
    assert _post(client, f"/api/games/{game}/photo",
                 data={"photo": (io.BytesIO(photo_bytes), "castle.jpg")}).status_code == 200
    steps = [data["step"] for g, event, data in sent if event == "reading" and g == game]
    assert "finding the reference card" in steps and "reading the pieces" in steps
    assert [event for _, event, _ in sent][-1] == "state"


def test_a_page_too_far_behind_does_not_hold_up_a_reading():
    """A page that stopped taking events (its queue full) drops a reading's progress instead of blocking it."""
    import threading

    from tablesight.webui.events import EventBroker

    broker = EventBroker()
    stream = broker.stream("g")
    next(stream)  # subscribed
    for n in range(100):
        broker.publish("g", "state", {"n": n})
    done = threading.Event()
    threading.Thread(target=lambda: (broker.publish("g", "reading", {"step": "x"}, passing=True), done.set()),
                     daemon=True).start()
    assert done.wait(2.0)
    stream.close()
