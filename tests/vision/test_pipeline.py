"""The pipeline's entry points: a hand photo, and live video through a capture that fails."""

from __future__ import annotations

import threading
import time

import cv2
import numpy as np
import pytest

from engine.seats import Seat
from engine.tiles import parse_tiles
from vision.capture import Capture
from vision.detections import Detections
from vision.pipeline import LivePipeline, annotate, read_hand_photo
from vision.regions import NoTilesError, TableLayout
from vision.scripted import HandLayout, hand_photo, labels_to_detections


@pytest.fixture(scope="module")
def photo(tmp_path_factory) -> tuple:  # noqa: ANN001
    lay = HandLayout.parse("123m456p789s1z1z1z5z / [777s]^1 / 2f 7f")
    image, labels = hand_photo(lay, size=(960, 720), roll=6)
    path = tmp_path_factory.mktemp("photo") / "hand.png"
    cv2.imwrite(str(path), image)
    return path, image, labels


def test_read_hand_photo_from_a_file(photo) -> None:  # noqa: ANN001
    path, image, labels = photo
    reading = read_hand_photo(path, "visayan", reader=lambda im: labels_to_detections(labels))
    hand = reading.to_hand()
    assert hand.concealed == tuple(parse_tiles("123m456p789s1z1z1z5z"))
    assert str(hand) == "123m456p789s1115z [777s] / 27f"
    assert not reading.doubtful
    out = annotate(image, reading)
    assert out.shape == image.shape and not np.array_equal(out, image)


def test_filipino_honours_are_flowers_only_outside_the_row(photo) -> None:  # noqa: ANN001
    path, _, labels = photo
    reading = read_hand_photo(path, "filipino", reader=lambda im: labels_to_detections(labels))
    # in Filipino every honour is a flower: in the row they stay (the person sees them
    # flagged by the ruleset), nothing is silently moved or dropped
    assert len(reading.concealed) == 13 and len(reading.flowers) == 2


def test_photo_with_no_tiles_names_the_file(tmp_path) -> None:  # noqa: ANN001
    blank = tmp_path / "felt.png"
    cv2.imwrite(str(blank), np.full((200, 300, 3), (40, 120, 60), np.uint8))
    with pytest.raises(NoTilesError, match="felt.png"):
        read_hand_photo(blank, "filipino", reader=lambda im: Detections.empty())


def test_not_an_image(tmp_path) -> None:  # noqa: ANN001
    bad = tmp_path / "notes.png"
    bad.write_text("hello")
    with pytest.raises(ValueError, match="notes.png"):
        read_hand_photo(bad, "filipino", reader=lambda im: Detections.empty())


class ScriptedCamera:
    """A camera showing the scripted table's frames; it is unplugged for a while mid-game."""

    def __init__(self, video, unplug: tuple[int, int]) -> None:  # noqa: ANN001
        self.frames = list(video.frames())
        self.unplug = unplug
        self.k = 0
        self.opened = True
        self.capture: Capture | None = None

    def __call__(self, source):  # noqa: ANN001, ANN204 - the opener
        self.opened = not (self.unplug[0] <= self.k < self.unplug[1])
        if not self.opened:
            self.k += 1  # time passes, the game goes on, while the camera is away
        return self

    def isOpened(self) -> bool:  # noqa: N802
        return self.opened

    def read(self):  # noqa: ANN201
        # a camera no faster than the pipeline (so the test does not depend on this machine's
        # speed): the next picture comes once the previous one was taken
        deadline = time.monotonic() + 2.0
        while self.capture is not None and self.capture._taken < self.capture.frames_read - 1 \
                and time.monotonic() < deadline:
            time.sleep(0.001)
        if self.k >= len(self.frames):
            return False, None
        if self.unplug[0] <= self.k < self.unplug[1]:
            self.k += 1  # the game goes on while the camera is away
            return False, None
        f = self.frames[self.k]
        self.k += 1
        return True, f.image

    def release(self) -> None:
        pass

    def get(self, prop: int) -> float:
        return 8.0


def test_live_pipeline_survives_an_unplugged_camera(table_video) -> None:  # noqa: ANN001
    cam = ScriptedCamera(table_video, unplug=(30, 38))
    by_image = {id(f.image): f.labels for f in cam.frames}
    pipe = LivePipeline(lambda image: labels_to_detections(by_image[id(image)]), variant="filipino",
                        layout=TableLayout(Seat.EAST), first=Seat.EAST)
    said: list[str] = []
    updates = []
    capture = Capture(0, opener=cam, retry=0.01, max_retry=0.02, on_status=said.append)
    cam.capture = capture
    stop = threading.Event()

    def watchdog() -> None:  # the camera has shown everything: stop the loop
        deadline = time.monotonic() + 120
        while cam.k < len(cam.frames) and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.3)
        stop.set()

    with capture:
        threading.Thread(target=watchdog, daemon=True).start()
        pipe.run(capture, updates.append, stop=stop)
    assert "camera 0 lost: reconnecting" in said and "camera 0 back" in said
    events = [e for u in updates for e in u.events]
    # the steps shown while the camera was away are missed; the others all come out
    away = {k for k in range(len(table_video.script)) if 30 <= table_video.step_time(k) * table_video.fps < 38 + 3}
    assert len(events) >= len(table_video.script) - len(away) - 1
    assert pipe.events.turn is not None  # the game state survived


def test_black_frames_make_no_events() -> None:
    pipe = LivePipeline(lambda image: Detections.empty(), layout=TableLayout(Seat.EAST))
    for k in range(5):
        update = pipe.process(np.zeros((540, 960, 3), np.uint8), t=k / 10)
        assert update.events == [] and update.reading.wall_length == 0
    assert update.as_json()["tiles"] == []
