"""Frames from any OpenCV source, on a thread that never blocks the pipeline.

``Capture`` reads a webcam index (``0`` or ``"0"``), a video file, or an RTSP/HTTP
URL. A background thread keeps only the newest frame (older ones are dropped, so
the pipeline never lags behind the camera); ``latest()`` returns at once. When the
camera is unplugged or the stream drops, the thread says so (``status``), keeps
trying to reopen it with a growing pause, and says so again when it is back: the
game held by the pipeline is untouched meanwhile.

>>> parse_source("0"), parse_source(" 2 "), parse_source("rtsp://cam/live")
(0, 2, 'rtsp://cam/live')
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

__all__ = ["Capture", "Frame", "parse_source", "CaptureError", "Opener"]


class CaptureError(ValueError):
    """A source that cannot be used at all (a file that does not exist, an empty name)."""


class _VideoLike(Protocol):
    def isOpened(self) -> bool: ...  # noqa: N802 - OpenCV's name

    def read(self) -> tuple[bool, Any]: ...

    def release(self) -> None: ...

    def get(self, prop: int) -> float: ...


Opener = Callable[[int | str], _VideoLike]


@dataclass(frozen=True)
class Frame:
    """One picture: BGR pixels, its number since the start, and when it was read."""

    image: np.ndarray
    index: int
    time: float  # time.monotonic() when it arrived


def parse_source(source: int | str) -> int | str:
    """A webcam index as an int; files and URLs as text. Raises ``CaptureError`` for nonsense."""
    if isinstance(source, int):
        return source
    text = str(source).strip()
    if not text:
        raise CaptureError("empty camera source: give an index (0), a file or a URL")
    if text.isdigit():
        return int(text)
    if "://" not in text and not Path(text).exists():
        raise CaptureError(f"camera source {text!r}: no such file (and not a URL or index)")
    return text


def _cv_open(source: int | str) -> _VideoLike:
    import cv2

    cap = cv2.VideoCapture(source)
    try:  # keep the driver's own queue short: we want the newest frame, not a backlog
        cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)
    except cv2.error:
        pass
    return cap


class Capture:
    """A source read on its own thread. Use as a context manager or call ``start``/``stop``.

    ``realtime`` paces a video file at its own frame rate (so it behaves like a
    camera); ``loop`` restarts a file at its end. ``on_status`` receives human
    sentences ("camera lost: reconnecting", "camera back").
    """

    def __init__(
        self,
        source: int | str,
        *,
        realtime: bool = True,
        loop: bool = False,
        retry: float = 0.5,
        max_retry: float = 5.0,
        on_status: Callable[[str], None] | None = None,
        opener: Opener | None = None,
    ) -> None:
        self.source = parse_source(source)
        self.realtime = realtime
        self.loop = loop
        self.retry = retry
        self.max_retry = max_retry
        self.on_status = on_status or (lambda msg: None)
        self._open = opener or _cv_open
        self._lock = threading.Lock()
        self._fresh = threading.Condition(self._lock)
        self._frame: Frame | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.connected = False
        self.finished = False  # a file that reached its end (without ``loop``)
        self.frames_read = 0
        self.frames_dropped = 0  # read but replaced before anyone took them
        self.reconnects = 0
        self.messages: list[str] = []
        self.fps = 0.0
        self._taken = -1

    # -- life cycle --------------------------------------------------------------------------
    def start(self) -> Capture:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name=f"capture-{self.source}", daemon=True)
            self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        with self._fresh:
            self._fresh.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> Capture:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- the pipeline's side ---------------------------------------------------------------------
    def latest(self, after: int = -1) -> Frame | None:
        """The newest frame if it is newer than ``after``; never waits."""
        with self._lock:
            f = self._frame
        return f if f is not None and f.index > after else None

    def wait(self, after: int = -1, timeout: float = 1.0) -> Frame | None:
        """The next frame newer than ``after``, waiting at most ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        with self._fresh:
            while not self._stop.is_set():
                f = self._frame
                if f is not None and f.index > after:
                    return f
                left = deadline - time.monotonic()
                if left <= 0 or self.finished:
                    return None
                self._fresh.wait(left)
        return None

    # -- the thread --------------------------------------------------------------------------------
    def _say(self, msg: str) -> None:
        self.messages.append(msg)
        try:
            self.on_status(msg)
        except Exception:  # noqa: BLE001 - a listener's bug must not kill the camera thread
            pass

    def _run(self) -> None:
        pause = self.retry
        ever = looped = False
        is_file = isinstance(self.source, str) and "://" not in self.source
        while not self._stop.is_set():
            cap = self._try_open()
            if cap is None:
                self._stop.wait(pause)
                pause = min(pause * 2, self.max_retry)
                continue
            pause = self.retry
            if ever and not looped:
                self.reconnects += 1
                self._say(f"camera {self.source!r} back")
            elif not ever:
                self._say(f"camera {self.source!r} connected")
            self.connected, ever = True, True
            ended = self._pump(cap)
            cap.release()
            self.connected = False
            looped = ended and is_file and self.loop
            if ended and is_file and not self.loop:
                self.finished = True
                self._say(f"video {self.source!r} ended")
                with self._fresh:
                    self._fresh.notify_all()
                return
            if not self._stop.is_set() and not looped:
                self._say(f"camera {self.source!r} lost: reconnecting")

    def _try_open(self) -> _VideoLike | None:
        try:
            cap = self._open(self.source)
        except Exception:  # noqa: BLE001 - drivers raise anything; we only retry
            return None
        if cap is None or not cap.isOpened():
            if cap is not None:
                cap.release()
            return None
        return cap

    def _pump(self, cap: _VideoLike) -> bool:
        """Read until the source fails; True when a file simply ended."""
        try:
            fps = float(cap.get(5))  # cv2.CAP_PROP_FPS
        except Exception:  # noqa: BLE001
            fps = 0.0
        self.fps = fps if 0 < fps < 240 else 0.0
        period = 1.0 / self.fps if (self.realtime and self.fps and isinstance(self.source, str)) else 0.0
        next_at = time.monotonic()
        while not self._stop.is_set():
            try:
                ok, image = cap.read()
            except Exception:  # noqa: BLE001 - an unplugged device can raise inside the driver
                ok, image = False, None
            if not ok or image is None or getattr(image, "size", 0) == 0:
                return self._at_end(cap)
            self._publish(image)
            if period:
                next_at += period
                delay = next_at - time.monotonic()
                if delay > 0:
                    self._stop.wait(delay)
                else:
                    next_at = time.monotonic()
        return False

    def _at_end(self, cap: _VideoLike) -> bool:
        return isinstance(self.source, str) and "://" not in self.source

    def _publish(self, image: np.ndarray) -> None:
        with self._fresh:
            if self._frame is not None and self._taken < self._frame.index:
                self.frames_dropped += 1  # nobody took the previous one: replaced, not queued
            self._frame = Frame(image, self.frames_read, time.monotonic())
            self.frames_read += 1
            self._fresh.notify_all()

    def mark_taken(self, frame: Frame) -> None:
        """Tell the capture a frame was used (for the dropped-frames count)."""
        self._taken = max(self._taken, frame.index)
