"""Scene layouts: a player's hand photographed close up, and a whole table from above.

:func:`make_scene` lays out tiles (with their codes, regions, seats and meld groups), a
camera, a table cloth and lights for scene ``index`` of a ``seed``; :func:`render_scene`
paints it and returns the image with one label per visible tile. Everything is drawn from
``numpy.random.default_rng([seed, index])`` so a scene never depends on the others.

>>> sc = make_scene(7, 0, kind="hand", size=(320, 240))
>>> res = render_scene(sc)
>>> res.image.shape, all(0 <= t["box"][0] < t["box"][2] <= 320 for t in res.labels)
((240, 320, 3), True)
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from engine.tiles import Tile
from vision.synth.clutter import CLUTTER_STREAM, chairs, gadgets
from vision.synth.faces import NUM_STYLES, Style, face_image, make_style
from vision.synth.render import Box, Camera, Disc, Occluder, RenderResult, render, rot_z

__all__ = ["Scene", "SceneResult", "make_scene", "render_scene", "tile_set", "laid_aside", "check_deal", "KINDS", "VARIANTS", "DEALS"]

KINDS = ("hand", "table")
VARIANTS = ("filipino", "singapore", "vietnam", "american", "hongkong")
Z = np.array([0.0, 0.0, 1.0])

CodeSampler = Callable[[np.random.Generator, int], list[Tile]]
Aside = Callable[[Tile], bool]
DEALS = ("any", "rules")


def tile_set(variant: str) -> list[Tile]:
    """The multiset of tiles of a variant's full set.

    >>> len(tile_set("filipino")), len(tile_set("singapore")), len(tile_set("vietnam"))
    (144, 148, 160)
    """
    base = [Tile(t) for t in range(34) for _ in range(4)]
    flowers = [Tile(t) for t in range(34, 42)]
    if variant == "singapore":
        return base + flowers + [Tile(t) for t in range(42, 46)]
    if variant == "vietnam":
        return base + flowers + [Tile(t) for t in range(46, 62)]
    if variant == "american":
        return base + flowers + [Tile.AMERICAN_JOKER] * 8
    return base + flowers


@dataclass
class Scene:
    seed: int
    index: int
    kind: str
    variant: str
    style: Style
    cam: Camera
    objects: list[Box | Disc]
    occluders: list[Occluder]
    background: np.ndarray
    bg_h: np.ndarray
    light: np.ndarray
    ambient: float
    shadow_offset: tuple[float, float]
    shadow_strength: float
    post: dict[str, Any]
    groups: list[dict[str, Any]] = field(default_factory=list)
    floor: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None  # texture, homography, table polygon
    under: list[Box] = field(default_factory=list)  # table rims
    below: list[Box] = field(default_factory=list)  # chairs on the floor, partly under the table


@dataclass
class SceneResult:
    image: np.ndarray  # RGB uint8
    labels: list[dict[str, Any]]
    meta: dict[str, Any]
    jpeg_quality: int


# --------------------------------------------------------------------------- backgrounds
_FELTS = [(30, 110, 60), (24, 90, 110), (40, 70, 140), (120, 30, 40), (60, 60, 64), (28, 120, 90),
          (90, 140, 70), (180, 170, 150), (35, 35, 38), (110, 70, 120), (50, 150, 70), (70, 165, 85),
          (36, 130, 66), (20, 80, 50)]
_WOODS = [(150, 100, 60), (110, 70, 40), (190, 150, 100), (80, 50, 30), (200, 170, 130)]
_TEX = 512
# Phone photos of a hand are often held askew: a real validation row runs at ~35 degrees, and
# a detector that saw rows within a few degrees of level boxed that one half a tile off.
STEEP_ROLL_SHARE = 0.25
STEEP_ROLL_DEG = (20.0, 45.0)
# A tile's rounded edges show darker than its faces (``render``'s ``seam``: that brightness
# against theirs), from crisp to faint; drawn flat, touching backs made a seamless slab.
SEAM_STREAM = 3
SEAM_RANGE = (0.55, 0.85)


@functools.lru_cache(maxsize=64)
def _texture(kind: str, variant: int) -> np.ndarray:
    """A 512x512 RGB table-cloth texture; float32 noise and per-row terms keep a miss cheap."""
    rng = np.random.default_rng([4242, ("felt", "wood", "cloth").index(kind), variant])
    if kind == "felt":
        img = _felt(rng, variant)
    elif kind == "wood":
        img = _wood(rng, variant)
    else:
        img = _cloth(rng, variant)
    out: np.ndarray = np.clip(img, 0, 255).astype(np.uint8)
    return out


def _normal(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    out: np.ndarray = rng.standard_normal(shape, dtype=np.float32)
    return out


def _tint(gray: np.ndarray, col: np.ndarray) -> np.ndarray:
    """``gray[..., None] * col`` with OpenCV (numpy broadcasting over 3 channels is 10x slower)."""
    out: np.ndarray = cv2.transform(gray.astype(np.float32), np.asarray(col, np.float32).reshape(3, 1))
    return out


def _felt(rng: np.random.Generator, variant: int) -> np.ndarray:
    n = _TEX
    col = np.array(_FELTS[variant % len(_FELTS)], np.float32) * np.float32(rng.uniform(0.8, 1.15))
    noise = cv2.GaussianBlur(_normal(rng, (n, n)), (0, 0), 0.7)
    blot = cv2.resize(_normal(rng, (8, 8)), (n, n), interpolation=cv2.INTER_CUBIC)
    return _tint(1 + 0.06 * noise + 0.04 * blot, col)


def _wood(rng: np.random.Generator, variant: int) -> np.ndarray:
    n = _TEX
    col = np.array(_WOODS[variant % len(_WOODS)], np.float32)
    yy = np.arange(n, dtype=np.float32)[:, None]
    xx = np.arange(n, dtype=np.float32)[None, :]
    warp = cv2.resize(_normal(rng, (6, 6)), (n, n), interpolation=cv2.INTER_CUBIC)
    freq = np.float32(rng.uniform(0.25, 0.6))
    grain = np.sin((yy + 6 * warp + 0.02 * xx) * freq) * 0.5 + 0.5
    # long fibres: blurred noise stretched along x (blurring a narrow field, then widening it,
    # is 20x cheaper than a sigma-12 blur at full width and looks the same)
    fine = cv2.resize(cv2.GaussianBlur(_normal(rng, (n, n // 8)), (0, 0), sigmaX=1.5, sigmaY=0.7), (n, n),
                      interpolation=cv2.INTER_LINEAR) * 0.36  # same contrast as the wide blur
    plank_h = int(rng.integers(70, 140))
    row = np.arange(n)
    shade = (0.9 + 0.2 * np.random.default_rng(variant).random(n // plank_h + 2))[row // plank_h]
    seam = (row % plank_h < 2).astype(np.float32)
    rows = (shade * (1 - 0.45 * seam)).astype(np.float32)[:, None]  # per-row terms, computed once
    img = _tint(rows * (0.88 + 0.12 * grain + 0.06 * fine), col)
    if variant % 2:
        img = np.ascontiguousarray(img.transpose(1, 0, 2))
    return img


def _cloth(rng: np.random.Generator, variant: int) -> np.ndarray:
    """Printed cloth: checks, spots or stripes in two colours."""
    n = _TEX
    c1 = np.array(_FELTS[variant % len(_FELTS)], np.float32)
    c2 = 0.5 * c1 + 0.5 * np.array(rng.integers(40, 240, 3), np.float32)
    yy = np.arange(n, dtype=np.float32)[:, None]
    xx = np.arange(n, dtype=np.float32)[None, :]
    p = rng.integers(3)
    period = np.float32(rng.uniform(24, 64))
    if p == 0:
        m = ((xx // period + yy // period) % 2).astype(np.float32)
    elif p == 1:
        m = (np.sin(xx / period * 6.28) * np.sin(yy / period * 6.28) > 0.4).astype(np.float32)
    else:
        m = (((xx + yy) % period) < period * 0.3).astype(np.float32)
    soft = cv2.GaussianBlur(m, (0, 0), 1.0)
    grain = 1 + 0.04 * _normal(rng, (n, n))
    out: np.ndarray = _tint(grain * (1 - soft), c1) + _tint(grain * soft, c2)
    return out


def _background(rng: np.random.Generator) -> tuple[np.ndarray, float]:
    kind = str(rng.choice(["felt", "wood", "cloth"], p=[0.65, 0.25, 0.1]))
    tex = _texture(kind, int(rng.integers(len(_FELTS))))
    mm_per_px = float(rng.uniform(0.8, 2.5)) if kind != "felt" else float(rng.uniform(1.5, 3.0))
    return tex, mm_per_px


# --------------------------------------------------------------------------- tiles
@dataclass
class _Ctx:
    rng: np.random.Generator
    style: Style
    W: float
    H: float
    T: float
    objects: list[Box | Disc]
    groups: list[dict[str, Any]]
    layers: list[tuple[float, tuple[int, int, int]]]
    aside: Aside | None = None  # dealt by the variant's rules: what its tables lay aside

    def tile(
        self,
        code: Tile,
        pos: tuple[float, float, float],
        yaw: float,
        pose: str,
        label: dict[str, Any],
        tilt: float = 0.0,
    ) -> Box:
        """Add one tile. ``yaw`` turns the tile about z; pose "up", "down", "stand" (face -y)."""
        Rz = rot_z(yaw)
        if pose == "up":
            an, av = Z, np.array([0.0, 1.0, 0.0])
        elif pose == "down":
            an, av = -Z, np.array([0.0, 1.0, 0.0])
        else:  # standing, face towards -y, leaning back by tilt (rad)
            an = np.array([0.0, -math.cos(tilt), math.sin(tilt)])
            av = np.array([0.0, math.sin(tilt), math.cos(tilt)])
        an, av = Rz @ an, Rz @ av
        au = np.array([av[1] * an[2] - av[2] * an[1], av[2] * an[0] - av[0] * an[2],
                       av[0] * an[1] - av[1] * an[0]])  # av x an (np.cross costs 60 us)
        half_z = (self.T / 2) if pose in ("up", "down") else (
            self.H / 2 * math.cos(tilt) + self.T / 2 * math.sin(tilt)
        )
        c = np.array([pos[0], pos[1], pos[2] + half_z])
        if pose == "stand":
            c = c + Rz @ np.array([0.0, self.H / 2 * math.sin(tilt), 0.0])
        lab = {"code": str(code), **label}
        b = Box(c, au, av, an, (self.W, self.H, self.T), face_image(code, self.style),
                face_image(Tile.BACK, self.style), self.layers, lab)
        self.objects.append(b)
        return b


def _layers(style: Style) -> list[tuple[float, tuple[int, int, int]]]:
    body = tuple(int(v * 0.96) for v in style.face_rgb)
    return [(1 - style.back_frac, body), (style.back_frac, style.back_rgb)]  # type: ignore[list-item]


def _draw(pool: list[Tile], rng: np.random.Generator, n: int, aside: Aside | None = None) -> list[Tile]:
    """``n`` tiles taken from ``pool`` at random (fewer once it runs out), none that ``aside``
    says a table lays aside."""
    out = []
    for _ in range(n):
        free = range(len(pool)) if aside is None else [k for k, t in enumerate(pool) if not aside(t)]
        if not free:
            break
        out.append(pool.pop(free[int(rng.integers(len(free)))]))
    return out


def _is_bonus(tile: Tile) -> bool:
    return tile.is_bonus


def check_deal(deal: str) -> None:
    """A ``ValueError`` naming ``deal`` unless it is one of ``DEALS``."""
    if deal not in DEALS:
        raise ValueError(f"unknown deal {deal!r}: use any or rules")


def laid_aside(variant: str) -> Aside:
    """The tiles a table of ``variant`` lays aside as they are drawn, never held, melded or
    discarded: flowers, seasons, animals and royalty, and in Filipino every honour too
    (Vietnamese and American jokers are held; dealt by the rules, a Vietnamese joker may
    also lie among a player's flowers, exposed for points, or among the discards).

    >>> laid_aside("filipino")(Tile.parse("5z")), laid_aside("singapore")(Tile.parse("5z"))
    (True, False)
    """
    if variant == "filipino":
        return lambda t: t.is_bonus or t.is_honor
    return _is_bonus


def _meld(pool: list[Tile], rng: np.random.Generator, aside: Aside | None = None) -> tuple[str, list[Tile]] | None:
    """Pick a meld kind and its tiles, taken from ``pool`` (None when the pool holds no
    meld): a set holds four of each tile, so a table never shows a fifth."""
    kind = str(rng.choice(["chow", "pung", "kang", "ckang"], p=[0.45, 0.33, 0.12, 0.1]))
    playable = [t for t in pool if t < 34 and not (aside and aside(t))]
    if not playable:
        return None
    t0 = playable[int(rng.integers(len(playable)))]
    tiles = [t0] * (4 if kind in ("kang", "ckang") else 3)
    if kind == "chow":
        base = int(t0) // 9 * 9 + min(t0.number, 7) - 1 if t0 < 27 else -1
        run = [Tile(base + k) for k in range(3)] if base >= 0 else []
        kind, tiles = ("chow", run) if run and all(t in pool for t in run) else ("pung", tiles[:3])
    if kind != "chow" and playable.count(t0) < len(tiles):  # too few left of t0: a pung of one with three
        threes = sorted({t for t in playable if playable.count(t) >= 3})
        if not threes:
            return None
        kind, tiles = "pung", [threes[int(rng.integers(len(threes)))]] * 3
    for t in tiles:
        pool.remove(t)
    return kind, tiles


def _lay_melds(
    ctx: _Ctx,
    pool: list[Tile],
    melds: list[tuple[str, list[Tile]]],
    flowers: list[Tile],
    origin: Vec3,
    yaw: float,
    seat: int,
    gid0: int,
) -> int:
    """Melds left to right along local +x starting at origin (local frame rotated by yaw)."""
    Rz = rot_z(yaw)
    rng = ctx.rng
    x = 0.0
    gid = gid0
    gap = ctx.W * float(rng.uniform(0.15, 0.6))
    for kind, tiles in melds:
        called = int(rng.integers(len(tiles))) if kind != "ckang" and rng.random() < 0.75 else -1
        members = []
        for j, t in enumerate(tiles):
            turned = j == called
            face_down = kind == "ckang" and j in (0, len(tiles) - 1)
            wx = ctx.H if turned else ctx.W
            lx = x + wx / 2
            ly = (ctx.W - ctx.H) / 2 if turned else 0.0
            p = origin + Rz @ np.array([lx, ly, 0.0])
            ctx.tile(t, (p[0], p[1], 0.0), yaw + (math.pi / 2 if turned else 0.0) + rng.normal(0, 0.015),
                     "down" if face_down else "up",
                     {"region": "meld", "seat": seat, "group": gid, "turned": turned})
            members.append(len(ctx.objects) - 1)
            x += wx + float(rng.uniform(0, 0.8))
        ctx.groups.append({"id": gid, "seat": seat, "kind": kind, "region": "meld", "objects": members})
        gid += 1
        x += gap
    if flowers:
        members = []
        x += gap
        for t in flowers:
            p = origin + Rz @ np.array([x + ctx.W / 2, 0.0, 0.0])
            ctx.tile(t, (p[0], p[1], 0.0), yaw + rng.normal(0, 0.02), "up",
                     {"region": "flower", "seat": seat, "group": gid, "turned": False})
            members.append(len(ctx.objects) - 1)
            x += ctx.W + float(rng.uniform(0, 1.0))
        ctx.groups.append({"id": gid, "seat": seat, "kind": "flowers", "region": "flower", "objects": members})
        gid += 1
    return gid


Vec3 = np.ndarray


def _hand_row(
    ctx: _Ctx, tiles: list[Tile], center: Vec3, yaw: float, pose: str, tilt: float, seat: int, gid: int
) -> None:
    Rz = rot_z(yaw)
    rng = ctx.rng
    n = len(tiles)
    gap = float(rng.uniform(0.0, 0.8))
    drawn_gap = ctx.W * 0.5 if rng.random() < 0.4 else 0.0
    total = n * ctx.W + (n - 1) * gap + drawn_gap
    x = -total / 2
    members = []
    curve = float(rng.normal(0, 0.0006)) if pose != "stand" else 0.0
    for j, t in enumerate(tiles):
        if j == n - 1 and n % 3 == 2:
            x += drawn_gap
        lx = x + ctx.W / 2
        ly = curve * lx * lx + float(rng.normal(0, 0.4))
        p = center + Rz @ np.array([lx, ly, 0.0])
        ctx.tile(t, (p[0], p[1], 0.0), yaw + float(rng.normal(0, 0.02)), pose,
                 {"region": "hand", "seat": seat, "group": gid, "turned": False}, tilt=tilt)
        members.append(len(ctx.objects) - 1)
        x += ctx.W + gap
    ctx.groups.append({"id": gid, "seat": seat, "kind": "hand", "region": "hand", "objects": members})


def _player(
    ctx: _Ctx, pool: list[Tile], seat: int, yaw: float, row_dist: float, hand_size: int,
    pose: str, tilt: float, gid: int, draw_tiles: Callable[[int], list[Tile]],
) -> tuple[int, float]:
    """One player's hand row, melds and flowers; local frame: player at -y, centre at +y."""
    rng = ctx.rng
    Rz = rot_z(yaw)
    max_melds = (hand_size - 1) // 3
    n_melds = int(rng.choice(min(max_melds, 4) + 1, p=None))
    n_melds = min(n_melds, int(rng.integers(0, 4)))
    melds = [m for m in (_meld(pool, rng, ctx.aside) for _ in range(n_melds)) if m is not None]
    n_melds = len(melds)
    # "Players may also expose jokers if so desired for additional hand points or use them
    # as jokers" (the Vietnamese rules): dealt by the rules, a joker may lie with the flowers
    bonus = [t for t in pool if (ctx.aside or _is_bonus)(t) or (ctx.aside is not None and t.is_vn_joker)]
    n_fl = int(rng.integers(0, 4)) if bonus else 0
    flowers = _draw(bonus, rng, n_fl)
    for f in flowers:
        pool.remove(f)
    n_hand = hand_size - 3 * n_melds + (1 if rng.random() < 0.4 else 0)
    hand = draw_tiles(n_hand)
    center = Rz @ np.array([0.0, -row_dist, 0.0])
    _hand_row(ctx, hand, center, yaw, pose, tilt, seat, gid)
    gid += 1
    if melds or flowers:
        in_front = rng.random() < 0.6
        dy = (ctx.H * 0.5 + ctx.T + float(rng.uniform(4, 40))) * (1 if in_front else -1)
        if pose == "up":
            dy = (ctx.H + float(rng.uniform(4, 30))) * (1 if in_front else -1)
        width = sum(len(m[1]) for m in melds) * ctx.W + len(flowers) * ctx.W + 80
        ox = -width / 2 + float(rng.uniform(-60, 60))
        origin = Rz @ np.array([ox, -row_dist + dy, 0.0])
        gid = _lay_melds(ctx, pool, melds, flowers, origin, yaw, seat, gid)
    return gid, n_hand * ctx.W


# --------------------------------------------------------------------------- scenes
def _new_ctx(rng: np.random.Generator, style: Style, aside: Aside | None = None) -> _Ctx:
    H = float(rng.uniform(30, 40))
    return _Ctx(rng, style, H * style.aspect, H, H * style.depth, [], [], _layers(style), aside)


def _code_drawer(
    pool: list[Tile], rng: np.random.Generator, sampler: CodeSampler | None, aside: Aside | None = None
) -> Callable[[int], list[Tile]]:
    """``n`` codes a call: the sampler's, else tiles taken from the set's ``pool`` (fewer once
    it runs out: a table shows no more of a tile than its set holds), none that ``aside``
    says its tables lay aside."""
    if sampler is not None:
        return lambda n: sampler(rng, n)
    return lambda n: _draw(pool, rng, n, aside)


def _pool(rng: np.random.Generator, variant: str) -> list[Tile]:
    return list(tile_set(variant))


def _hand_scene(rng: np.random.Generator, style: Style, size: tuple[int, int], variant: str,
                sampler: CodeSampler | None, aside: Aside | None = None) -> tuple[_Ctx, Camera, float]:
    ctx = _new_ctx(rng, style, aside)
    pool = _pool(rng, variant)
    draw = _code_drawer(pool, rng, sampler, aside)
    hand_size = 16 if variant in ("filipino",) else 13
    pose = str(rng.choice(["stand", "up", "tilt"], p=[0.45, 0.4, 0.15]))
    tilt = float(rng.uniform(0, 0.25)) if pose == "stand" else float(rng.uniform(0.6, 1.1))
    if pose == "tilt":
        pose = "stand"
    gid, row_len = _player(ctx, pool, 0, 0.0, 0.0, hand_size, pose, tilt, 0, draw)
    _rack_lip(ctx, rng)
    _around_the_hand(ctx, rng, draw, row_len, gid)
    xs = [float(o.center[0]) for o in ctx.objects if isinstance(o, Box) and o.label and o.label["seat"] == 0]
    row_len = max(row_len, max(xs) - min(xs) + ctx.W)
    cam = _hand_camera(ctx, rng, size, row_len, steep=not (pose == "stand" and tilt < 0.3))
    return ctx, cam, float(rng.uniform(0.6, 2.0))


def _rack_lip(ctx: _Ctx, rng: np.random.Generator) -> None:
    """Now and then a rack's lip (wood, or a plain colour) just in front of seat 0's row."""
    own = [o for o in ctx.objects if isinstance(o, Box) and o.label and o.label["seat"] == 0]
    row = [o for o in own if o.label is not None and o.label["region"] == "hand"]
    front = min(float(o.corners()[:, 1].min()) for o in row)
    if not (rng.random() < 0.35 and all(float(o.center[1]) >= 0 for o in own)):
        return
    depth, height = float(rng.uniform(10, 30)), float(rng.uniform(6, 18))
    rx = [float(o.center[0]) for o in row]
    length = max(rx) - min(rx) + ctx.W * float(rng.uniform(1.5, 4))
    wood = rng.random() < 0.5
    rgb = _WOODS[int(rng.integers(len(_WOODS)))] if wood else (
        (236, 232, 222) if rng.random() < 0.5 else tuple(int(v) for v in rng.integers(30, 200, 3)))
    c = np.array([(max(rx) + min(rx)) / 2, front - float(rng.uniform(1, 6)) - depth / 2, height / 2])
    top = _rgba("wood", int(rng.integers(5))) if wood else None
    ctx.objects.append(Box(c, np.array([1.0, 0, 0]), np.array([0, 1.0, 0]), Z, (length, depth, height),
                           top, None, [(1.0, tuple(int(v * 0.85) for v in rgb))], None))  # type: ignore[list-item]


def _around_the_hand(ctx: _Ctx, rng: np.random.Generator, draw: Callable[[int], list[Tile]], row_len: float,
                     gid: int) -> None:
    """Clutter further away than seat 0's hand (``row_len`` long): a discard pool, a wall,
    the other players' rows (meld groups numbered on from ``gid``), dice and coins."""
    H = ctx.H
    n_disc = int(rng.choice([0, int(rng.integers(1, 12)), int(rng.integers(12, 45))], p=[0.15, 0.4, 0.45]))
    cx, cy = float(rng.normal(0, row_len * 0.3)), float(rng.uniform(H * 4, H * 9))
    for t in draw(n_disc):
        x = cx + float(rng.normal(0, row_len * 0.45))
        y = max(H * 2.2, cy + float(rng.normal(0, H * 2.5)))
        ctx.tile(t, (x, y, 0.0), float(rng.uniform(-math.pi, math.pi)) * (rng.random() < 0.5) + float(rng.normal(0, 0.3)),
                 "up" if rng.random() < 0.92 else "down", {"region": "discard", "seat": None, "group": None, "turned": False})
    if rng.random() < 0.5:
        y = float(rng.uniform(H * 3, H * 9))
        n = int(rng.integers(4, 18))
        x0 = float(rng.uniform(-row_len, 0))
        for k in range(n):
            for lvl in (0, 1):
                ctx.tile(Tile(int(rng.integers(34))), (x0 + k * ctx.W, y, lvl * ctx.T), math.pi, "down",
                         {"region": "wall", "seat": None, "group": None, "turned": False})
    if rng.random() < 0.35:  # the player across, seen from behind
        yd = float(rng.uniform(H * 10, H * 18))
        _hand_row(ctx, draw(int(rng.choice([13, 16]))), np.array([float(rng.normal(0, 40)), yd, 0.0]), math.pi,
                  "stand", float(rng.uniform(0, 0.2)), 2, gid)
        gid += 1
    for side, seat in ((1.0, 1), (-1.0, 3)):  # players left and right
        if rng.random() < 0.2:
            xs_ = side * (row_len / 2 + float(rng.uniform(H * 2, H * 6)))
            _hand_row(ctx, draw(13), np.array([xs_, float(rng.uniform(H * 4, H * 9)), 0.0]), side * math.pi / 2,
                      "stand", float(rng.uniform(0, 0.2)), seat, gid)
            gid += 1
    if rng.random() < 0.3:
        _dice_coins(ctx, (float(rng.uniform(-row_len / 2, row_len / 2)), float(rng.uniform(ctx.H * 2, ctx.H * 5))))


def _hand_camera(ctx: _Ctx, rng: np.random.Generator, size: tuple[int, int], row_len: float, steep: bool) -> Camera:
    """A seated player's view or a phone held above the row (``row_len`` long), the row
    filling most of the picture; up to 80° from above for a row laid face up or tilted
    back (``steep``), else up to 62°."""
    fill = float(rng.uniform(0.6, 1.05))
    f = size[0] * float(rng.uniform(0.75, 1.2))
    dist = f * row_len / (fill * size[0])
    elev = math.radians(float(rng.uniform(22, 80 if steep else 62)))
    az = math.radians(float(rng.normal(0, 12)))
    ahead = float(rng.uniform(0, ctx.H * 5)) if rng.random() < 0.5 else float(rng.uniform(0, ctx.H * 1.2))
    target = np.array([float(rng.normal(0, row_len * 0.06)), ahead, ctx.H * 0.3])
    eye = target + dist * np.array([math.sin(az) * math.cos(elev), -math.cos(az) * math.cos(elev), math.sin(elev)])
    return Camera.look_at(eye, target, f, size, roll=math.radians(float(rng.normal(0, 5))))


def _dice_coins(ctx: _Ctx, at: tuple[float, float]) -> None:
    rng = ctx.rng
    for _ in range(int(rng.integers(0, 4))):
        s = float(rng.uniform(12, 17))
        yaw = float(rng.uniform(0, 6.3))
        c = np.array([at[0] + rng.normal(0, 30), at[1] + rng.normal(0, 30), s / 2])
        Rz = rot_z(yaw)
        ctx.objects.append(Box(c, Rz @ np.array([1.0, 0, 0]), Rz @ np.array([0, 1.0, 0]), Z, (s, s, s),
                               _die_face(int(rng.integers(1, 7))), None, [(1.0, (240, 238, 232))],
                               None, side_sprites=True))
    for _ in range(int(rng.integers(0, 6))):
        r = float(rng.uniform(9, 16))
        gold = rng.random() < 0.6
        rgb = (214, 170, 60) if gold else (190, 190, 196)
        if rng.random() < 0.3:
            rgb = tuple(int(v) for v in rng.integers(40, 230, 3))  # type: ignore[assignment]
        ctx.objects.append(Disc(np.array([at[0] + rng.normal(0, 60), at[1] + rng.normal(0, 50), 0.0]), r,
                                float(rng.uniform(1.5, 3.5)), rgb, tuple(int(v * 0.8) for v in rgb),  # type: ignore[arg-type]
                                hole=bool(rng.random() < 0.3)))


@functools.cache
def _die_face(n: int) -> np.ndarray:
    s = 64
    img = np.full((s, s, 4), 255, np.uint8)
    img[..., :3] = (240, 238, 232)
    pips = {1: [(0.5, 0.5)], 2: [(0.25, 0.25), (0.75, 0.75)], 3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
            4: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)],
            5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
            6: [(0.25, y) for y in (0.22, 0.5, 0.78)] + [(0.75, y) for y in (0.22, 0.5, 0.78)]}[n]
    for x, y in pips:
        col = (200, 30, 30) if n in (1, 4) else (20, 20, 20)
        cv2.circle(img, (int(x * s), int(y * s)), 6 if n != 1 else 10, (*col, 255), -1, cv2.LINE_AA)
    img.setflags(write=False)
    return img


def _table_scene(rng: np.random.Generator, style: Style, size: tuple[int, int], variant: str,
                 sampler: CodeSampler | None, aside: Aside | None = None) -> tuple[_Ctx, Camera, float]:
    ctx = _new_ctx(rng, style, aside)
    pool = _pool(rng, variant)
    draw = _code_drawer(pool, rng, sampler, aside)
    W, H = ctx.W, ctx.H
    stacks = 18 if variant in ("filipino", "vietnam", "singapore") else 17
    wall_half = stacks * W / 2 + H / 2 + float(rng.uniform(0, 10))
    row_dist = wall_half + H + float(rng.uniform(80, 150))
    hand_size = 16 if variant == "filipino" else 13
    gid = 0
    progress = float(rng.uniform(0, 1))  # how far the game has gone
    _walls(ctx, rng, stacks, wall_half, progress)
    for seat in range(4):
        yaw = seat * math.pi / 2
        pose = "stand" if seat else str(rng.choice(["stand", "up"], p=[0.7, 0.3]))
        tilt = float(rng.uniform(0, 0.2))
        gid, _ = _player(ctx, pool, seat, yaw, row_dist, hand_size, pose, tilt, gid, draw)
    inner = wall_half - H * 0.8
    _pool_discards(ctx, rng, draw(int(progress * 60) + int(rng.integers(0, 8))), inner)
    if rng.random() < 0.8:
        _dice_coins(ctx, (float(rng.uniform(-inner, inner)) * 0.5, float(rng.uniform(-inner, inner)) * 0.5))
    cam = _table_camera(rng, size, row_dist + H)
    return ctx, cam, float(rng.uniform(1.5, 3.0))


def _walls(ctx: _Ctx, rng: np.random.Generator, stacks: int, wall_half: float, progress: float) -> None:
    """The four walls, face down and two high, with the part of them ``progress`` has drawn
    already taken away from a random start."""
    removed = int(progress * stacks * 4 * 0.7)
    start = int(rng.integers(stacks * 4))
    for seat in range(4):
        yaw = seat * math.pi / 2
        Rz = rot_z(yaw)
        ww = float(rng.normal(0, 0.01))
        for k in range(stacks):
            if (seat * stacks + k - start) % (stacks * 4) < removed:
                continue
            lx = (k - (stacks - 1) / 2) * (ctx.W + 0.3)
            p = Rz @ np.array([lx, -wall_half, 0.0])
            for lvl in (0, 1):
                if lvl == 1 and rng.random() < 0.05:
                    continue
                ctx.tile(Tile(int(rng.integers(34))), (p[0], p[1], lvl * ctx.T), yaw + ww, "down",
                         {"region": "wall", "seat": seat, "group": None, "turned": False})


def _pool_discards(ctx: _Ctx, rng: np.random.Generator, tiles: list[Tile], inner: float) -> None:
    """``tiles`` discarded haphazardly in the middle (within ``inner`` of it), turned any way,
    some lying over others."""
    W, H, T = ctx.W, ctx.H, ctx.T
    placed: list[tuple[float, float]] = []
    for t in tiles:
        seat = int(rng.integers(4))
        if rng.random() < 0.7 and placed and rng.random() < 0.15:
            bx, by = placed[int(rng.integers(len(placed)))]
            x, y, z = bx + rng.normal(0, W * 0.4), by + rng.normal(0, H * 0.4), T
        else:
            x, y, z = float(rng.uniform(-inner, inner)), float(rng.uniform(-inner, inner)), 0.0
        yaw = seat * math.pi / 2 + (float(rng.normal(0, 0.3)) if rng.random() < 0.7 else float(rng.uniform(0, 6.3)))
        ctx.tile(t, (float(x), float(y), float(z)), yaw, "up" if rng.random() < 0.96 else "down",
                 {"region": "discard", "seat": seat, "group": None, "turned": False})
        placed.append((float(x), float(y)))


def _table_camera(rng: np.random.Generator, size: tuple[int, int], reach: float) -> Camera:
    """A camera over the table (a tripod or the ceiling), or a seated player's phone; the
    players' rows lie ``reach`` from the middle."""
    if rng.random() < 0.6:
        f = size[0] * float(rng.uniform(0.6, 1.0))
        span = float(rng.uniform(0.8, 1.3)) * 2 * reach
        dist = f * span / min(size)
        elev = math.radians(float(rng.uniform(45, 89)))
        az = math.radians(float(rng.normal(0, 20)) + 90 * int(rng.integers(4)))
        target = np.array([rng.normal(0, 60), rng.normal(0, 60), 0.0])
        eye = target + dist * np.array([math.sin(az) * math.cos(elev), -math.cos(az) * math.cos(elev), math.sin(elev)])
    else:
        f = size[0] * float(rng.uniform(0.55, 0.9))
        eye = np.array([rng.normal(0, 80), -(reach + float(rng.uniform(150, 450))), float(rng.uniform(300, 600))])
        target = np.array([rng.normal(0, 80), float(rng.uniform(-reach * 0.6, reach * 0.3)), 0.0])
    return Camera.look_at(eye, target, f, size, roll=math.radians(float(rng.normal(0, 6))))


def _occluders(rng: np.random.Generator, size: tuple[int, int]) -> list[Occluder]:
    out = []
    w, h = size
    for _ in range(int(rng.choice([0, 1, 2], p=[0.6, 0.3, 0.1]))):
        side = int(rng.integers(4))
        t = float(rng.uniform(0.1, 0.9))
        start = [(t * w, h + 40), (t * w, -40), (-40, t * h), (w + 40, t * h)][side]
        end = (float(rng.uniform(0.1, 0.9)) * w, float(rng.uniform(0.1, 0.9)) * h)
        k = float(rng.uniform(0.25, 0.6))
        end = (start[0] + (end[0] - start[0]) * k, start[1] + (end[1] - start[1]) * k)
        skin_base = [(224, 172, 140), (198, 140, 100), (160, 110, 80), (110, 75, 55), (240, 200, 175)]
        skin = skin_base[int(rng.integers(len(skin_base)))]
        sleeve = tuple(int(v) for v in rng.integers(20, 230, 3))
        out.append(Occluder(start, end, float(rng.uniform(0.05, 0.1)) * w, skin, sleeve))  # type: ignore[arg-type]
    return out


@functools.lru_cache(maxsize=64)
def _rgba(kind: str, variant: int) -> np.ndarray:
    """An opaque RGBA strip (a quarter of the texture) for rims, racks and the floor."""
    tex = _texture(kind, variant)
    out = cv2.cvtColor(tex[: tex.shape[0] // 4], cv2.COLOR_RGB2RGBA)
    out.setflags(write=False)
    return out


def _floor_texture(kind: str, variant: int, dark: float) -> np.ndarray:
    """A darkened RGB strip for the floor; ``dark`` is drawn per scene, so it is applied to the
    cached strip (a cache keyed by it would never hit)."""
    tex = _texture(kind, variant)
    out: np.ndarray = cv2.convertScaleAbs(tex[: tex.shape[0] // 4], alpha=dark)
    return out


def _rim(center: np.ndarray, yaw: float, length: float, depth: float, thick: float,
         rgb: tuple[int, int, int], sprite: np.ndarray | None) -> Box:
    Rz = rot_z(yaw)
    side = (int(rgb[0] * 0.8), int(rgb[1] * 0.8), int(rgb[2] * 0.8))
    return Box(center, Rz @ np.array([1.0, 0, 0]), Rz @ np.array([0, 1.0, 0]), Z, (length, depth, thick),
               sprite, None, [(1.0, side)], None, shadow=False)


def _table_edges(rng: np.random.Generator, kind: str, ctx: _Ctx, table_half: float,
                 cam: Camera) -> tuple[tuple[np.ndarray, np.ndarray, np.ndarray] | None, list[Box], float]:
    """The table's outline (floor shows outside it), its rims and the floor's height."""
    if rng.random() < (0.3 if kind == "hand" else 0.15):
        return None, [], 0.0
    depth = float(rng.uniform(12, 60))
    thick = float(rng.uniform(25, 70))
    wood = rng.random() < 0.7
    rv = int(rng.integers(5))
    rgb = _WOODS[rv] if wood else tuple(int(v) for v in rng.choice([[30, 30, 32], [235, 232, 225], [120, 30, 30]]))
    sprite = _rgba("wood", rv) if wood else None
    rims: list[Box] = []
    if kind == "hand":
        ys = [float(o.center[1]) for o in ctx.objects if isinstance(o, Box) and o.label
              and o.label["seat"] == 0]
        y_e = min(ys) - ctx.H * 0.5 - float(rng.uniform(0, 30))
        poly = np.array([[-3000, y_e - depth, 0], [3000, y_e - depth, 0], [3000, 4000, 0], [-3000, 4000, 0]], float)
        rims.append(_rim(np.array([0.0, y_e - depth / 2, -thick / 2]), 0.0, 1600, depth, thick, rgb, sprite))  # type: ignore[arg-type]
    else:
        hw = table_half + depth
        poly = np.array([[-hw, -hw, 0], [hw, -hw, 0], [hw, hw, 0], [-hw, hw, 0]], float)
        for seat in range(4):
            yaw = seat * math.pi / 2
            c = rot_z(yaw) @ np.array([0.0, -(table_half + depth / 2), -thick / 2])
            rims.append(_rim(c, yaw, 2 * hw, depth, thick, rgb, sprite))  # type: ignore[arg-type]
    fk = str(rng.choice(["wood", "cloth", "felt"]))
    ftex = _floor_texture(fk, int(rng.integers(10)), float(rng.uniform(0.25, 0.6)))
    mm = float(rng.uniform(2, 6))
    A = np.array([[mm, 0, -mm * ftex.shape[1] / 2], [0, mm, -mm * ftex.shape[0] / 2], [0, 0, 1]])
    floor_z = -float(rng.uniform(450, 750))
    fh = cam.plane_homography(floor_z) @ A
    rims.sort(key=lambda b: -float(cam.to_cam(b.center[None])[0, 2]))
    return (ftex, fh, poly), rims, floor_z


def _with_clutter(rng: np.random.Generator, kind: str, cam: Camera, ctx: _Ctx,
                  floor: tuple[np.ndarray, np.ndarray, np.ndarray] | None,
                  floor_z: float) -> tuple[list[Box], list[Box | Disc]]:
    """Chairs on the floor, painted far to near, and a remote or a phone among the tiles; from
    their own random stream, so the rest of the scene is what it was before clutter."""
    tiles = [o for o in ctx.objects if isinstance(o, Box) and o.label]
    objects: list[Box | Disc] = [*ctx.objects, *gadgets(rng, tiles)]
    seats = chairs(rng, cam, kind, floor[2], floor_z) if floor is not None else []
    seats.sort(key=lambda b: -float(np.linalg.norm(b.center - cam.eye)))
    return seats, objects


def _askew(cam: Camera, rng: np.random.Generator) -> Camera:
    """The camera turned about its axis by 20-45 degrees for ``STEEP_ROLL_SHARE`` of the
    photos (zoomed out so that a row filling the frame's width still fits its height).

    >>> cam = Camera.look_at((0, -500, 400), (0, 0, 0), 1000.0, (1280, 960))
    >>> turned = [_askew(cam, np.random.default_rng(i)) for i in range(40)]
    >>> 0 < sum(c is not cam for c in turned) < 40
    True
    """
    if rng.random() >= STEEP_ROLL_SHARE:
        return cam
    a = math.radians(float(rng.uniform(*STEEP_ROLL_DEG))) * float(rng.choice([-1.0, 1.0]))
    c, s = math.cos(a), math.sin(a)
    w, h = cam.size
    zoom = min(1.0, 0.95 / (1.05 * abs(c)), 0.9 * h / (1.05 * w * abs(s)))
    turn = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
    return Camera(turn @ cam.R, cam.eye, cam.f * zoom, cam.size)


def make_scene(
    seed: int,
    index: int,
    kind: str = "mixed",
    size: tuple[int, int] = (1280, 960),
    sampler: CodeSampler | None = None,
    style: int | None = None,
    styles: int = NUM_STYLES,
    deal: str = "any",
) -> Scene:
    """Lay out scene ``index`` of ``seed`` (``kind``: hand, table or mixed); its set design is
    ``style``, or drawn from styles ``0..styles-1``. ``deal``: ``any`` puts any tile of the set
    anywhere (the training renders: bonus tiles discarded, Filipino honours held and melded),
    ``rules`` as the scene's variant is played (``laid_aside``: bonus tiles only among a
    player's flowers); the same seed lays out the same table either way until the first tile
    is dealt."""
    check_deal(deal)
    rng = np.random.default_rng([seed, index])
    if kind == "mixed":
        kind = "hand" if rng.random() < 0.55 else "table"
    if kind not in KINDS:
        raise ValueError(f"unknown scene kind {kind!r}: use hand, table or mixed")
    st = make_style(int(rng.integers(styles)) if style is None else style)
    variant = str(rng.choice(VARIANTS, p=[0.35, 0.2, 0.2, 0.1, 0.15]))
    builder = _hand_scene if kind == "hand" else _table_scene
    ctx, cam, mm_px = builder(rng, st, size, variant, sampler, laid_aside(variant) if deal == "rules" else None)
    if kind == "hand":
        cam = _askew(cam, np.random.default_rng([seed, index, 1]))  # own stream: other draws stay
    table_half = max((float(np.abs(o.center[:2]).max()) for o in ctx.objects), default=300.0) + float(rng.uniform(40, 220))
    floor, under, floor_z = _table_edges(rng, kind, ctx, table_half, cam)
    below, objects = _with_clutter(np.random.default_rng([seed, index, CLUTTER_STREAM]), kind, cam, ctx,
                                   floor, floor_z)
    tex, tex_mm = _background(rng)
    tex_mm *= mm_px / 2
    # texture px -> world mm (centred, random rotation/offset) -> image
    ang = float(rng.uniform(0, 6.3))
    c, s = math.cos(ang) * tex_mm, math.sin(ang) * tex_mm
    A = np.array([[c, -s, rng.uniform(-200, 200)], [s, c, rng.uniform(-200, 200)], [0, 0, 1]])
    A = A @ np.array([[1, 0, -_TEX / 2], [0, 1, -_TEX / 2], [0, 0, 1]])
    bg_h = cam.plane_homography() @ A
    light = np.array([rng.normal(0, 0.5), rng.normal(-0.3, 0.5), 1.0])
    off = (-light[0] / light[2] * 8, -light[1] / light[2] * 8)
    post = {
        "gain": float(rng.uniform(0.7, 1.2)),
        "cast": [float(v) for v in rng.uniform(0.88, 1.1, 3)],
        "grad": [float(v) for v in rng.normal(0, 0.25, 2)],
        "glare": int(rng.choice([0, 1, 2], p=[0.6, 0.3, 0.1])),
        "glare_seed": int(rng.integers(1 << 30)),
        "blur": float(rng.choice([0.0, rng.uniform(0.3, 1.4)], p=[0.5, 0.5])),
        "motion": int(rng.choice([0, int(rng.integers(3, 9))], p=[0.9, 0.1])),
        "noise": float(rng.uniform(0, 7)),
        "noise_seed": int(rng.integers(1 << 30)),
        "jpeg": int(rng.integers(55, 96)),
        "vignette": float(rng.uniform(0, 0.35)),
        "gray": bool(rng.random() < 0.04),
        "gloss": float(rng.choice([0.0, rng.uniform(0.2, 0.7)], p=[0.4, 0.6])),
        "dof": float(rng.choice([0.0, rng.uniform(1.5, 4.0)], p=[0.7, 0.3])),
        "dof_dir": [float(rng.normal(0, 0.3)), -1.0],
        # its own stream, so that the scenes rendered before seams were drawn stay the same
        "seam": float(np.random.default_rng([seed, index, SEAM_STREAM]).uniform(*SEAM_RANGE)),
    }
    return Scene(
        seed, index, kind, variant, st, cam, objects, _occluders(rng, size), tex, bg_h, light,
        float(rng.uniform(0.45, 0.7)), (float(off[0]), float(off[1])), float(rng.uniform(0.25, 0.55)),
        post, ctx.groups, floor, under, below,
    )


_NOISE_Q = 16.0  # the sensor noise field is stored as int8 in 1/16 sigma steps


@functools.cache
def _noise_field() -> np.ndarray:
    """Unit Gaussian grey noise in 2x2-pixel grains, 1536x2048 RGB, int8 (x16): crops of it are
    the sensor noise of a scene, added in the final saturating conversion to uint8."""
    g = np.random.default_rng(99)
    n = g.standard_normal((768, 1024), dtype=np.float32)
    q = np.clip(np.round(n * _NOISE_Q), -127, 127).astype(np.int8)
    big = cv2.resize(q.view(np.uint8), (2048, 1536), interpolation=cv2.INTER_NEAREST).view(np.int8)
    out: np.ndarray = cv2.merge([big, big, big])
    out.setflags(write=False)
    return out


def _postprocess(img: np.ndarray, p: dict[str, Any]) -> np.ndarray:
    """Lighting gradient and colour cast, glare, blur, sensor noise; float RGB in, uint8 out.

    ``img`` is used as scratch space (full-frame float temporaries cost page faults).
    """
    h, w = img.shape[:2]
    gy, gx = np.mgrid[-1:1:9j, -1:1:12j].astype(np.float32)
    grad = p["gain"] * (1 + p["grad"][0] * gx + p["grad"][1] * gy) * (1 - p.get("vignette", 0.0) * (gx**2 + gy**2) / 2)
    gmap = np.stack([grad * c for c in p["cast"]], -1)
    f = cv2.multiply(img, cv2.resize(gmap, (w, h), interpolation=cv2.INTER_LINEAR), dst=img)
    if p["glare"]:
        g = np.random.default_rng(p["glare_seed"])
        lo = np.zeros((h // 8, w // 8), np.float32)
        for _ in range(p["glare"]):
            cx, cy = g.uniform(0, w // 8), g.uniform(0, h // 8)
            cv2.circle(lo, (int(cx), int(cy)), int(g.uniform(3, 14)), float(g.uniform(60, 140)), -1)
        lo = cv2.GaussianBlur(lo, (0, 0), 4)
        f = cv2.add(f, cv2.cvtColor(cv2.resize(lo, (w, h)), cv2.COLOR_GRAY2RGB), dst=f)
    out = _to_uint8(f, p)
    if p.get("gray", False):
        out = cv2.cvtColor(cv2.cvtColor(out, cv2.COLOR_RGB2GRAY), cv2.COLOR_GRAY2RGB)
    if p.get("dof", 0.0) > 0:  # depth of field: the far side of the picture out of focus
        half = cv2.resize(out, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
        far = cv2.resize(cv2.GaussianBlur(half, (0, 0), p["dof"] / 2), (w, h), interpolation=cv2.INTER_LINEAR)
        dx, dy = p["dof_dir"]
        ramp = np.clip(0.5 + (dx * gx + dy * gy) * 0.9, 0, 1).astype(np.float32)
        m = cv2.resize(ramp, (w, h), interpolation=cv2.INTER_LINEAR)
        out = cv2.blendLinear(out, far, 1.0 - m, m)
    if p["blur"] > 0:
        out = cv2.GaussianBlur(out, (0, 0), p["blur"])
    if p["motion"]:
        k = np.zeros((p["motion"], p["motion"]), np.float32)
        k[p["motion"] // 2, :] = 1.0 / p["motion"]
        out = cv2.filter2D(out, -1, k)
    return out


def _to_uint8(f: np.ndarray, p: dict[str, Any]) -> np.ndarray:
    """Add the sensor noise and convert to uint8 with saturation, in one pass."""
    h, w = f.shape[:2]
    if p["noise"] > 0:
        field = _noise_field()
        g = np.random.default_rng(p["noise_seed"])
        fh, fw = field.shape[0] // 2, field.shape[1] // 2
        if fh >= h // 2 and fw >= w // 2:
            oy, ox = int(g.integers(0, fh - h // 2 + 1)), int(g.integers(0, fw - w // 2 + 1))
            oy, ox = min(2 * oy, 2 * fh - h), min(2 * ox, 2 * fw - w)
            n = field[oy : oy + h, ox : ox + w]
            out: np.ndarray = cv2.addWeighted(f, 1.0, n, p["noise"] / _NOISE_Q, 0.0, dtype=cv2.CV_8U)
            return out
    return cv2.addWeighted(f, 1.0, f, 0.0, 0.0, dtype=cv2.CV_8U)


def render_scene(
    scene: Scene, skip: set[int] | None = None, effects: bool = True, min_visible: float = 0.3
) -> SceneResult:
    """Paint ``scene``. ``effects=False`` turns off shadows and image effects (for tests)."""
    res: RenderResult = render(
        scene.cam, scene.background, scene.bg_h, scene.objects, scene.occluders if effects else [],
        scene.light, scene.ambient, shadows=effects, shadow_offset=scene.shadow_offset,
        shadow_strength=scene.shadow_strength, min_visible=min_visible, skip=skip,
        floor=scene.floor, under=scene.under, below=scene.below, gloss=float(scene.post.get("gloss", 0.0)),
        seam=float(scene.post.get("seam", 1.0)),
    )
    img = _postprocess(res.image, scene.post) if effects else cv2.convertScaleAbs(res.image)
    id_to_group = {}
    for g in scene.groups:
        for oid in g["objects"]:
            id_to_group[oid] = g["id"]
    visible_ids = {lab["id"] for lab in res.labels}
    groups = [
        {k: v for k, v in g.items() if k != "objects"} | {"tiles": [o for o in g["objects"] if o in visible_ids]}
        for g in scene.groups
    ]
    meta = {
        "seed": scene.seed,
        "index": scene.index,
        "kind": scene.kind,
        "variant": scene.variant,
        "style": scene.style.index,
        "back": scene.style.back_name,
        "width": scene.cam.size[0],
        "height": scene.cam.size[1],
        "groups": groups,
    }
    return SceneResult(img, res.labels, meta, int(scene.post["jpeg"]))
