"""3-D box renderer: tiles, dice, coins and occluders drawn with numpy/OpenCV.

World units are millimetres, the table is the plane z = 0, z points up. A :class:`Camera`
is a pinhole camera; :class:`Box` is a tile (or die, rack) with a face sprite on its +n side;
:func:`render` paints background, shadows and objects far-to-near and keeps an id map so every
tile's visible box is known exactly (occlusion included).

>>> cam = Camera.look_at((0, -300, 300), (0, 0, 0), f=900, size=(640, 480))
>>> cam.project(np.array([[0.0, 0.0, 0.0]]))[0].round(1).tolist()
[320.0, 240.0]
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

__all__ = ["Camera", "Box", "Disc", "Occluder", "RenderResult", "render", "rot_z", "clip_project"]

Vec = np.ndarray


def _unit(v: Vec) -> Vec:
    out: Vec = v / (float(np.linalg.norm(v)) + 1e-12)
    return out


def rot_z(a: float) -> Vec:
    """3x3 rotation by ``a`` radians about the vertical axis."""
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


@dataclass
class Camera:
    """Pinhole camera: ``R`` world->camera rotation, ``eye`` position, focal ``f`` px."""

    R: Vec
    eye: Vec
    f: float
    size: tuple[int, int]  # (width, height)

    @classmethod
    def look_at(
        cls,
        eye: tuple[float, float, float] | Vec,
        target: tuple[float, float, float] | Vec,
        f: float,
        size: tuple[int, int],
        roll: float = 0.0,
    ) -> Camera:
        e = np.asarray(eye, float)
        fwd = _unit(np.asarray(target, float) - e)
        up = np.array([0.0, 0.0, 1.0])
        if abs(fwd @ up) > 0.999:
            up = np.array([0.0, 1.0, 0.0])
        right = _unit(np.cross(fwd, up))
        down = np.cross(fwd, right)
        c, s = math.cos(roll), math.sin(roll)
        right, down = c * right + s * down, -s * right + c * down
        return cls(np.stack([right, down, fwd]), e, float(f), size)

    def to_cam(self, pts: Vec) -> Vec:
        out: Vec = (pts - self.eye) @ self.R.T
        return out

    def project(self, pts: Vec) -> Vec:
        """Pixel coordinates (N, 2) of world points (N, 3)."""
        pc = self.to_cam(pts)
        z = np.maximum(pc[:, 2:3], 1e-3)
        w, h = self.size
        out: Vec = pc[:, :2] * self.f / z + np.array([w / 2, h / 2])
        return out

    def plane_homography(self, z: float = 0.0) -> Vec:
        """3x3 homography from plane coordinates (x, y) at height ``z`` to pixels."""
        w, h = self.size
        K = np.array([[self.f, 0, w / 2], [0, self.f, h / 2], [0, 0, 1]])
        t = self.R[:, 2] * z - self.R @ self.eye
        out: Vec = K @ np.column_stack([self.R[:, 0], self.R[:, 1], t])
        return out


@dataclass
class Box:
    """A cuboid. Face sprite on +an; axes au (width), av (height, "up" on the face), an (normal).

    ``layers``: [(fraction of thickness from the +n side, rgb)] body colours of the sides.
    ``label`` is a dict for tiles (None for dice/racks: drawn, never labelled).
    """

    center: Vec
    au: Vec
    av: Vec
    an: Vec
    size: tuple[float, float, float]  # W, H, T (mm)
    face: np.ndarray | None  # RGBA sprite for +n
    back: np.ndarray | None  # RGBA sprite for -n (None: flat last layer colour)
    layers: list[tuple[float, tuple[int, int, int]]]
    label: dict[str, Any] | None = None
    side_sprites: bool = False  # dice: face sprite on all six sides
    shadow: bool = True

    def corners(self) -> Vec:
        W, H, T = self.size
        s = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], float)
        out: Vec = (
            self.center
            + (s[:, 0:1] * W / 2) * self.au
            + (s[:, 1:2] * H / 2) * self.av
            + (s[:, 2:3] * T / 2) * self.an
        )
        return out


@dataclass
class Disc:
    """A flat cylinder lying on the table (coin, chip)."""

    center: Vec
    radius: float
    height: float
    rgb: tuple[int, int, int]
    rim: tuple[int, int, int]
    hole: bool = False


@dataclass
class Occluder:
    """A hand with its sleeve, in pixel coordinates (drawn after everything)."""

    start: tuple[float, float]  # where the sleeve enters the picture
    end: tuple[float, float]  # the hand
    width: float
    skin: tuple[int, int, int]
    sleeve: tuple[int, int, int]


@dataclass
class RenderResult:
    image: np.ndarray  # RGB float32 (0-255, not clipped)
    labels: list[dict[str, Any]]  # one per visible tile: label fields + box, cls, visible
    idmap: np.ndarray = field(repr=False)




def _poly(img: np.ndarray, ids: np.ndarray, pts: Vec, col: tuple[float, ...], oid: int) -> None:
    p = np.round(pts * 16).astype(np.int32)
    cv2.fillConvexPoly(img, p, col, cv2.LINE_AA, shift=4)
    cv2.fillConvexPoly(ids, p, oid, 8, shift=4)


def _sprite(img: np.ndarray, sprite: np.ndarray, quad: Vec, shade: float) -> None:
    """Warp RGBA ``sprite`` onto pixel quad (TL, TR, BR, BL), shaded, into img."""
    h, w = img.shape[:2]
    x0 = max(int(quad[:, 0].min()), 0)
    y0 = max(int(quad[:, 1].min()), 0)
    x1 = min(int(quad[:, 0].max()) + 2, w)
    y1 = min(int(quad[:, 1].max()) + 2, h)
    if x1 <= x0 or y1 <= y0:
        return
    sh, sw = sprite.shape[:2]
    src = _SRC_CACHE.get((sw, sh))
    if src is None:
        src = _SRC_CACHE[(sw, sh)] = np.array([[0, 0], [sw, 0], [sw, sh], [0, sh]], np.float32)
    dst = (quad - np.array([x0, y0])).astype(np.float32)
    M = cv2.getPerspectiveTransform(src, dst)
    warped = cv2.warpPerspective(
        sprite, M, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT
    ).astype(np.float32)
    a = warped[..., 3:4] * (1 / 255)
    roi = img[y0:y1, x0:x1]
    roi += a * (warped[..., :3] * shade - roi)


def _warp_half(tex: np.ndarray, H: Vec, size: tuple[int, int]) -> np.ndarray:
    """Warp a texture at half resolution, then upsample (textures are smooth; 3x faster)."""
    w, h = size
    S = np.array([[0.5, 0, -0.25], [0, 0.5, -0.25], [0, 0, 1]])
    half = cv2.warpPerspective(tex, S @ H, ((w + 1) // 2, (h + 1) // 2), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REFLECT)
    out: np.ndarray = cv2.resize(half, (w, h), interpolation=cv2.INTER_LINEAR).astype(np.float32)
    return out


def clip_project(cam: Camera, poly: Vec, near: float = 5.0) -> Vec:
    """Project a planar world polygon (N, 3), clipped against the camera's near plane."""
    pc = cam.to_cam(poly)
    out = []
    n = len(pc)
    for k in range(n):
        a, b = pc[k], pc[(k + 1) % n]
        ina, inb = a[2] >= near, b[2] >= near
        if ina:
            out.append(a)
        if ina != inb:
            t = (near - a[2]) / (b[2] - a[2])
            out.append(a + t * (b - a))
    if not out:
        return np.zeros((0, 2))
    q = np.array(out)
    wd, ht = cam.size
    res: Vec = q[:, :2] * cam.f / q[:, 2:3] + np.array([wd / 2, ht / 2])
    return res


def _shade(n: Vec, light: Vec, amb: float) -> float:
    return amb + (1 - amb) * max(0.0, float(n @ light))


_SIDES = ((1, 2), (3, 0), (0, 1), (2, 3))  # corner pairs of the +u, -u, +v, -v sides
_SRC_CACHE: dict[tuple[int, int], np.ndarray] = {}


def _draw_box(
    img: np.ndarray, ids: np.ndarray, cam: Camera, b: Box, oid: int, light: Vec, amb: float,
    gloss: float = 0.0,
) -> _Geo:
    """Draw a box; returns its projected geometry (face area 0 when the face is hidden)."""
    W, H, T = b.size
    hu, hv, hn = b.au * (W / 2), b.av * (H / 2), b.an * (T / 2)
    levels = [1.0]
    for frac, _ in b.layers:
        levels.append(levels[-1] - 2 * frac)
    levels[-1] = -1.0
    lv = np.array(levels)[:, None, None]
    cu = np.array([-1.0, 1.0, 1.0, -1.0])[None, :, None]
    cv = np.array([1.0, 1.0, -1.0, -1.0])[None, :, None]
    world = b.center + cu * hu + cv * hv + lv * hn  # (L, 4, 3): TL TR BR BL per level
    L = world.shape[0]
    proj = cam.project(world.reshape(-1, 3)).reshape(L, 4, 2)
    to_eye = cam.eye - b.center
    hull = cv2.convexHull(np.concatenate([proj[0], proj[-1]]).astype(np.float32))[:, 0]
    cv2.fillConvexPoly(ids, np.round(hull * 16).astype(np.int32), oid, 8, shift=4)
    geo = _Geo(float(cv2.contourArea(hull)), hull.min(0), hull.max(0), proj[0])
    face_area = 0.0
    # sides, split into layers along n
    for (i, j), (axis, half) in zip(_SIDES, ((b.au, hu), (-b.au, -hu), (b.av, hv), (-b.av, -hv)), strict=True):
        if axis @ (to_eye - half) <= 0:
            continue
        sh = _shade(axis, light, amb)
        if b.side_sprites and b.face is not None:
            _sprite(img, b.face, np.array([proj[0][i], proj[0][j], proj[-1][j], proj[-1][i]]), sh)
            continue
        for k, (_, rgb) in enumerate(b.layers):
            q = np.array([proj[k][i], proj[k][j], proj[k + 1][j], proj[k + 1][i]])
            _fill(img, q, (rgb[0] * sh, rgb[1] * sh, rgb[2] * sh))
        if L > 2:  # the seam between the face layer and the coloured back
            seam = np.round(np.array([proj[1][i], proj[1][j]]) * 16).astype(np.int32)
            c0 = b.layers[0][1]
            cv2.line(img, tuple(seam[0]), tuple(seam[1]), (c0[0] * sh * 0.7, c0[1] * sh * 0.7, c0[2] * sh * 0.7),
                     1, cv2.LINE_AA, shift=4)
    # +n (face) and -n (back)
    if b.an @ (to_eye - hn) > 0:
        q = proj[0]
        sh = _shade(b.an, light, amb)
        if gloss > 0:  # glossy face: a Blinn-Phong highlight when it mirrors the light
            half = _unit(_unit(to_eye - hn) + light)
            sh += gloss * max(0.0, float(half @ b.an)) ** 40
        face_area = abs(float(cv2.contourArea(q.astype(np.float32))))
        rgb = b.layers[0][1]
        _fill(img, q, (rgb[0] * sh * 0.9, rgb[1] * sh * 0.9, rgb[2] * sh * 0.9))
        if b.face is not None:
            _sprite(img, b.face, q, sh)
    elif -b.an @ (to_eye + hn) > 0:
        q = proj[-1][[1, 0, 3, 2]]
        sh = _shade(-b.an, light, amb)
        rgb = b.layers[-1][1]
        spr = b.back if b.back is not None else (b.face if b.side_sprites else None)
        big = spr is not None and abs(float(cv2.contourArea(q.astype(np.float32)))) > 1600
        _fill(img, q, (rgb[0] * sh * (0.9 if big else 1), rgb[1] * sh * (0.9 if big else 1), rgb[2] * sh * (0.9 if big else 1)))
        if big and spr is not None:
            _sprite(img, spr, q, sh)
    geo.face_area = face_area
    return geo


@dataclass
class _Geo:
    hull_area: float
    lo: Vec
    hi: Vec
    face_quad: Vec
    face_area: float = 0.0


def _fill(img: np.ndarray, pts: Vec, col: tuple[float, float, float]) -> None:
    cv2.fillConvexPoly(img, np.round(pts * 16).astype(np.int32), col, cv2.LINE_AA, shift=4)


def _draw_disc(img: np.ndarray, ids: np.ndarray, cam: Camera, d: Disc, oid: int, light: Vec, amb: float) -> None:
    n = 24
    ang = np.linspace(0, 2 * math.pi, n, endpoint=False)
    ring = np.stack([np.cos(ang), np.sin(ang), np.zeros(n)], 1) * d.radius
    base = cam.project(d.center + ring)
    top = cam.project(d.center + ring + np.array([0, 0, d.height]))
    side = cv2.convexHull(np.concatenate([base, top]).astype(np.float32))[:, 0]
    _poly(img, ids, side, tuple(v * 0.75 for v in d.rim), oid)
    sh = _shade(np.array([0, 0, 1.0]), light, amb)
    _poly(img, ids, top, tuple(v * sh for v in d.rgb), oid)
    inner = cam.project(d.center + ring * 0.72 + np.array([0, 0, d.height]))
    p = np.round(inner * 16).astype(np.int32)
    cv2.polylines(img, [p], True, tuple(v * sh * 0.8 for v in d.rim), 2, cv2.LINE_AA, shift=4)
    if d.hole:
        hole = cam.project(d.center + ring * 0.22 + np.array([0, 0, d.height]))
        _poly(img, ids, hole, tuple(v * 0.5 for v in d.rim), oid)


def _draw_occluder(img: np.ndarray, ids: np.ndarray, o: Occluder) -> None:
    """A forearm in a sleeve ending in a hand (palm, four fingers, thumb), softly shaded,
    with a blurred shadow on what lies under it; its pixels get id -2 (no tile)."""
    h, w = img.shape[:2]
    sx, sy = o.start
    ex, ey = o.end
    dx, dy = ex - sx, ey - sy
    ln = math.hypot(dx, dy) + 1e-6
    u = np.array([dx / ln, dy / ln])
    n = np.array([-u[1], u[0]])
    wd = o.width
    e = np.array([ex, ey])
    pts = [np.array([sx, sy]), e + u * wd * 1.6, e - u * wd * 2, e + n * wd, e - n * wd]
    allp = np.array(pts)
    x0 = int(max(allp[:, 0].min() - wd * 1.2, 0))
    y0 = int(max(allp[:, 1].min() - wd * 1.2, 0))
    x1 = int(min(allp[:, 0].max() + wd * 1.2, w))
    y1 = int(min(allp[:, 1].max() + wd * 1.2, h))
    if x1 - x0 < 4 or y1 - y0 < 4:
        return
    off = np.array([x0, y0])

    def P(p: Vec) -> tuple[int, int]:
        q = np.round((p - off) * 4).astype(int)
        return int(q[0]), int(q[1])

    shape = (y1 - y0, x1 - x0)
    sleeve = np.zeros(shape, np.uint8)
    skin = np.zeros(shape, np.uint8)
    cuff = e - u * wd * (1.6 + 0.8 * (hash(o.start) % 3) / 3)
    wrist = e - u * wd * 0.7
    cv2.line(sleeve, P(np.array([sx, sy])), P(cuff), 255, int(wd * 1.5), cv2.LINE_AA, shift=2)
    cv2.line(skin, P(cuff), P(wrist), 255, int(wd * 0.85), cv2.LINE_AA, shift=2)
    palm_c = e - u * wd * 0.1
    cv2.ellipse(skin, P(palm_c), (int(wd * 0.7 * 4), int(wd * 0.58 * 4)),
                math.degrees(math.atan2(u[1], u[0])), 0, 360, 255, -1, cv2.LINE_AA, shift=2)
    fingers = []
    for k, (length, spread) in enumerate(((0.75, -0.12), (0.9, -0.04), (0.85, 0.04), (0.65, 0.12))):
        base = palm_c + u * wd * 0.45 + n * wd * (k - 1.5) * 0.3
        d = u + n * spread
        d = d / np.linalg.norm(d)
        tip = base + d * wd * length
        fingers.append((base, tip))
        cv2.line(skin, P(base), P(tip), 255, max(2, int(wd * 0.24)), cv2.LINE_AA, shift=2)
    th_base = palm_c + n * wd * 0.45
    th_tip = th_base + (u * 0.6 + n * 0.8) * wd * 0.6
    cv2.line(skin, P(th_base), P(th_tip), 255, max(2, int(wd * 0.27)), cv2.LINE_AA, shift=2)
    skin[sleeve > 127] = 0
    union = cv2.max(sleeve, skin)
    # shadow of the arm on the scene below
    small = cv2.resize(union, (max(1, shape[1] // 4), max(1, shape[0] // 4)), interpolation=cv2.INTER_AREA)
    blur = cv2.GaussianBlur(small.astype(np.float32) / 255, (0, 0), max(0.5, wd * 0.25 / 4))
    shift = np.array([[4, 0, wd * 0.25], [0, 4, wd * 0.35]], np.float32)
    shadow = cv2.warpAffine(blur, shift, (shape[1], shape[0]))
    roi = img[y0:y1, x0:x1]
    roi *= (1 - 0.45 * shadow)[..., None]
    for mask, rgb, soft in ((sleeve, o.sleeve, 0.45), (skin, o.skin, 0.35)):
        if not mask.any():
            continue
        dist = cv2.distanceTransform((mask > 127).astype(np.uint8), cv2.DIST_L2, 3)
        shade = (1 - soft) + soft * np.clip(dist / (wd * 0.3), 0, 1)
        a = (mask.astype(np.float32) / 255)[..., None]
        col = np.array(rgb, np.float32) * shade[..., None]
        roi += a * (col - roi)
    for base, tip in fingers:  # creases between fingers
        cv2.line(roi, P(base - u * wd * 0.1), P(tip), tuple(v * 0.8 for v in o.skin), 1, cv2.LINE_AA, shift=2)
    ids[y0:y1, x0:x1][union > 127] = -2


def render(
    cam: Camera,
    background: np.ndarray,
    bg_homography: Vec,
    objects: list[Box | Disc],
    occluders: list[Occluder],
    light: Vec,
    ambient: float = 0.55,
    shadows: bool = True,
    shadow_offset: tuple[float, float] = (6.0, 8.0),
    shadow_strength: float = 0.45,
    min_visible: float = 0.3,
    skip: set[int] | None = None,
    floor: tuple[np.ndarray, Vec, Vec] | None = None,
    under: list[Box] | None = None,
    gloss: float = 0.0,
) -> RenderResult:
    """Paint a scene; ``skip`` omits objects by index (for tests). Float RGB image out.

    ``floor`` = (texture, homography, table polygon (N, 3) at z=0): outside the table
    polygon the floor texture shows instead of the table cloth. ``under`` boxes (the table's
    rims) are drawn before everything else and never labelled.
    """
    w, h = cam.size
    img = _warp_half(background, bg_homography, (w, h))
    ids = np.full((h, w), -1, np.int32)
    light = _unit(np.asarray(light, float))
    if floor is not None:
        ftex, fh, poly = floor
        mask = np.zeros((h, w), np.float32)
        pp = clip_project(cam, poly)
        if len(pp) >= 3:
            cv2.fillPoly(mask, [np.round(pp * 16).astype(np.int32)], 1.0, cv2.LINE_AA, shift=4)
        if mask.min() < 1.0:
            fl = _warp_half(ftex, fh, (w, h))
            img = cv2.blendLinear(img, fl, mask, 1.0 - mask)
    for ub in under or []:
        if cam.to_cam(ub.corners())[:, 2].min() > 5:
            _draw_box(img, ids, cam, ub, -3, light, ambient)
    order = []
    for i, o in enumerate(objects):
        if skip and i in skip:
            continue
        zc = float(cam.to_cam(o.center[None])[0, 2])
        near = zc - (0.5 * float(np.linalg.norm(o.size)) if isinstance(o, Box) else o.radius)
        if near > 20.0:
            order.append((zc, i))
    order.sort(key=lambda t: -t[0])
    if shadows and order:
        _shadows(img, cam, [objects[i] for _, i in order], shadow_offset, shadow_strength)
    geos: dict[int, _Geo] = {}
    for _, i in order:
        o = objects[i]
        if isinstance(o, Box):
            g = _draw_box(img, ids, cam, o, i, light, ambient, gloss)
            if o.label is not None:
                geos[i] = g
        else:
            _draw_disc(img, ids, cam, o, i, light, ambient)
    for occ in occluders:
        _draw_occluder(img, ids, occ)
    labels = _labels(cam, objects, ids, geos, min_visible)
    return RenderResult(img, labels, ids)


def _shadows(img: np.ndarray, cam: Camera, objs: list[Box | Disc], off: tuple[float, float], k: float) -> None:
    w, h = cam.size
    sc = 4
    mask = np.zeros((h // sc, w // sc), np.float32)
    foots = []
    for o in objs:
        if isinstance(o, Box):
            if not o.shadow:
                continue
            W, H, T = o.size
            hu, hv, hn = o.au * (W / 2), o.av * (H / 2), o.an * (T / 2)
            ext = np.abs(hu) + np.abs(hv) + np.abs(hn)
            if o.center[2] - ext[2] > 5:  # stacked: the shadow falls on tiles
                continue
            c = o.center
            foot = np.array([c - hu - hv - hn, c + hu - hv - hn, c + hu + hv - hn, c - hu + hv - hn,
                             c - hu - hv + hn, c + hu - hv + hn, c + hu + hv + hn, c - hu + hv + hn])
        else:
            r = o.radius
            foot = o.center + np.array([[r, 0, 0], [0, r, 0], [-r, 0, 0], [0, -r, 0],
                                        [r * .7, r * .7, 0], [-r * .7, r * .7, 0], [r * .7, -r * .7, 0], [-r * .7, -r * .7, 0]])
        foots.append(foot)
    if not foots:
        return
    F = np.stack(foots)  # (N, 8, 3)
    ht = F[:, :, 2:3].copy()
    F[:, :, 2] = 0
    d = np.array([off[0], off[1], 0.0])
    pts = np.concatenate([F, F + d * (0.3 + ht / 20.0)], 1)
    P = (cam.project(pts.reshape(-1, 3)) / sc).reshape(len(foots), 16, 2).astype(np.float32)
    for p in P:
        hull = cv2.convexHull(p)[:, 0]
        cv2.fillConvexPoly(mask, np.round(hull * 16).astype(np.int32), 1.0, cv2.LINE_AA, shift=4)
    lo = 1.0 - k * cv2.GaussianBlur(mask, (0, 0), 2.0)
    blurred = cv2.resize(lo, (w, h), interpolation=cv2.INTER_LINEAR)
    cv2.multiply(img, cv2.cvtColor(blurred, cv2.COLOR_GRAY2RGB), dst=img)


def _labels(
    cam: Camera,
    objects: list[Box | Disc],
    ids: np.ndarray,
    geos: dict[int, _Geo],
    min_visible: float,
) -> list[dict[str, Any]]:
    w, h = cam.size
    out: list[dict[str, Any]] = []
    for i, g in geos.items():
        o = objects[i]
        assert isinstance(o, Box) and o.label is not None
        full = g.hull_area
        x0, y0 = max(int(g.lo[0]) - 1, 0), max(int(g.lo[1]) - 1, 0)
        x1, y1 = min(int(g.hi[0]) + 2, w), min(int(g.hi[1]) + 2, h)
        if x1 <= x0 or y1 <= y0 or full < 1:
            continue
        sub = ids[y0:y1, x0:x1] == i
        cnt = int(np.count_nonzero(sub))
        if cnt == 0 or cnt / full < min_visible:
            continue
        ys = np.flatnonzero(sub.any(1))
        xs = np.flatnonzero(sub.any(0))
        bx0, bx1 = x0 + int(xs[0]), x0 + int(xs[-1]) + 1
        by0, by1 = y0 + int(ys[0]), y0 + int(ys[-1]) + 1
        if bx1 - bx0 < 4 or by1 - by0 < 4:
            continue
        up = not o.label.get("back", False) and g.face_area > 0.25 * full
        lab = dict(o.label)
        lab.update(
            box=[bx0, by0, bx1, by1],
            cls=0 if up else 1,
            face="up" if up else "down",
            visible=round(min(1.0, cnt / full), 3),
            quad=[[round(float(x), 1), round(float(y), 1)] for x, y in g.face_quad],
            id=i,
        )
        out.append(lab)
    out.sort(key=lambda d: d["id"])
    return out
