"""Tile faces drawn by code: every tile code in many styles.

A :class:`Style` fixes everything a physical tile set fixes (fonts, inks, 萬 or 万,
伍 for five, corner indices, the white dragon, the 1-bamboo, body and back colours,
proportions). :func:`make_style` builds style ``k`` deterministically; :func:`face_image`
draws one tile face as an RGBA array (RGB order, rounded corners transparent) and caches it.

>>> style = make_style(0)
>>> face_image(Tile.parse("5p"), style).shape
(160, 120, 4)
>>> face_image(Tile.BACK, make_style(3)).dtype
dtype('uint8')
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TypeVar

import cv2
import numpy as np
from PIL import Image, ImageDraw

from engine.tiles import Tile
from vision.synth.fonts import FontSpec, available_families, get_font, glyph_ok, latin_font

__all__ = [
    "FACE_W",
    "FACE_H",
    "NUM_STYLES",
    "Style",
    "make_style",
    "face_image",
    "back_image",
    "BACK_COLOURS",
]

FACE_W, FACE_H = 120, 160  # sprite size (px) of the top face of a tile
_SS = 2  # supersampling factor while drawing
NUM_STYLES = 48  # styles sampled by scenes (any int works with make_style)

RGB = tuple[int, int, int]

BACK_COLOURS: dict[str, RGB] = {
    "green": (28, 118, 64),
    "darkgreen": (18, 80, 48),
    "blue": (32, 72, 168),
    "lightblue": (70, 140, 205),
    "yellow": (226, 182, 40),
    "orange": (226, 120, 36),
    "pink": (226, 112, 160),
    "black": (28, 28, 30),
    "red": (170, 32, 36),
    "purple": (110, 60, 150),
}

_NUMERALS = "一二三四五六七八九"
_WINDS = "東南西北"
_FLOWER_CHARS = "梅蘭菊竹春夏秋冬"
_ANIMAL_CHARS = ["貓", "鼠", "雞", "蜈蚣"]
_VN_JOKERS = "筒索萬縂花喜元合"


@dataclass(frozen=True)
class Style:
    """Everything a physical set fixes. Colours are RGB."""

    index: int
    font: FontSpec | None  # numerals, honours, flowers
    font2: FontSpec | None  # 萬 and secondary characters
    face_rgb: RGB
    back_name: str
    back_frac: float  # fraction of the thickness that is the coloured back layer
    aspect: float  # width / height of the face
    depth: float  # thickness / height
    num_ink: RGB  # numerals of the characters suit
    wind_ink: RGB
    red: RGB
    green: RGB
    blue: RGB
    wan: str  # 萬 or 万
    formal_five: bool  # 伍 instead of 五
    corner_index: bool
    corner_right: bool
    white_dragon: str  # "frame", "frame2", "blank"
    one_bamboo: str  # "bird", "peacock"
    dot_rings: bool  # concentric rings (True) or flat discs with a centre
    stick_blue: bool  # some sets draw part of the sticks blue
    tong_char: str  # 縂 or 皇 for the 4th Vietnamese joker
    stroke: int  # extra stroke width for characters (0 = font's own)
    animal_label: bool
    joker_vertical: bool
    stick_w: float = 0.13  # bamboo stick width (fraction of the face width)
    split: float = 0.45  # where the numeral ends and 萬 begins on the characters suit
    engraved: float = 0.0  # darkening of the ink's lower-right edge (carved look)
    american: bool = False  # American-style set: big Arabic index / wind letter, art shrunk
    # The flowers' index and name in blue and the seasons' in red, as on every set in the real
    # photos (the renderer had it the other way round, and the classifier read a real blue 4
    # flower as the 4 season); the reverse on a quarter of the styles, so the ink is a hint
    # and never the whole answer.
    flowers_blue: bool = True
    # The index an Arabic or a Chinese numeral, the name beside it or not, as on the real sets.
    flower_chinese_index: bool = False
    flower_name: bool = True
    # Some sets write the name at the top left and the index at the top right (a real
    # validation photo's set does; its 1 flower was read as the 3 flower).
    flower_index_right: bool = False
    # The plants' colours: "natural", turned round the colour wheel by ``flower_art_hue``
    # degrees, or all in the index's ink. Real sets paint a blue bamboo or a red orchid; with
    # natural colours only, v8 read a real blue 4-flower bamboo as the blue winter snowflake.
    flower_art: str = "natural"
    flower_art_hue: float = 0.0
    # The plant of the flower this many places on (0: its own). Real sets draw plants and
    # scenes the renderer never saw; with its own plant always, v8 named flowers by the plant
    # alone (real flowers with the plant painted out were read right 5 times in 52) and read
    # a real set's 1 plum as the 3 flower. A borrowed plant leaves only the index and name.
    flower_plant_shift: int = 0
    # One potted plant on every flower and season of the set, red blossoms on green stems
    # in a blue pot, changing a little from tile to tile: about half the real sets paint
    # their flowers so (9 of the 16 sources whose photos show two flowers or more), and then
    # only the index, its ink and the name tell them apart.
    flower_potted: bool = False
    # The seasons numbered in Chinese while the flowers keep Arabic numerals, as on real
    # training sets (two sources show a blue 1 or 3 flower beside a red 一 or 三 season, two
    # more a Chinese-numbered season alone): there an Arabic 4 is the bamboo, never winter.
    season_chinese_index: bool = False

    @property
    def back_rgb(self) -> RGB:
        return BACK_COLOURS[self.back_name]


T_ = TypeVar("T_")


def _pick(rng: np.random.Generator, seq: list[T_], p: list[float] | None = None) -> T_:
    return seq[int(rng.choice(len(seq), p=p))]


@functools.cache
def make_style(k: int) -> Style:
    """Style number ``k`` (deterministic; styles 0-3 are the most common set designs).

    >>> make_style(5) == make_style(5)
    True
    """
    rng = np.random.default_rng([7919, k])
    fams = available_families()
    kai = [f for f in fams if f.family in ("kai", "ming")]
    plain = [f for f in fams if f.family in ("sans", "serif")]
    if fams:
        pool = kai if (k % 2 == 0 and kai) else (plain or kai)
        font: FontSpec | None = pool[int(rng.integers(len(pool)))]
        font2: FontSpec | None = font if rng.random() < 0.6 else fams[int(rng.integers(len(fams)))]
    else:
        font = font2 = None
    ivory = [(246, 243, 232), (250, 250, 246), (238, 233, 212), (244, 240, 224), (235, 236, 230)]
    back = _pick(
        rng,
        ["green", "darkgreen", "blue", "lightblue", "yellow", "orange", "pink", "black", "red", "purple"],
        [0.22, 0.1, 0.16, 0.06, 0.12, 0.05, 0.1, 0.07, 0.05, 0.07],
    )
    if k < 4:
        back = ["green", "blue", "yellow", "pink"][k]

    def jitter(c: RGB, s: int = 18) -> RGB:
        r, g, b = (int(np.clip(v + rng.integers(-s, s + 1), 0, 255)) for v in c)
        return (r, g, b)

    num_ink = _pick(rng, [(20, 38, 120), (22, 22, 26), (16, 60, 150), (20, 90, 60)], [0.45, 0.4, 0.1, 0.05])
    return Style(
        index=k,
        font=font,
        font2=font2,
        face_rgb=_pick(rng, ivory),
        back_name=back,
        # down to a thin back under a thick ivory body: seen lying face up at an angle, the
        # body's front is then as light as the face (a real row the detector boxed half a
        # tile low, face and front together)
        back_frac=float(rng.uniform(0.12, 0.52)),
        aspect=float(rng.uniform(0.70, 0.79)),
        depth=float(rng.uniform(0.48, 0.66)),
        num_ink=jitter(num_ink, 10),
        wind_ink=jitter(_pick(rng, [(22, 40, 110), (22, 22, 26), (20, 70, 150)]), 10),
        red=jitter((196, 30, 34), 20),
        green=jitter((20, 120, 64), 20),
        blue=jitter((28, 62, 160), 20),
        wan="万" if rng.random() < 0.2 else "萬",
        formal_five=bool(rng.random() < 0.3),
        corner_index=bool(rng.random() < 0.45) and k % 12 != 11,
        corner_right=bool(rng.random() < 0.3),
        white_dragon=_pick(rng, ["frame", "frame2", "blank"], [0.5, 0.25, 0.25]),
        one_bamboo=_pick(rng, ["bird", "peacock"]),
        dot_rings=bool(rng.random() < 0.8),
        stick_blue=bool(rng.random() < 0.35),
        tong_char="皇" if rng.random() < 0.3 else "縂",
        stroke=int(rng.choice([0, 0, 1])),
        animal_label=bool(rng.random() < 0.5),
        joker_vertical=bool(rng.random() < 0.5),
        stick_w=float(rng.uniform(0.1, 0.16)),
        split=float(rng.uniform(0.4, 0.5)),
        engraved=float(rng.choice([0.0, rng.uniform(0.2, 0.5)])),
        american=k % 12 == 11,
        # drawn last, so the other attributes stay as they were; the common designs as on the
        # real photos' sets
        flowers_blue=bool(rng.random() < 0.75) or k < 4,
        flower_chinese_index=bool(rng.random() < 0.3),
        flower_name=bool(rng.random() < 0.7),
        flower_index_right=bool(rng.random() < 0.3) and k >= 4,
        flower_art="natural" if k < 4 else str(rng.choice(["natural", "hue", "ink"], p=[0.55, 0.3, 0.15])),
        flower_art_hue=float(rng.uniform(60, 300)),
        flower_plant_shift=0 if k < 4 or rng.random() >= 0.35 else int(rng.integers(1, 8)),
        flower_potted=bool(rng.random() < 0.4) and k >= 4,
        season_chinese_index=bool(rng.random() < 0.4) and k >= 4,
    )


# --------------------------------------------------------------------------- drawing helpers
class _Canvas:
    """An RGB float canvas at supersampled size with cv2 and Pillow helpers."""

    def __init__(self, style: Style, w: int = FACE_W * _SS, h: int = FACE_H * _SS) -> None:
        self.s = style
        self.w, self.h = w, h
        self.img = np.empty((h, w, 3), np.float32)
        self.img[:] = style.face_rgb

    def px(self, x: float, y: float) -> tuple[int, int]:
        return int(round(x * self.w)), int(round(y * self.h))

    def circle(self, x: float, y: float, r: float, col: RGB, thick: int = -1) -> None:
        cx, cy = self.px(x, y)
        cv2.circle(self.img, (cx, cy), max(1, int(round(r * self.w))), col, thick, cv2.LINE_AA)

    def ellipse(
        self, x: float, y: float, rx: float, ry: float, ang: float, col: RGB, thick: int = -1
    ) -> None:
        cx, cy = self.px(x, y)
        axes = (max(1, int(rx * self.w)), max(1, int(ry * self.w)))
        cv2.ellipse(self.img, (cx, cy), axes, ang, 0, 360, col, thick, cv2.LINE_AA)

    def poly(self, pts: list[tuple[float, float]], col: RGB, thick: int = -1) -> None:
        arr = np.array([self.px(x, y) for x, y in pts], np.int32)
        if thick < 0:
            cv2.fillPoly(self.img, [arr], col, cv2.LINE_AA)
        else:
            cv2.polylines(self.img, [arr], False, col, thick, cv2.LINE_AA)

    def line(self, p: tuple[float, float], q: tuple[float, float], col: RGB, t: float) -> None:
        cv2.line(self.img, self.px(*p), self.px(*q), col, max(1, int(t * self.w)), cv2.LINE_AA)

    def text(
        self,
        ch: str,
        box: tuple[float, float, float, float],
        col: RGB,
        font: FontSpec | None = None,
        latin: bool = False,
        stroke: int | None = None,
    ) -> None:
        """Draw ``ch`` fitted (aspect kept) and centred in ``box`` = (x0, y0, x1, y1) fractions."""
        x0, y0 = self.px(box[0], box[1])
        x1, y1 = self.px(box[2], box[3])
        bw, bh = max(2, x1 - x0), max(2, y1 - y0)
        spec = font if font is not None else self.s.font
        if not latin and spec is not None and not all(glyph_ok(spec, c) for c in ch):
            spec = next((f for f in available_families() if all(glyph_ok(f, c) for c in ch)), spec)
        sw = (self.s.stroke if stroke is None else stroke) * _SS
        mask = _text_mask(ch, None if latin else spec, bw, bh, sw)
        m = mask[..., None]
        roi = self.img[y0 : y0 + bh, x0 : x0 + bw]
        m = m[: roi.shape[0], : roi.shape[1]]
        roi[:] = roi * (1 - m) + np.array(col, np.float32) * m

    def out(self) -> np.ndarray:
        small = cv2.resize(self.img, (self.w // _SS, self.h // _SS), interpolation=cv2.INTER_AREA)
        out: np.ndarray = np.clip(small + 0.5, 0, 255).astype(np.uint8)
        return out


@functools.lru_cache(maxsize=4096)
def _text_mask(ch: str, spec: FontSpec | None, bw: int, bh: int, stroke: int) -> np.ndarray:
    size = 200
    font = get_font(spec, size) if spec is not None else latin_font(size)
    probe = Image.new("L", (size * len(ch) + 80, size + 80), 0)
    d = ImageDraw.Draw(probe)
    d.text((40, 40), ch, font=font, fill=255, stroke_width=stroke * 3, stroke_fill=255)
    arr = np.asarray(probe)
    ys, xs = np.nonzero(arr > 0)
    if len(xs) == 0:
        return np.zeros((bh, bw), np.float32)
    crop = arr[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    sc = min(bw / crop.shape[1], bh / crop.shape[0])
    nw, nh = max(1, int(crop.shape[1] * sc)), max(1, int(crop.shape[0] * sc))
    small = cv2.resize(crop, (nw, nh), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    out = np.zeros((bh, bw), np.float32)
    ox, oy = (bw - nw) // 2, (bh - nh) // 2
    out[oy : oy + nh, ox : ox + nw] = small
    return out


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return (
        int(a[0] + (b[0] - a[0]) * t),
        int(a[1] + (b[1] - a[1]) * t),
        int(a[2] + (b[2] - a[2]) * t),
    )


# --------------------------------------------------------------------------- suits
def _corner(c: _Canvas, label: str, col: RGB) -> None:
    if c.s.corner_right:
        c.text(label, (0.76, 0.04, 0.95, 0.17), col, latin=True, stroke=0)
    else:
        c.text(label, (0.05, 0.04, 0.24, 0.17), col, latin=True, stroke=0)


def _characters(c: _Canvas, n: int) -> None:
    s = c.s
    num = "伍" if (n == 5 and s.formal_five) else _NUMERALS[n - 1]
    top = 0.1 if s.corner_index else 0.06
    c.text(num, (0.18, top, 0.82, s.split - 0.01), s.num_ink)
    c.text(s.wan, (0.1, s.split + 0.02, 0.9, 0.95), s.red, font=s.font2)
    if s.corner_index:
        _corner(c, str(n), s.num_ink)


_DOTS: dict[int, list[tuple[float, float, str]]] = {
    2: [(0.5, 0.27, "g"), (0.5, 0.73, "b")],
    3: [(0.24, 0.2, "b"), (0.5, 0.5, "r"), (0.76, 0.8, "g")],
    4: [(0.28, 0.27, "b"), (0.72, 0.27, "g"), (0.28, 0.73, "g"), (0.72, 0.73, "b")],
    5: [(0.25, 0.22, "b"), (0.75, 0.22, "g"), (0.5, 0.5, "r"), (0.25, 0.78, "g"), (0.75, 0.78, "b")],
    6: [(0.3, 0.17, "g"), (0.7, 0.17, "g")]
    + [(x, y, "r") for y in (0.55, 0.83) for x in (0.3, 0.7)],
    7: [(0.22, 0.12, "g"), (0.5, 0.23, "g"), (0.78, 0.34, "g")]
    + [(x, y, "r") for y in (0.6, 0.86) for x in (0.3, 0.7)],
    8: [(x, y, "b") for y in (0.13, 0.38, 0.62, 0.87) for x in (0.3, 0.7)],
    9: [(x, y, col) for y, col in ((0.18, "b"), (0.5, "r"), (0.82, "g")) for x in (0.2, 0.5, 0.8)],
}
_DOT_R = {2: 0.21, 3: 0.17, 4: 0.19, 5: 0.17, 6: 0.15, 7: 0.13, 8: 0.12, 9: 0.125}


def _dot(c: _Canvas, x: float, y: float, r: float, col: RGB) -> None:
    bg = c.s.face_rgb
    if c.s.dot_rings:
        c.circle(x, y, r, col)
        c.circle(x, y, r * 0.78, bg)
        c.circle(x, y, r * 0.62, col)
        c.circle(x, y, r * 0.38, bg)
        c.circle(x, y, r * 0.2, col)
        for i in range(8):  # notched outer ring
            a = i * math.pi / 4
            c.circle(x + math.cos(a) * r * 0.89, y + math.sin(a) * r * 0.89 * c.w / c.h, r * 0.07, bg)
    else:
        c.circle(x, y, r, col)
        c.circle(x, y, r * 0.55, _mix(col, (255, 255, 255), 0.55))
        c.circle(x, y, r * 0.22, col)


def _dots(c: _Canvas, n: int) -> None:
    s = c.s
    cols = {"r": s.red, "g": s.green, "b": s.blue}
    if n == 1:
        x, y = 0.5, 0.5
        r = 0.42
        c.circle(x, y, r, s.green)
        c.circle(x, y, r * 0.9, s.face_rgb)
        k = 16
        for i in range(k):  # petal ring
            a = i * 2 * math.pi / k
            col = s.red if i % 2 == 0 else s.blue
            c.ellipse(x + math.cos(a) * r * 0.7, y + math.sin(a) * r * 0.7 * c.w / c.h,
                      r * 0.16, r * 0.09, math.degrees(a), col)
        c.circle(x, y, r * 0.5, s.green)
        c.circle(x, y, r * 0.4, s.face_rgb)
        c.circle(x, y, r * 0.3, s.red)
        c.circle(x, y, r * 0.16, s.face_rgb)
        c.circle(x, y, r * 0.08, s.blue)
    else:
        for x, y, key in _DOTS[n]:
            _dot(c, 0.1 + 0.8 * x, 0.08 + 0.84 * y, _DOT_R[n] * 0.86, cols[key])
    if s.corner_index:
        _corner(c, str(n), s.blue)


def _stick(c: _Canvas, p: tuple[float, float], q: tuple[float, float], w: float, col: RGB) -> None:
    """One bamboo stick from p to q (fractions), width w (fraction of width), 3 segments."""
    dark = _mix(col, (0, 0, 0), 0.35)
    light = _mix(col, (255, 255, 255), 0.45)
    c.line(p, q, dark, w * 1.1)
    c.line(p, q, col, w * 0.8)
    c.line(p, q, light, w * 0.2)
    for t in (0.0, 1 / 3, 2 / 3, 1.0):
        x, y = p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t
        c.ellipse(x, y, w * 0.65, w * 0.22, math.degrees(math.atan2((q[1] - p[1]) * c.h, (q[0] - p[0]) * c.w)) + 90, dark)


def _bird(c: _Canvas) -> None:
    s = c.s
    g, r, b = s.green, s.red, s.blue
    gold = (214, 160, 40)
    if s.one_bamboo == "peacock":
        for i, a in enumerate(range(200, 341, 28)):  # tail fan upwards-left
            ar = math.radians(a)
            x, y = 0.52 + math.cos(ar) * 0.28, 0.62 + math.sin(ar) * 0.2
            c.ellipse(x, y, 0.17, 0.05, a, g if i % 2 else b)
            c.circle(x + math.cos(ar) * 0.1, y + math.sin(ar) * 0.07, 0.04, r)
    else:
        for i, a in enumerate((150, 165, 180, 195)):  # long tail to the left/down
            c.ellipse(0.3, 0.72 + i * 0.02, 0.22, 0.04, a - 180 + 20, [b, g, r, g][i])
    c.ellipse(0.55, 0.55, 0.2, 0.13, -30, g)  # body
    c.ellipse(0.52, 0.58, 0.12, 0.07, -20, _mix(g, (0, 0, 0), 0.3))  # wing
    c.circle(0.7, 0.33, 0.09, g)  # head
    c.poly([(0.76, 0.3), (0.88, 0.34), (0.76, 0.37)], gold)  # beak
    c.circle(0.72, 0.31, 0.022, (20, 20, 20))
    c.poly([(0.63, 0.25), (0.66, 0.15), (0.7, 0.24), (0.74, 0.14), (0.76, 0.25)], r)  # crest
    c.line((0.55, 0.68), (0.52, 0.86), gold, 0.02)
    c.line((0.62, 0.66), (0.64, 0.86), gold, 0.02)
    c.line((0.35, 0.88), (0.8, 0.88), _mix(g, (0, 0, 0), 0.4), 0.04)  # perch


def _bamboo(c: _Canvas, n: int) -> None:
    s = c.s
    g, r = s.green, s.red
    alt = s.blue if s.stick_blue else g
    w = s.stick_w
    if n == 1:
        _bird(c)
    elif n == 8:
        xs = (0.13, 0.31, 0.5, 0.69, 0.87)
        for lower, (ya, yb) in enumerate(((0.07, 0.45), (0.55, 0.93))):
            for i in range(4):
                top_first = (i % 2 == 0) != (lower == 1)
                y0, y1 = (ya, yb) if top_first else (yb, ya)
                x0, x1 = xs[i] + 0.03, xs[i + 1] - 0.03
                col = g if (i in (0, 3)) else alt
                _stick(c, (x0, y0 + 0.03 * (1 if y0 < y1 else -1)), (x1, y1 - 0.03 * (1 if y0 < y1 else -1)), w * 0.85, col)
    else:
        lay: dict[int, list[tuple[float, float, RGB]]] = {
            2: [(0.5, 0.27, g), (0.5, 0.73, alt)],
            3: [(0.5, 0.27, g), (0.28, 0.73, alt), (0.72, 0.73, alt)],
            4: [(0.28, 0.27, g), (0.72, 0.27, alt), (0.28, 0.73, alt), (0.72, 0.73, g)],
            5: [(0.2, 0.27, g), (0.8, 0.27, alt), (0.5, 0.5, r), (0.2, 0.73, alt), (0.8, 0.73, g)],
            6: [(x, y, g if y < 0.5 else alt) for y in (0.27, 0.73) for x in (0.2, 0.5, 0.8)],
            7: [(0.5, 0.17, r)] + [(x, y, g if y < 0.6 else alt) for y in (0.5, 0.83) for x in (0.2, 0.5, 0.8)],
            9: [(x, y, r if x == 0.5 else (g if y != 0.5 else alt)) for y in (0.17, 0.5, 0.83) for x in (0.2, 0.5, 0.8)],
        }
        pts = lay[n]
        half = 0.17 if n == 5 else (0.19 if n in (2, 3, 4, 6) else 0.13)
        for sx, sy, col in pts:
            yy = 0.06 + 0.88 * sy
            _stick(c, (sx, yy - half), (sx, yy + half), w, col)
    if s.corner_index:
        _corner(c, str(n), g)


# --------------------------------------------------------------------------- honours, bonus
def _honour(c: _Canvas, t: Tile) -> None:
    s = c.s
    if t.is_wind:
        c.text(_WINDS[t - Tile.EAST], (0.1, 0.1, 0.9, 0.9), s.wind_ink)
        if s.corner_index:
            _corner(c, "ESWN"[t - Tile.EAST], s.wind_ink)
    elif t == Tile.RED:
        c.text("中", (0.12, 0.08, 0.88, 0.92), s.red)
    elif t == Tile.GREEN:
        c.text("發", (0.08, 0.08, 0.92, 0.92), s.green)
    elif s.white_dragon != "blank":
        th = 0.05 if s.white_dragon == "frame" else 0.03
        c.poly([(0.14, 0.1), (0.86, 0.1), (0.86, 0.9), (0.14, 0.9), (0.14, 0.1)], s.blue, int(th * c.w))
        if s.white_dragon == "frame2":
            c.poly([(0.24, 0.18), (0.76, 0.18), (0.76, 0.82), (0.24, 0.82), (0.24, 0.18)], s.blue, int(th * c.w))


def _blossom(c: _Canvas, x: float, y: float, r: float, col: RGB, petals: int = 5) -> None:
    for i in range(petals):
        a = i * 2 * math.pi / petals
        c.circle(x + math.cos(a) * r * 0.6, y + math.sin(a) * r * 0.6 * c.w / c.h, r * 0.5, col)
    c.circle(x, y, r * 0.3, (236, 200, 60))


_BROWN = (110, 70, 40)


def _plant(c: _Canvas, k: int) -> None:
    """Drawn plant or scene for flowers (0-3) and seasons (4-7)."""
    leaf = _mix(c.s.green, (120, 180, 60), 0.3)
    _PLANTS[k](c, leaf)


def _plum(c: _Canvas, leaf: RGB) -> None:
    """A branch with pink blossoms."""
    c.poly([(0.2, 0.92), (0.35, 0.7), (0.5, 0.58), (0.62, 0.4), (0.78, 0.28)], _BROWN, 7)
    c.poly([(0.5, 0.58), (0.7, 0.62), (0.82, 0.55)], _BROWN, 5)
    for x, y in ((0.78, 0.28), (0.6, 0.42), (0.82, 0.55), (0.36, 0.7), (0.66, 0.62)):
        _blossom(c, x, y, 0.1, (228, 110, 150))


def _orchid(c: _Canvas, leaf: RGB) -> None:
    """Long leaves and purple flowers."""
    for dx, top in ((-0.25, 0.35), (0.0, 0.25), (0.2, 0.4), (0.3, 0.55)):
        c.poly([(0.5, 0.92), (0.5 + dx * 0.5, 0.6), (0.5 + dx, top)], leaf, 6)
    for x, y in ((0.38, 0.42), (0.66, 0.36)):
        _blossom(c, x, y, 0.09, (150, 80, 170), 3)


def _chrysanthemum(c: _Canvas, leaf: RGB) -> None:
    """A many-petalled yellow flower."""
    c.line((0.5, 0.6), (0.45, 0.93), leaf, 0.03)
    c.ellipse(0.36, 0.78, 0.1, 0.05, -30, leaf)
    c.ellipse(0.62, 0.74, 0.1, 0.05, 30, leaf)
    for i in range(16):
        a = i * 2 * math.pi / 16
        c.ellipse(0.5 + math.cos(a) * 0.14, 0.42 + math.sin(a) * 0.14 * c.w / c.h, 0.12, 0.035,
                  math.degrees(a), (232, 170, 30))
    c.circle(0.5, 0.42, 0.08, (200, 110, 30))


def _bamboo_plant(c: _Canvas, leaf: RGB) -> None:
    """Two stalks and their leaves."""
    for x in (0.38, 0.6):
        _stick(c, (x, 0.95), (x, 0.3), 0.07, leaf)
    for x, y, a in ((0.3, 0.35, -30), (0.7, 0.3, 30), (0.72, 0.5, 20), (0.25, 0.55, -20)):
        c.ellipse(x, y, 0.16, 0.035, a, c.s.green)


def _spring(c: _Canvas, leaf: RGB) -> None:
    """A blossoming tree and sprouts."""
    c.poly([(0.5, 0.92), (0.5, 0.55), (0.35, 0.4)], _BROWN, 7)
    c.poly([(0.5, 0.6), (0.68, 0.42)], _BROWN, 6)
    for x, y in ((0.35, 0.4), (0.68, 0.42), (0.5, 0.35), (0.28, 0.55), (0.76, 0.58)):
        _blossom(c, x, y, 0.08, (240, 140, 170))
    c.line((0.1, 0.93), (0.9, 0.93), leaf, 0.03)


def _summer(c: _Canvas, leaf: RGB) -> None:
    """A lotus on a pond under the sun."""
    s = c.s
    c.circle(0.74, 0.3, 0.1, s.red)
    c.ellipse(0.5, 0.86, 0.36, 0.06, 0, _mix(s.blue, (255, 255, 255), 0.4))
    c.ellipse(0.36, 0.8, 0.14, 0.05, 0, leaf)
    for a in (-40, -15, 15, 40):
        c.ellipse(0.55 + a / 400, 0.6, 0.05, 0.12, a, (236, 120, 150))
    c.line((0.55, 0.7), (0.55, 0.86), leaf, 0.02)


def _autumn(c: _Canvas, leaf: RGB) -> None:
    """Three maple leaves."""
    for x, y, col in ((0.4, 0.4, (210, 80, 30)), (0.62, 0.62, (226, 150, 30)), (0.36, 0.76, (180, 40, 30))):
        for i in range(5):
            a = -math.pi / 2 + (i - 2) * 0.7
            c.ellipse(x + math.cos(a) * 0.07, y + math.sin(a) * 0.05, 0.08, 0.03, math.degrees(a), col)
        c.line((x, y), (x + 0.04, y + 0.12), _BROWN, 0.015)


def _winter(c: _Canvas, leaf: RGB) -> None:
    """A snowflake and a snowy plum."""
    cx, cy = 0.5, 0.42
    for i in range(6):
        a = i * math.pi / 3
        q = (cx + math.cos(a) * 0.3, cy + math.sin(a) * 0.3 * c.w / c.h)
        c.line((cx, cy), q, c.s.blue, 0.025)
        for f in (0.55, 0.8):
            m = (cx + (q[0] - cx) * f, cy + (q[1] - cy) * f)
            for da in (0.6, -0.6):
                c.line(m, (m[0] + math.cos(a + da) * 0.07, m[1] + math.sin(a + da) * 0.05), c.s.blue, 0.018)
    c.poly([(0.15, 0.92), (0.4, 0.8), (0.7, 0.84)], _BROWN, 5)
    _blossom(c, 0.4, 0.8, 0.06, (220, 60, 80))


# flowers 1-4 then seasons 1-4, as ``_plant``'s k counts them
_PLANTS: tuple[Callable[[_Canvas, RGB], None], ...] = (
    _plum, _orchid, _chrysanthemum, _bamboo_plant, _spring, _summer, _autumn, _winter,
)


def _potted(c: _Canvas, k: int) -> None:
    """The set's potted plant (``Style.flower_potted``) as drawn on flower ``k`` (0-7): the
    same pot, stems and blossoms on every flower, a little moved from tile to tile."""
    s = c.s
    look = np.random.default_rng([s.index, 31])  # the set's: pot and blossom colours, stems
    pot = _pick(look, [s.blue, _mix(s.blue, (40, 120, 140), 0.5), (150, 90, 50)], [0.6, 0.25, 0.15])
    bloom = _pick(look, [s.red, (230, 90, 110), (236, 120, 50)], [0.6, 0.25, 0.15])
    leaf = _mix(s.green, (90, 160, 60), float(look.uniform(0, 0.5)))
    stems = int(look.integers(2, 5))
    tile = np.random.default_rng([s.index, 32, k])  # this tile's small changes
    top = 0.74 + float(tile.uniform(-0.03, 0.03))
    c.poly([(0.3, top), (0.7, top), (0.62, 0.95), (0.38, 0.95)], pot)
    c.line((0.27, top), (0.73, top), _mix(pot, (0, 0, 0), 0.25), 0.04)
    for i in range(stems):
        x = 0.25 + 0.5 * (i + 0.5) / stems + float(tile.normal(0, 0.05))
        y = 0.3 + float(tile.uniform(0, 0.2))
        mid = ((0.5 + x) / 2 + float(tile.normal(0, 0.04)), (top + y) / 2)
        c.poly([(0.5, top), mid, (x, y)], leaf, 5)
        c.ellipse(mid[0] + 0.06, mid[1], 0.09, 0.03, float(tile.uniform(-40, 40)), leaf)
        _blossom(c, x, y, float(tile.uniform(0.08, 0.12)), bloom)


def _recolour_plant(c: _Canvas, ink: RGB) -> None:
    """The plant just drawn in the style's ``flower_art`` colours (see ``Style``)."""
    s = c.s
    if s.flower_art == "natural":
        return
    drawn = np.abs(c.img - np.array(s.face_rgb, np.float32)).sum(-1) > 30
    if s.flower_art == "ink":  # the ink's colour, dark where the drawing was dark
        shade = c.img[drawn].mean(-1, keepdims=True) / 255.0
        c.img[drawn] = np.array(ink, np.float32) * (0.6 + 0.6 * shade).clip(0, 1.2)
        np.clip(c.img, 0, 255, out=c.img)
        return
    hsv = cv2.cvtColor(c.img / 255.0, cv2.COLOR_RGB2HSV)  # float: hue in degrees
    hsv[..., 0] = (hsv[..., 0] + s.flower_art_hue) % 360
    c.img[drawn] = cv2.cvtColor(hsv, cv2.COLOR_HSV2RGB)[drawn] * 255.0


def _flower(c: _Canvas, t: Tile) -> None:
    s = c.s
    k = t - Tile.FLOWER1
    n = k % 4 + 1
    ink = s.blue if (k < 4) == s.flowers_blue else s.red  # flowers 0-3, seasons 4-7
    if s.flower_potted:
        _potted(c, k)
    else:
        _plant(c, (k + s.flower_plant_shift) % 8)
    _recolour_plant(c, ink)
    right = s.flower_index_right
    if s.flower_chinese_index or (k >= 4 and s.season_chinese_index):
        c.text(_NUMERALS[n - 1], (0.71, 0.03, 0.93, 0.2) if right else (0.05, 0.03, 0.27, 0.2), ink)
    else:
        c.text(str(n), (0.72, 0.03, 0.92, 0.2) if right else (0.05, 0.03, 0.25, 0.2), ink, latin=True, stroke=0)
    if s.flower_name:
        c.text(_FLOWER_CHARS[k], (0.05, 0.03, 0.3, 0.24) if right else (0.7, 0.03, 0.95, 0.24), ink)


_DARK = (40, 34, 30)


def _animal(c: _Canvas, t: Tile) -> None:
    k = t - Tile.CAT
    _ANIMALS[k](c)
    if c.s.animal_label:
        c.text(_ANIMAL_CHARS[k], (0.04, 0.03, 0.3 if k < 3 else 0.42, 0.2), c.s.red)


def _cat(c: _Canvas) -> None:
    body = (230, 150, 60)
    c.ellipse(0.5, 0.7, 0.26, 0.2, 0, body)
    c.circle(0.5, 0.4, 0.22, body)
    c.poly([(0.32, 0.32), (0.3, 0.12), (0.46, 0.24)], body)
    c.poly([(0.68, 0.32), (0.7, 0.12), (0.54, 0.24)], body)
    c.circle(0.42, 0.38, 0.04, (60, 140, 60))
    c.circle(0.58, 0.38, 0.04, (60, 140, 60))
    c.circle(0.5, 0.46, 0.02, (220, 90, 100))
    for dy in (-0.02, 0.02):  # whiskers
        c.line((0.3, 0.47 + dy), (0.44, 0.47), _DARK, 0.008)
        c.line((0.56, 0.47), (0.7, 0.47 + dy), _DARK, 0.008)
    c.poly([(0.74, 0.75), (0.88, 0.6), (0.86, 0.45)], body, 8)
    for x in (0.3, 0.42, 0.58, 0.7):  # stripes
        c.line((x, 0.58), (x + 0.02, 0.66), _mix(body, _DARK, 0.4), 0.012)


def _rat(c: _Canvas) -> None:
    grey = (130, 125, 120)
    c.ellipse(0.48, 0.62, 0.26, 0.15, -10, grey)
    c.ellipse(0.72, 0.48, 0.13, 0.09, -25, grey)
    c.circle(0.66, 0.38, 0.06, (220, 160, 170))
    c.circle(0.76, 0.45, 0.018, _DARK)
    c.circle(0.86, 0.43, 0.02, (220, 120, 130))
    c.poly([(0.24, 0.66), (0.12, 0.8), (0.2, 0.9), (0.4, 0.92)], grey, 4)
    c.line((0.4, 0.72), (0.36, 0.8), grey, 0.02)
    c.line((0.58, 0.72), (0.6, 0.8), grey, 0.02)


def _rooster(c: _Canvas) -> None:
    s = c.s
    c.poly([(0.3, 0.55), (0.12, 0.2), (0.26, 0.3), (0.2, 0.12), (0.36, 0.34), (0.34, 0.16), (0.44, 0.5)],
           _mix(s.blue, s.green, 0.5))
    c.ellipse(0.5, 0.58, 0.2, 0.15, 0, (200, 110, 40))
    c.ellipse(0.48, 0.6, 0.11, 0.07, 10, (150, 70, 30))
    c.circle(0.66, 0.36, 0.08, (210, 120, 50))
    c.poly([(0.6, 0.3), (0.62, 0.2), (0.67, 0.28), (0.71, 0.19), (0.73, 0.3)], s.red)
    c.ellipse(0.68, 0.46, 0.025, 0.045, 0, s.red)
    c.poly([(0.73, 0.34), (0.84, 0.37), (0.73, 0.4)], (226, 180, 40))
    c.circle(0.68, 0.34, 0.018, _DARK)
    c.line((0.46, 0.7), (0.44, 0.88), (220, 170, 40), 0.02)
    c.line((0.56, 0.7), (0.58, 0.88), (220, 170, 40), 0.02)


def _centipede(c: _Canvas) -> None:
    col = (150, 60, 30)
    pts = [(0.5 + 0.18 * math.sin(i * 0.8), 0.18 + i * 0.075) for i in range(10)]
    for i, (x, y) in enumerate(pts):
        c.line((x - 0.16, y - 0.02), (x + 0.16, y - 0.02), _DARK, 0.012)
        c.circle(x, y, 0.075 if i else 0.085, col if i % 2 else _mix(col, (230, 160, 40), 0.4))
    hx, hy = pts[0]
    c.line((hx, hy), (hx - 0.1, hy - 0.12), _DARK, 0.012)
    c.line((hx, hy), (hx + 0.1, hy - 0.12), _DARK, 0.012)


# in Tile order from the cat
_ANIMALS: tuple[Callable[[_Canvas], None], ...] = (_cat, _rat, _rooster, _centipede)


def _vn_joker(c: _Canvas, t: Tile) -> None:
    s = c.s
    k = t - Tile.THUNG
    ch = _VN_JOKERS[k]
    if k == 3:
        ch = s.tong_char
    col = s.green if k < 4 else s.red
    c.poly([(0.08, 0.06), (0.92, 0.06), (0.92, 0.94), (0.08, 0.94), (0.08, 0.06)], col, 3)
    c.text(ch, (0.14, 0.14, 0.86, 0.86), col)


def _royal(c: _Canvas, t: Tile) -> None:
    s = c.s
    emperor = t < Tile.EMPRESS1
    n = (t - Tile.EMPEROR1) % 4 + 1
    col = s.red if emperor else _mix(s.red, (200, 60, 160), 0.6)
    c.text("皇" if emperor else "后", (0.1, 0.06, 0.9, 0.62), col)
    c.text(_NUMERALS[n - 1], (0.3, 0.66, 0.7, 0.94), s.num_ink)
    c.text(str(n), (0.05, 0.03, 0.23, 0.18), s.blue, latin=True, stroke=0)


def _american_joker(c: _Canvas) -> None:
    s = c.s
    cols = [s.red, s.blue, s.green, s.red, s.blue]
    if s.joker_vertical:
        for i, ch in enumerate("JOKER"):
            c.text(ch, (0.3, 0.04 + i * 0.185, 0.7, 0.2 + i * 0.185), cols[i], latin=True, stroke=0)
    else:
        c.text("JOKER", (0.06, 0.08, 0.94, 0.3), s.red, latin=True, stroke=0)
        pts = []
        for i in range(10):  # a star
            a = -math.pi / 2 + i * math.pi / 5
            r = 0.3 if i % 2 == 0 else 0.13
            pts.append((0.5 + math.cos(a) * r, 0.62 + math.sin(a) * r * c.w / c.h))
        c.poly(pts, s.blue)


def _back_fill(c: _Canvas) -> None:
    col = np.array(c.s.back_rgb, np.float32)
    yy = np.linspace(-1, 1, c.h, dtype=np.float32)[:, None, None]
    c.img[:] = col * (1.0 + 0.06 * yy)


def _americanise(c: _Canvas, t: Tile) -> None:
    """American sets: the art shrinks towards the lower right, a big index sits top left."""
    s = c.s
    k = 0.8
    small = cv2.resize(c.img, (int(c.w * k), int(c.h * k)), interpolation=cv2.INTER_AREA)
    c.img[:] = s.face_rgb
    c.img[c.h - small.shape[0] :, c.w - small.shape[1] :] = small
    label = "ESWN"[t - Tile.EAST] if t.is_wind else str(t.number)
    col = s.red if t < Tile.P1 else (s.blue if t < Tile.S1 else (s.green if t < Tile.EAST else s.wind_ink))
    c.text(label, (0.04, 0.02, 0.34, 0.26), col, latin=True, stroke=0)


# --------------------------------------------------------------------------- public
def _finish(rgb: np.ndarray, style: Style, back: bool) -> np.ndarray:
    """Rounded corners, a soft bevel at the edges; RGBA out."""
    h, w = rgb.shape[:2]
    rad = int(0.12 * w)
    alpha = np.zeros((h * 2, w * 2), np.uint8)
    cv2.rectangle(alpha, (rad * 2, 0), (w * 2 - 1 - rad * 2, h * 2 - 1), 255, -1)
    cv2.rectangle(alpha, (0, rad * 2), (w * 2 - 1, h * 2 - 1 - rad * 2), 255, -1)
    for cx, cy in ((rad, rad), (w - 1 - rad, rad), (rad, h - 1 - rad), (w - 1 - rad, h - 1 - rad)):
        cv2.circle(alpha, (cx * 2, cy * 2), rad * 2, 255, -1, cv2.LINE_AA)
    alpha = cv2.resize(alpha, (w, h), interpolation=cv2.INTER_AREA)
    # bevel: darken towards the rim
    dist = cv2.distanceTransform((alpha > 128).astype(np.uint8), cv2.DIST_L2, 3)
    edge = np.clip(dist / (0.06 * w), 0, 1)
    shade = (0.82 + 0.18 * edge)[..., None]
    out = np.empty((h, w, 4), np.uint8)
    out[..., :3] = np.clip(rgb.astype(np.float32) * shade, 0, 255).astype(np.uint8)
    out[..., 3] = alpha
    return out


@functools.lru_cache(maxsize=4096)
def face_image(tile: Tile, style: Style) -> np.ndarray:
    """RGBA face sprite (``FACE_H`` x ``FACE_W``) of ``tile`` in ``style``; cached.

    The face of ``Tile.BACK`` is the coloured back of the set.
    """
    t = Tile(tile)
    c = _Canvas(style)
    if t == Tile.BACK:
        _back_fill(c)
    elif t < Tile.P1:
        _characters(c, t.number)
    elif t < Tile.S1:
        _dots(c, t.number)
    elif t < Tile.EAST:
        _bamboo(c, t.number)
    elif t < Tile.FLOWER1:
        _honour(c, t)
    elif t < Tile.CAT:
        _flower(c, t)
    elif t < Tile.THUNG:
        _animal(c, t)
    elif t < Tile.EMPEROR1:
        _vn_joker(c, t)
    elif t < Tile.AMERICAN_JOKER:
        _royal(c, t)
    else:
        _american_joker(c)
    if style.american and (t.is_suited or t.is_wind):
        _americanise(c, t)
    rgb = c.out()
    if style.engraved > 0 and t != Tile.BACK:
        ink = (np.abs(rgb.astype(np.int16) - np.array(style.face_rgb, np.int16)).sum(-1) > 60).astype(np.float32)
        edge = np.clip(ink - np.roll(np.roll(ink, 1, 0), 1, 1), 0, 1)  # ink pixels on the lower-right rim
        rgb = (rgb * (1 - style.engraved * edge[..., None])).astype(np.uint8)
    out = _finish(rgb, style, t == Tile.BACK)
    out.setflags(write=False)
    return out


def back_image(style: Style) -> np.ndarray:
    """RGBA sprite of the coloured back of a tile of ``style``."""
    return face_image(Tile.BACK, style)


def with_back(style: Style, back_name: str) -> Style:
    """``style`` with another back colour (for tests and sheets)."""
    return replace(style, back_name=back_name)
