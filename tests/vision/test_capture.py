"""Capture: never blocks, drops frames rather than lagging, survives a camera unplugged."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from vision.capture import Capture, CaptureError, parse_source


class FakeCamera:
    """Behaves like cv2.VideoCapture; ``plugged`` can be switched off and on by the test."""

    def __init__(self, state: dict) -> None:
        self.state = state
        self.opened = state["plugged"].is_set()

    def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
        return self.opened

    def read(self) -> tuple[bool, np.ndarray | None]:
        time.sleep(0.005)
        if not self.state["plugged"].is_set():
            return False, None
        self.state["n"] += 1
        return True, np.full((4, 4, 3), self.state["n"] % 255, np.uint8)

    def release(self) -> None:
        self.opened = False

    def get(self, prop: int) -> float:
        return 30.0


def fake(state: dict):  # noqa: ANN201
    return lambda source: FakeCamera(state)


def test_sources() -> None:
    assert parse_source(3) == 3 and parse_source("http://x/video") == "http://x/video"
    with pytest.raises(CaptureError, match="no such file"):
        parse_source("/nope/video.mp4")
    with pytest.raises(CaptureError, match="empty"):
        parse_source("  ")


def test_unplugged_camera_reconnects_and_says_so() -> None:
    state = {"plugged": threading.Event(), "n": 0}
    state["plugged"].set()
    said: list[str] = []
    with Capture(0, opener=fake(state), retry=0.02, max_retry=0.05, on_status=said.append) as cam:
        first = cam.wait(timeout=2)
        assert first is not None
        state["plugged"].clear()  # unplugged
        time.sleep(0.2)
        assert not cam.connected
        t0 = time.monotonic()
        assert cam.latest() is not None  # still answers at once with the last picture
        assert time.monotonic() - t0 < 0.05
        state["plugged"].set()  # plugged back
        later = cam.wait(after=cam.latest().index, timeout=2)
        assert later is not None and cam.connected and cam.reconnects == 1
    assert said[0] == "camera 0 connected"
    assert "camera 0 lost: reconnecting" in said and "camera 0 back" in said


def test_a_camera_that_never_comes_back_does_not_block() -> None:
    state = {"plugged": threading.Event(), "n": 0}  # never plugged
    with Capture(0, opener=fake(state), retry=0.01, max_retry=0.02) as cam:
        t0 = time.monotonic()
        assert cam.wait(timeout=0.2) is None
        assert time.monotonic() - t0 < 0.5
        assert cam.latest() is None


def test_slow_consumer_gets_the_newest_frame_and_drops_the_rest() -> None:
    state = {"plugged": threading.Event(), "n": 0}
    state["plugged"].set()
    with Capture(0, opener=fake(state)) as cam:
        f1 = cam.wait(timeout=2)
        assert f1 is not None
        cam.mark_taken(f1)
        time.sleep(0.2)  # a slow pipeline: ~40 frames arrive meanwhile
        f2 = cam.wait(after=f1.index, timeout=2)
        assert f2 is not None and f2.index - f1.index > 5
        assert cam.frames_dropped > 5


def test_video_file_plays_to_its_end(tmp_path) -> None:  # noqa: ANN001
    import cv2

    path = tmp_path / "clip.avi"
    out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 50, (64, 48))
    if not out.isOpened():
        pytest.skip("no video writer in this OpenCV build")
    for k in range(10):
        out.write(np.full((48, 64, 3), k * 20, np.uint8))
    out.release()
    seen = []
    with Capture(str(path), realtime=False) as cam:
        last = -1
        while True:
            f = cam.wait(after=last, timeout=2)
            if f is None:
                break
            seen.append(f.index)
            last = f.index
    assert cam.finished and seen and seen[-1] <= 9
    assert any("ended" in m for m in cam.messages)


class RaisingCamera(FakeCamera):
    """A driver that raises where another returns False: an unplugged device's read, its
    frame rate, and its opening while it is away."""

    def __init__(self, state: dict) -> None:
        if not state["plugged"].is_set():
            raise OSError("no such device")
        super().__init__(state)

    def read(self) -> tuple[bool, np.ndarray | None]:
        if not self.state["plugged"].is_set():
            raise RuntimeError("device disconnected")
        return super().read()

    def get(self, prop: int) -> float:
        raise RuntimeError("the driver does not know")


def test_a_driver_that_raises_and_a_listener_that_raises_do_not_stop_the_camera() -> None:
    state = {"plugged": threading.Event(), "n": 0}
    state["plugged"].set()
    heard: list[str] = []

    def listener(msg: str) -> None:
        heard.append(msg)
        raise ValueError("a page's bug")

    with Capture(0, opener=lambda source: RaisingCamera(state), retry=0.02, max_retry=0.05,
                 on_status=listener) as cam:
        first = cam.wait(timeout=2)
        assert first is not None and cam.fps == 0.0  # no frame rate from the driver: none assumed
        state["plugged"].clear()
        time.sleep(0.2)
        assert not cam.connected
        state["plugged"].set()
        later = cam.wait(after=cam.latest().index, timeout=2)
        assert later is not None and cam.connected and cam.reconnects == 1
    assert heard[0] == "camera 0 connected" and "camera 0 back" in heard
    assert cam.messages == heard  # each said once, the listener's errors swallowed
