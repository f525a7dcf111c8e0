"""Test helpers: a rendered hand photo with its true layout, an oracle reader, fake sources."""

from __future__ import annotations

import functools
import hashlib
import io
import threading
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from engine.hand import Hand
from engine.tiles import Tile
from webui.adapters.reader import PhotoReading, ReadTile
from webui.live import LiveTile, LiveUpdate

TW, TH = 44, 58


@functools.lru_cache(maxsize=128)
def tile_sprite(code: str) -> np.ndarray:
    """A BGR tile picture of TW x TH in the renderer's art, on felt green."""
    from vision.synth.faces import back_image, face_image, make_style

    tile = Tile.parse(code)
    style = make_style(0)
    rgba = back_image(style) if tile == Tile.BACK else face_image(tile, style)
    rgb = np.ascontiguousarray(rgba[..., :3])
    alpha = rgba[..., 3:4].astype(np.float32) / 255
    rgb = (rgb * alpha + np.array([40, 110, 60]) * (1 - alpha)).astype(np.uint8)
    small: np.ndarray = cv2.resize(cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), (TW, TH), interpolation=cv2.INTER_AREA)
    return small


def render_hand_photo(hand_text: str, scale: int = 2) -> tuple[bytes, PhotoReading]:
    """A photo-like PNG of ``hand_text`` laid on felt (renderer art), and its true reading."""
    hand = Hand.parse(hand_text)
    tw, th, gap = TW * scale, TH * scale, 4 * scale
    n = len(hand.concealed) + sum(len(m.tiles) for m in hand.melds) + len(hand.bonus)
    width = 60 + n * (tw + gap) + 40 * (len(hand.melds) + 2)
    height = th * 2 + 120
    img = np.full((height, width, 3), (40, 110, 60), np.uint8)
    tiles: list[ReadTile] = []
    x, y = 30, height - th - 40

    def lay(code: str, region: str, group: int | None = None) -> int:
        nonlocal x
        img[y:y + th, x:x + tw] = cv2.resize(tile_sprite(code), (tw, th), interpolation=cv2.INTER_CUBIC)
        tiles.append(ReadTile(code, (float(x), float(y), float(x + tw), float(y + th)), 0.97, region, group))
        x += tw + gap
        return len(tiles) - 1

    concealed = [lay(str(t), "hand") for t in hand.concealed]
    melds = []
    for g, m in enumerate(hand.melds):
        x += 30
        melds.append((str(m)[0] + str(m)[-1], [lay(str(t), "meld", g) for t in m.tiles]))
    x += 30
    bonus = [lay(str(t), "flower") for t in hand.bonus]
    ok, buf = cv2.imencode(".png", img)
    assert ok
    return buf.tobytes(), PhotoReading(width, height, tiles, concealed, melds, bonus)


def render_hand_scene(layout: str, size: tuple[int, int] = (1280, 800)) -> tuple[bytes, list[dict[str, object]]]:
    """A 3-D rendered photo of a hand (``vision.scripted.hand_photo``) and the renderer's labels.

    ``layout`` is ``HandLayout.parse`` text: ``"123m ... / [234m]^0 (7777s) / 3f"``.
    """
    from vision.scripted import HandLayout, hand_photo

    image, labels = hand_photo(HandLayout.parse(layout), size=size)
    ok, buf = cv2.imencode(".png", image)
    assert ok
    return buf.tobytes(), labels


class PipelineOracle:
    """The real ``vision.pipeline.read_hand_photo`` (regions, groups, doubts) with a perfect detector.

    The shipped models are trained separately; here the renderer's labels stand in for the
    detector so the test checks everything after it: regions, meld groups, the web page.
    """

    def __init__(self) -> None:
        self.labels: dict[str, list[dict[str, object]]] = {}

    def add(self, data: bytes, labels: list[dict[str, object]]) -> bytes:
        self.labels[hashlib.sha256(data).hexdigest()] = labels
        return data

    def __call__(self, path: str, variant: str) -> object:
        from vision.pipeline import read_hand_photo
        from vision.scripted import labels_to_detections

        labels = self.labels.get(hashlib.sha256(Path(path).read_bytes()).hexdigest(), [])
        return read_hand_photo(path, variant, reader=lambda image: labels_to_detections(labels))


class OracleReader:
    """Reads a photo by looking up the true layout of the rendered picture (by its bytes)."""

    def __init__(self) -> None:
        self.known: dict[str, PhotoReading] = {}
        self.calls = 0

    def add(self, data: bytes, reading: PhotoReading) -> bytes:
        self.known[hashlib.sha256(data).hexdigest()] = reading
        return data

    def available(self) -> bool:
        return True

    def read(self, path: str, variant: str, size: tuple[int, int]) -> PhotoReading:
        self.calls += 1
        digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
        return self.known.get(digest, PhotoReading(size[0], size[1], []))


class ScriptedSource:
    """A fake camera: yields the given updates (with a small frame), then idles until stopped."""

    name = "scripted test camera"
    variant = "filipino"

    def __init__(self, updates: list[LiveUpdate], interval: float = 0.02) -> None:
        self.script = updates
        self.interval = interval

    def updates(self, stop: threading.Event) -> Iterator[LiveUpdate]:
        frame = np.full((120, 200, 3), 60, np.uint8)
        for u in self.script:
            if stop.wait(self.interval):
                return
            yield u if u.frame is not None else LiveUpdate(frame, u.tiles, u.events, u.shown_hand, u.status, u.reset)
        while not stop.wait(self.interval):
            yield LiveUpdate(frame, (LiveTile("5p", (10, 40, 40, 80), "discard"),))


def png_bytes(w: int, h: int) -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (w, h), (30, 120, 60)).save(buf, "PNG")
    return buf.getvalue()
