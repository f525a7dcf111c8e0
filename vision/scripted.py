"""Rendered tables with a known script of events: for the live benchmark, tests and demos.

Built on the renderer's public pieces (``vision.synth.render``: ``Box``, ``Camera``,
``render``; ``vision.synth.faces``: ``face_image``, ``make_style``). A camera fixed
above the table (East at the bottom edge) watches a game: each scripted step (discard,
chow/pung from the last discard, concealed kang, flower, Visayan Beauty / NEWS) changes
the table; every frame comes with its ground-truth labels, and hands pass over the table
now and then (hiding what is under them).

>>> script = ScriptedTable.demo_script()
>>> [str(e) for e in script[:2]]
['East discards 9m', 'South discards 1p']
>>> table = ScriptedTable(script, size=(480, 270), fps=4, hold=0.5)
>>> frames = list(table.frames())
>>> len(frames) == table.frame_count, frames[0].image.shape
(True, (270, 480, 3))
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

from engine.hand import MeldKind
from engine.seats import Seat
from engine.tiles import Tile, parse_tiles

__all__ = ["Step", "ScriptedTable", "VideoFrame", "guide_photo", "labels_to_detections", "steps_of"]


@dataclass(frozen=True)
class Step:
    """One scripted change: ``kind`` is discard, chow, pung, kang (concealed, or exposed when
    called with the last discard), added (a tile laid beside the seat's pung of it: sagása),
    flower, or a Visayan beauty / news (called with the last discard when ``from_seat`` is
    given)."""

    kind: str
    seat: Seat
    tiles: tuple[Tile, ...]
    from_seat: Seat | None = None  # chow/pung/kang/beauty/news: who discarded the called tile

    def __str__(self) -> str:
        codes = "".join(str(t) for t in self.tiles) if self.kind != "discard" else str(self.tiles[0])
        if self.kind == "discard":
            return f"{self.seat} discards {codes}"
        return f"{self.seat} {self.kind} {codes}"

    @property
    def meld_kind(self) -> MeldKind | None:
        if self.kind == "kang":
            return MeldKind.CONCEALED_KANG if self.from_seat is None else MeldKind.KANG
        return {"chow": MeldKind.CHOW, "pung": MeldKind.PUNG, "added": MeldKind.ADDED_KANG,
                "beauty": MeldKind.BEAUTY, "news": MeldKind.NEWS}.get(self.kind)


def steps_of(game: Any) -> list[Step]:
    """A hand played in full mode (``engine.game.Game``) as the steps a camera over its table
    sees, up to its win or the wall's end: each discard, flower, sagása and meld with its tiles
    as they lie and, for a claimed one, the seat whose discard it took (draws are not seen).

    >>> from engine.bots import GreedyBot, play_hand
    >>> from engine.game import Game
    >>> game = Game("filipino", seed=0)
    >>> play_hand(game, [GreedyBot() for _ in Seat]).kind
    'win'
    >>> steps = steps_of(game)
    >>> [str(s) for s in steps[:3]]  # every honour is a flower in the Filipino game
    ['East flower 3z', 'East flower 3z', 'East flower 7z']
    >>> chow = next(s for s in steps if s.kind == "chow"); str(chow), chow.from_seat
    ('North chow 7s8s9s', Seat.WEST)
    """
    import copy

    from engine.game import (
        AddedKang,
        Chow,
        ConcealedKang,
        DeclareBeauty,
        DeclareFlower,
        DeclareNews,
        Discard,
        DrawGame,
        Kang,
        Pung,
        Win,
    )

    kinds = {Chow: "chow", Pung: "pung", Kang: "kang", ConcealedKang: "kang", DeclareBeauty: "beauty",
             DeclareNews: "news"}
    replay = copy.deepcopy(game)
    while replay.history:
        replay.pop()
    steps = []
    for action in game.history:
        if isinstance(action, Win | DrawGame):
            break
        thrower = replay.last_discard[0] if replay.last_discard is not None else None
        replay.push(action)
        seat = action.seat
        if isinstance(action, Discard | DeclareFlower | AddedKang):
            kind = {Discard: "discard", DeclareFlower: "flower", AddedKang: "added"}[type(action)]
            steps.append(Step(kind, seat, (action.tile,)))
        elif type(action) in kinds:
            took = isinstance(action, Chow | Pung | Kang) or bool(getattr(action, "called", False))
            steps.append(Step(kinds[type(action)], seat, replay.melds(seat)[-1].tiles,
                              from_seat=thrower if took else None))
    return steps


@dataclass
class VideoFrame:
    index: int
    time: float  # seconds since the start of the video
    image: np.ndarray  # BGR
    labels: list[dict[str, Any]]  # the renderer's labels of the tiles visible in this frame
    step: int  # how many scripted steps the picture shows


def labels_to_detections(labels: list[dict[str, Any]]) -> Any:
    """Ground truth as a ``Detections`` (face-down tiles are ``Tile.BACK``): a perfect reader."""
    from vision.detections import Detections

    xyxy = np.array([lab["box"] for lab in labels], np.float32).reshape(-1, 4)
    up = np.array([lab.get("face") == "up" for lab in labels], bool)
    codes = np.array([int(Tile.parse(lab["code"])) if u else int(Tile.BACK) for lab, u in zip(labels, up, strict=True)],
                     np.int64)
    ones = np.ones(len(labels), np.float32)
    return Detections(xyxy, ones, up).with_codes(codes, ones)


# -- building tiles -------------------------------------------------------------------------------

_Z = np.array([0.0, 0.0, 1.0])


def _rot(yaw: float) -> np.ndarray:
    c, s = math.cos(yaw), math.sin(yaw)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


class _Builder:
    def __init__(self, style_index: int, height: float = 34.0) -> None:
        from vision.synth.faces import face_image, make_style

        self.style = make_style(style_index)
        self.face = face_image
        self.H = height
        self.W = height * self.style.aspect
        self.T = height * self.style.depth
        r, g, bl = (int(v * 0.96) for v in self.style.face_rgb)
        body = (r, g, bl)
        self.layers: list[tuple[float, tuple[int, int, int]]] = [
            (1 - self.style.back_frac, body), (self.style.back_frac, self.style.back_rgb)]
        self.objects: list[Any] = []

    def tile(self, code: Tile, x: float, y: float, z: float, yaw: float, pose: str,
             label: dict[str, Any], tilt: float = 0.12) -> None:
        from vision.synth.render import Box

        rz = _rot(yaw)
        if pose == "up":
            an, av = _Z, np.array([0.0, 1.0, 0.0])
        elif pose == "down":
            an, av = -_Z, np.array([0.0, 1.0, 0.0])
        else:  # standing, its face toward the player (local -y), leaning back a little
            an = np.array([0.0, -math.cos(tilt), math.sin(tilt)])
            av = np.array([0.0, math.sin(tilt), math.cos(tilt)])
        an, av = rz @ an, rz @ av
        au = np.cross(av, an)
        half = self.T / 2 if pose != "stand" else self.H / 2 * math.cos(tilt) + self.T / 2 * math.sin(tilt)
        c = np.array([x, y, z + half])
        self.objects.append(Box(c, au, av, an, (self.W, self.H, self.T), self.face(code, self.style),
                                self.face(Tile.BACK, self.style), self.layers,
                                {"code": str(code), **label}))


def _camera(size: tuple[int, int], span: float, elevation: float = 72.0, shift: float = 0.0) -> Any:
    from vision.synth.render import Camera

    elev = math.radians(elevation)
    f = size[1] * 1.1
    dist = f * span / size[1]
    target = np.array([0.0, -shift, 0.0])  # aim a little toward the near side: it looks bigger
    eye = target + dist * np.array([0.0, -math.cos(elev), math.sin(elev)])
    return Camera.look_at(eye, target, f, size)


def _felt(cam: Any, rgb: tuple[int, int, int] = (34, 110, 70)) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(3)
    noisy = np.clip(np.array(rgb, np.float32) + rng.normal(0, 6, (128, 128, 3)), 0, 255).astype(np.uint8)
    tex = np.asarray(cv2.GaussianBlur(noisy, (3, 3), 0), dtype=np.uint8)
    mm = 8.0  # mm per texture pixel
    a = np.array([[mm, 0, -64 * mm], [0, mm, -64 * mm], [0, 0, 1]])
    return tex, cam.plane_homography() @ a


def _paint(cam: Any, objects: list[Any], seam: float = 1.0) -> tuple[np.ndarray, list[dict[str, Any]]]:
    from vision.synth.render import render

    tex, hom = _felt(cam)
    res = render(cam, tex, hom, objects, [], np.array([0.2, -0.4, 1.0]), 0.6, shadows=True,
                 shadow_offset=(3.0, 4.0), shadow_strength=0.3, min_visible=0.3, seam=seam)
    labels: list[dict[str, Any]] = []
    for raw in res.labels:  # plain ints, so the labels write as JSON
        lab: dict[str, Any] = {k: (int(v) if isinstance(v, np.integer) else v) for k, v in raw.items()}
        lab["box"] = [int(v) for v in raw["box"]]
        labels.append(lab)
    image = np.clip(np.asarray(res.image, np.float32), 0, 255).astype(np.uint8)  # whatever the renderer hands back
    return np.ascontiguousarray(image[:, :, ::-1]), labels


# -- the scripted table -----------------------------------------------------------------------------


def _discard_place(k: int) -> tuple[int, int]:
    """Column and row of a seat's ``k``-th discard (0-based), in tiles from its first: three
    rows of six in front of the seat, then three rows of four in the corner at its right (a
    long Vietnamese hand leaves 27 discards before one seat; four rows of six ran into the
    next seat's, hiding tiles under tiles), then short rows nearer the centre (never needed in
    160 bot-played hands: beyond 36 they reach the centre).

    >>> [_discard_place(k) for k in (0, 5, 6, 17, 18, 21, 22, 29, 30, 34, 36)]
    [(0, 0), (5, 0), (0, 1), (5, 2), (6, 0), (9, 0), (6, 1), (9, 2), (1, 3), (2, 4), (2, 5)]
    """
    if k < 18:
        return k % 6, k // 6
    if k < 30:
        return 6 + (k - 18) % 4, (k - 18) // 4
    if k < 34:
        return 1 + (k - 30), 3
    return 2 + (k - 34) % 2, 4 + (k - 34) // 2


def _grown(meld: tuple[Step, int], added: Step) -> tuple[Step, int]:
    """``meld`` with ``added``'s tile laid beside it when it is the seat's pung of that tile."""
    step, turned = meld
    if step.kind != "pung" or step.tiles[0] != added.tiles[0]:
        return meld
    return replace(step, tiles=step.tiles + added.tiles), turned


@dataclass
class _SeatState:
    hand: int
    melds: list[tuple[Step, int]] = field(default_factory=list)  # step and its turned tile index
    flowers: list[Tile] = field(default_factory=list)
    discards: list[Tile] = field(default_factory=list)


# A tile's edges drawn this bright against its faces (``vision.synth.render``'s ``seam``; the
# middle of the training scenes' ``vision.synth.scenes.SEAM_RANGE``): ``bench_camera_referee.py
# --seam``. Drawn without (the default, as every figure until stop 72), a wall of touching
# backs is one slab: of the 48 set styles the served live reader knew the walls as dealt in 36
# (2 of the 11 with green backs on the green felt); with them, in 47. The classifier, taught
# on crops without them, names some tiles worse with them (``models/HISTORY.md``, stop 72).
SEAM = 0.7


class ScriptedTable:
    """A game played on a rendered table, frame by frame.

    ``hold`` seconds between steps; ``fps`` frames per second; ``occlusion`` is the
    share of steps during which a hand passes over the table; ``seam``: how bright the
    tiles' edges are drawn against their faces (1: none drawn; ``SEAM``: as on a real set).
    """

    def __init__(self, script: list[Step], *, size: tuple[int, int] = (1920, 1080), fps: float = 10.0,
                 hold: float = 1.2, hand_size: int = 16, style: int = 5, seed: int = 0,
                 occlusion: float = 0.3, seam: float = 1.0) -> None:
        self.script = script
        self.seam = seam
        self.size = size
        self.fps = fps
        self.hold = hold
        self.hand_size = hand_size
        self.style = style
        self.seed = seed
        self.occlusion = occlusion
        self.per_step = max(1, int(round(hold * fps)))
        self.frame_count = self.per_step * (len(script) + 1)
        self._cache: dict[int, tuple[np.ndarray, list[dict[str, Any]]]] = {}
        b = _Builder(style)
        self._wall_half = 18 * b.W / 2 + b.H / 2 + 6
        self._row = self._wall_half + b.H * 1.5 + 70
        self.camera = _camera(size, 2.3 * (self._row + b.H * 1.2), shift=0.1 * self._row)

    @staticmethod
    def demo_script() -> list[Step]:
        """A short Filipino-style game: discards all round, a pung, a chow, a secret, flowers."""
        def t(text: str) -> tuple[Tile, ...]:
            return tuple(parse_tiles(text))

        E, S, W, N = Seat.EAST, Seat.SOUTH, Seat.WEST, Seat.NORTH  # noqa: N806
        return [
            Step("discard", E, t("9m")), Step("discard", S, t("1p")), Step("discard", W, t("4s")),
            Step("discard", N, t("7p")), Step("flower", E, t("2f")), Step("discard", E, t("7p")),
            Step("pung", W, t("777p"), from_seat=E), Step("discard", W, t("2m")),
            Step("discard", N, t("8s")), Step("chow", E, t("678s"), from_seat=N),
            Step("discard", E, t("5m")), Step("kang", S, t("3333m")), Step("flower", S, t("6f")),
            Step("discard", S, t("9p")), Step("discard", W, t("1s")), Step("discard", N, t("3p")),
        ]

    # -- state --------------------------------------------------------------------------------------
    def state(self, upto: int) -> dict[Seat, _SeatState]:
        seats = {s: _SeatState(self.hand_size) for s in Seat}
        last: Seat | None = None
        for step in self.script[:upto]:
            st = seats[step.seat]
            if step.kind == "discard":
                st.discards.append(step.tiles[0])
                last = step.seat
            elif step.kind == "flower":
                st.flowers.append(step.tiles[0])
            elif step.kind in ("chow", "pung") or step.kind in ("kang", "beauty", "news") and step.from_seat is not None:
                if last is not None and seats[last].discards:
                    seats[last].discards.pop()
                frm = step.from_seat if step.from_seat is not None else step.seat.previous  # East is 0: no ``or``
                turned = {1: 0, 2: 1, 3: 2}[(step.seat - frm) % 4 or 3]
                st.melds.append((step, turned))
                # a kang and NEWS take a replacement tile
                st.hand -= len(step.tiles) - 1 - (step.kind in ("kang", "news"))
            elif step.kind == "added":
                st.melds = [_grown(m, step) for m in st.melds]
            elif step.kind in ("beauty", "news"):  # from the hand: laid face up, none turned
                st.melds.append((step, -1))
                st.hand -= len(step.tiles) - (step.kind == "news")
            elif step.kind == "kang":
                st.melds.append((step, -1))
                st.hand -= 3
            st.hand = max(st.hand, 1)
        return seats

    def _objects(self, upto: int) -> list[Any]:
        b = _Builder(self.style)
        rng = np.random.default_rng([self.seed, 99])
        drawn = upto  # one wall stack per step, taken from East's wall clockwise
        stacks = 18
        for seat in Seat:
            yaw = seat * math.pi / 2
            rz = _rot(yaw)
            for k in range(stacks):
                if seat * stacks + k < drawn:
                    continue
                p = rz @ np.array([(k - (stacks - 1) / 2) * (b.W + 0.4), -self._wall_half, 0.0])
                for level in (0, 1):
                    b.tile(Tile(int(rng.integers(34))), p[0], p[1], level * b.T, yaw, "down",
                           {"region": "wall", "seat": None, "group": None, "turned": False})
        for seat, st in self.state(upto).items():
            self._seat_objects(b, seat, st, rng)
        return b.objects

    def _seat_objects(self, b: _Builder, seat: Seat, st: _SeatState, rng: np.random.Generator) -> None:
        yaw = seat * math.pi / 2
        rz = _rot(yaw)
        gid = int(seat) * 10
        n = st.hand
        for j in range(n):
            lx = (j - (n - 1) / 2) * (b.W + 0.5)
            p = rz @ np.array([lx, -self._row, 0.0])
            b.tile(Tile(int(rng.integers(34))), p[0], p[1], 0.0, yaw, "stand",
                   {"region": "hand", "seat": int(seat), "group": gid, "turned": False})
        x = -(self._row - b.H * 0.5) * 0.9  # melds start at the player's left
        y = -self._row + b.H * 1.25
        for step, turned in st.melds:
            gid += 1
            for j, tile in enumerate(step.tiles):
                is_turned = j == turned
                w = b.H if is_turned else b.W
                ly = y + ((b.W - b.H) / 2 if is_turned else 0.0)
                p = rz @ np.array([x + w / 2, ly, 0.0])
                down = step.kind == "kang" and step.from_seat is None and j in (0, len(step.tiles) - 1)
                b.tile(tile, p[0], p[1], 0.0, yaw + (math.pi / 2 if is_turned else 0.0), "down" if down else "up",
                       {"region": "meld", "seat": int(seat), "group": gid, "turned": is_turned})
                x += w + 0.5
            x += b.W * 0.6
        if st.flowers:
            gid += 1
            x += b.W * 0.6
            for tile in st.flowers:
                p = rz @ np.array([x + b.W / 2, y, 0.0])
                b.tile(tile, p[0], p[1], 0.0, yaw, "up",
                       {"region": "flower", "seat": int(seat), "group": gid, "turned": False})
                x += b.W + 0.5
        # discards: rows of six in front of the discarder, inside the walls, then on into the
        # corner at the discarder's right, where no other seat lays its own
        for k, tile in enumerate(st.discards):
            col, row = _discard_place(k)
            lx = (col - 2.5) * (b.W + 3)
            ly = -self._wall_half + b.H * (1.6 + 1.15 * row)
            p = rz @ np.array([lx, ly, 0.0])
            # each discard lies a little askew, and stays so: drawn from the shared stream, whose
            # draws before it change each step (a wall stack fewer), every discard turned anew at
            # each step, and the reader read the whole pool again
            askew = float(np.random.default_rng([self.seed, 99, int(seat), k]).normal(0, 0.08))
            b.tile(tile, p[0], p[1], 0.0, yaw + askew, "up",
                   {"region": "discard", "seat": int(seat), "group": None, "turned": False})

    def picture(self, upto: int) -> tuple[np.ndarray, list[dict[str, Any]]]:
        """The table after ``upto`` steps (cached): BGR image and labels."""
        if upto not in self._cache:
            self._cache[upto] = _paint(self.camera, self._objects(upto), self.seam)
        return self._cache[upto]

    # -- frames -----------------------------------------------------------------------------------------
    def step_time(self, k: int) -> float:
        """When (seconds into the video) step ``k`` (0-based) first shows."""
        return (k + 1) * self.per_step / self.fps

    def frames(self) -> Iterator[VideoFrame]:
        for i in range(self.frame_count):
            yield self.frame(i)

    def frame(self, i: int) -> VideoFrame:
        """Frame ``i`` of the video (0 <= i < ``frame_count``): a live source skips frames."""
        if not 0 <= i < self.frame_count:
            raise IndexError(f"frame {i} is not in this video of {self.frame_count} frames")
        upto = i // self.per_step
        image, labels = self.picture(upto)
        within = i % self.per_step
        if upto in self._passes and 0 < within < self.per_step - 1:
            image, labels = self._hand_over(image, labels, upto, within)
        return VideoFrame(i, i / self.fps, image, labels, upto)

    @functools.cached_property
    def _passes(self) -> set[int]:
        """The steps during which a hand passes over the table."""
        rng = np.random.default_rng([self.seed, 7])
        return {k for k in range(len(self.script) + 1) if rng.random() < self.occlusion}

    def _hand_over(self, image: np.ndarray, labels: list[dict[str, Any]], upto: int, within: int
                   ) -> tuple[np.ndarray, list[dict[str, Any]]]:
        """A forearm sweeping in from the bottom edge: tiles mostly under it are not seen."""
        w, h = self.size
        rng = np.random.default_rng([self.seed, upto])
        x0 = float(rng.uniform(0.2, 0.8)) * w
        reach = (within / self.per_step) * 0.55 * h
        tip = np.array([x0 + float(rng.normal(0, 0.1)) * w, h - reach])
        base = np.array([x0, h + 20.0])
        width = 0.07 * w
        mask = np.zeros((h, w), np.uint8)
        cv2.line(mask, tuple(int(v) for v in base), tuple(int(v) for v in tip), 255, int(width))
        cv2.circle(mask, tuple(int(v) for v in tip), int(width * 0.7), 255, -1)
        out = image.copy()
        out[mask > 0] = (120, 150, 200)
        kept = []
        for lab in labels:
            x1, y1, x2, y2 = lab["box"]
            covered = float(mask[y1:y2, x1:x2].mean()) / 255 if x2 > x1 and y2 > y1 else 1.0
            if covered < 0.5:
                kept.append(lab)
        return out, kept


def guide_photo(variant: str, style: int, size: tuple[int, int] = (1600, 1200), seed: int = 0
                ) -> tuple[np.ndarray, list[dict[str, Any]]]:
    """A rendered photo of one of each tile laid out as the calibration guide shows."""
    from vision.calibrate import guide_rows

    rows = guide_rows(variant)
    b = _Builder(style)
    rng = np.random.default_rng(seed)
    cols = max(len(r) for r in rows)
    gap_x, gap_y = b.W * 0.35, b.H * 0.7
    for r, row in enumerate(rows):
        for c, tile in enumerate(row):
            x = (c - (cols - 1) / 2) * (b.W + gap_x) + float(rng.normal(0, 1))
            y = ((len(rows) - 1) / 2 - r) * (b.H + gap_y) + float(rng.normal(0, 1))
            b.tile(tile, x, y, 0.0, float(rng.normal(0, 0.03)), "up",
                   {"region": "guide", "seat": None, "group": r, "turned": False})
    span = len(rows) * (b.H + gap_y) + 2 * b.H
    cam = _camera(size, span * 1.05, elevation=80.0)
    return _paint(cam, b.objects)


@dataclass(frozen=True)
class HandLayout:
    """What a hand photo shows: the concealed row, melds in front of it, flowers beside them.

    ``melds`` are (tiles, turned index or -1, secret): a secret shows its outer tiles face down.
    """

    concealed: tuple[Tile, ...]
    melds: tuple[tuple[tuple[Tile, ...], int, bool], ...] = ()
    flowers: tuple[Tile, ...] = ()
    drawn_gap: bool = False  # the last concealed tile set a little apart
    second_hand: tuple[Tile, ...] = ()  # another player's row behind (a photo of two hands)

    @classmethod
    def parse(cls, text: str, **kw: Any) -> HandLayout:
        """``"123m456p 99s / [555p]^1 (2222s) / 1f 2f"``: concealed / melds (^k: turned tile k) / flowers.

        >>> lay = HandLayout.parse("123m / [555p]^0 (7777s) / 3f")
        >>> len(lay.concealed), lay.melds[1][2], lay.flowers
        (3, True, (Tile.FLOWER3,))
        """
        parts = [p.strip() for p in text.split("/")] + ["", ""]
        melds = []
        for token in parts[1].split():
            secret = token.startswith("(")
            body, _, turn = token.strip("[]()").partition("^")
            body = body.rstrip("])")
            melds.append((tuple(parse_tiles(body)), int(turn.rstrip("])")) if turn else -1, secret))
        return cls(tuple(parse_tiles(parts[0])), tuple(melds), tuple(parse_tiles(parts[2])), **kw)


def hand_photo(layout: HandLayout, *, style: int = 3, size: tuple[int, int] = (1280, 960),
               elevation: float = 55.0, roll: float = 0.0, yaw: float = 0.0, seed: int = 0
               ) -> tuple[np.ndarray, list[dict[str, Any]]]:
    """A rendered photo of one hand as a player photographs it (labels carry region and group).

    ``roll`` tilts the photo (degrees); ``yaw`` turns the camera around the row.
    """
    from vision.synth.render import Camera

    b = _Builder(style)
    rng = np.random.default_rng(seed)
    n = len(layout.concealed)
    gap = b.W * 0.5 if layout.drawn_gap else 0.0
    x0 = -(n * (b.W + 0.3) + gap) / 2
    for j, tile in enumerate(layout.concealed):
        x = x0 + j * (b.W + 0.3) + b.W / 2 + (gap if j == n - 1 else 0.0)
        b.tile(tile, x, 0.0, 0.0, float(rng.normal(0, 0.01)), "stand",
               {"region": "hand", "seat": 0, "group": 0, "turned": False}, tilt=0.15)
    y = -b.H * 1.15  # melds in front of the row, toward the camera
    x = x0
    for g, (tiles, turned, secret) in enumerate(layout.melds, start=1):
        for j, tile in enumerate(tiles):
            is_turned = j == turned
            w = b.H if is_turned else b.W
            ly = y + ((b.W - b.H) / 2 if is_turned else 0.0)
            down = secret and j in (0, len(tiles) - 1)
            b.tile(tile, x + w / 2, ly, 0.0, (math.pi / 2 if is_turned else 0.0) + float(rng.normal(0, 0.01)),
                   "down" if down else "up", {"region": "meld", "seat": 0, "group": g, "turned": is_turned})
            x += w + 0.4
        x += b.W * 0.45
    if layout.flowers:
        x += b.W * 0.5
        for tile in layout.flowers:
            b.tile(tile, x + b.W / 2, y, 0.0, float(rng.normal(0, 0.01)), "up",
                   {"region": "flower", "seat": 0, "group": len(layout.melds) + 1, "turned": False})
            x += b.W + 0.4
    if layout.second_hand:
        m = len(layout.second_hand)
        for j, tile in enumerate(layout.second_hand):
            b.tile(tile, -(m * (b.W + 0.3)) / 2 + j * (b.W + 0.3) + b.W / 2, b.H * 2.2, 0.0, 0.0, "stand",
                   {"region": "hand", "seat": 1, "group": 99, "turned": False}, tilt=0.15)
    width = max(n * (b.W + 0.3) + gap, x - x0) + b.W
    f = size[0] * 0.95
    dist = f * width * 1.05 / size[0]  # the hand fills most of the width
    elev, az = math.radians(elevation), math.radians(yaw)
    target = np.array([0.0, -b.H * 0.4 + (b.H if layout.second_hand else 0.0), b.H * 0.3])
    eye = target + dist * np.array([math.sin(az) * math.cos(elev), -math.cos(az) * math.cos(elev), math.sin(elev)])
    cam = Camera.look_at(eye, target, f, size, roll=math.radians(roll))
    return _paint(cam, b.objects)
