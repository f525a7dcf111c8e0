"""The built-in demo: the rendered table video read by the shipped models, event for event."""

from __future__ import annotations

import threading

from engine.tiles import format_tiles
from webui.demo import WIN, DemoSource, table_script


def _events(source: DemoSource) -> list[tuple[str, int, str]]:
    stop, out = threading.Event(), []
    for update in source.updates(stop):
        out += [(e["kind"], e["seat"], e["tiles"]) for e in update.events]
        if out and out[-1][0] == "win":
            stop.set()
    return out


def test_the_models_read_every_scripted_step_of_the_demo() -> None:
    """Every frame read (no drops): what the camera pipeline says is what the script played."""
    said = _events(DemoSource(step_seconds=0.75, fps=8, realtime=False))
    kinds = {"kang": "secret"}
    want = [(kinds.get(s.kind, s.kind), int(s.seat), format_tiles(s.tiles)) for s in table_script()]
    assert said[:-1] == want
    assert said[-1] == ("win", WIN["seat"], WIN["tiles"])  # typed in: the camera cannot see the hand


def test_without_models_the_labels_stand_in_and_the_page_says_so(monkeypatch) -> None:  # noqa: ANN001
    import vision.pipeline

    def missing(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        raise ValueError("'models/detector.onnx': model file not found")

    monkeypatch.setattr(vision.pipeline, "default_reader", missing)
    source = DemoSource(step_seconds=0.75, fps=8, realtime=False, size=(960, 540))
    first = next(source.updates(threading.Event()))
    assert first.reset and "labels stand in" in first.status and "detector.onnx" in first.status
