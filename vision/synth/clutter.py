"""Things at a real table that are not tiles: chairs below its edge, remotes and phones on it.

Drawn, never labelled, so a detector learns to leave them alone. A detector trained on
7,500 scenes without them boxed a real folding chair's chrome rim (a row of bright
reflections along a tube) as seven tile backs, and a hand photo was refused as two hands.

Everything here draws from its own random stream (``[seed, index, CLUTTER_STREAM]``), so the
rest of a seed's scene is what it was before clutter existed.
"""

from __future__ import annotations

import functools
import math

import cv2
import numpy as np

from vision.synth.render import Box, Camera, rot_z

__all__ = ["CLUTTER_STREAM", "PHONE_SIZE", "REMOTE_SIZE", "chairs", "gadgets"]

CLUTTER_STREAM = 2
CHAIR_SHARE = 0.5  # scenes whose floor shows that get chairs
GADGET_SHARE = 0.25  # scenes with a remote control or a phone on the table
REMOTE_SIZE = (50.0, 200.0, 20.0)  # mm: width, length, height
PHONE_SIZE = (76.0, 160.0, 8.0)
Z = np.array([0.0, 0.0, 1.0])
_METALS = [(200, 200, 205), (170, 172, 178), (60, 60, 64), (215, 205, 180)]
_SEATS = [(40, 40, 44), (90, 30, 30), (30, 45, 90), (120, 120, 125), (150, 100, 60), (70, 90, 60)]


@functools.lru_cache(maxsize=16)
def _chrome(variant: int) -> np.ndarray:
    """A tube's top as an RGBA strip: shaded across, with bright reflections along it."""
    rng = np.random.default_rng([777, variant])
    base = np.array(_METALS[variant % len(_METALS)], float)
    across = 0.55 + 0.45 * np.sin(np.linspace(0, math.pi, 12)) ** 2
    strip = np.repeat((base * across[:, None])[:, None, :], 256, axis=1)
    x = 0
    while x < 256:  # window and lamp reflections, a few tile-widths long, some tile-widths apart
        length = int(rng.integers(6, 30))
        strip[3:9, x : x + length] = np.minimum(255, base * 1.25 + 40)
        x += length + int(rng.integers(4, 24))
    out = np.dstack([strip.clip(0, 255).astype(np.uint8), np.full((12, 256), 255, np.uint8)])
    out.setflags(write=False)
    return out


def _bar(center: np.ndarray, along: np.ndarray, length: float, tube: float, variant: int) -> Box:
    across = np.cross(Z, along)
    r, g, b = _METALS[variant % len(_METALS)]
    dark = (int(r * 0.6), int(g * 0.6), int(b * 0.6))
    return Box(center, along, across, Z, (length, tube, tube), _chrome(variant), None, [(1.0, dark)], None,
               shadow=False)


def _chair(rng: np.random.Generator, at: np.ndarray, yaw: float, seat_z: float) -> list[Box]:
    """A seat with a chrome frame and a backrest on the side ``yaw`` turns +y to."""
    rz = rot_z(yaw)
    ax, ay = rz @ np.array([1.0, 0, 0]), rz @ np.array([0, 1.0, 0])
    w, d, tube = float(rng.uniform(380, 460)), float(rng.uniform(360, 440)), float(rng.uniform(14, 24))
    seat_rgb = _SEATS[int(rng.integers(len(_SEATS)))]
    variant = int(rng.integers(64))
    c = np.array([at[0], at[1], seat_z - 12.0])
    parts = [Box(c, ax, ay, Z, (w, d, 24.0), None, None, [(1.0, seat_rgb)], None, shadow=False)]
    for sign in (-1.0, 1.0):
        parts.append(_bar(c + sign * ax * (w / 2 + tube / 2), ay, d + tube * 2, tube, variant))
        parts.append(_bar(c + sign * ay * (d / 2 + tube / 2), ax, w, tube, variant))
    top = min(seat_z + float(rng.uniform(250, 420)), -15.0)  # never above the table top
    if top - seat_z > 80:
        h = top - seat_z
        back = c + ay * (d / 2 + tube) + Z * (h / 2 + 12)
        parts.append(Box(back, ax, Z, ay, (w, h, 22.0), None, None, [(1.0, seat_rgb)], None, shadow=False))
    return parts


def chairs(rng: np.random.Generator, cam: Camera, kind: str, poly: np.ndarray, floor_z: float) -> list[Box]:
    """Zero to two chairs on the floor (``floor_z``) at the table's edge (``poly``), pushed in
    or pulled out; the renderer hides what the table top covers."""
    if rng.random() >= CHAIR_SHARE:
        return []
    lo, hi = poly[:, :2].min(0), poly[:, :2].max(0)
    seat_z = floor_z + float(rng.uniform(0.55, 0.7)) * abs(floor_z)
    out: list[Box] = []
    for _ in range(int(rng.integers(1, 3))):
        if kind == "hand":  # the player's own chair, between the table and the phone
            at = np.array([float(rng.normal(0, 250)), float(lo[1]) - float(rng.uniform(-100, 500))])
            yaw = math.pi + float(rng.normal(0, 0.25))  # backrest away from the table
        else:
            side = int(rng.integers(4))
            out_dir = rot_z(side * math.pi / 2) @ np.array([0, -1.0, 0])
            reach = float(hi[0]) + float(rng.uniform(-100, 500))
            at = (out_dir * reach)[:2] + rot_z(side * math.pi / 2)[:2, 0] * float(rng.normal(0, 200))
            yaw = side * math.pi / 2 + math.pi + float(rng.normal(0, 0.25))
        parts = _chair(rng, at, yaw, seat_z)
        corners = np.vstack([p.corners() for p in parts])
        if cam.to_cam(corners)[:, 2].min() <= 5:  # partly behind the camera
            continue
        out += parts
    return out


@functools.lru_cache(maxsize=8)
def _remote_top(variant: int) -> np.ndarray:
    """A remote control's face: dark body, rows of small buttons."""
    rng = np.random.default_rng([778, variant])
    body = int(rng.integers(15, 60))
    img = np.full((200, 50, 4), (body, body, body + 4, 255), np.uint8)
    for row in range(int(rng.integers(8, 13))):
        y = 30 + row * 13
        for col in range(3):
            tone = int(rng.integers(90, 220))
            rgb = (tone, tone, tone) if rng.random() < 0.8 else tuple(int(v) for v in rng.integers(60, 230, 3))
            cv2.ellipse(img, (10 + col * 15, y), (5, 3), 0, 0, 360, (*rgb, 255), -1, cv2.LINE_AA)
    img.setflags(write=False)
    return img


@functools.lru_cache(maxsize=8)
def _phone_top(variant: int) -> np.ndarray:
    """A phone lying face up: a black glass screen with a soft reflection."""
    rng = np.random.default_rng([779, variant])
    img = np.full((160, 76, 4), (12, 12, 14, 255), np.uint8)
    tone = int(rng.integers(25, 70))
    cv2.rectangle(img, (4, 6), (71, 153), (tone, tone, tone + 6, 255), -1)
    x = int(rng.integers(0, 60))
    cv2.line(img, (x, 0), (x + 40, 159), (tone + 60, tone + 60, tone + 66, 255), 9, cv2.LINE_AA)
    img.setflags(write=False)
    return img


def gadgets(rng: np.random.Generator, tiles: list[Box]) -> list[Box]:
    """A remote control or a phone lying on the table among the ``tiles`` (inside their
    extent, so on the table and never in front of the player's row), clear of every one."""
    if rng.random() >= GADGET_SHARE or not tiles:
        return []
    centers = np.array([o.center[:2] for o in tiles])
    lo, hi = centers.min(0), centers.max(0)
    remote = rng.random() < 0.5
    size = REMOTE_SIZE if remote else PHONE_SIZE
    top = _remote_top(int(rng.integers(8))) if remote else _phone_top(int(rng.integers(8)))
    for _ in range(20):
        at = rng.uniform(lo, hi)
        if np.min(np.linalg.norm(centers - at, axis=1)) > size[1] / 2 + 40:
            yaw = float(rng.uniform(0, math.tau))
            rz = rot_z(yaw)
            c = np.array([at[0], at[1], size[2] / 2])
            body = int(top[0, 0, 0])
            dark = (body, body, body)
            return [Box(c, rz @ np.array([1.0, 0, 0]), rz @ np.array([0, 1.0, 0]), Z, size, top, None,
                        [(1.0, dark)], None)]
    return []
