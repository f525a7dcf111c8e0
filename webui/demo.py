"""The built-in demo: a rendered table video of a scripted Filipino hand, read by the camera pipeline.

With no camera attached, ``make run`` shows this, so a newcomer sees the whole thing
work in the first minute. The renderer's 3-D table (``vision.scripted.ScriptedTable``)
plays in real time as a camera would deliver it (a frame that comes while the last one is
still being read is dropped, hands pass over the table), and everything the page shows of
the table comes out of the pipeline a webcam feeds: the shipped models find and name the
tiles, then smoothing, regions and events, to the referee. East's flower, the discards all
round, West's pung, East's chow, South's secret kang with its instant payout, South's
flower.

What a camera over the table cannot see is typed in, as a person would on the Referee
page: South's hand once it is ready (its waits are announced), and South's winning hand
at the end (the payments are announced). Then the game starts over.

Without the models (a build without ``models/``) the renderer's own labels stand in for
the reader, and the page says so.

>>> src = DemoSource(step_seconds=1.0, fps=8, realtime=False, reader="labels", size=(640, 360))
>>> stop = threading.Event(); ups = []
>>> for u in src.updates(stop):
...     ups.append(u)
...     if u.events and u.events[-1]["kind"] == "win": stop.set()
>>> ups[0].reset, ups[1].frame.shape
(True, (360, 640, 3))
>>> kinds = [e["kind"] for u in ups for e in u.events]
>>> kinds[:2], kinds.count("discard"), "secret" in kinds, kinds[-1]
(['discard', 'discard'], 12, True, 'win')
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import numpy as np

from engine.seats import Seat
from engine.tiles import parse_tiles
from webui.camera import pipeline_updates
from webui.live import LiveUpdate

__all__ = ["DemoSource", "table_script", "READY_ON", "READY_HAND", "WIN"]

# South shows its hand once the camera has seen its discard of 9p (it is ready then), and wins
# by self-draw after East's last discard.
READY_ON = {"kind": "discard", "seat": int(Seat.SOUTH), "tiles": "9p"}
READY_HAND = "456m123p456s78s99s (3333m) / 6f"  # waits on 3s, 6s, 9s
WIN = {"kind": "win", "seat": int(Seat.SOUTH), "tiles": "9s", "hand": "456m123p456s789s99s (3333m) / 6f",
       "self_drawn": True, "source": "hand"}


def table_script() -> list[Any]:
    """What the camera sees: the renderer's demo game, then East's discard before South wins."""
    from vision.scripted import ScriptedTable, Step

    return [*ScriptedTable.demo_script(), Step("discard", Seat.EAST, tuple(parse_tiles("4p")))]


class DemoSource:
    """Plays the demo game forever, one scripted step every ``step_seconds``, at ``fps``.

    ``reader``: "models" (the shipped ONNX models, the default; the renderer's labels when
    they are missing) or "labels" (the renderer's labels: a perfect reader, for tests).
    ``realtime=False`` reads every frame as fast as it can (tests); a live demo drops the
    frames that come while one is being read, as a camera does, but never more than
    ``max_skip`` in a row: on a slow machine the video slows down instead. Read by the
    renderer's labels, every other frame of the demo gives every event and every third
    loses a discard, and the referee then refused the next one ("but:" on the page).
    """

    name = "built-in demo (no camera attached)"
    variant = "filipino"

    def __init__(self, step_seconds: float = 2.5, fps: float = 8.0, pause_after_win: float = 8.0,
                 reader: str = "models", realtime: bool = True, size: tuple[int, int] = (1920, 1080),
                 max_skip: int = 1) -> None:
        self.step_seconds = step_seconds
        self.max_skip = max_skip
        self.fps = fps
        self.pause_after_win = pause_after_win
        self.reader = reader
        self.realtime = realtime
        self.size = size
        self._labels: list[dict[str, Any]] = []  # the frame being read, for the labels reader

    def updates(self, stop: threading.Event) -> Iterator[LiveUpdate]:
        from vision.pipeline import LivePipeline
        from vision.regions import TableLayout
        from vision.scripted import ScriptedTable

        table = ScriptedTable(table_script(), size=self.size, fps=self.fps, hold=self.step_seconds, occlusion=0.3)
        read, status = self._read()
        pipe = LivePipeline(read, variant=self.variant, layout=TableLayout(Seat.EAST), first=Seat.EAST)
        while not stop.is_set():
            pipe.reset(first=Seat.EAST)
            yield LiveUpdate(None, reset=True, status=status)
            yield from self._one_game(table, pipe, stop)

    def _read(self) -> tuple[Callable[[np.ndarray], Any], str]:
        """The reader, and what the page should say about it."""
        from vision.scripted import labels_to_detections

        def labels(image: np.ndarray) -> Any:
            return labels_to_detections(self._labels)

        if self.reader == "labels":
            return labels, ""
        try:
            from vision.pipeline import default_reader

            return default_reader(live=True), ""
        except (ImportError, ValueError) as exc:
            return labels, f"demo: the tile reader is not available ({exc}), so the renderer's labels stand in"

    def _one_game(self, table: Any, pipe: Any, stop: threading.Event) -> Iterator[LiveUpdate]:
        ready = False
        for update in pipeline_updates(pipe, self._frames(table, stop), stop):
            ready = ready or READY_ON in update.events
            yield replace(update, shown_hand=(int(Seat.SOUTH), READY_HAND) if ready else None)
        if stop.is_set():
            return
        yield LiveUpdate(None, events=(dict(WIN),), shown_hand=None)  # typed in by a person
        end = time.monotonic() + (self.pause_after_win if self.realtime else 0.0)
        while time.monotonic() < end and not stop.is_set():
            time.sleep(min(0.25, max(0.0, end - time.monotonic())))

    def _frames(self, table: Any, stop: threading.Event) -> Iterator[tuple[np.ndarray, float, int]]:
        """The video's frames (image, time, index); in real time, only the newest each time one
        is asked for, up to ``max_skip`` past the last. The labels reader is told each frame's
        labels."""
        start, last = time.monotonic(), -1
        while not stop.is_set():
            i = last + 1
            if self.realtime:
                due = start + i / self.fps
                time.sleep(max(0.0, due - time.monotonic()))
                newest = int((time.monotonic() - start) * self.fps)  # frames missed meanwhile
                i = max(i, min(newest, last + 1 + self.max_skip))
                if newest > i:  # the reader is slower than dropping can make up for: play on from here
                    start = time.monotonic() - i / self.fps
            if i >= table.frame_count:
                return
            last = i
            frame = table.frame(i)
            self._labels = frame.labels
            yield frame.image, frame.time, frame.index
