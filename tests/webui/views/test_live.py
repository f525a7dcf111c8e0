"""Live page: SSE announcements from a (fake) camera, MJPEG frames, the table panel."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from flask import Flask

from engine.seats import Seat
from engine.tiles import Tile
from tests.webui.conftest import token_of
from tests.webui.helpers import ScriptedSource
from webui import create_app
from webui.adapters.tablebook import Deal, TableSetup
from webui.live import LiveTile, LiveUpdate


def sse_messages(resp: Any, until: Any, seconds: float = 10.0) -> list[dict[str, Any]]:
    """Read the event stream until ``until(messages)`` holds (keep-alives keep it ticking)."""
    out: list[dict[str, Any]] = []
    buffer = ""
    deadline = time.monotonic() + seconds
    for chunk in resp.response:
        buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
        while "\n\n" in buffer:
            block, buffer = buffer.split("\n\n", 1)
            data = [line[6:] for line in block.splitlines() if line.startswith("data: ")]
            if data:
                out.append(json.loads(data[0]))
        if until(out) or time.monotonic() > deadline:
            break
    resp.close()
    return out


def live_app(config: dict[str, Any], updates: list[LiveUpdate]) -> Flask:
    return create_app({**config, "SOURCE": ScriptedSource(updates), "LIVE_AUTOSTART": True, "SSE_HEARTBEAT": 0.1})


def idle_app(config: dict[str, Any], source: Any = None) -> Flask:
    """The app with its live hub not started (``source``: none that gives anything)."""
    return create_app({**config, "SOURCE": source or ScriptedSource([]), "LIVE_AUTOSTART": False})


def drain(q: Any) -> list[dict[str, Any]]:
    """Every message waiting in a page's queue, oldest first."""
    out = []
    while not q.empty():
        out.append(q.get_nowait())
    return out


def test_camera_events_are_announced_over_sse(config: dict[str, Any]) -> None:
    updates = [
        LiveUpdate(None, reset=True),
        LiveUpdate(None, (LiveTile("9s", (0, 0, 10, 10), "discard"),), events=({"kind": "discard", "seat": 0,
                                                                                "tiles": "9s"},)),
        LiveUpdate(None, events=({"kind": "pung", "seat": 2, "tiles": "999s"},)),
        LiveUpdate(None, shown_hand=(1, "11m345p678s78s [234m] [789p] / 3f4f1z2z4z")),
        LiveUpdate(None, events=({"kind": "pung", "seat": 3, "tiles": "999s"},)),  # a 7th 9s: refused
    ]
    app = live_app(config, updates)
    client = app.test_client()
    resp = client.get("/live/stream")
    assert resp.mimetype == "text/event-stream"
    messages = sse_messages(resp, lambda ms: any(m.get("level") == "warning" for m in ms))
    texts = [m["text"] for m in messages if m["type"] == "announce"]
    app.extensions["mahjongero"].live.stop()
    assert "East discards 9 bamboo" in texts
    assert "West: pung of 9 bamboo" in texts
    assert any(m["type"] == "table" for m in messages)
    assert "South is ready — waits on 6 bamboo (6s), 9 bamboo (9s)" in texts
    assert any(t.startswith("The camera saw a pung by North, but: N pung") for t in texts), texts


def test_an_event_is_published_as_soon_as_it_is_handled(config: dict[str, Any]) -> None:
    app = idle_app(config)
    hub = app.extensions["mahjongero"].live
    hub.book.new_table(TableSetup("filipino"))
    q = hub.subscribe()
    hub.handle(LiveUpdate(None, events=({"kind": "discard", "seat": 0, "tiles": "3p"},)))
    said = drain(q)  # published synchronously, before handle() returns: no polling delay
    assert said[-2]["text"] == "East discards 3 dots"
    assert said[-1]["type"] == "table"



def test_video_is_mjpeg_and_frame_is_a_jpeg(config: dict[str, Any]) -> None:
    app = live_app(config, [LiveUpdate(None, reset=True)])
    client = app.test_client()
    resp = client.get("/live/video.mjpg?limit=2")
    body = b"".join(resp.response)
    assert resp.mimetype.startswith("multipart/x-mixed-replace")
    assert body.count(b"Content-Type: image/jpeg") == 2 and b"\xff\xd8" in body
    frame = client.get("/live/frame.jpg")
    assert frame.status_code == 200 and frame.data[:2] == b"\xff\xd8"
    app.extensions["mahjongero"].live.stop()


def test_live_page_and_panel(config: dict[str, Any]) -> None:
    app = live_app(config, [LiveUpdate(None, reset=True),
                            LiveUpdate(None, events=({"kind": "flower", "seat": 0, "tiles": "1f"},))])
    client = app.test_client()
    page = client.get("/live/").get_data(as_text=True)
    assert 'id="announcements"' in page and "/live/video.mjpg" in page
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline and 'data-code="1f"' not in client.get("/live/panel").get_data(as_text=True):
        time.sleep(0.05)
    assert 'data-code="1f"' in client.get("/live/panel").get_data(as_text=True)
    app.extensions["mahjongero"].live.stop()


def test_no_frame_yet_is_503(config: dict[str, Any]) -> None:
    assert idle_app(config).test_client().get("/live/frame.jpg").status_code == 503


class _BrokenCamera:
    """A source that gives one frame's events, then fails as an unplugged camera does."""

    name = "broken test camera"

    def updates(self, stop: Any) -> Any:
        yield LiveUpdate(None, events=({"kind": "discard", "seat": 0, "tiles": "3p"},))
        raise OSError("the camera was unplugged")


def test_a_camera_that_fails_says_so_and_keeps_the_game(config: dict[str, Any]) -> None:
    app = idle_app(config, _BrokenCamera())
    hub = app.extensions["mahjongero"].live
    hub.book.new_table(TableSetup("filipino"))
    q = hub.subscribe()
    hub.start()
    deadline = time.monotonic() + 10
    while hub.running and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not hub.running and hub.status == "camera stopped: the camera was unplugged"
    said = [(m["text"], m["level"]) for m in drain(q) if m["type"] == "announce"]
    assert said[-1] == ("The camera stopped (the camera was unplugged). The game is saved.", "warning")
    assert ("East discards 3 dots", "info") in said
    state = hub.book.current()
    assert state is not None and state.seats[0].discards == [Tile.P3]  # what it saw before it failed
    assert app.test_client().get("/live/").status_code == 200  # the pages stay up


def test_a_new_camera_status_is_announced_once(config: dict[str, Any]) -> None:
    hub = idle_app(config).extensions["mahjongero"].live
    q = hub.subscribe()
    for _ in range(3):
        hub.handle(LiveUpdate(None, status="the camera is covered"))
    said = drain(q)
    assert [(m["text"], m["level"]) for m in said] == [("the camera is covered", "warning")]
    assert hub.status == "the camera is covered"


def test_a_page_that_stopped_reading_does_not_hold_up_the_others(config: dict[str, Any]) -> None:
    hub = idle_app(config).extensions["mahjongero"].live
    stalled, reading = hub.subscribe(), hub.subscribe()
    for k in range(stalled.maxsize + 5):
        hub.announce(f"news {k}")
        reading.get_nowait()  # this page keeps up
    assert stalled.full() and reading.empty()
    hub.unsubscribe(stalled)
    hub.announce("after")
    assert reading.get_nowait()["text"] == "after"


class _WatchingCamera:
    """A camera source that gives nothing, and notes each new hand the hub tells it of."""

    name = "watching test camera"

    def __init__(self) -> None:
        self.hands: list[Seat] = []

    def updates(self, stop: Any) -> Any:
        return iter(())

    def new_hand(self, dealer: Seat) -> None:
        self.hands.append(dealer)


@pytest.mark.parametrize("backend", ["referee", "tablebook"])
def test_the_camera_starts_each_hand_afresh_and_knows_who_deals(config: dict[str, Any], backend: str) -> None:
    """The camera's tracker held the last hand's tiles and ran its turn order on from the last
    hand's last discard. Now a table set up, and a hand ended, start its watch afresh with the
    dealer, whether the win came from a page or the camera; play and undo do not."""
    camera = _WatchingCamera()
    app = create_app({**config, "SOURCE": camera, "LIVE_AUTOSTART": False, "REFEREE_BACKEND": backend})
    client = app.test_client()
    token = token_of(client)
    hub = app.extensions["mahjongero"].live
    hub.start()

    def post(path: str, **form: str) -> None:
        assert client.post(path, data={"csrf_token": token, **form}).status_code == 302

    post("/referee/new", variant="filipino", dealer="E", round="E")
    post("/referee/event", kind="discard", seat="E", tiles="9m")
    assert camera.hands == [Seat.EAST]
    post("/referee/event", kind="win", seat="S", hand="11m345p678s789s234m789p", how="self")
    assert camera.hands == [Seat.EAST, Seat.SOUTH]  # South won East's deal: South deals next
    state = hub.book.current()  # what the hub asks, as the pages' table says it
    assert hub.book.deal() == Deal(state.table_id, state.hand_no, state.dealer, Seat.SOUTH)
    post("/referee/undo")
    assert camera.hands == [Seat.EAST, Seat.SOUTH]
    hub.handle(LiveUpdate(None, events=({"kind": "win", "seat": 1, "tiles": "", "source": "hand",
                                         "hand": "11m345p678s789s234m789p", "self_drawn": True},)))
    post("/referee/event", kind="discard", seat="S", tiles="1m")
    assert camera.hands == [Seat.EAST, Seat.SOUTH, Seat.SOUTH]
    post("/referee/new", variant="filipino", dealer="W", round="E")
    assert camera.hands == [Seat.EAST, Seat.SOUTH, Seat.SOUTH, Seat.WEST]
    hub.stop()
