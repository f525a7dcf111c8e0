"""Teach Mahjongero the art of your own set from one photo.

1. ``mahjongero calibrate guide --variant V --out guide.png`` prints the guide: one
   of each tile of the variant's set, in rows (characters, dots, bamboo, honours,
   flowers and seasons, then the variant's extras).
2. Lay one of each tile on the table exactly as the guide shows (rows top to bottom,
   each row left to right, as you look at the guide), take one photo from above.
3. ``mahjongero calibrate PHOTO --name myset --variant V`` finds the tiles, checks the
   rows against the guide (a row too short or too long is an error naming the row),
   labels every crop from its place, and stores the set under the user data folder
   (``$XDG_DATA_HOME/mahjongero/sets/myset``): a crop of each tile kind, and a probe.
4. ``--set myset`` on ``score``/``serve`` names face-up tiles as one of the set's tiles.

The probe is a linear classifier on the shipped classifier's pooled features (its
``features`` output, the layer before its own last one), fitted in a few seconds to
views of the guide crops in the poses a table shows: lying at the four quarter turns
with boxes a detector might draw, and standing in a hand row, foreshortened, sheared by
perspective, between neighbours; relit, blurred, at lower resolution. It is stored with
the key of the classifier it reads; after a classifier update the set is refitted from
its stored crops once, with no new photo. The tiles' faces themselves (upright Lab
colour, matched by normalised cross-correlation) are the fallback when no classifier is
at hand; they only suit crops of tiles lying face up.

>>> [len(r) for r in guide_rows("singapore")]
[9, 9, 9, 7, 8, 4]
>>> normalise_face(np.zeros((40, 30, 3), np.uint8)).shape
(52, 40, 3)
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import cv2
import numpy as np

from engine.tiles import Tile
from vision.detections import Detections
from vision.upright import boxes_levelled, turn_quarters, turned_back

if TYPE_CHECKING:
    from vision.reader import LevelPass

__all__ = [
    "CalibrationError",
    "guide_rows",
    "guide_image",
    "sets_dir",
    "check_name",
    "normalise_face",
    "match_scores",
    "Featurizer",
    "Probe",
    "training_views",
    "fit_probe",
    "TileSet",
    "label_guide",
    "calibrate",
    "load_set",
    "stored_sets",
    "PrototypeClassifier",
    "CalibratedReader",
    "PHOTO_CUTS",
]


class CalibrationError(ValueError):
    """A calibration photo or set name that cannot be used; says which and why."""


# -- the guide ------------------------------------------------------------------------------------

_EXTRAS = {  # beyond the 34 playable tiles and 8 flowers/seasons
    "filipino": [], "visayan": [],
    "singapore": [list(range(42, 46))],
    "singaporean": [list(range(42, 46))],
    "vietnamese": [list(range(46, 54)), list(range(54, 62))],
    "vietnam": [list(range(46, 54)), list(range(54, 62))],
    "south-vietnamese": [list(range(46, 54)), list(range(54, 62))],
}


def guide_rows(variant: str) -> list[list[Tile]]:
    """The guide's rows: one of each tile kind of the variant's set, row by row."""
    key = variant.strip().lower()
    if key not in _EXTRAS:
        raise CalibrationError(f"unknown variant {variant!r}: use one of {', '.join(sorted(_EXTRAS))}")
    rows = [[Tile(s * 9 + n) for n in range(9)] for s in range(3)]
    rows.append([Tile(t) for t in range(27, 34)])
    rows.append([Tile(t) for t in range(34, 42)])
    rows += [[Tile(t) for t in extra] for extra in _EXTRAS[key]]
    return rows


def _tile_picture(tile: Tile, w: int, h: int) -> np.ndarray:
    """The renderer's art for ``tile`` when it is there, else a plain labelled card (BGR)."""
    try:
        from vision.synth.faces import face_image, make_style

        face = face_image(tile, make_style(0))
        rgb = face[:, :, :3] if face.shape[2] >= 3 else np.repeat(face, 3, 2)
        if face.shape[2] == 4:
            alpha = face[:, :, 3:4].astype(np.float32) / 255
            rgb = (rgb * alpha + 255 * (1 - alpha)).astype(np.uint8)
        return cv2.resize(np.ascontiguousarray(rgb[:, :, ::-1]), (w, h), interpolation=cv2.INTER_AREA)
    except Exception:  # noqa: BLE001 - the guide must print even without the renderer
        card = np.full((h, w, 3), 245, np.uint8)
        cv2.putText(card, str(tile), (6, h // 2), cv2.FONT_HERSHEY_SIMPLEX, 0.9, (0, 0, 0), 2, cv2.LINE_AA)
        return card


def guide_image(variant: str, cell: tuple[int, int] = (90, 120)) -> np.ndarray:
    """The printable guide (BGR): each tile's picture with its code and English name.

    >>> guide_image("filipino").shape[2]
    3
    """
    rows = guide_rows(variant)
    cw, ch = cell
    label_h, pad, title_h = 34, 12, 60
    cols = max(len(r) for r in rows)
    width = pad + cols * (cw + pad)
    height = title_h + len(rows) * (ch + label_h + pad) + pad
    img = np.full((height, width, 3), 255, np.uint8)
    title = f"Mahjongero calibration guide - {variant}: lay one of each tile like this, photo from above"
    cv2.putText(img, title, (pad, 36), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 0), 1, cv2.LINE_AA)
    for r, row in enumerate(rows):
        y = title_h + r * (ch + label_h + pad)
        for c, tile in enumerate(row):
            x = pad + c * (cw + pad)
            img[y:y + ch, x:x + cw] = _tile_picture(tile, cw, ch)
            cv2.rectangle(img, (x, y), (x + cw - 1, y + ch - 1), (60, 60, 60), 1)
            cv2.putText(img, str(tile), (x + 4, y + ch + 14), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 1,
                        cv2.LINE_AA)
            name = tile.english.split(" (")[0][:14]
            cv2.putText(img, name, (x + 2, y + ch + 29), cv2.FONT_HERSHEY_SIMPLEX, 0.33, (80, 80, 80), 1,
                        cv2.LINE_AA)
    return img


# -- where sets live --------------------------------------------------------------------------------

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")


def sets_dir() -> Path:
    """``$XDG_DATA_HOME/mahjongero/sets`` (``~/.local/share/...`` when unset), like platformdirs."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "mahjongero" / "sets"


def check_name(name: str) -> str:
    """A set name that is safe as a folder name, else ``CalibrationError`` quoting it."""
    _set_path(name)
    return name


def _set_path(name: str) -> Path:
    if not _NAME.match(name or ""):
        raise CalibrationError(f"set name {name!r}: use letters, digits, '-', '_' or '.' (at most 40)")
    return sets_dir() / name


# -- features ---------------------------------------------------------------------------------------

_FACE = (40, 52)  # w, h every face is compared at
_SHIFT = 5  # pixels of misalignment tolerated each way
_SCALES = ((1.0, 1.0), (1.1, 1.1), (1.2, 1.2), (1.15, 1.35))
_BANDS = ((0.0, 0.0), (0.25, 0.08), (0.12, 0.18), (0.4, 0.12))  # (top band, side bands) as shares of the face
_WEIGHTS = (0.6, 0.2, 0.2)  # Lab channels: the drawing matters most, then its colours
_WIDE = 0.2  # margin of the stored guide crops: room to draw boxes as a detector might
_LYING = 8  # lying views of each guide tile: the four quarter turns, twice (exact box, then jittered)
_STANDING = 16  # standing views of each guide tile (a photo of a hand shows them so)
_PROBE_L2, _PROBE_STEPS, _PROBE_LR = 1e-3, 300, 0.05
_NESTED = 0.6  # a detection this share inside surer ones is part of a tile (guide tiles lie apart)
# Detector input sizes a guide photo is read at, in turn, until its rows match the guide's
# (None: the detector's own, 480). A guide photo is read once, so it can afford more pixels:
# at 480 the face-boxing detector v6 split one unseen style's 6-bamboo into its two stick
# columns (the row came out a tile too long), and its boxes of another style's guide taught
# that set 98.8 % (at 640: 99.6 %; the other six unseen styles the same or better).
GUIDE_SIZES: tuple[int | None, ...] = (640, None)
# Shares of a box's height, from its bottom, that a photo's crops are read at. A box around a
# tile standing in a hand row, photographed from above, is mostly the tile's top: at 60 degrees
# or steeper the face is the lowest third to half of it, squashed into a few of the
# classifier's 64 rows. The photo's tiles stand alike, so the shares that suit one suit all.
# Made for whole-tile boxes (the v5 detector's, and the renderer's labels). The shipped
# detector has boxed faces since v6, and its boxes cut so lose face: 16 rendered hand photos
# of each of eight unseen styles, read whole, named 78 hands of 128 exactly so, 106 with
# whole crops (their crops on face boxes: 92.9-100 % against 98.4-100 %,
# ``benchmarks/bench_live.py --only-calibration``; models/HISTORY.md, stop 59). No reader
# cuts by default since then.
PHOTO_CUTS = (1.0, 0.8, 0.7, 0.6, 0.5, 0.42)


def face_region(crop: np.ndarray) -> np.ndarray:
    """The tile's face inside a crop: the largest bright (ivory) blob's bounding box.

    A box around a tile also holds its sides, its coloured back layer and some table;
    cutting them away makes a standing tile seen at an angle look like the same tile
    lying flat in the calibration photo.
    """
    if crop.shape[0] < 8 or crop.shape[1] < 8:
        return crop
    light = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB)[:, :, 0]
    _, mask = cv2.threshold(light, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))  # the art is dark: fill it
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    if n < 2:
        return crop
    k = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    x, y, w, h = (int(v) for v in stats[k, :4])
    if w * h < 0.25 * crop.shape[0] * crop.shape[1]:
        return crop  # no clear face: keep the whole crop
    return crop[y:y + h, x:x + w]


def _upright(crop: np.ndarray) -> np.ndarray:
    """Portrait orientation: a tile lying across (a turned or a rotated one) is turned back."""
    if crop.ndim == 2:
        crop = cv2.cvtColor(crop, cv2.COLOR_GRAY2BGR)
    h, w = crop.shape[:2]
    return np.ascontiguousarray(np.rot90(crop)) if w > h * 1.4 else crop


def normalise_face(crop: np.ndarray) -> np.ndarray:
    """A crop as the matcher compares it: face only, upright, ``_FACE`` pixels, Lab, float32."""
    c = _upright(face_region(np.asarray(crop)))
    if c.size == 0:
        c = np.zeros((_FACE[1], _FACE[0], 3), np.uint8)
    lab = cv2.cvtColor(cv2.resize(c, _FACE, interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2LAB)
    return lab.astype(np.float32)


def _variants(crop: np.ndarray, rng: np.random.Generator, n: int = 0) -> list[np.ndarray]:
    """The face upright and upside down, also as a tile standing up would be cut: with a
    band of its top above and slivers of its sides and neighbours beside (what a box
    around a standing tile photographed at an angle holds besides the face)."""
    face = _upright(face_region(np.asarray(crop)))
    h, w = face.shape[:2]
    rim = face[: max(1, h // 12)].reshape(-1, 3).mean(0)  # the face's own ivory, for the bands
    out = []
    for top, side in _BANDS:
        t, sd = int(round(top * h)), int(round(side * w))
        padded = cv2.copyMakeBorder(face, t, 0, sd, sd, cv2.BORDER_CONSTANT, value=[float(v) for v in rim])
        lab = cv2.cvtColor(cv2.resize(padded, _FACE, interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2LAB)
        view = lab.astype(np.float32)
        out += [view, np.ascontiguousarray(view[::-1, ::-1])]
    return out


def match_scores(query: np.ndarray, prototypes: np.ndarray) -> np.ndarray:
    """Best normalised cross-correlation of each prototype's centre within the query face,
    over shifts of up to ``_SHIFT`` pixels, Lab channels weighted: (K,) in [-1, 1]."""
    s = _SHIFT
    h, w = query.shape[:2]
    views = []
    for sx, sy in _SCALES:  # the face's own box is only roughly found: try it a little bigger
        big = cv2.resize(query, (int(round(w * sx)), int(round(h * sy))), interpolation=cv2.INTER_LINEAR)
        y0, x0 = (big.shape[0] - h) // 2, (big.shape[1] - w) // 2
        views.append(np.ascontiguousarray(big[y0:y0 + h, x0:x0 + w]))
    out = np.full(len(prototypes), -1.0, np.float32)
    for k, proto in enumerate(prototypes):
        for view in views:
            score = 0.0
            for ch, wt in enumerate(_WEIGHTS):
                tmpl = np.ascontiguousarray(proto[s:-s, s:-s, ch])
                if float(tmpl.std()) < 3.0:  # a blank face (some sets' White dragon): flat matches flat
                    score += wt * (1.0 - min(1.0, float(view[s:-s, s:-s, ch].std()) / 12.0))
                    continue
                res = cv2.matchTemplate(np.ascontiguousarray(view[:, :, ch]), tmpl, cv2.TM_CCOEFF_NORMED)
                score += wt * float(res.max())
            out[k] = max(out[k], score)
    return out


# -- a linear probe on the classifier's features --------------------------------------------------


class Featurizer(Protocol):
    """What calibration needs of the shipped classifier (``vision.classifier.TileClassifier``)."""

    has_features: bool

    @property
    def key(self) -> str:
        """Names the weights: a probe reads only the features it was fitted to."""
        ...

    def features(self, crops: Sequence[np.ndarray]) -> np.ndarray: ...


@runtime_checkable
class ReadsBoth(Protocol):
    """A featurizer that also gives its own probabilities over ``codes`` from the same pass:
    the shipped classifier's opinion then joins the probe's (``PrototypeClassifier``)."""

    codes: np.ndarray

    def read(self, crops: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]: ...


@dataclass
class Probe:
    """A linear classifier on the shipped classifier's features, fitted to one set's tiles."""

    weights: np.ndarray  # (D, K): one column per guide tile
    bias: np.ndarray  # (K,)
    key: str  # the ``Featurizer.key`` of the classifier whose features it reads

    def scores(self, features: np.ndarray) -> np.ndarray:
        """(N, K) logits for (N, D) features."""
        out: np.ndarray = _unit(features) @ self.weights + self.bias
        return out


def _log_softmax(z: np.ndarray) -> np.ndarray:
    """Row-wise log softmax.

    >>> np.exp(_log_softmax(np.array([[0.0, np.log(3.0)]]))).round(2).tolist()
    [[0.25, 0.75]]
    """
    z = z - z.max(1, keepdims=True)
    out: np.ndarray = z - np.log(np.exp(z).sum(1, keepdims=True))
    return out


def _unit(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, np.float32)
    out: np.ndarray = x / (np.linalg.norm(x, axis=1, keepdims=True) + 1e-6)
    return out


def _softmax_regression(x: np.ndarray, y: np.ndarray, k: int, l2: float = _PROBE_L2,
                        steps: int = _PROBE_STEPS) -> tuple[np.ndarray, np.ndarray]:
    """Multinomial logistic regression by full-batch Adam (a few thousand rows: no library needed).

    >>> x = np.array([[1, 0], [0.9, 0.1], [0, 1], [0.1, 0.9]], np.float32)
    >>> w, b = _softmax_regression(x, np.array([0, 0, 1, 1]), 2, steps=100)
    >>> (x @ w + b).argmax(1).tolist()
    [0, 0, 1, 1]
    """
    n, d = x.shape
    params = [np.zeros((d, k), np.float32), np.zeros(k, np.float32)]
    moments = [[np.zeros_like(p), np.zeros_like(p)] for p in params]
    target = np.eye(k, dtype=np.float32)[y]
    for t in range(1, steps + 1):
        z = x @ params[0] + params[1]
        p = np.exp(z - z.max(1, keepdims=True))
        g = (p / p.sum(1, keepdims=True) - target) / n
        for param, grad, (m, v) in zip(params, (x.T @ g + l2 * params[0], g.sum(0)), moments, strict=True):
            m += 0.1 * (grad - m)
            v += 0.001 * (grad * grad - v)
            param -= _PROBE_LR * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
    return params[0], params[1]


def _photometric(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Another light, white balance, focus and resolution than the guide photo's."""
    lit = crop.astype(np.float32) * rng.uniform(0.6, 1.3) + rng.uniform(-30, 30)
    c: np.ndarray = np.clip(lit * rng.uniform(0.85, 1.15, 3), 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        k = int(rng.choice([3, 5]))
        c = np.asarray(cv2.GaussianBlur(c, (k, k), 0))
    if rng.random() < 0.5:  # a tile further away: fewer pixels
        h, w = c.shape[:2]
        f = rng.uniform(0.3, 0.8)
        c = np.asarray(cv2.resize(cv2.resize(c, (max(4, int(w * f)), max(4, int(h * f)))), (w, h)))
    return c


def _standing(faces: Sequence[np.ndarray], i: int, rng: np.random.Generator) -> np.ndarray:
    """Guide tile ``i`` as a box around a standing tile of a hand row shows it (BGR).

    Seen from above and in front, a standing tile's face is foreshortened, the tile's top
    shows above it as a band of body and back colour (unknown from a face-up photo: random,
    or dark), and near the photo's edges perspective shears the row, so the box around a
    face also holds much of its neighbours.

    >>> f = np.full((52, 40, 3), 220, np.uint8)
    >>> _standing([f, f], 0, np.random.default_rng(0)).dtype
    dtype('uint8')
    """
    face = faces[i]
    h, w = face.shape[:2]
    a, b = rng.integers(len(faces), size=2)
    fh = max(4, int(round(h * rng.uniform(0.35, 0.9))))
    row = np.concatenate([cv2.resize(f, (w, fh), interpolation=cv2.INTER_AREA) for f in (faces[a], face, faces[b])], 1)
    band = max(2, int(fh * rng.uniform(0.2, 0.7)))
    dark = max(1, int(band * rng.uniform(0.3, 0.7)))
    ivory = face[: max(1, h // 12)].reshape(-1, 3).mean(0)
    back = rng.integers(0, 256, 3) if rng.random() < 0.5 else np.full(3, 30)
    top = np.concatenate([np.tile(back, (dark, row.shape[1], 1)), np.tile(ivory, (band - dark, row.shape[1], 1))])
    img = np.concatenate([top.astype(np.uint8), row])
    tall = img.shape[0]
    shear = rng.uniform(-0.6, 0.6)  # the bottom's shift against the top, per pixel of height
    m = np.array([[1, shear, -shear * tall / 2], [0, 1, 0]], np.float32)
    img = cv2.warpAffine(img, m, (img.shape[1], tall), borderMode=cv2.BORDER_REPLICATE)
    spread = abs(shear) * tall / 2
    return np.ascontiguousarray(img[:, max(0, int(w - spread)):int(2 * w + spread) + 1])


def _tight(crop: np.ndarray) -> np.ndarray:
    """The classifier's crop (margin ``CROP_MARGIN``) out of a stored guide crop (``_WIDE``)."""
    from vision.classifier import CROP_MARGIN

    h, w = crop.shape[:2]
    f = (1 + 2 * CROP_MARGIN) / (1 + 2 * _WIDE)
    dh, dw = int(round(h * (1 - f) / 2)), int(round(w * (1 - f) / 2))
    return crop[dh:h - dh, dw:w - dw]


def _jittered(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A detector's box is never exact: each side of the tight box moves by -8 .. +12 %."""
    h, w = crop.shape[:2]
    base = 1 + 2 * _WIDE
    side = rng.uniform(-0.08, 0.12, 4) + 0.06  # margin of each side, as a share of the tile
    x0, x1 = (_WIDE - side[0]) * w / base, (1 + _WIDE + side[2]) * w / base
    y0, y1 = (_WIDE - side[1]) * h / base, (1 + _WIDE + side[3]) * h / base
    return crop[max(0, int(y0)):int(np.ceil(y1)), max(0, int(x0)):int(np.ceil(x1))]


def training_views(crops: Sequence[np.ndarray], rng: np.random.Generator) -> tuple[list[np.ndarray], np.ndarray]:
    """Each guide crop (``_WIDE`` margin) in the poses and conditions a table shows: lying at
    the four quarter turns with boxes a detector might draw, and standing in a hand row
    (``_standing``); most views relit. Returns the views and the guide index of each."""
    views: list[np.ndarray] = []
    owner: list[int] = []
    faces = [face_region(_tight(c)) for c in crops]
    for i, crop in enumerate(crops):
        for k in range(_LYING):
            views.append(np.ascontiguousarray(np.rot90(_jittered(crop, rng) if k >= 4 else _tight(crop), k % 4)))
            owner.append(i)
        for _ in range(_STANDING):
            views.append(_standing(faces, i, rng))
            owner.append(i)
    views = [_photometric(v, rng) if rng.random() < 0.7 else v for v in views]
    return views, np.array(owner)


def fit_probe(crops: Sequence[np.ndarray], classifier: Featurizer, seed: int = 0) -> Probe:
    """Fit a probe naming each guide crop (one per tile kind, ``_WIDE`` margin) from the views
    of ``training_views``; column k of the probe is ``crops[k]``."""
    views, owner = training_views(crops, np.random.default_rng(seed))
    w, b = _softmax_regression(_unit(classifier.features(views)), owner, len(crops))
    return Probe(w, b, classifier.key)


# -- a calibrated set -------------------------------------------------------------------------------


@dataclass
class TileSet:
    """One physical set as its guide photo showed it: a crop of each tile kind, and the probe
    fitted to them for the classifier in use (refitted from the crops for another one)."""

    name: str
    variant: str
    codes: np.ndarray  # (K,) int: the tile of each guide crop
    crops: list[np.ndarray]  # BGR, with ``_WIDE`` margin
    probe: Probe | None = None
    _faces: tuple[np.ndarray, np.ndarray] | None = field(default=None, repr=False, compare=False)

    def faces(self) -> tuple[np.ndarray, np.ndarray]:
        """Normalised faces for matching without a classifier, and the tile code of each."""
        if self._faces is None:
            rng = np.random.default_rng(0)
            faces, codes = [], []
            for code, crop in zip(self.codes.tolist(), self.crops, strict=True):
                views = _variants(_tight(crop), rng)
                faces += views
                codes += [code] * len(views)
            self._faces = (np.stack(faces), np.array(codes, np.int64))
        return self._faces

    def save(self) -> Path:
        """Store the set under its name, whole or not at all: it is written beside the set
        taught before and takes its place once complete, so a save that fails part-way
        leaves the old set as it was, and nothing of the old one (its probe) outlives it."""
        path = _set_path(self.name)
        fresh, old = _beside(path, "new"), _beside(path, "old")
        for leftover in (fresh, old):
            shutil.rmtree(leftover, ignore_errors=True)
        self._write(fresh)
        if path.exists():
            path.rename(old)
        fresh.rename(path)
        shutil.rmtree(old, ignore_errors=True)
        return path

    def _write(self, path: Path) -> None:
        (path / "crops").mkdir(parents=True)
        for k, (code, crop) in enumerate(zip(self.codes.tolist(), self.crops, strict=True)):
            target = path / "crops" / f"{k:02d}_{Tile(code)}.png"
            if not cv2.imwrite(str(target), crop):
                raise CalibrationError(f"cannot write {str(target)!r}")
        if self.probe is not None:
            np.savez_compressed(path / "probe.npz", weights=self.probe.weights, bias=self.probe.bias,
                                key=np.array(self.probe.key))
        meta = {"name": self.name, "variant": self.variant, "tiles": [str(Tile(c)) for c in self.codes.tolist()],
                "probe_for_classifier": self.probe.key if self.probe else None}
        (path / "set.json").write_text(json.dumps(meta, indent=2) + "\n")


def _beside(path: Path, what: str) -> Path:
    """The hidden folder beside a set's where a save writes (``new``) or puts the set it
    replaces (``old``); never a set's own name (those start with a letter or digit)."""
    return path.with_name(f".{path.name}.{what}")


def _recovered(path: Path) -> Path:
    """``path``, the set put back from beside it where a save stopped between moving the old
    set aside and putting the new one in its place."""
    old = _beside(path, "old")
    if not _stored(path) and _stored(old):
        shutil.rmtree(path, ignore_errors=True)
        old.rename(path)
    return path


def _stored(path: Path) -> bool:
    return (path / "set.json").is_file() and (path / "crops").is_dir()


def stored_sets() -> list[str]:
    """The names of the sets taught so far."""
    root = sets_dir()
    for old in root.glob(".*.old"):  # a save stopped with the set it replaced moved aside
        _recovered(root / old.name[1 : -len(".old")])
    return sorted(p.name for p in root.glob("*") if _NAME.match(p.name) and _stored(p))


def load_set(name: str) -> TileSet:
    """A set taught earlier; ``CalibrationError`` naming it (and the known ones) if absent."""
    path = _recovered(_set_path(name))
    if not _stored(path):
        raise CalibrationError(f"no calibrated set {name!r} (known: {', '.join(stored_sets()) or 'none'})")
    meta = json.loads((path / "set.json").read_text())
    codes = [int(Tile.parse(t)) for t in meta["tiles"]]
    crops: list[np.ndarray] = []
    for k, c in enumerate(codes):
        crop = cv2.imread(str(path / "crops" / f"{k:02d}_{Tile(c)}.png"))
        if crop is None:
            raise CalibrationError(f"set {name!r} in {path} is incomplete: photograph the guide again")
        crops.append(np.asarray(crop))
    probe = None
    if (path / "probe.npz").is_file():
        data = np.load(path / "probe.npz")
        probe = Probe(data["weights"], data["bias"], str(data["key"]))
    return TileSet(name, str(meta.get("variant", "")), np.array(codes, np.int64), crops, probe)


def label_guide(dets: Detections, variant: str) -> list[tuple[Tile, int]]:
    """Match detected tiles to the guide: (tile, index into ``dets``) for every guide tile.

    Rows are found by a line fit, ordered top to bottom, each read left to right;
    their lengths must match the guide row by row.
    """
    from vision.readings import TileItem
    from vision.regions import rows_of

    want = guide_rows(variant)
    items = [TileItem(Tile.M1, tuple(float(v) for v in dets.xyxy[i]), track=i)  # type: ignore[arg-type]
             for i in range(len(dets))]
    rows = [r for r in rows_of(items) if len(r) >= 2 or len(items) <= len(want)]
    rows.sort(key=lambda r: float(np.mean([i.centre[1] for i in r.items])))
    sizes = [len(r) for r in rows]
    if sizes != [len(r) for r in want]:
        raise CalibrationError(
            f"found rows of {sizes} tiles; the {variant} guide has rows of {[len(r) for r in want]}: "
            "lay the tiles exactly as the guide shows, with a gap between rows"
        )
    out = []
    for row, tiles in zip(rows, want, strict=True):
        ordered = sorted(row.items, key=lambda i: i.centre[0])
        out += [(t, int(i.track or 0)) for t, i in zip(tiles, ordered, strict=True)]
    return out


def calibrate(image: np.ndarray, variant: str, name: str, detect: Callable[..., Detections],
              seed: int = 0, classifier: Featurizer | None = None) -> TileSet:
    """Build (not yet save) a set from one guide photo: a crop of each tile kind, and, given
    the shipped ``classifier`` (with a features output), the probe fitted to them.

    ``detect(image)`` finds the tiles; if it also takes ``imgsz`` (a ``TileDetector`` does), the
    photo is read at the sizes of ``GUIDE_SIZES`` in turn until its rows match the guide's.
    """
    from vision.classifier import crop_boxes

    _set_path(name)  # a bad name fails before any work
    dets, pairs = _read_guide(image, variant, detect)
    crops = crop_boxes(image, dets.xyxy[[i for _, i in pairs]], margin=_WIDE)
    tileset = TileSet(name, variant, np.array([int(t) for t, _ in pairs], np.int64), crops)
    if classifier is not None and classifier.has_features:
        tileset.probe = fit_probe(crops, classifier, seed)
    return tileset


def _read_guide(image: np.ndarray, variant: str, detect: Callable[..., Detections]
                ) -> tuple[Detections, list[tuple[Tile, int]]]:
    """The guide photo's detections and :func:`label_guide`'s pairs, from the first input size
    of ``GUIDE_SIZES`` at which the rows match; the first size's error if none does."""
    import inspect

    from vision.detector import drop_nested

    sizes = GUIDE_SIZES if "imgsz" in inspect.signature(detect).parameters else (None,)
    first: CalibrationError | None = None
    for size in sizes:
        dets = detect(image) if size is None else detect(image, imgsz=size)
        if len(dets) == 0:
            first = first or CalibrationError("no tiles found in the calibration photo")
            continue
        # the guide's tiles lie apart, so a box inside others is a second guess at part of a tile
        dets = dets[drop_nested(dets.xyxy, np.argsort(-dets.confidence, kind="stable"), _NESTED)]
        try:
            return dets, label_guide(dets, variant)
        except CalibrationError as exc:
            first = first or exc
    assert first is not None
    raise first


class PrototypeClassifier:
    """Names crops as one of a calibrated set's tiles; returns codes and confidences.

    With the shipped ``classifier`` (features output), the set's probe reads its features;
    a probe fitted for other weights is refitted from the set's crops (``refitted`` says so,
    a few seconds). Without one, faces are matched by cross-correlation (slow: ~0.3 s a crop).

    ``prior``: how much the classifier's own probabilities count beside the probe's (log
    probabilities added, this weight on the classifier's). With v4's classifier the probe
    alone read unseen styles 777 / 555 / 901 / 321 at 94.0 / 86.9 / 91.7 / 89.3 % and the
    classifier alone at 95.2 / 85.7 / 94.0 / 90.5 %; at 0.5 the two together read 95.2 / 86.9
    / 94.0 / 91.7 %, never below either. v7's features carry more of the set: on 252 tiles a
    style (crops cut as ``PHOTO_CUTS`` says) prior 0 / 0.25 / 0.5 read styles 777, 321, 555,
    901 at 99.6 / 97.6 / 98.4 / 99.6 %, 99.6 / 98.0 / 97.2 / 99.6 % and 99.6 / 96.8 / 96.8 /
    99.6 %, and four more unseen styles, looked at only to check the choice (1234, 2024,
    3000, 4321), at 98.4 / 98.0 / 98.8 / 98.8 %, 98.4 / 98.4 / 98.8 / 98.8 % and 98.4 / 98.0 /
    98.0 / 98.8 %: 0.25 is never below 0.5 on any of the eight (``benchmarks/bench_live.py``).
    Since stop 59 the opinion is the classifier's ``probabilities`` where it has them: after
    its second, flower and number looks, as it names a photo's tiles without a set. Before,
    the probe and the main network alone read style 555's 5-character as 9 in six of its 16
    rendered hand photos, which the number look reads right: read whole, its hands named
    exactly went 8 -> 12 of 16 (the shipped reader without the set: 12), and the eight
    unseen styles' 128 went 106 -> 112 (without the set: 105).

    ``cuts``: the crops of one call (one photo) are also read cut to each of these shares of
    their height, kept from the bottom (see ``PHOTO_CUTS``); the ``blend`` shares the photo's
    crops are surest at, on average, name each crop together (their log probabilities
    averaged). Until 2026-11-25 the one surest share named only the crops the whole crop was
    less than 90 % sure of. With v8's classifier, on 252 tiles a style, that missed 3 / 5 / 4 /
    2 tiles of four unseen check styles (1234, 2024, 3000, 4321) and blending three misses
    2 / 4 / 3 / 3 (two or four shares: 13 and 13 in all, against 11 for three, on the
    renderer before e01b8e8); on the benchmark's styles 777, 321, 555, 901 it went from 1 / 4
    / 9 / 1 to 2 / 4 / 4 / 2 (``benchmarks/bench_live.py --only-calibration``).
    """

    def __init__(self, tileset: TileSet, classifier: Featurizer | None = None, temperature: float = 0.02,
                 prior: float = 0.25, cuts: Sequence[float] = (1.0,), blend: int = 3) -> None:
        self.tileset = tileset
        self.temperature = temperature
        self.prior = prior
        self.cuts = tuple(cuts) or (1.0,)
        if blend < 1:
            raise ValueError(f"blend={blend!r}: name crops by at least one cut share")
        self.blend = blend
        self.classifier = classifier if classifier is not None and classifier.has_features else None
        self.refitted = False
        if self.classifier is not None and (tileset.probe is None or tileset.probe.key != self.classifier.key):
            tileset.probe = fit_probe(tileset.crops, self.classifier)
            self.refitted = True

    def __call__(self, crops: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        codes, probs = self.ranked(crops, 1)
        return codes[:, 0], probs[:, 0]

    def ranked(self, crops: Sequence[np.ndarray], k: int = 2) -> tuple[np.ndarray, np.ndarray]:
        """The ``k`` likeliest of the set's tiles (N, k) for each crop and their probabilities
        (N, k), likeliest first (as ``TileClassifier.ranked``)."""
        if not len(crops):
            return np.zeros((0, k), np.int64), np.zeros((0, k), np.float32)
        if self.classifier is not None and self.tileset.probe is not None:
            return self._decide(self._cut_scores(self.classifier, self.tileset.probe, crops), self.tileset.codes, 1.0, k)
        faces, codes = self.tileset.faces()
        classes = np.unique(codes)
        index = np.searchsorted(classes, codes)
        best = np.full((len(crops), len(classes)), -2.0, np.float32)
        for n, crop in enumerate(crops):
            np.maximum.at(best[n], index, match_scores(normalise_face(crop), faces))  # best match per tile
        return self._decide(best, classes, self.temperature, k)

    def _cut_scores(self, classifier: Featurizer, probe: Probe, crops: Sequence[np.ndarray]) -> np.ndarray:
        """(N, K) log probabilities: the mean, over the ``blend`` shares of ``cuts`` that the
        photo's crops are surest at on average, of ``_probe_scores`` of the crops cut so."""
        scores = np.stack([_log_softmax(self._probe_scores(classifier, probe, [_bottom(c, share) for c in crops]))
                           for share in self.cuts])
        surest = scores.max(2).mean(1)
        out: np.ndarray = scores[np.argsort(-surest, kind="stable")[: self.blend]].mean(0)
        return out

    def _probe_scores(self, classifier: Featurizer, probe: Probe, crops: Sequence[np.ndarray]) -> np.ndarray:
        """(N, K) log probabilities of the set's tiles: the probe's, plus ``prior`` times the
        classifier's own where it gives them."""
        if not (self.prior and isinstance(classifier, ReadsBoth)):
            return _log_softmax(probe.scores(classifier.features(crops)))
        probs, feats = classifier.read(crops)
        refined = getattr(classifier, "probabilities", None)
        if callable(refined):  # with its second, flower and number looks, as it names a photo's tiles
            probs = refined(list(crops))
        column = {int(c): i for i, c in enumerate(classifier.codes)}
        own = probs[:, [column[int(c)] for c in self.tileset.codes]]
        out: np.ndarray = _log_softmax(probe.scores(feats)) + self.prior * np.log(own + 1e-6)
        return out

    @staticmethod
    def _decide(score: np.ndarray, classes: np.ndarray, temperature: float, k: int) -> tuple[np.ndarray, np.ndarray]:
        """The ``k`` best-scoring tiles of each row and their softmax probabilities at ``temperature``."""
        from vision.classifier import top_k

        z = (score - score.max(1, keepdims=True)) / temperature
        p = np.exp(z)
        p /= p.sum(1, keepdims=True)
        codes, probs = top_k(p, classes, k)
        return codes, probs.astype(np.float32)


def _bottom(crop: np.ndarray, share: float) -> np.ndarray:
    """The lowest ``share`` of a crop's height (at least one row).

    >>> _bottom(np.zeros((10, 4, 3), np.uint8), 0.42).shape
    (4, 4, 3)
    """
    h = crop.shape[0]
    return crop[min(h - 1, int(round(h * (1 - share)))):]


class CalibratedReader:
    """A reader whose face-up tiles are named by a calibrated set (see ``PrototypeClassifier``).

    Around the shipped ``TileReader`` it finds the tiles as that reader does (a second,
    larger pass for a whole table; a photo whose rows run up it read turned a quarter, one
    taken from across the table turned round: ``TileReader.read_upright``) and names them
    in the photo as read. Until stop 59 it detected once, as the photo came: of 128 rendered
    hand photos (eight unseen styles) turned a quarter clockwise / anticlockwise it held the
    hand exactly in 6 / 3 (now 118 / 118), as photographed in 109 (now 122, the tiles the
    zoom finds; ``benchmarks/bench_live.py --only-calibration``). Any other reader: one
    detector pass (its ``detector``, or itself). The set names crops in the photo's own
    colours, as it was taught them (the shipped reader turns its own to daylight:
    ``vision.balance``).
    """

    def __init__(self, reader: Any, tileset: TileSet, cuts: Sequence[float] = (1.0,)) -> None:
        self.reader = reader
        self.classifier = PrototypeClassifier(tileset, getattr(reader, "classifier", None), cuts=cuts)
        if self.classifier.refitted:
            tileset.save()  # taught for these weights once, not at every start

    def read_upright(self, image: np.ndarray) -> tuple[Detections, int, int]:
        """As ``TileReader.read_upright``: the tiles found in ``image`` turned ``quarters``
        clockwise, boxes in its pixels, named by the set; the detector input's long side
        (0 where the reader does not say); and ``quarters``."""
        return self.read_levelled(image)[:3]

    def read_levelled(self, image: np.ndarray) -> tuple[Detections, int, int, LevelPass | None]:
        """As ``TileReader.read_levelled``: ``read_upright``, and the pass over the photo (as
        read) levelled that named its tiles, or None (a reader that levels none: None)."""
        read_levelled = getattr(self.reader, "read_levelled", None)
        if callable(read_levelled):
            dets, size, quarters, levelled = read_levelled(image)
            return self._named(turn_quarters(image, quarters), dets, levelled), size, quarters, levelled
        read_upright = getattr(self.reader, "read_upright", None)
        if not callable(read_upright):
            dets = self.reader.detector(image) if hasattr(self.reader, "detector") else self.reader(image)
            return self._named(image, dets), 0, 0, None
        dets, size, quarters = read_upright(image)
        return self._named(turn_quarters(image, quarters), dets), size, quarters, None

    def _named(self, image: np.ndarray, dets: Detections, levelled: LevelPass | None = None) -> Detections:
        """``dets`` (found in ``image``) named by the set; where the reader read them
        levelled (``levelled``: ``TileReader.read_levelled``), from crops of the photo turned
        level, each box the one found there and matched to it (else the face it holds
        levelled, ``boxes_levelled``): the set was taught on level tiles."""
        from vision.classifier import crop_boxes

        up = dets.face_up
        if levelled is None:
            return dets.with_face_up_names(*self.classifier.ranked(crop_boxes(image, dets.xyxy[up]), 2))
        level, matrix, found, pair = levelled
        boxes = boxes_levelled(dets.xyxy, matrix)
        boxes[pair >= 0] = found.xyxy[pair[pair >= 0]]
        return dets.with_face_up_names(*self.classifier.ranked(crop_boxes(level, boxes[up]), 2))

    def __call__(self, image: np.ndarray) -> Detections:
        dets, _, quarters = self.read_upright(image)
        return turned_back(dets, image.shape, quarters) if quarters else dets
