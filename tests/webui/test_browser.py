"""End to end in a real headless browser (Debian chromium driven by playwright).

Each test starts the real server on a free port, drives the pages like a person
would, and saves screenshots: into a temporary folder, so that ``make test`` leaves the
tree as it was; into ``docs/screenshots/`` (looked at by a person before release; the
README shows them) with ``make screenshots``, which sets ``MAHJONGERO_SCREENSHOTS``.
"""

from __future__ import annotations

import os
import re
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.webui.helpers import PipelineOracle, render_hand_scene
from webui import create_app
from webui.adapters.reader import PhotoReader

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"]
SHOTS = Path(os.environ.get("MAHJONGERO_SCREENSHOTS") or Path(tempfile.gettempdir()) / "mahjongero-screenshots")
READY = "11m345p678s78s [234m] [789p] / 3f4f1z2z4z"
# Doc 002's example hand as a rendered photo (turned tiles mark the called melds; two flowers).
READY_PHOTO = "11m345p678s78s / [234m]^0 [789p]^1 / 3f 4f"
WON_PHOTO = "11m345p678s789s / [234m]^0 [789p]^1 / 3f 4f"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian chromium is not installed"),
]
sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


class Server:
    """The real app behind a real HTTP server, in a thread; ``restart`` keeps the data folder."""

    def __init__(self, config: dict[str, Any]) -> None:
        self.config = config
        self.start()

    def start(self) -> None:
        from werkzeug.serving import make_server

        self.app = create_app(dict(self.config))
        self.http = make_server("127.0.0.1", 0, self.app, threaded=True)
        self.url = f"http://127.0.0.1:{self.http.server_port}"
        self.thread = threading.Thread(target=self.http.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.app.extensions["mahjongero"].live.stop()
        self.http.shutdown()
        self.http.server_close()

    def restart(self) -> None:
        self.stop()
        self.start()


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    servers: list[Server] = []

    def start(**extra: Any) -> Server:
        config = {"DATA_DIR": str(tmp_path), "SECRET_KEY": "browser-test", "LIVE_AUTOSTART": True, **extra}
        servers.append(Server(config))
        return servers[-1]

    yield start
    for s in servers:
        s.stop()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    yield pg
    context.close()
    assert not errors, errors  # no JavaScript errors on any page


def shot(pg: Any, name: str, full: bool = True) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    pg.screenshot(path=str(SHOTS / name), full_page=full)


def upload_photo(pg: Any, server: Server, reader: PipelineOracle, layout: str, tmp: Path, winner: str = "S") -> None:
    data, labels = render_hand_scene(layout)
    reader.add(data, labels)
    photo = tmp / "hand.png"
    photo.write_bytes(data)
    pg.goto(server.url + "/photo/")
    pg.set_input_files("#photo-input", str(photo))
    pg.select_option("select[name=winner]", winner)
    pg.click("button[type=submit].big")
    pg.wait_for_selector("#verdict")


def test_upload_a_rendered_hand_photo_and_see_its_waits(page: Any, serve: Any, tmp_path: Path) -> None:
    reader = PipelineOracle()
    server = serve(READER=PhotoReader(read_fn=reader))
    page.goto(server.url + "/photo/")
    shot(page, "photo-upload.png")
    upload_photo(page, server, reader, READY_PHOTO, tmp_path)
    assert "Ready! Waiting on" in page.inner_text("#verdict")
    codes = page.eval_on_selector_all("#waits .tile", "els => els.map(e => e.dataset.code)")
    assert codes == ["6s", "9s"]
    assert page.locator(".boxes rect").count() == 18  # every tile outlined on the photo
    shot(page, "photo-waits.png")


def test_correct_a_tile_and_see_the_score_change(page: Any, serve: Any, tmp_path: Path) -> None:
    reader = PipelineOracle()
    server = serve(READER=PhotoReader(read_fn=reader))
    upload_photo(page, server, reader, WON_PHOTO, tmp_path)
    assert page.inner_text("#score-value") == "$1.25"
    assert "+$5.00" in page.inner_text("#payments")
    shot(page, "photo-score.png")

    def correct(index: int, code: str) -> None:
        page.click(f"#hand-row a.tile[data-index='{index}']")
        page.wait_for_selector("#fix-dialog[open]")
        with page.expect_navigation():
            page.click(f"#fix-dialog button.pal[value='{code}']")

    correct(3, "3p")  # the person says: this 4 dots is really 3 dots ...
    correct(4, "3p")  # ... and so is this 5 dots: a pung of 3 dots, no longer all chows
    assert page.inner_text("#score-value") == "$1.00"
    assert re.search(r"South\s*\+\$4\.00", page.inner_text("#payments"))
    assert "333p" in page.inner_text("#hand-text")
    shot(page, "photo-corrected.png")


def test_run_the_demo_and_see_an_announcement_arrive(page: Any, serve: Any, browser: Any) -> None:
    """The demo as a newcomer sees it: the rendered table read by the shipped models."""
    server = serve(DEMO_STEP_SECONDS=1.5, DEMO_PAUSE_SECONDS=30)
    page.goto(server.url + "/live/")
    page.wait_for_selector("#announcements li.ann:has-text('discards')", timeout=15_000)
    page.wait_for_selector("#announcements li.ann.ready:has-text('waits on')", timeout=45_000)
    page.wait_for_selector("#announcements li.ann.win:has-text('wins')", timeout=20_000)
    page.wait_for_timeout(600)  # let the table panel refresh and a frame arrive
    text = page.inner_text("#announcements")
    assert "South is ready — waits on 3 bamboo (3s), 6 bamboo (6s), 9 bamboo (9s)" in text
    assert "secret" in text and "payments" in text
    assert "but:" not in text  # the referee refused nothing the camera saw
    assert page.eval_on_selector("#video", "img => img.naturalWidth") == 1920
    shot(page, "live.png", full=False)
    shot(page, "live-full.png")
    phone = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True)
    mobile = phone.new_page()
    mobile.goto(server.url + "/live/")
    mobile.wait_for_selector("#announcements li.ann", timeout=10_000)
    mobile.wait_for_timeout(800)
    shot(mobile, "live-phone.png", full=False)
    phone.close()


def test_restart_the_server_and_see_the_game_resume(page: Any, serve: Any) -> None:
    server = serve(SOURCE=_idle_source())
    page.goto(server.url + "/referee/")
    for seat, name in zip(["east", "south", "west", "north"], ["Lola Nena", "Tito Ben", "Ate Cris", "Kuya Dan"],
                          strict=True):
        page.fill(f"input[name=name_{seat}]", name)
    shot(page, "referee-setup.png")
    page.click("text=Start the game")

    def record(seat: str, kind: str, tiles: str = "", **win: str) -> None:
        page.check(f"input[name=seat][value={seat}]", force=True)
        page.select_option("#kind", kind)
        page.fill("#tiles", tiles)
        if "hand" in win:
            page.fill("input[name=hand]", win["hand"])
        with page.expect_navigation():
            page.click("text=Record it")

    record("E", "flower", "1f")
    record("E", "discard", "9s")
    record("S", "pung", "999s")
    record("S", "discard", "1p")
    record("W", "secret", "7777s")  # West's draw is implied; the secret pays at once
    log = page.inner_text(".event-log")
    assert "Tito Ben (South): pung of 9 bamboo" in log
    shot(page, "referee.png")

    server.restart()
    page.goto(server.url + "/referee/")
    assert page.inner_text(".event-log") == log  # the game resumes exactly
    assert "Kuya Dan" in page.inner_text("#table-panel")
    record("W", "win", "", hand="11m345p678m234s999p (7777s)")  # on the replacement tile
    assert "Ate Cris (West) wins" in page.inner_text(".event-log")
    page.goto(server.url + "/ledger/")
    evening = page.inner_text("#evening")
    assert "Ate Cris" in evening and "Kuya Dan" in evening
    shot(page, "ledger.png")


def test_home_and_the_label_toggle(page: Any, serve: Any) -> None:
    server = serve(SOURCE=_idle_source())
    page.goto(server.url + "/")
    shot(page, "home.png")
    page.goto(server.url + "/photo/")
    page.fill("input[name=hand]", READY)
    page.click("button[type=submit].big")
    page.wait_for_selector("#waits")
    first = page.locator("#hand-row a.tile").first
    assert first.locator(".cap-ar").is_visible() and not first.locator(".cap-zh").is_visible()
    page.click("button[data-labels=zh]")
    assert first.locator(".cap-zh").inner_text() == "一萬" and not first.locator(".cap-ar").is_visible()
    shot(page, "photo-chinese-labels.png")
    page.reload()  # remembered on this device
    assert "labels-zh" in page.get_attribute("body", "class")
    page.click("button[data-labels=en]")
    assert first.locator(".cap-en").inner_text() == "1 characters"


def _idle_source() -> Any:
    from tests.webui.helpers import ScriptedSource

    return ScriptedSource([], interval=0.2)
