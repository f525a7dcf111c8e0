"""The pipeline's entry points: a hand photo, and live video through a capture that fails."""

from __future__ import annotations

import threading
import time

import cv2
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.seats import Seat
from engine.tiles import Tile, parse_tiles
from vision.capture import Capture
from vision.detections import Detections
from vision.pipeline import CloserLook, LevelledBoxes, LivePipeline, annotate, read_hand_photo
from vision.regions import HandRegions, NoTilesError, TableLayout
from vision.scripted import HandLayout, hand_photo, labels_to_detections
from vision.upright import Upright, boxes_levelled, boxes_through, rotated


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


@pytest.mark.parametrize("degrees", [None, 0.0, 90.0])
def test_a_hand_photo_shaken_along_a_line_is_said_to_look_shaken(photo, degrees: float | None) -> None:  # noqa: ANN001
    from vision.deblur import line_blur
    from vision.reader import TileReader

    _, image, _ = photo
    shaken = image if degrees is None else line_blur(image, 5, degrees)
    reading = read_hand_photo(shaken, "visayan", reader=TileReader())
    assert reading.shaken == (degrees is not None)
    assert str(reading.to_hand()) == "123m456p789s1115z [777s] / 27f"  # read right all the same


def test_a_reader_that_cannot_judge_says_no_photo_looks_shaken(photo) -> None:  # noqa: ANN001
    from vision.deblur import line_blur

    _, image, labels = photo
    assert not read_hand_photo(line_blur(image, 5), "visayan", reader=lambda im: labels_to_detections(labels)).shaken


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



@pytest.mark.parametrize("shape", [(200, 300), (0, 300, 3), (200, 0, 3)])
def test_an_array_that_is_no_colour_picture_is_refused_by_its_shape(shape: tuple[int, ...]) -> None:
    with pytest.raises(ValueError, match=rf"not a colour image: array of shape \({shape[0]}, {shape[1]}"):
        read_hand_photo(np.zeros(shape, np.uint8), "filipino", reader=lambda im: Detections.empty())


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


def test_each_hand_starts_with_a_live_reader_that_forgot_the_last() -> None:
    """A live reader keeps each tile's reads from frame to frame; a pipeline (one hand) and
    its ``reset`` (the next hand) make it forget them (``VideoReader.forget``)."""
    class Forgetful:
        forgot = 0

        def __call__(self, image: np.ndarray) -> Detections:
            return Detections.empty()

        def forget(self) -> None:
            self.forgot += 1

    reader = Forgetful()
    pipe = LivePipeline(reader, layout=TableLayout(Seat.EAST))
    pipe.process(np.zeros((54, 96, 3), np.uint8), t=0.0)
    assert reader.forgot == 1
    pipe.reset(first=Seat.SOUTH)
    assert reader.forgot == 2
    LivePipeline(lambda image: Detections.empty()).reset()  # a reader with nothing to forget


def _small_tile_finder(calls: list[tuple[int, int]]):  # noqa: ANN202 - a reader
    """A stand-in detector with a 480-px input: it finds white rectangles 8 px wide or more
    at its input, grey ones (tiles hard to see) only from 16 px (every one a 1m)."""
    def read(image: np.ndarray) -> Detections:
        calls.append(image.shape[:2])
        scale = 480 / max(image.shape[:2])
        boxes = []
        for level, least in ((255, 8), (128, 16)):
            _, _, stats, _ = cv2.connectedComponentsWithStats((image[..., 0] == level).astype(np.uint8))
            boxes += [(x, y, x + w, y + h) for x, y, w, h, _ in stats[1:] if min(w, h) * scale >= least]
        found = Detections(np.array(boxes, np.float32).reshape(-1, 4), np.full(len(boxes), 0.9), np.ones(len(boxes), bool))
        return found.with_codes(np.full(len(found), int(Tile.M1)), np.full(len(found), 0.9))
    return read


def test_a_hand_photographed_from_afar_is_looked_at_again_closer() -> None:
    # 13 tiles 44 px wide in a 1920x1440 photo: 11 px at the detector's input, where every
    # other one (grey) is missed; cut out around the hand they are 27 px, and found
    image = np.zeros((1440, 1920, 3), np.uint8)
    drawn = [(600 + 46 * k, 700, 644 + 46 * k, 760) for k in range(13)]
    for k, (x1, y1, x2, y2) in enumerate(drawn):
        image[y1:y2, x1:x2] = 255 if k % 2 == 0 else 128
    calls: list[tuple[int, int]] = []
    reading = read_hand_photo(image, "filipino", reader=_small_tile_finder(calls))
    assert [i.box for i in reading.concealed] == [tuple(map(float, b)) for b in drawn]  # in the photo's pixels
    assert len(calls) == 2 and max(calls[1]) < 0.5 * 1920  # the part around the hand, not the photo again
    first = HandRegions()(_small_tile_finder([])(image), (1920, 1440))
    assert len(first.concealed) == 7 and CloserLook().window(first) is not None


def test_a_hand_photographed_close_is_read_once() -> None:
    image = np.zeros((720, 960, 3), np.uint8)
    for k in range(13):
        image[300:380, 100 + 58 * k:156 + 58 * k] = 255
    calls: list[tuple[int, int]] = []
    assert len(read_hand_photo(image, "filipino", reader=_small_tile_finder(calls)).concealed) == 13
    assert len(calls) == 1


def test_a_photo_is_read_with_the_flower_and_number_looks_and_live_video_with_the_flower_look() -> None:
    from vision.pipeline import default_reader
    from vision.reader import FLOWER_LOOK_PATH, NUMBER_LOOK_PATH, TileReader, VideoReader

    photo, live = default_reader(), default_reader(live=True)
    assert isinstance(photo, TileReader) and isinstance(live, VideoReader)
    assert photo.classifier.flowers is not None and photo.classifier.flowers.model.path == FLOWER_LOOK_PATH
    assert photo.classifier.numbers is not None and photo.classifier.numbers.model.path == NUMBER_LOOK_PATH
    assert live.classify.flowers is not None and live.classify.flowers.model.path == FLOWER_LOOK_PATH
    assert live.classify.numbers is None


class _Truth:
    """A perfect reader of a rendered photo (its labels) that levels it as the photo reader
    does (``TileReader.read_levelled``: where ``Upright.tilt`` finds its longest row off level)."""

    def __init__(self, labels: list) -> None:
        self.labels = labels

    def __call__(self, image: np.ndarray) -> Detections:
        return labels_to_detections(self.labels)

    def read_levelled(self, image: np.ndarray) -> tuple:
        dets = self(image)
        degrees = Upright().tilt(dets)
        if not degrees:
            return dets, 0, 0, None
        level, matrix = rotated(image, degrees)
        return dets, 0, 0, (level, matrix, dets, np.arange(len(dets)))


@pytest.mark.parametrize("roll", [15.0, -20.0])
def test_a_tilted_hand_photo_is_read_levelled_its_boxes_as_found(roll: float) -> None:
    """A phone not held level: the hand's regions are read in the photo turned level (where
    they were shaped), and every tile keeps the box the reader found in the photo."""
    layout = HandLayout.parse("123m456p789s11z / [555p]^1 (2222s) / 1f 2f")
    image, labels = hand_photo(layout, roll=roll)
    truth = labels_to_detections(labels)
    assert Upright().tilt(truth) != 0.0
    reading = read_hand_photo(image, "filipino", reader=_Truth(labels))
    assert sorted(i.tile for i in reading.concealed) == sorted(layout.concealed)
    assert sorted(len(m.tiles) for m in reading.melds) == [3, 4]
    assert sorted(i.tile for i in reading.flowers) == [Tile.FLOWER1, Tile.FLOWER2]
    found = {tuple(float(v) for v in box) for box in truth.xyxy}
    assert all(item.box in found for item, _, _ in reading.items())
    assert reading.image_size == (image.shape[1], image.shape[0])


@given(st.floats(-40, 40), st.floats(0.25, 4.0), st.floats(0.25, 4.0))
def test_boxes_read_levelled_go_back_to_those_found_at_any_scale(degrees: float, sx: float, sy: float) -> None:
    """A box of the levelled photo goes back to the reader's box it was made from, and one a
    closer look found there to the box around it turned back, in pixels scaled either way."""
    image = np.zeros((300, 400, 3), np.uint8)
    first = np.array([[50, 60, 90, 110], [200, 100, 240, 150]], np.float32)
    level, matrix = rotated(image, degrees)
    levelled = boxes_levelled(first, matrix).astype(np.float32)
    back = LevelledBoxes(levelled, first, cv2.invertAffineTransform(matrix)).scaled(sx, sy)
    scale = np.array([sx, sy, sx, sy], np.float32)
    assert back(tuple(levelled[1] * scale)) == tuple(float(v) for v in first[1] * scale)
    other = np.array([120.0, 80.0, 150.0, 120.0])  # in the levelled photo's pixels
    want = boxes_through(other[None], cv2.invertAffineTransform(matrix))[0] * scale
    np.testing.assert_allclose(back(tuple(other * scale)), want, rtol=1e-6, atol=1e-3)
