"""The one place the web UI talks to the camera pipeline (``vision.pipeline`` + ``vision.capture``).

:class:`CameraSource` reads any OpenCV source on ``vision.capture.Capture``'s thread
(it reconnects by itself and says so), runs each newest frame through
``vision.pipeline.LivePipeline`` (reader -> smoothing -> table regions -> events) and
turns the result into :class:`webui.live.LiveUpdate` objects for the hub. The hub calls
``new_hand`` when a table is set up or a hand ends: the pipeline starts the next hand afresh.
When the models are not installed yet, the picture alone is shown and the page says why.
:func:`pipeline_updates` is shared with the demo, which feeds rendered frames.

>>> from engine.tiles import Tile
>>> from vision.events import DiscardSeen, MeldSeen
>>> from engine.hand import MeldKind
>>> event_dict(DiscardSeen(Seat.SOUTH, 0.0, Tile.P3))
{'kind': 'discard', 'seat': 1, 'tiles': '3p'}
>>> event_dict(MeldSeen(Seat.WEST, 0.0, MeldKind.CONCEALED_KANG, (Tile.S7,) * 4))
{'kind': 'secret', 'seat': 2, 'tiles': '7777s'}
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from engine.seats import Seat
from engine.tiles import format_tiles
from webui.live import LiveTile, LiveUpdate

__all__ = ["CameraSource", "tiles_from_table", "event_dict", "pipeline_updates"]

_MELD_EVENT = {"chow": "chow", "pung": "pung", "kang": "kang", "concealed kang": "secret", "added kang": "sagasa",
               "beauty": "beauty", "news": "news"}


def tiles_from_table(reading: Any) -> tuple[LiveTile, ...]:
    """Boxes from a ``vision.readings.TableReading`` (``items()`` yields item, region, seat, group)."""
    out = []
    for item, region, seat, _group in reading.items():
        if region in ("wall", "other"):
            continue
        box = tuple(float(v) for v in item.box)
        out.append(LiveTile(str(item.tile), (box[0], box[1], box[2], box[3]), region,
                            None if seat is None else int(seat)))
    return tuple(out)


def event_dict(event: Any) -> dict[str, Any] | None:
    """A ``vision.events.TableEvent`` as ``TableBook.apply`` arguments; None for kinds it does not take."""
    kind = getattr(event, "kind", "")
    seat = int(event.seat)
    if kind in ("discard", "flower"):
        return {"kind": kind, "seat": seat, "tiles": str(event.tile)}
    meld = getattr(event, "meld", None)
    if meld is not None:
        name = _MELD_EVENT.get(getattr(meld, "value", str(meld)))
        if name:
            return {"kind": name, "seat": seat, "tiles": format_tiles(event.tiles)}
    return None


def pipeline_updates(pipe: Any, frames: Iterator[tuple[np.ndarray, float, int]], stop: threading.Event,
                     status: Callable[[], str] = lambda: "") -> Iterator[LiveUpdate]:
    """Run frames (image, time, index) through a ``LivePipeline``; one LiveUpdate per frame."""
    for image, t, index in frames:
        if stop.is_set():
            return
        update = pipe.process(image, t, index)
        events = tuple(e for e in (event_dict(x) for x in update.events) if e)
        yield LiveUpdate(image, tiles_from_table(update.reading), events, status=status())


class CameraSource:
    """A webcam index, video file or stream URL, read by the camera pipeline."""

    def __init__(self, camera: int | str, variant: str = "filipino", bottom: Seat = Seat.EAST,
                 calibration: str | None = None) -> None:
        self.camera = camera
        self.variant = variant
        self.bottom = bottom
        self.calibration = calibration  # a set taught with ``mahjongero calibrate``
        self.name = f"camera {camera}"
        self._dealer_asked: Seat | None = None  # set by new_hand (a page's thread), taken by the camera's
        self._asked_lock = threading.Lock()

    def new_hand(self, dealer: Seat) -> None:
        """A hand ended or a table was set up: before the next frame the pipeline forgets the
        tiles it tracked, that frame becomes the new hand's baseline, and ``dealer`` plays first."""
        with self._asked_lock:
            self._dealer_asked = dealer

    def _resetting(self, pipe: Any, frames: Iterator[tuple[np.ndarray, float, int]]
                   ) -> Iterator[tuple[np.ndarray, float, int]]:
        """``frames``, with the pipeline reset before the first one after ``new_hand``."""
        for frame in frames:
            with self._asked_lock:
                dealer, self._dealer_asked = self._dealer_asked, None
            if dealer is not None:
                pipe.reset(first=dealer, dealer=dealer)
            yield frame

    def updates(self, stop: threading.Event) -> Iterator[LiveUpdate]:
        from vision.capture import Capture

        messages: list[str] = []
        pipe, why = self._pipeline()
        with Capture(self.camera, loop=False, on_status=messages.append) as cam:
            if pipe is None:
                yield LiveUpdate(None, status=why)
            frames = self._frames(cam, stop)
            if pipe is None:
                for image, _, _ in frames:
                    yield LiveUpdate(image, status=messages.pop() if messages else "")
                return
            yield from pipeline_updates(pipe, self._resetting(pipe, frames), stop,
                                        lambda: messages.pop() if messages else "")

    def _pipeline(self) -> tuple[Any, str]:
        try:
            from vision.pipeline import LivePipeline
            from vision.regions import TableLayout

            pipe = LivePipeline(variant=self.variant, layout=TableLayout(bottom=self.bottom),
                                calibration=self.calibration)
            pipe.reader  # noqa: B018 - load the models now, so a missing model is said at once
        except (ImportError, ValueError) as exc:
            return None, f"the tile reader is not available ({exc}): showing the picture only"
        return pipe, ""

    @staticmethod
    def _frames(cam: Any, stop: threading.Event) -> Iterator[tuple[np.ndarray, float, int]]:
        last = -1
        while not stop.is_set():
            frame = cam.wait(after=last, timeout=0.5)
            if frame is None:
                if cam.finished:
                    return
                continue
            cam.mark_taken(frame)
            last = frame.index
            yield frame.image, frame.time, frame.index
