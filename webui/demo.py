"""The built-in demo: a scripted Filipino hand played on a drawn table, as if from a camera.

With no camera attached, ``make run`` shows this so a newcomer sees the whole
thing work in the first minute: flowers declared, discards, a pung, a secret
kang with its instant payout, South getting ready (waits announced) and
winning by self-draw (payments announced), then it starts over.

Tile pictures come from the renderer's art (``vision.synth.faces``) when it is
installed, otherwise from a small Pillow drawing; either way the frames are
plain BGR arrays with the true boxes, exactly what a camera source yields.

>>> src = DemoSource(step_seconds=0.0, fps=1000)
>>> stop = threading.Event(); ups = []
>>> for u in src.updates(stop):
...     ups.append(u)
...     if len(ups) > 40: stop.set()
>>> ups[0].reset, ups[0].frame.shape
(True, (720, 1280, 3))
>>> kinds = [e["kind"] for u in ups for e in u.events]
>>> kinds[:3], "win" in kinds
(['flower', 'flower', 'flower'], True)
"""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from engine.tiles import Tile, parse_tiles
from webui.live import LiveTile, LiveUpdate

__all__ = ["DemoSource", "SCRIPT"]

W, H = 1280, 720
BACK = str(Tile.BACK)  # the code of a face-down tile
TW, TH = 44, 58  # tile size on the frame (px)

# (seat, kind, tiles, extra) in play order. South (seat 1) faces the camera.
SCRIPT: list[tuple[int, str, str, dict[str, Any]]] = [
    (0, "flower", "1f", {}), (1, "flower", "6f", {}), (3, "flower", "3f", {}),
    (0, "discard", "9s", {}), (1, "discard", "1m", {}), (2, "discard", "5p", {}),
    (3, "discard", "5p", {}), (2, "pung", "555p", {}), (2, "discard", "8m", {}),
    (3, "secret", "3333p", {}), (3, "discard", "2p", {}), (0, "discard", "4m", {}),
    (1, "discard", "1p", {"hand": "123m456m789p234s44p67s"}),
    (2, "discard", "3m", {}), (3, "discard", "9m", {}), (0, "discard", "2s", {}),
    (1, "win", "8s", {"hand": "123m456m789p234s44p678s / 6f", "self_drawn": True}),
]
START_HAND = "123m456m789p234s1p4p67s"


@dataclass
class _Table:
    hand: str = START_HAND
    melds: dict[int, list[list[str]]] = field(default_factory=lambda: {s: [] for s in range(4)})
    flowers: dict[int, list[str]] = field(default_factory=lambda: {s: [] for s in range(4)})
    pool: list[str] = field(default_factory=list)
    won: bool = False

    def apply(self, seat: int, kind: str, tiles: str, extra: dict[str, Any]) -> None:
        codes = [str(t) for t in parse_tiles(tiles)]
        if kind == "flower":
            self.flowers[seat] += codes
        elif kind == "discard":
            self.pool += codes
        elif kind in ("pung", "chow", "kang"):
            if self.pool and self.pool[-1] in codes:
                self.pool.pop()  # the called discard leaves the pool
            self.melds[seat].append(codes)
        elif kind == "secret":
            self.melds[seat].append([BACK, codes[1], codes[2], BACK])
        elif kind == "win":
            self.won = True
        if "hand" in extra:  # the concealed row changed (a draw kept, a tile let go)
            self.hand = extra["hand"].split("/")[0].strip()


@functools.lru_cache(maxsize=128)
def _sprite(code: str) -> np.ndarray:
    """A BGR tile picture of TW x TH: the renderer's art if present, else a Pillow drawing."""
    tile = Tile.parse(code)
    try:
        from vision.synth.faces import back_image, face_image, make_style

        style = make_style(0)
        rgba = back_image(style) if tile == Tile.BACK else face_image(tile, style)
        rgb = np.ascontiguousarray(rgba[..., :3])
        alpha = rgba[..., 3:4].astype(np.float32) / 255
        rgb = (rgb * alpha + np.array([40, 110, 60]) * (1 - alpha)).astype(np.uint8)
        small: np.ndarray = cv2.resize(cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), (TW, TH), interpolation=cv2.INTER_AREA)
        return small
    except Exception:  # the renderer is optional: fall back to our own drawing
        return _pil_sprite(tile)


def _pil_sprite(tile: Tile) -> np.ndarray:
    im = Image.new("RGB", (TW, TH), (30, 90, 70) if tile == Tile.BACK else (240, 235, 215))
    d = ImageDraw.Draw(im)
    d.rectangle((0, 0, TW - 1, TH - 1), outline=(120, 110, 90), width=2)
    if tile != Tile.BACK:
        try:
            font: Any = ImageFont.truetype("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc", 22)
        except OSError:
            font = ImageFont.load_default()
        colour = (200, 30, 30) if tile.suit in "mf" else (20, 60, 160)
        d.text((TW / 2, TH / 2 - 6), tile.chinese[:2], font=font, fill=colour, anchor="mm")
        d.text((TW / 2, TH - 10), str(tile), fill=(0, 0, 0), anchor="mm")
    return cv2.cvtColor(np.asarray(im), cv2.COLOR_RGB2BGR)


@functools.lru_cache(maxsize=1)
def _felt() -> np.ndarray:
    rng = np.random.default_rng(7)
    base = np.full((H, W, 3), (40, 110, 60), np.uint8)
    noise = rng.normal(0, 6, (H, W, 1)).astype(np.int16)
    felt: np.ndarray = np.clip(base.astype(np.int16) + noise, 0, 255).astype(np.uint8)
    for text, (x, y) in (("NORTH", (600, 130)), ("WEST", (40, 370)), ("EAST", (1160, 370)),
                         ("SOUTH (hand shown)", (560, 700))):
        cv2.putText(felt, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (90, 170, 120), 1, cv2.LINE_AA)
    return felt


def _place(frame: np.ndarray, tiles: list[LiveTile], code: str, x: int, y: int, region: str, seat: int | None) -> None:
    frame[y:y + TH, x:x + TW] = _sprite(code)
    tiles.append(LiveTile(code, (x, y, x + TW, y + TH), region, seat))


# Where each seat's melds and flowers start (x, y); South's concealed row is at the bottom.
_MELD_AT = {0: (1000, 160), 1: (200, 590 - TH - 8), 2: (40, 160), 3: (400, 20)}
_FLOWER_AT = {0: (1000, 480), 1: (40, 590 - TH - 8), 2: (40, 400), 3: (850, 20)}


def draw(table: _Table, clock: str = "") -> tuple[np.ndarray, tuple[LiveTile, ...]]:
    """The frame for this table state, with the true box of every tile."""
    frame = _felt().copy()
    tiles: list[LiveTile] = []
    # South's concealed row along the bottom edge, facing the camera; its melds just above.
    hand = [str(t) for t in parse_tiles(table.hand)]
    for i, code in enumerate(hand):
        _place(frame, tiles, code, 200 + i * (TW + 2), 590, "hand", 1)
    for seat in range(4):
        x, y = _MELD_AT[seat]
        for meld in table.melds[seat]:
            for code in meld:
                _place(frame, tiles, code, x, y, "meld", seat)
                x += TW + 1
            x += 14
            if x > W - 4 * TW:
                x, y = _MELD_AT[seat][0], y + TH + 8
        fx, fy = _FLOWER_AT[seat]
        for j, code in enumerate(table.flowers[seat]):
            _place(frame, tiles, code, fx + j * (TW + 2), fy, "flower", seat)
    for k, code in enumerate(table.pool):
        _place(frame, tiles, code, 380 + (k % 10) * (TW + 4), 200 + (k // 10) * (TH + 6), "discard", None)
    if clock:
        cv2.putText(frame, clock, (W - 260, H - 14), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (220, 220, 220), 1, cv2.LINE_AA)
    return frame, tuple(tiles)


class DemoSource:
    """Plays :data:`SCRIPT` forever, one step every ``step_seconds``, frames at ``fps``."""

    name = "built-in demo (no camera attached)"
    variant = "filipino"

    def __init__(self, step_seconds: float = 2.5, fps: float = 8.0, pause_after_win: float = 8.0) -> None:
        self.step_seconds = step_seconds
        self.fps = fps
        self.pause_after_win = pause_after_win

    def updates(self, stop: threading.Event) -> Iterator[LiveUpdate]:
        while not stop.is_set():
            yield from self._one_game(stop)

    def _one_game(self, stop: threading.Event) -> Iterator[LiveUpdate]:
        table = _Table()
        frame, tiles = draw(table, self._clock())
        yield LiveUpdate(frame, tiles, shown_hand=(1, table.hand), reset=True)
        for seat, kind, codes, extra in SCRIPT:
            yield from self._idle(table, self.step_seconds, stop)
            if stop.is_set():
                return
            table.apply(seat, kind, codes, extra)
            event: dict[str, Any] = {"kind": kind, "seat": seat, "tiles": codes}
            if kind == "win":
                event.update(hand=extra["hand"], self_drawn=extra.get("self_drawn", False))
            frame, tiles = draw(table, self._clock())
            yield LiveUpdate(frame, tiles, events=(event,), shown_hand=(1, table.hand))
        yield from self._idle(table, self.pause_after_win, stop)

    def _idle(self, table: _Table, seconds: float, stop: threading.Event) -> Iterator[LiveUpdate]:
        """Keep sending frames (a camera never stops) until the next scripted step."""
        end = time.monotonic() + seconds
        while time.monotonic() < end and not stop.is_set():
            time.sleep(min(1 / self.fps, max(0.0, end - time.monotonic())))
            frame, tiles = draw(table, self._clock())
            yield LiveUpdate(frame, tiles, shown_hand=(1, table.hand))

    @staticmethod
    def _clock() -> str:
        return "DEMO  " + time.strftime("%H:%M:%S")
