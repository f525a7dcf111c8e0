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

import functools
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
    lo, hi = quad.min(0), quad.max(0)
    x0, y0 = max(int(lo[0]), 0), max(int(lo[1]), 0)
    x1, y1 = min(int(hi[0]) + 2, w), min(int(hi[1]) + 2, h)
    if x1 <= x0 or y1 <= y0:
        return
    sh, sw = sprite.shape[:2]
    src = _SRC_CACHE.get((sw, sh))
    if src is None:
        src = _SRC_CACHE[(sw, sh)] = np.array([[0, 0], [sw, 0], [sw, sh], [0, sh]], np.float32)
    M = cv2.getPerspectiveTransform(src, (quad - (x0, y0)).astype(np.float32))
    warped = cv2.warpPerspective(
        sprite, M, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT
    )
    # alpha blend with OpenCV kernels, in place on the ROI view: numpy temporaries over the
    # whole bounding box (large for rims and close-up tiles) cost twice as much
    a = cv2.extractChannel(warped, 3).astype(np.float32)
    rgb = cv2.cvtColor(warped, cv2.COLOR_RGBA2RGB)
    fg = cv2.addWeighted(rgb, shade, rgb, 0.0, 0.0, dtype=cv2.CV_32F)  # rgb * shade, as float32
    roi = img[y0:y1, x0:x1]
    cv2.blendLinear(fg, roi, a, 255.0 - a, dst=roi)


def _background(cam: Camera, tex: np.ndarray, H: Vec, floor: tuple[np.ndarray, Vec, Vec] | None) -> np.ndarray:
    """Table cloth (and the floor beyond the table) warped at half resolution, then upsampled.

    Textures are smooth, so half resolution loses nothing visible and is 3x faster; the floor is
    blended in at half resolution too, and only inside the bounding box of where it shows.
    """
    w, h = cam.size
    hw, hh = (w + 1) // 2, (h + 1) // 2
    half = _warp_wrapped(tex, _HALF @ H, (0, 0, hw, hh))
    if floor is not None:
        _blend_floor(half, cam, floor)
    out: np.ndarray = cv2.resize(half.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    return out


def _warp_wrapped(tex: np.ndarray, H: Vec, rect: tuple[int, int, int, int]) -> np.ndarray:
    """Warp ``tex`` (mirrored at its borders) into the pixel rectangle (x, y, w, h) of the target.

    OpenCV's BORDER_REFLECT walks to far-off coordinates one texture width at a time (40 ms
    for a floor near the horizon); a 2x2 mirrored tile with BORDER_WRAP gives the same pixels
    in constant time per pixel.
    """
    x, y, rw, rh = rect
    th, tw = tex.shape[:2]
    tiled = cv2.copyMakeBorder(tex, 0, th, 0, tw, cv2.BORDER_REFLECT)
    T = np.array([[1.0, 0, -x], [0, 1.0, -y], [0, 0, 1]])
    out: np.ndarray = cv2.warpPerspective(tiled, T @ H, (rw, rh), flags=cv2.INTER_LINEAR,
                                          borderMode=cv2.BORDER_WRAP)
    return out


def _blend_floor(half: np.ndarray, cam: Camera, floor: tuple[np.ndarray, Vec, Vec]) -> None:
    """Show the floor texture outside the table polygon (half-resolution image, in place)."""
    ftex, fh, poly = floor
    mask = _polygon_mask(half.shape[:2], clip_project(cam, poly) * 0.5 - 0.25)  # full -> half pixels
    outside = 255 - mask
    x, y, rw, rh = cv2.boundingRect(outside)
    if rw == 0 or rh == 0:
        return
    fl = _warp_wrapped(ftex, _HALF @ fh, (x, y, rw, rh))
    roi = half[y : y + rh, x : x + rw]
    cv2.blendLinear(roi, fl, mask[y : y + rh, x : x + rw].astype(np.float32),
                    outside[y : y + rh, x : x + rw].astype(np.float32), dst=roi)


def _polygon_mask(shape: tuple[int, ...], pts: Vec) -> np.ndarray:
    """255 inside the image polygon ``pts`` (antialiased edge), 0 outside; a mask of
    ``shape`` (height, width), empty when the polygon has fewer than three corners."""
    mask = np.zeros(shape[:2], np.uint8)
    if len(pts) >= 3:
        cv2.fillPoly(mask, [np.round(pts * 16).astype(np.int32)], 255, cv2.LINE_AA, shift=4)
    return mask


def _draw_unlabelled(img: np.ndarray, ids: np.ndarray, cam: Camera, boxes: list[Box], light: Vec,
                     ambient: float) -> None:
    """Paint boxes that are never labelled (id -3), in the order given, skipping any that
    reach behind the camera."""
    for box in boxes:
        if cam.to_cam(box.corners())[:, 2].min() > 5:
            _draw_box(img, ids, cam, box, -3, light, ambient)


def _draw_below(img: np.ndarray, ids: np.ndarray, cam: Camera, boxes: list[Box], poly: Vec,
                light: Vec, ambient: float) -> None:
    """Paint boxes lying below the table top, then the table top back over them: every ray
    from an eye above the table to a point below it that meets the top first is hidden by it."""
    table = img.copy()
    _draw_unlabelled(img, ids, cam, boxes, light, ambient)
    if cam.eye[2] <= 0:
        return
    top = _polygon_mask(ids.shape, clip_project(cam, poly)) > 127
    img[top] = table[top]
    ids[top] = -1


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
_HALF = np.array([[0.5, 0, -0.25], [0, 0.5, -0.25], [0, 0, 1]])  # full-resolution pixels -> half
_CU = np.array([-1.0, 1.0, 1.0, -1.0])[None, :, None]  # box corners TL TR BR BL along u ...
_CV = np.array([1.0, 1.0, -1.0, -1.0])[None, :, None]  # ... and along v
_SIDE_SIGN = np.array([1.0, -1.0, 1.0, -1.0])[:, None]
_SIDE_CORNERS = np.array([[i, j, j, i] for i, j in _SIDES])  # (side, 4): corners of a side's quads


@dataclass
class _BoxPlan:
    """A box's projected geometry and shading, computed for all boxes of a scene at once."""

    proj: Vec  # (L, 4, 2) pixel corners TL TR BR BL per layer boundary, face side first
    p16: np.ndarray  # the same in fixed point (x16, int32), for the antialiased fills
    sides16: np.ndarray  # (4, layers, 4, 2) fixed-point quads of the layers of each side
    facing: list[bool]  # +u, -u, +v, -v sides towards the eye
    shades: list[float]  # their brightness
    show: int  # 1: the face (+n) is seen, -1: the back, 0: neither
    sh: float  # brightness of the face or back that is seen
    area: float  # its projected area (px)


def _plan_boxes(cam: Camera, boxes: list[Box], light: Vec, amb: float, gloss: float) -> list[_BoxPlan]:
    """Corners, projections, visible sides and shading of many boxes in a few numpy calls
    (per-box numpy calls on 3-vectors cost more than the drawing itself)."""
    if not boxes:
        return []
    ls = [_levels(tuple(frac for frac, _ in b.layers)) for b in boxes]
    nl = [len(lv) for lv in ls]
    lmax = max(nl)
    lv = np.array([lv + lv[-1:] * (lmax - len(lv)) for lv in ls])  # (N, L), padded with the back
    C = np.array([b.center for b in boxes])
    size = np.array([b.size for b in boxes]) / 2
    HU = np.array([b.au for b in boxes]) * size[:, 0:1]
    HV = np.array([b.av for b in boxes]) * size[:, 1:2]
    AN = np.array([b.an for b in boxes])
    HN = AN * size[:, 2:3]
    world = (C[:, None, None] + _CU[None] * HU[:, None, None] + _CV[None] * HV[:, None, None]
             + lv[:, :, None, None] * HN[:, None, None])  # (N, L, 4, 3)
    proj = cam.project(world.reshape(-1, 3)).reshape(len(boxes), lmax, 4, 2)
    p16 = np.round(proj * 16).astype(np.int32)
    sides16 = np.ascontiguousarray(p16[:, _side_levels(lmax)[None], _SIDE_CORNERS[:, None]])  # (N, side, layer, 4, 2)
    to_eye = cam.eye - C
    axes = _SIDE_SIGN[None] * np.stack([HU, HU, HV, HV], 1)  # (N, 4, 3), not unit yet
    facing = ((to_eye[:, None] - axes) * axes).sum(2) > 0
    axes /= np.linalg.norm(axes, axis=2, keepdims=True) + 1e-12
    shades = amb + (1 - amb) * np.maximum(axes @ light, 0.0)
    face = ((to_eye - HN) * AN).sum(1) > 0
    back = ~face & (((to_eye + HN) * -AN).sum(1) > 0)
    dots = AN @ light
    sh = amb + (1 - amb) * np.maximum(np.where(face, dots, -dots), 0.0)
    if gloss > 0:  # glossy face: a Blinn-Phong highlight when it mirrors the light
        v = to_eye - HN
        v /= np.linalg.norm(v, axis=1, keepdims=True) + 1e-12
        half = v + light
        half /= np.linalg.norm(half, axis=1, keepdims=True) + 1e-12
        sh = np.where(face, sh + gloss * np.maximum((half * AN).sum(1), 0.0) ** 40, sh)
    quad = np.where(face[:, None, None], proj[:, 0], proj[np.arange(len(boxes)), np.array(nl) - 1])
    x, y = quad[..., 0], quad[..., 1]
    area = 0.5 * np.abs((x * np.roll(y, -1, 1) - np.roll(x, -1, 1) * y).sum(1))  # shoelace
    show = np.where(face, 1, np.where(back, -1, 0))
    fl, shl, sl, al, shw = facing.tolist(), shades.tolist(), sh.tolist(), area.tolist(), show.tolist()
    return [_BoxPlan(proj[i, : nl[i]], p16[i, : nl[i]], sides16[i], fl[i], shl[i], shw[i], sl[i], al[i])
            for i in range(len(boxes))]


def _draw_box(
    img: np.ndarray, ids: np.ndarray, cam: Camera, b: Box, oid: int, light: Vec, amb: float,
    gloss: float = 0.0, plan: _BoxPlan | None = None, seam: float = 1.0,
) -> _Geo:
    """Draw a box; returns its projected geometry (face area 0 when the face is hidden).

    ``plan``: its geometry from :func:`_plan_boxes` (computed here when not given).
    ``seam``: the brightness of its edges against its faces' (1: no edge drawn), see
    :func:`_draw_seams`.
    """
    pl = plan if plan is not None else _plan_boxes(cam, [b], light, amb, gloss)[0]
    proj, p16 = pl.proj, pl.p16
    hull = cv2.convexHull(np.concatenate([proj[0], proj[-1]]).astype(np.float32))[:, 0]
    cv2.fillConvexPoly(ids, np.round(hull * 16).astype(np.int32), oid, 8, shift=4)
    geo = _Geo(float(cv2.contourArea(hull)), hull.min(0), hull.max(0), proj[0])
    for s in range(4):
        if pl.facing[s]:
            _draw_side(img, b, pl, s, pl.shades[s])
    sh = pl.sh
    if pl.show > 0:  # +n (face)
        geo.face_area = pl.area
        rgb = b.layers[0][1]
        _fill16(img, p16[0], (rgb[0] * sh * 0.9, rgb[1] * sh * 0.9, rgb[2] * sh * 0.9))
        if b.face is not None:
            _sprite(img, b.face, proj[0], sh)
    elif pl.show < 0:  # -n (back)
        rgb = b.layers[-1][1]
        spr = b.back if b.back is not None else (b.face if b.side_sprites else None)
        big = spr is not None and pl.area > 1600
        k = sh * (0.9 if big else 1)
        _fill16(img, p16[-1][_BACK_ORDER], (rgb[0] * k, rgb[1] * k, rgb[2] * k))
        if big and spr is not None:
            _sprite(img, spr, proj[-1][_BACK_ORDER], sh)
    if seam < 1.0:  # render asks it of labelled tiles only (a die is no tile)
        _draw_seams(img, b, pl, seam)
    return geo


def _draw_seams(img: np.ndarray, b: Box, pl: _BoxPlan, seam: float) -> None:
    """Darken the outline of each face of ``b`` that is seen: a real tile's edges are
    rounded and catch less light, so touching tiles (a wall, a row of backs) show where one
    ends and the next begins. Drawn flat, a wall of touching backs is one seamless slab and
    no detector can tell where its tiles lie (stop 51: the rendered backs' AP50 0.755 against
    the faces' 0.922). The line widens with the tile: about a 30th of its face's size."""
    width = max(1, round(math.sqrt(max(pl.area, 1.0)) / 30))
    # (outline, colour, brightness): each layer of each side seen, then the face or the back
    quads = [(pl.sides16[side][k], rgb, pl.shades[side] * seam)
             for side in range(4) if pl.facing[side] for k, (_, rgb) in enumerate(b.layers)]
    if pl.show > 0:  # half as dark round a face, whose rim its own art draws too
        quads.append((pl.p16[0], b.layers[0][1], pl.sh * 0.9 * (1 + seam) / 2))
    elif pl.show < 0:
        quads.append((pl.p16[-1], b.layers[-1][1], pl.sh * seam))
    for quad, rgb, k in quads:
        cv2.polylines(img, [quad], True, (rgb[0] * k, rgb[1] * k, rgb[2] * k), width, cv2.LINE_AA, shift=4)


def _draw_side(img: np.ndarray, b: Box, pl: _BoxPlan, side: int, sh: float) -> None:
    """One side of a box (a visible +u, -u, +v or -v face), in layers along n."""
    i, j = _SIDES[side]
    last = len(pl.proj) - 1
    if b.side_sprites and b.face is not None:
        _sprite(img, b.face, pl.proj[[0, 0, last, last], [i, j, j, i]], sh)
        return
    quads = pl.sides16[side]
    for k, (_, rgb) in enumerate(b.layers):
        _fill16(img, quads[k], (rgb[0] * sh, rgb[1] * sh, rgb[2] * sh))
    if last > 1:  # the seam between the face layer and the coloured back
        c0 = b.layers[0][1]
        dim = sh * 0.7
        (ax, ay), (bx, by) = pl.p16[1, [i, j]].tolist()
        cv2.line(img, (ax, ay), (bx, by), (c0[0] * dim, c0[1] * dim, c0[2] * dim), 1, cv2.LINE_AA, shift=4)


@functools.lru_cache(maxsize=256)
def _levels(fracs: tuple[float, ...]) -> tuple[float, ...]:
    """Heights (+1 face side .. -1 back side) of the boundaries between a box's layers."""
    levels = [1.0]
    for frac in fracs:
        levels.append(levels[-1] - 2 * frac)
    levels[-1] = -1.0
    return tuple(levels)


@functools.lru_cache(maxsize=16)
def _side_levels(n: int) -> np.ndarray:
    """(layer, 4): the boundary levels of the corners of each layer's quad on a side."""
    return np.array([[k, k, k + 1, k + 1] for k in range(n - 1)])


_BACK_ORDER = [1, 0, 3, 2]  # the back's corners seen from behind, so its sprite is not mirrored


@dataclass
class _Geo:
    hull_area: float
    lo: Vec
    hi: Vec
    face_quad: Vec
    face_area: float = 0.0


def _fill16(img: np.ndarray, p16: np.ndarray, col: tuple[float, float, float]) -> None:
    """Antialiased convex polygon from fixed-point (x16) corners."""
    cv2.fillConvexPoly(img, p16, col, cv2.LINE_AA, shift=4)


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
    window = _occluder_window(o, img.shape[:2])
    if window is None:
        return
    x0, y0, x1, y1 = window
    arm = _ArmMasks(o, (x0, y0), (y1 - y0, x1 - x0))
    roi = img[y0:y1, x0:x1]
    union = cv2.max(arm.sleeve, arm.skin)
    _cast_shadow(roi, union, o.width)
    for mask, rgb, soft in ((arm.sleeve, o.sleeve, 0.45), (arm.skin, o.skin, 0.35)):
        _paint_limb(roi, mask, rgb, soft, o.width)
    crease = tuple(v * 0.8 for v in o.skin)
    for base, tip in arm.fingers:  # creases between fingers
        cv2.line(roi, arm.at(base - arm.u * o.width * 0.1), arm.at(tip), crease, 1, cv2.LINE_AA, shift=2)
    ids[y0:y1, x0:x1][union > 127] = -2


def _occluder_window(o: Occluder, hw: tuple[int, int]) -> tuple[int, int, int, int] | None:
    """The part of the picture ``o`` can reach, ``(x0, y0, x1, y1)``; None when it is
    (nearly) all outside."""
    h, w = hw
    e, u, n = _arm_axes(o)
    wd = o.width
    allp = np.array([np.array(o.start), e + u * wd * 1.6, e - u * wd * 2, e + n * wd, e - n * wd])
    x0 = int(max(allp[:, 0].min() - wd * 1.2, 0))
    y0 = int(max(allp[:, 1].min() - wd * 1.2, 0))
    x1 = int(min(allp[:, 0].max() + wd * 1.2, w))
    y1 = int(min(allp[:, 1].max() + wd * 1.2, h))
    return None if x1 - x0 < 4 or y1 - y0 < 4 else (x0, y0, x1, y1)


def _arm_axes(o: Occluder) -> tuple[Vec, Vec, Vec]:
    """The hand's point, the unit vector along the arm and the one across it."""
    (sx, sy), (ex, ey) = o.start, o.end
    dx, dy = ex - sx, ey - sy
    ln = math.hypot(dx, dy) + 1e-6
    u = np.array([dx / ln, dy / ln])
    return np.array([ex, ey]), u, np.array([-u[1], u[0]])


class _ArmMasks:
    """The sleeve's and the hand's masks in a window whose top left is ``off``, drawn at a
    quarter pixel (``shift=2``), and the fingers' bases and tips."""

    def __init__(self, o: Occluder, off: tuple[int, int], shape: tuple[int, int]) -> None:
        self.off = np.array(off)
        e, self.u, n = _arm_axes(o)
        u, wd = self.u, o.width
        self.sleeve = np.zeros(shape, np.uint8)
        self.skin = np.zeros(shape, np.uint8)
        cuff = e - u * wd * (1.6 + 0.8 * (hash(o.start) % 3) / 3)
        cv2.line(self.sleeve, self.at(np.array(o.start)), self.at(cuff), 255, int(wd * 1.5), cv2.LINE_AA, shift=2)
        cv2.line(self.skin, self.at(cuff), self.at(e - u * wd * 0.7), 255, int(wd * 0.85), cv2.LINE_AA, shift=2)
        palm_c = e - u * wd * 0.1
        cv2.ellipse(self.skin, self.at(palm_c), (int(wd * 0.7 * 4), int(wd * 0.58 * 4)),
                    math.degrees(math.atan2(u[1], u[0])), 0, 360, 255, -1, cv2.LINE_AA, shift=2)
        self.fingers = [self._finger(palm_c, n, wd, k, length, spread) for k, (length, spread)
                        in enumerate(((0.75, -0.12), (0.9, -0.04), (0.85, 0.04), (0.65, 0.12)))]
        th_base = palm_c + n * wd * 0.45
        th_tip = th_base + (u * 0.6 + n * 0.8) * wd * 0.6
        cv2.line(self.skin, self.at(th_base), self.at(th_tip), 255, max(2, int(wd * 0.27)), cv2.LINE_AA, shift=2)
        self.skin[self.sleeve > 127] = 0

    def at(self, p: Vec) -> tuple[int, int]:
        """``p`` in the window's quarter pixels."""
        q = np.round((p - self.off) * 4).astype(int)
        return int(q[0]), int(q[1])

    def _finger(self, palm_c: Vec, n: Vec, wd: float, k: int, length: float, spread: float) -> tuple[Vec, Vec]:
        base = palm_c + self.u * wd * 0.45 + n * wd * (k - 1.5) * 0.3
        d = self.u + n * spread
        d = d / np.linalg.norm(d)
        tip = base + d * wd * length
        cv2.line(self.skin, self.at(base), self.at(tip), 255, max(2, int(wd * 0.24)), cv2.LINE_AA, shift=2)
        return base, tip


def _cast_shadow(roi: np.ndarray, union: np.ndarray, wd: float) -> None:
    """Darken ``roi`` under a blurred copy of the arm's mask, shifted as by a light above."""
    shape = union.shape
    small = cv2.resize(union, (max(1, shape[1] // 4), max(1, shape[0] // 4)), interpolation=cv2.INTER_AREA)
    blur = cv2.GaussianBlur(small.astype(np.float32) / 255, (0, 0), max(0.5, wd * 0.25 / 4))
    shift = np.array([[4, 0, wd * 0.25], [0, 4, wd * 0.35]], np.float32)
    shadow = cv2.warpAffine(blur, shift, (shape[1], shape[0]))
    cv2.multiply(roi, cv2.cvtColor(1 - 0.45 * shadow, cv2.COLOR_GRAY2RGB), dst=roi)


def _paint_limb(roi: np.ndarray, mask: np.ndarray, rgb: tuple[int, int, int], soft: float, wd: float) -> None:
    """Blend a sleeve or skin mask into ``roi``, darker towards its outline (a rounded look).

    Works on the mask's bounding box only, with OpenCV kernels (3-channel numpy broadcasting
    over an arm-sized box is slow)."""
    x, y, w, h = cv2.boundingRect(mask)
    if w == 0 or h == 0:
        return
    # a pixel of margin: the distance transform must see the zeros around the outline
    x0, y0 = max(x - 1, 0), max(y - 1, 0)
    x, y, w, h = x0, y0, min(x + w + 1, mask.shape[1]) - x0, min(y + h + 1, mask.shape[0]) - y0
    m = mask[y : y + h, x : x + w]
    dist = cv2.distanceTransform((m > 127).astype(np.uint8), cv2.DIST_L2, 3)
    shade = (1 - soft) + soft * np.clip(dist / (wd * 0.3), 0, 1)
    col = cv2.transform(shade, np.array(rgb, np.float32)[:, None])  # shade x rgb, 3 channels
    a = m.astype(np.float32)
    sub = roi[y : y + h, x : x + w]
    cv2.blendLinear(col, sub, a, 255.0 - a, dst=sub)


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
    below: list[Box] | None = None,
    seam: float = 1.0,
) -> RenderResult:
    """Paint a scene; ``skip`` omits objects by index (for tests). Float RGB image out.
    ``seam``: the brightness of the labelled boxes' edges against their faces (1: none drawn).

    ``floor`` = (texture, homography, table polygon (N, 3) at z=0): outside the table
    polygon the floor texture shows instead of the table cloth. ``under`` boxes (the table's
    rims) are drawn before everything else and never labelled; ``below`` boxes (furniture on
    the floor, painted far to near) before them, hidden where the table top covers them.
    """
    w, h = cam.size
    img = _background(cam, background, bg_homography, floor)
    ids = np.full((h, w), -1, np.int32)
    light = _unit(np.asarray(light, float))
    if below and floor is not None:
        _draw_below(img, ids, cam, below, floor[2], light, ambient)
    _draw_unlabelled(img, ids, cam, under or [], light, ambient)
    order = _depth_order(cam, objects, skip)
    if shadows and order:
        _shadows(img, cam, [objects[i] for _, i in order], shadow_offset, shadow_strength)
    geos: dict[int, _Geo] = {}
    boxes = [o for _, i in order if isinstance(o := objects[i], Box)]
    plans = iter(_plan_boxes(cam, boxes, light, ambient, gloss))
    for _, i in order:
        o = objects[i]
        if isinstance(o, Box):
            g = _draw_box(img, ids, cam, o, i, light, ambient, gloss, next(plans), seam if o.label is not None else 1.0)
            if o.label is not None:
                geos[i] = g
        else:
            _draw_disc(img, ids, cam, o, i, light, ambient)
    for occ in occluders:
        _draw_occluder(img, ids, occ)
    labels = _labels(cam, objects, ids, geos, min_visible)
    return RenderResult(img, labels, ids)


def _depth_order(cam: Camera, objects: list[Box | Disc], skip: set[int] | None) -> list[tuple[float, int]]:
    """(distance, index) of the objects in front of the camera, far to near.

    Far to near by the distance from the eye, not the depth along the view: of two equal
    boxes that touch (tiles in a row), the one on the eye's side of the face they share is
    the nearer by distance, always; by depth, the far one of a row seen obliquely can come
    last and its side be painted over its neighbour's face.
    """
    if not objects:
        return []
    offsets = np.array([o.center for o in objects]) - cam.eye
    zc = offsets @ cam.R[2]
    dist = np.linalg.norm(offsets, axis=1)
    order = []
    for i, o in enumerate(objects):
        if skip and i in skip:
            continue
        near = float(zc[i]) - (0.5 * math.hypot(*o.size) if isinstance(o, Box) else o.radius)
        if near > 20.0:
            order.append((float(dist[i]), i))
    order.sort(key=lambda t: -t[0])
    return order


_FOOT_U = np.array([-1.0, 1, 1, -1, -1, 1, 1, -1])[:, None]  # a box's 8 corners along u, v, n
_FOOT_V = np.array([-1.0, -1, 1, 1, -1, -1, 1, 1])[:, None]
_FOOT_N = np.array([-1.0, -1, -1, -1, 1, 1, 1, 1])[:, None]
_DISC_FOOT = np.array([[1, 0, 0], [0, 1, 0], [-1, 0, 0], [0, -1, 0],
                       [.7, .7, 0], [-.7, .7, 0], [.7, -.7, 0], [-.7, -.7, 0]])


def _footprints(objs: list[Box | Disc]) -> Vec:
    """(M, 8, 3): points around the base of each object that casts a shadow (boxes stacked on
    others cast none: their shadow would fall on tiles)."""
    boxes = [o for o in objs if isinstance(o, Box) and o.shadow]
    discs = [o for o in objs if isinstance(o, Disc)]
    out = [np.zeros((0, 8, 3))]
    if boxes:
        C = np.array([o.center for o in boxes])
        size = np.array([o.size for o in boxes]) / 2
        HU = np.array([o.au for o in boxes]) * size[:, 0:1]
        HV = np.array([o.av for o in boxes]) * size[:, 1:2]
        HN = np.array([o.an for o in boxes]) * size[:, 2:3]
        low = C[:, 2] - (np.abs(HU[:, 2]) + np.abs(HV[:, 2]) + np.abs(HN[:, 2])) <= 5
        F = C[:, None] + _FOOT_U * HU[:, None] + _FOOT_V * HV[:, None] + _FOOT_N * HN[:, None]
        out.append(F[low])
    if discs:
        radii = np.array([d.radius for d in discs])[:, None, None]
        out.append(np.array([d.center for d in discs])[:, None] + radii * _DISC_FOOT)
    return np.concatenate(out)


def _shadows(img: np.ndarray, cam: Camera, objs: list[Box | Disc], off: tuple[float, float], k: float) -> None:
    """Soft contact shadows: footprints drawn at quarter resolution, blurred, multiplied in.

    Only the bounding box of the shadowed area is upsampled and multiplied (the Gaussian's
    support is finite, so outside it the factor is exactly 1).
    """
    w, h = cam.size
    sc = 4
    mask = np.zeros((h // sc, w // sc), np.float32)
    F = _footprints(objs)  # (N, 8, 3)
    if not len(F):
        return
    ht = F[:, :, 2:3].copy()
    F[:, :, 2] = 0
    d = np.array([off[0], off[1], 0.0])
    pts = np.concatenate([F, F + d * (0.3 + ht / 20.0)], 1)
    P = (cam.project(pts.reshape(-1, 3)) / sc).reshape(len(F), 16, 2).astype(np.float32)
    for p in P:
        hull = cv2.convexHull(p)[:, 0]
        cv2.fillConvexPoly(mask, np.round(hull * 16).astype(np.int32), 1.0, cv2.LINE_AA, shift=4)
    blur = cv2.GaussianBlur(mask, (0, 0), 2.0)
    x, y, bw, bh = cv2.boundingRect((blur > 0).astype(np.uint8))
    if bw == 0 or bh == 0:
        return
    # one quarter-pixel of margin (factor 1 there) so the bilinear upsampling of the crop
    # matches that of the whole map
    x0, y0 = max(x - 1, 0), max(y - 1, 0)
    x1, y1 = min(x + bw + 1, mask.shape[1]), min(y + bh + 1, mask.shape[0])
    lo = 1.0 - k * blur[y0:y1, x0:x1]
    up = cv2.resize(lo, ((x1 - x0) * sc, (y1 - y0) * sc), interpolation=cv2.INTER_LINEAR)
    roi = img[y0 * sc : y1 * sc, x0 * sc : x1 * sc]
    up = up[: roi.shape[0], : roi.shape[1]]
    cv2.multiply(roi, cv2.cvtColor(up, cv2.COLOR_GRAY2RGB), dst=roi)


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
        sub = (ids[y0:y1, x0:x1] == i).view(np.uint8)
        cnt = cv2.countNonZero(sub)
        if cnt == 0 or cnt / full < min_visible:
            continue
        bx, by, bw, bh = cv2.boundingRect(sub)  # of the visible pixels
        bx0, bx1, by0, by1 = x0 + bx, x0 + bx + bw, y0 + by, y0 + by + bh
        if bw < 4 or bh < 4:
            continue
        up = not o.label.get("back", False) and g.face_area > 0.25 * full
        lab = dict(o.label)
        lab.update(
            box=[bx0, by0, bx1, by1],
            cls=0 if up else 1,
            face="up" if up else "down",
            visible=round(min(1.0, cnt / full), 3),
            quad=[[round(x, 1), round(y, 1)] for x, y in g.face_quad.tolist()],
            id=i,
        )
        out.append(lab)
    out.sort(key=lambda d: d["id"])
    return out
