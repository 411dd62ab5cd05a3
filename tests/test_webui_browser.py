"""Click through the real page in headless Chromium (Debian's), against the real server (waitress)."""

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

playwright = pytest.importorskip("playwright.sync_api")

ROOT = Path(__file__).resolve().parent.parent
PHOTO = ROOT / "samples" / "castellan" / "photos" / "photo-003.jpg"
NEARLY_STRAIGHT_DOWN = PHOTO.with_name("photo-016.jpg")  # 2.3° tilt: keeps single or double in doubt
VIDEO = ROOT / "samples" / "castellan" / "video.mp4"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists() and not os.environ.get("CI"),
                                reason="Debian's chromium is not installed (.ci/run installs it)")


def _screenshot(page, name: str) -> None:
    """Keep a screenshot to look at, outside the source tree (TABLESIGHT_SHOTS=docs refreshes the README's)."""
    page.screenshot(path=str(Path(os.environ.get("TABLESIGHT_SHOTS", "/tmp")) / name), full_page=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve(tmp_path: Path, *extra: str):
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "tablesight", "serve", "--port", str(port),
                             "--data", str(tmp_path), *extra], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    for _ in range(300):  # up to 30 s: under a parallel test run its imports alone can take several
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc, f"http://127.0.0.1:{port}"
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


@pytest.fixture(scope="module")
def browser():
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def server(tmp_path):
    proc, url = _serve(tmp_path)
    yield url
    proc.terminate()
    proc.wait(timeout=10)


def _new_game_with_photo(page, server, photo: Path = PHOTO, shown: str = ".score-row"):
    """A new game on the page, `photo` uploaded, waiting until the reading's `shown` selector appears."""
    page.goto(server)
    page.click("#new-game")
    page.wait_for_load_state("load")  # the game page's script is running, not only its HTML parsed
    page.set_input_files("#photo-input", str(photo))
    page.wait_for_selector(shown, timeout=60_000)
    page.wait_for_selector("#photo-wrap[data-scale]", state="attached")  # the castle framed: marks stay put


def _scores(page) -> dict[str, int]:
    rows = page.query_selector_all(".score-row")
    return {r.get_attribute("data-colour"): int(r.query_selector(".score").inner_text()) for r in rows}


def test_upload_shows_the_right_scores(browser, server):
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    _new_game_with_photo(page, server)
    truth = json.loads(PHOTO.with_suffix("").with_suffix(".truth.json").read_text())
    assert _scores(page) == truth["report"]["scores"]
    assert "Winner" in page.inner_text("#winner")
    assert page.locator("circle.tower").count() == len(truth["board"]["towers"])
    assert page.locator("#trust").is_hidden()  # read right: no word against the reading


def test_correcting_a_misread_changes_the_score(browser, server):
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    _new_game_with_photo(page, server)
    before = _scores(page)
    keep = page.locator("circle.keep").first
    colour = page.evaluate("(id) => document.querySelector(`[data-id='${id}']`).getAttribute('fill')",
                           keep.get_attribute("data-id"))
    keep.click(force=True)
    page.click("#delete-piece")
    page.wait_for_function("(b) => JSON.stringify(b) !== JSON.stringify([...document.querySelectorAll('.score-row')]"
                           ".map(r => r.querySelector('.score').innerText))",
                           arg=[str(v) for v in before.values()], timeout=20_000)
    after = _scores(page)
    assert after != before and sum(after.values()) < sum(before.values()), colour
    page.click("#undo")
    page.wait_for_function("() => document.querySelectorAll('circle.keep').length > 0", timeout=20_000)
    page.wait_for_timeout(500)
    assert _scores(page) == before


def _inside(box: dict, frame: dict) -> bool:
    return (box["x"] >= frame["x"] - 1 and box["y"] >= frame["y"] - 1
            and box["x"] + box["width"] <= frame["x"] + frame["width"] + 1
            and box["y"] + box["height"] <= frame["y"] + frame["height"] + 1)


def test_the_castle_is_framed_and_a_tap_beside_a_tower_in_a_zoomed_view_selects_it(browser, server):
    """A castle far from the camera is small in its photo: the page frames it, zooms further on request,
    pans by dragging (a drag selects nothing) and takes a tap near a tower for that tower."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    _new_game_with_photo(page, server, ROOT / "tests" / "data" / "far-castle.jpg")
    frame = page.locator("#photo-wrap").bounding_box()
    framed = float(page.get_attribute("#photo-wrap", "data-scale"))
    assert framed > 1.2  # the castle fills a small part of that photo
    towers = page.locator("circle.tower")
    assert all(_inside(towers.nth(i).bounding_box(), frame) for i in range(towers.count()))
    page.click("#zoom-in")
    page.click("#zoom-in")
    assert float(page.get_attribute("#photo-wrap", "data-scale")) > 2 * framed
    shown = [i for i in range(towers.count()) if _inside(towers.nth(i).bounding_box(), frame)]
    assert 0 < len(shown) < towers.count()
    tower = towers.nth(shown[len(shown) // 2])
    box = tower.bounding_box()
    # Beside the tower, not on it: a finger is wider than a tower's mark.
    page.mouse.click(box["x"] + box["width"] + 6, box["y"] + box["height"] / 2)
    assert page.inner_text("#selected-name") == f"tower {tower.get_attribute('data-id')}"
    before = page.locator("#photo").bounding_box()
    middle = (frame["x"] + frame["width"] / 2, frame["y"] + frame["height"] / 2)
    page.mouse.move(*middle)
    page.mouse.down()
    page.mouse.move(middle[0] + 40, middle[1] + 30, steps=5)
    page.mouse.move(middle[0] + 80, middle[1] + 60, steps=5)
    page.mouse.up()
    after = page.locator("#photo").bounding_box()
    assert abs(after["x"] - before["x"] - 80) < 2 and abs(after["y"] - before["y"] - 60) < 2
    assert page.inner_text("#selected-name") == f"tower {tower.get_attribute('data-id')}"  # still selected
    page.click("#zoom-whole")
    assert page.get_attribute("#photo-wrap", "data-scale") == "1.000"
    assert abs(page.locator("#photo").bounding_box()["width"] - frame["width"]) < 1
    page.close()


def test_verification_record_exports_json(browser, server):
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    _new_game_with_photo(page, server)
    page.fill("#player1", "Ada")
    page.fill("#player2", "Bo <b>")
    page.click("#confirm1")
    page.click("#confirm2")
    page.wait_for_function("() => document.querySelector('#confirmations').innerText.includes('Bo')")
    href = page.get_attribute("#export-json", "href")
    record = page.request.get(server + href).json()
    assert record["players"][0]["name"] == "Ada" and record["players"][1]["name"] == "Bo <b>"
    assert record["confirmed_by_both"] is True
    assert record["scores"] == _scores(page)
    assert len(record["final_photo_sha256"]) == 64
    printable = browser.new_page()
    printable.goto(server + href.replace("/api", "").replace("record.json", "record"))
    assert "Bo <b>" in printable.inner_text("body")


def test_phone_viewport_shows_a_usable_game_view(browser, server):
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    _new_game_with_photo(page, server)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390 + 1  # no sideways scrolling
    # The photo's frame fits the screen (the photo inside it may be zoomed onto the castle).
    assert page.locator("#photo-wrap").bounding_box()["width"] <= 390
    assert page.locator("#score-bars").is_visible()
    _screenshot(page, "phone.png")


def test_live_mode_pushes_scores_over_sse(browser, tmp_path):
    proc, url = _serve(tmp_path, "--camera", str(VIDEO))
    try:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(url)
        page.wait_for_selector("#live-status")
        page.wait_for_selector(".score-row, #winner:not(.muted)", timeout=60_000)
        assert page.locator("#winner").inner_text() != "No photo yet."
        statuses = page.inner_text("#live-status")
        assert statuses
    finally:
        proc.terminate()
        proc.wait(timeout=10)


CATAN_PHOTO = ROOT.parent / "shared" / "data" / "catan-photos" / "catanai-test4_1.jpg"


@pytest.mark.skipif(not CATAN_PHOTO.exists(), reason="the shared Catan photos are not beside the project")
def test_catan_page_reads_a_real_board(browser, server):
    """Upload a real Catan photo (CatanAI, MIT): the board is drawn back with its pieces and scores."""
    page = browser.new_page(viewport={"width": 1200, "height": 1600})
    page.goto(server)
    page.click("text=Catan")
    page.set_input_files("#catan-photo", str(CATAN_PHOTO))
    page.click("#catan-read")
    page.wait_for_selector("#catan-board", timeout=60_000)
    points = {row.get_attribute("data-colour"): int(row.query_selector(".points").inner_text())
              for row in page.query_selector_all("#catan-scores tr[data-colour]")}
    assert points == {"blue": 7, "orange": 4, "red": 3, "white": 3}  # blue: 5 settlements + longest road
    assert len(page.query_selector_all("#catan-board .building")) == 15
    assert len(page.query_selector_all("#catan-board .road")) == 39
    assert len(page.query_selector_all("#catan-heat figure")) == 4
    _screenshot(page, "catan-page.png")
    page.close()


def test_catan_page_refuses_a_photo_without_a_board(browser, server, tmp_path):
    blank = tmp_path / "blank.png"
    import cv2
    import numpy as np

    cv2.imwrite(str(blank), np.full((600, 800, 3), 120, np.uint8))
    page = browser.new_page()
    page.goto(server + "/catan")
    page.set_input_files("#catan-photo", str(blank))
    page.click("#catan-read")
    page.wait_for_selector("#catan-error")
    assert "sea frame" in page.inner_text("#catan-error")
    page.close()


def test_a_doubt_is_listed_and_a_click_selects_its_piece_to_settle_it(browser, server):
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    _new_game_with_photo(page, server, NEARLY_STRAIGHT_DOWN, "li.doubt")
    # Doubts that change a score come first: "Check: double red keep at (…) mm, may be single: if so, red 26 (not 30)"
    listed = page.locator("li.doubt").count()
    doubt = page.locator("li.doubt").first.inner_text()
    found = re.search(r"(single|double) (\w+) keep at .* if so, (\w+) (\d+) \(not (\d+)\)", doubt)
    assert found, doubt
    read_as, colour, scored, otherwise, now = found.groups()
    assert _scores(page)[scored] == int(now)
    page.locator("li.doubt").first.click()
    assert page.is_visible("#keep-edit") and colour in page.inner_text("#selected-name")
    # ... and shown zoomed in, in the middle of the photo's frame.
    assert float(page.get_attribute("#photo-wrap", "data-scale")) >= 3
    frame, mark = page.locator("#photo-wrap").bounding_box(), page.locator("circle.piece.selected").bounding_box()
    assert abs(mark["x"] + mark["width"] / 2 - (frame["x"] + frame["width"] / 2)) < frame["width"] / 4
    assert abs(mark["y"] + mark["height"] / 2 - (frame["y"] + frame["height"] / 2)) < frame["height"] / 4
    assert page.is_checked("#selected-double") == (read_as == "double")
    page.click("#selected-double")
    page.wait_for_function("([c, v]) => document.querySelector(`.score-row[data-colour='${c}'] .score`)"
                           ".innerText === v", arg=[scored, otherwise], timeout=20_000)
    # That piece is settled by hand; the others are still to check, scored again on the corrected board.
    assert page.locator("li.doubt").count() == listed - 1
    assert doubt not in [d.inner_text() for d in page.locator("li.doubt").all()]


def test_a_long_list_of_warnings_is_shortened_and_a_warning_shows_its_pieces(browser, server):
    """A castle a metre from the card is misread in places and breaks dozens of rules: the page lists the
    first few and the rest on request; pointing at a warning between pieces lights those pieces up."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    _new_game_with_photo(page, server, ROOT / "tests" / "data" / "far-castle.jpg")
    total = page.locator("#warnings li.warning").count()
    assert total > 12
    # So many rules broken say the reading, not the castle, is wrong: said above the scores.
    assert page.locator("#trust").is_visible()
    assert page.locator("#trust").inner_text().startswith("Likely misread: the board read breaks the rules at")
    assert page.locator("#warnings li.warning:visible").count() == 8
    more = page.locator(".more-warnings")
    assert more.inner_text() == f"Show {total - 8} more"
    # The reading's notes all show, among them what to do about a castle so far from the card.
    assert page.locator("#warnings li.note:visible", has_text="1.0 m from the card").count() == 1
    named = page.locator("#warnings li.warning[data-pieces]").first
    named.hover()
    assert page.locator(".piece.hot").count() == len(named.get_attribute("data-pieces").split())
    more.click()
    assert page.locator("#warnings li.warning:visible").count() == total
    assert page.locator(".more-warnings").count() == 0
    page.close()


def test_keeps_read_with_hardly_a_tower_say_above_the_scores_that_the_castle_went_unseen(browser, server):
    """A reading of a tower or two beside keeps is a castle the photo hardly showed (its grey pieces of the table's
    own shade): the page says so above the scores, as for a reading likely misread. The game's state is the real
    one, its reading marked so (`Trust.castle_unseen`) on its way to the page reopened, as a photo the reader loses
    would be."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    _new_game_with_photo(page, server)
    assert page.locator("#trust").is_hidden()

    def castle_unseen(route):
        doc = route.fetch().json()
        doc["state"]["report"]["trust"].update(level="check", castle_unseen=True,
                                               sentence="check by eye: only 1 tower(s) read, yet 2 keep(s)")
        route.fulfill(json=doc)

    page.route(re.compile(r".*/api/games/[^/]+$"), castle_unseen)
    # The game's events would push the state as stored, racing the reopened page's own fetch: kept out.
    page.route(re.compile(r".*/api/games/[^/]+/events$"), lambda route: route.abort())
    page.reload()
    page.wait_for_selector("#trust", state="visible", timeout=30_000)
    assert page.locator("#trust").inner_text() == "Check by eye: only 1 tower(s) read, yet 2 keep(s)."
    page.close()


def test_an_early_castle_with_no_courtyard_yet_is_shown_as_such(browser, server):
    """Seven towers and no courtyard: the page says so (it used to stop rendering there)."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    _new_game_with_photo(page, server, ROOT / "tests" / "data" / "early-castle-grey-on-pale.jpg", "td.muted")
    assert page.locator("td.muted").inner_text() == "No courtyard enclosed yet."
    assert page.locator("circle.piece.tower").count() == 7
    assert page.locator("#warnings li").count() >= 1  # rendered past the courtyards (a note, or "None.")
    page.close()


def test_a_long_reading_shows_what_the_reader_is_trying(browser, server):
    """A photo without the card takes half a minute or more: the progress line names each step the reader
    takes (pushed over the page's events), then the scores appear."""
    page = browser.new_page()
    page.goto(server)
    page.click("#new-game")
    page.wait_for_load_state("load")
    page.set_input_files("#photo-input", str(ROOT / "tests" / "data" / "no-card-tilted-19.jpg"))
    page.wait_for_function("document.getElementById('progress-text').textContent.includes('no reference card')",
                           timeout=60_000)
    page.wait_for_selector(".score-row", timeout=120_000)
    assert page.is_hidden("#progress")
    page.close()
