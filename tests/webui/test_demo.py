"""The built-in demo: the rendered table video read by the shipped models, event for event."""

from __future__ import annotations

import itertools
import threading
import time
from types import SimpleNamespace

from engine.tiles import format_tiles
from webui.demo import READY_HAND, READY_ON, WIN, DemoSource, table_script


def _events(source: DemoSource) -> tuple[list[tuple[str, int, str]], int]:
    """The events in order, and how many had come when South's hand was first shown."""
    stop, out, shown = threading.Event(), [], -1
    for update in source.updates(stop):
        out += [(e["kind"], e["seat"], e["tiles"]) for e in update.events]
        if update.shown_hand == (READY_ON["seat"], READY_HAND) and shown < 0:
            shown = len(out)
        if out and out[-1][0] == "win":
            stop.set()
    return out, shown


def test_the_models_read_every_scripted_step_of_the_demo() -> None:
    """Every frame read (no drops): what the camera pipeline says is what the script played."""
    said, shown = _events(DemoSource(step_seconds=0.75, fps=8, realtime=False))
    kinds = {"kang": "secret"}
    want = [(kinds.get(s.kind, s.kind), int(s.seat), format_tiles(s.tiles)) for s in table_script()]
    assert said[:-1] == want
    assert said[-1] == ("win", WIN["seat"], WIN["tiles"])  # typed in: the camera cannot see the hand
    assert said[shown - 1] == (READY_ON["kind"], READY_ON["seat"], READY_ON["tiles"])  # ready once it let 9p go


def test_without_models_the_labels_stand_in_and_the_page_says_so(monkeypatch) -> None:  # noqa: ANN001
    import vision.pipeline

    def missing(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        raise ValueError("'models/detector.onnx': model file not found")

    monkeypatch.setattr(vision.pipeline, "default_reader", missing)
    source = DemoSource(step_seconds=0.75, fps=8, realtime=False, size=(960, 540))
    first = next(source.updates(threading.Event()))
    assert first.reset and "labels stand in" in first.status and "detector.onnx" in first.status


def test_a_slow_reader_slows_the_demo_down_instead_of_missing_its_steps() -> None:
    """A reader that takes three frames' time over each: the live demo drops one frame at a
    time, never more (a step of the demo lasts 12 frames; every third frame read missed a
    discard), and the video plays on at the reader's pace."""
    frames = SimpleNamespace(frame_count=30, frame=lambda i: SimpleNamespace(image=None, time=i / 50, index=i, labels=[]))
    source = DemoSource(fps=50, realtime=True, max_skip=1)
    read = []
    for _, _, index in source._frames(frames, threading.Event()):
        read.append(index)
        time.sleep(3 / 50)
    steps = [b - a for a, b in itertools.pairwise(read)]
    assert read[0] == 0 and read[-1] >= 28 and max(steps) <= 2 and 2 in steps
