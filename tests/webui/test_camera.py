"""The camera adapter: a rendered table video with scripted events, through the real camera
pipeline (regions, smoothing, events) and the real referee, to the page's announcements."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from engine.seats import Seat
from webui.adapters.referee import RefereeBook
from webui.adapters.rules import Rules
from webui.adapters.tablebook import TableSetup
from webui.camera import CameraSource, event_dict, pipeline_updates
from webui.live import LiveHub

scripted = pytest.importorskip("vision.scripted")


def test_every_meld_the_camera_sees_reaches_the_referee_as_an_event() -> None:
    """Visayan Beauty and NEWS too (they were dropped: the referee never heard of them)."""
    from engine.hand import MeldKind
    from engine.tiles import parse_tiles
    from vision.events import MeldSeen

    sets = {MeldKind.CHOW: "345p", MeldKind.PUNG: "555p", MeldKind.KANG: "5555p", MeldKind.CONCEALED_KANG: "5555p",
            MeldKind.ADDED_KANG: "5555p", MeldKind.BEAUTY: "567z", MeldKind.NEWS: "1234z"}
    got = {kind: event_dict(MeldSeen(Seat.SOUTH, 1.0, kind, tuple(parse_tiles(tiles)))) for kind, tiles in sets.items()}
    assert {kind: (e or {}).get("kind") for kind, e in got.items()} == {
        MeldKind.CHOW: "chow", MeldKind.PUNG: "pung", MeldKind.KANG: "kang", MeldKind.CONCEALED_KANG: "secret",
        MeldKind.ADDED_KANG: "sagasa", MeldKind.BEAUTY: "beauty", MeldKind.NEWS: "news"}
    assert got[MeldKind.BEAUTY] == {"kind": "beauty", "seat": 1, "tiles": "567z"}


def test_scripted_table_video_reaches_the_announcements(tmp_path: Path) -> None:
    from vision.pipeline import LivePipeline
    from vision.regions import TableLayout

    table = scripted.ScriptedTable(scripted.ScriptedTable.demo_script()[:6], size=(960, 540), fps=4, hold=1.0,
                                   occlusion=0.0)
    labels: list[dict[str, Any]] = []
    pipe = LivePipeline(lambda image: scripted.labels_to_detections(labels), variant="filipino",
                        layout=TableLayout(bottom=Seat.EAST), first=Seat.EAST)

    def frames() -> Any:
        for f in table.frames():
            labels[:] = f.labels  # the perfect detector sees what the renderer drew
            yield f.image, f.time, f.index

    book = RefereeBook(str(tmp_path / "t.sqlite3"), Rules())
    book.new_table(TableSetup("filipino"))
    hub = LiveHub(None, book, Rules(), "filipino")
    q = hub.subscribe()
    seen_tiles = 0
    for update in pipeline_updates(pipe, frames(), threading.Event()):
        assert update.frame is not None
        seen_tiles = max(seen_tiles, len(update.tiles))  # steady tiles, outlined on the page
        hub.handle(update)
    said = []
    while not q.empty():
        said.append(str(q.get_nowait().get("text", "")))
    text = " | ".join(s for s in said if s)
    assert seen_tiles >= 4
    assert "East discards 9 characters" in text, text
    assert "South discards 1 dots" in text, text
    # East's flower right after North's discard: East drew it (implied), the referee takes it
    state = book.current()
    assert state is not None and [str(t) for t in state.seats[int(Seat.EAST)].flowers] == ["2f"], text
    assert "but:" not in text, text
    assert hub.jpeg() is not None and hub.jpeg()[:2] == b"\xff\xd8"


def test_camera_without_models_shows_the_picture_and_says_why(tmp_path: Path, monkeypatch: Any) -> None:
    video = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 10, (160, 120))
    for i in range(12):
        writer.write(np.full((120, 160, 3), 20 * i % 255, np.uint8))
    writer.release()
    monkeypatch.setattr(CameraSource, "_pipeline", lambda self: (None, "the tile reader is not available (test)"))
    stop = threading.Event()
    got = []
    for update in CameraSource(str(video)).updates(stop):
        got.append(update)
        if len(got) >= 4:
            stop.set()
    assert "not available" in got[0].status
    assert any(u.frame is not None and u.frame.shape == (120, 160, 3) for u in got)


def test_a_taught_set_that_cannot_load_leaves_the_picture_and_names_the_set() -> None:
    """The camera's pipeline, built for real: a set name no ``calibrate`` could have written
    is refused by name, and the page shows the picture without tiles."""
    pipe, why = CameraSource(0, calibration="../elsewhere")._pipeline()
    assert pipe is None and "'../elsewhere'" in why and why.endswith("showing the picture only")


def test_a_taught_set_reaches_the_camera_and_the_photos(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mahjongero.commands.serve import serve
    from vision.calibrate import CalibrationError
    from webui.services import Services, make_source

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert make_source("0", {"CALIBRATION": "mine"}).calibration == "mine"  # type: ignore[attr-defined]
    found = Services.from_config({"CALIBRATION": "mine", "DATABASE": str(tmp_path / "g.sqlite3"),
                                  "SOURCE": object()})
    assert found.reader.calibration == "mine"
    with pytest.raises(CalibrationError, match="no calibrated set 'nope'"):  # said before serving
        serve(camera="0", variant="filipino", port=8765, calibration="nope")


def test_a_video_file_read_by_the_shipped_models_gives_the_table_s_events(tmp_path: Path) -> None:
    """``mahjongero serve --camera FILE``: the camera source with its own pipeline and the
    shipped models, on a rendered 720p table where East, South and West discard."""
    table = scripted.ScriptedTable(scripted.ScriptedTable.demo_script()[:3], size=(1280, 720), fps=4, hold=1.0,
                                   occlusion=0.0)
    video = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), table.fps, table.size)
    for f in table.frames():
        writer.write(f.image)
    writer.release()
    got = list(CameraSource(str(video)).updates(threading.Event()))
    # the file is paced as a camera is: a machine too busy to keep up drops frames (each
    # discard lies 4 frames), as a live camera's would, and the events must come all the same
    assert table.frame_count // 2 <= len(got) <= table.frame_count and all(u.frame is not None for u in got)
    assert not any("not available" in u.status for u in got)
    assert max(len(u.tiles) for u in got) >= 100  # the walls, hands and pools in view
    assert [e for u in got for e in u.events] == [
        {"kind": "discard", "seat": 0, "tiles": "9m"}, {"kind": "discard", "seat": 1, "tiles": "1p"},
        {"kind": "discard", "seat": 2, "tiles": "4s"}]


class _CountingPipeline:
    def __init__(self) -> None:
        self.resets: list[tuple[Seat | None, Seat | None]] = []

    def reset(self, first: Seat | None = None, dealer: Seat | None = None) -> None:
        self.resets.append((first, dealer))


def test_a_new_hand_resets_the_camera_pipeline_before_its_next_frame() -> None:
    """Asked from a page's thread between two frames; the camera's thread resets once, with
    the latest dealer asked, before reading the next frame (never in the middle of one)."""
    camera, pipe = CameraSource(0), _CountingPipeline()
    image = np.zeros((4, 4, 3), np.uint8)
    frames = camera._resetting(pipe, iter([(image, k / 10, k) for k in range(4)]))
    assert next(frames)[2] == 0 and pipe.resets == []
    camera.new_hand(Seat.SOUTH)
    camera.new_hand(Seat.WEST)  # the hand that ended was undone and another win typed
    assert next(frames)[2] == 1 and pipe.resets == [(Seat.WEST, Seat.WEST)]
    assert [f[2] for f in frames] == [2, 3] and len(pipe.resets) == 1
