"""Teach Mahjongero the art of your own set from one photo.

1. ``mahjongero calibrate guide --variant V --out guide.png`` prints the guide: one
   of each tile of the variant's set, in rows (characters, dots, bamboo, honours,
   flowers and seasons, then the variant's extras).
2. Lay one of each tile on the table exactly as the guide shows (rows top to bottom,
   each row left to right, as you look at the guide), take one photo from above.
3. ``mahjongero calibrate PHOTO --name myset --variant V`` finds the tiles, checks the
   rows against the guide (a row too short or too long is an error naming the row),
   labels every crop from its place, and stores prototypes of the set under the user
   data folder (``$XDG_DATA_HOME/mahjongero/sets/myset``).
4. ``--set myset`` on ``score``/``serve`` names tiles by the nearest prototype.

Two kinds of prototype are stored. The shipped classifier's view of each guide tile
(centred log-probabilities) in the poses a table shows - lying at the four quarter
turns, and standing in a hand row, foreshortened under a band of the tile's top - is
what ``CalibratedReader`` uses: the classifier's probabilities are the prior and the
nearness to each tile's prototypes adapts them to the set's art. The tiles' faces
themselves (upright Lab colour, matched by normalised cross-correlation) are the
fallback when no classifier is at hand; they only suit crops of tiles lying face up.

>>> [len(r) for r in guide_rows("singapore")]
[9, 9, 9, 7, 8, 4]
>>> normalise_face(np.zeros((40, 30, 3), np.uint8)).shape
(52, 40, 3)
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from engine.tiles import Tile
from vision.detections import Detections

__all__ = [
    "CalibrationError",
    "guide_rows",
    "guide_image",
    "sets_dir",
    "check_name",
    "normalise_face",
    "match_scores",
    "TileSet",
    "label_guide",
    "calibrate",
    "load_set",
    "PrototypeClassifier",
    "CalibratedReader",
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
_EMBED_WEIGHT = 0.5  # faces-first matching: the classifier's view counts half as much as the face
# Prior + prototypes: score = log p(tile) + _SIM_GAIN * cosine to the tile's prototype centroid.
# 20 means a cosine 0.05 higher outweighs a classifier that is e times surer; chosen on
# unseen styles 321, 555, 777 and 901 together (10 and 40 were within a crop or two).
_SIM_GAIN = 20.0
_STANDING = 8  # standing views made of each guide tile (a photo of a hand shows them so)


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


# -- a calibrated set -------------------------------------------------------------------------------


@dataclass
class TileSet:
    """Prototypes of one physical set: feature rows and the tile code of each."""

    name: str
    variant: str
    codes: np.ndarray  # (K,) int
    faces: np.ndarray  # (K, h, w, 3) float32 normalised faces (see ``normalise_face``)
    embed_codes: np.ndarray | None = None  # (E,) int: codes of the embedding prototypes
    embeddings: np.ndarray | None = None  # (E, C) unit rows: the shipped classifier's view of each tile

    def save(self) -> Path:
        path = _set_path(self.name)
        path.mkdir(parents=True, exist_ok=True)
        arrays: dict[str, np.ndarray] = {"codes": self.codes, "faces": self.faces.astype(np.float32)}
        if self.embeddings is not None and self.embed_codes is not None:
            arrays |= {"embed_codes": self.embed_codes, "embeddings": self.embeddings}
        np.savez_compressed(path / "prototypes.npz", **arrays)  # type: ignore[arg-type]
        meta = {"name": self.name, "variant": self.variant, "tiles": len(set(self.codes.tolist())),
                "prototypes": len(self.codes), "face": list(_FACE), "matcher": "ncc-lab"}
        (path / "set.json").write_text(json.dumps(meta, indent=2) + "\n")
        return path


def load_set(name: str) -> TileSet:
    """A set taught earlier; ``CalibrationError`` naming it (and the known ones) if absent."""
    path = _set_path(name)
    if not (path / "prototypes.npz").is_file():
        known = sorted(p.name for p in sets_dir().glob("*") if (p / "prototypes.npz").is_file())
        raise CalibrationError(f"no calibrated set {name!r} (known: {', '.join(known) or 'none'})")
    meta = json.loads((path / "set.json").read_text())
    data = np.load(path / "prototypes.npz")
    emb = data["embeddings"] if "embeddings" in data.files else None
    emb_codes = data["embed_codes"] if "embed_codes" in data.files else None
    return TileSet(name, str(meta.get("variant", "")), data["codes"], data["faces"].astype(np.float32),
                   emb_codes, emb)


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


Embed = Callable[[Sequence[np.ndarray]], np.ndarray]


def _embedding(embed: Embed, crops: Sequence[np.ndarray]) -> np.ndarray:
    """The classifier's output for each crop as a unit vector of centred log-probabilities
    (its logits up to a constant): how the shipped model sees a tile, even one of a set
    whose art it never learned. The floor is tiny so that the small probabilities, which
    carry most of the "looks a bit like" information, are not flattened away."""
    logp = np.log(np.maximum(np.asarray(embed(crops), np.float32), 1e-12))
    logp -= logp.mean(1, keepdims=True)
    return np.asarray(logp / (np.linalg.norm(logp, axis=1, keepdims=True) + 1e-6), np.float32)


def _standing(face: np.ndarray, left: np.ndarray, right: np.ndarray, rng: np.random.Generator
              ) -> np.ndarray:
    """A guide tile's face as a box around a standing tile of a hand row shows it (BGR).

    Seen from above and in front, a standing tile's face is foreshortened (to 0.3-0.8 of
    its height), the tile's top shows above it as a band of body colour and back colour
    (unknown from a face-up photo: random, or dark), and the neighbours' faces show at
    the sides.

    >>> f = np.full((52, 40, 3), 220, np.uint8)
    >>> _standing(f, f, f, np.random.default_rng(0)).dtype
    dtype('uint8')
    """
    h, w = face.shape[:2]
    fh = max(4, int(round(h * rng.uniform(0.3, 0.8))))
    sq, ls, rs = (cv2.resize(x, (w, fh), interpolation=cv2.INTER_AREA).astype(np.float64)
                  for x in (face, left, right))
    ivory = face[: max(1, h // 12)].reshape(-1, 3).mean(0)
    seam = np.tile(ivory * 0.7, (fh, max(1, w // 40), 1))
    sl, sr = (max(1, int(round(w * rng.uniform(0.08, 0.25)))) for _ in range(2))
    row = np.concatenate([ls[:, w - sl:], seam, sq, seam, rs[:, :sr]], 1)
    band, back_share = rng.uniform(0.3, 0.6) * w, rng.uniform(0.3, 0.6)
    back = rng.integers(0, 256, 3).astype(np.float64) if rng.random() < 0.5 else np.full(3, 30.0)
    top = np.concatenate([np.tile(back, (max(1, int(band * back_share)), row.shape[1], 1)),
                          np.tile(ivory * rng.uniform(0.85, 1.0), (max(1, int(band * (1 - back_share))),
                                                                   row.shape[1], 1))])
    img = np.concatenate([top, row])
    img = img[: img.shape[0] - int(rng.uniform(0.0, 0.15) * fh)]  # the face's foot may be out of the box
    out: np.ndarray = np.clip(img, 0, 255).astype(np.uint8)
    return out


def _posed_views(crops: Sequence[np.ndarray], rng: np.random.Generator, standing: int = _STANDING
                 ) -> tuple[list[np.ndarray], list[int]]:
    """Each guide crop in the poses a table shows: lying at the four quarter turns (tiles
    seen from the other seats, turned meld tiles) and ``standing`` times upright in a hand
    row between random other tiles. Returns the views and the guide index of each."""
    views = [np.ascontiguousarray(np.rot90(c, k)) for k in range(4) for c in crops]
    owner = [i for _ in range(4) for i in range(len(crops))]
    faces = [face_region(np.asarray(c)) for c in crops]
    for _ in range(standing):
        for i, face in enumerate(faces):
            a, b = rng.integers(len(faces), size=2)
            views.append(_standing(face, faces[a], faces[b], rng))
            owner.append(i)
    return views, owner


def calibrate(image: np.ndarray, variant: str, name: str, detect: Callable[[np.ndarray], Detections],
              seed: int = 0, embed: Embed | None = None) -> TileSet:
    """Build (not yet save) a set's prototypes from one guide photo.

    ``embed`` (the shipped classifier's ``probabilities``) adds a second kind of
    prototype: the classifier's view of each guide tile in the poses a table shows
    (see ``_posed_views``); ``PrototypeClassifier`` compares crops with their centroids.
    """
    from vision.classifier import crop_boxes

    _set_path(name)  # a bad name fails before any work
    dets = detect(image)
    if len(dets) == 0:
        raise CalibrationError("no tiles found in the calibration photo")
    pairs = label_guide(dets, variant)
    crops = crop_boxes(image, dets.xyxy[[i for _, i in pairs]])
    rng = np.random.default_rng(seed)
    codes: list[int] = []
    faces: list[np.ndarray] = []
    for (tile, _), crop in zip(pairs, crops, strict=True):
        views = _variants(crop, rng)
        faces += views
        codes += [int(tile)] * len(views)
    tileset = TileSet(name, variant, np.array(codes, np.int64), np.stack(faces))
    if embed is not None:
        views, owner = _posed_views(crops, rng)
        tileset.embeddings = _embedding(embed, views)
        tileset.embed_codes = np.array([int(pairs[i][0]) for i in owner], np.int64)
    return tileset


class PrototypeClassifier:
    """Names crops by a calibrated set's prototypes; returns codes and confidences.

    With ``embed`` and ``embed_codes`` (the shipped classifier's ``probabilities`` and
    ``codes``) and a set holding embeddings, the classifier's probabilities are the prior
    and the prototypes adapt it: score = log p(tile) + ``_SIM_GAIN`` x cosine between the
    crop's embedding and the centroid of the tile's posed-view embeddings, over the set's
    tiles; the confidence is the softmax of the scores. A tile the classifier is sure of
    keeps its name unless the set's own pictures clearly say otherwise.

    Without ``embed_codes`` (no prior), faces are matched by cross-correlation, plus the
    best embedding similarity when ``embed`` is given (slow: use it for a few crops).
    """

    def __init__(self, tileset: TileSet, temperature: float = 0.02, embed: Embed | None = None,
                 embed_codes: np.ndarray | None = None) -> None:
        self.tileset = tileset
        self.temperature = temperature
        self.classes = np.unique(tileset.codes)
        self._index = np.searchsorted(self.classes, tileset.codes)
        self.embed = embed if tileset.embeddings is not None else None
        self._prior_cols: np.ndarray | None = None
        self._centroids: np.ndarray | None = None
        if self.embed is not None and embed_codes is not None:
            self._use_prior(np.asarray(embed_codes))

    def _use_prior(self, embed_codes: np.ndarray) -> None:
        """Column of each set tile in the classifier's output, and the prototype centroids."""
        assert self.tileset.embeddings is not None and self.tileset.embed_codes is not None
        col = {int(c): i for i, c in enumerate(embed_codes.tolist())}
        known = np.array([int(c) in col for c in self.classes])
        if not known.all() or self.tileset.embeddings.shape[1] != len(embed_codes):
            return  # a set taught with another classifier: its embeddings mean nothing here
        self._prior_cols = np.array([col[int(c)] for c in self.classes])
        idx = np.searchsorted(self.classes, self.tileset.embed_codes)
        cent = np.stack([self.tileset.embeddings[idx == k].mean(0) for k in range(len(self.classes))])
        self._centroids = cent / (np.linalg.norm(cent, axis=1, keepdims=True) + 1e-6)

    def __call__(self, crops: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        if not len(crops):
            return np.zeros(0, np.int64), np.zeros(0, np.float32)
        if self.embed is not None and self._prior_cols is not None and self._centroids is not None:
            probs = np.asarray(self.embed(crops), np.float32)
            logp = np.log(np.maximum(probs, 1e-12))
            emb = logp - logp.mean(1, keepdims=True)
            emb /= np.linalg.norm(emb, axis=1, keepdims=True) + 1e-6
            score = logp[:, self._prior_cols] + _SIM_GAIN * (emb @ self._centroids.T)
            return self._decide(score, 1.0)
        return self._decide(self._face_scores(crops), self.temperature)

    def _face_scores(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        """(N, classes): best face cross-correlation per tile, plus the embedding's best match."""
        best = np.full((len(crops), len(self.classes)), -2.0, np.float32)
        for n, crop in enumerate(crops):
            sim = match_scores(normalise_face(crop), self.tileset.faces)
            np.maximum.at(best[n], self._index, sim)  # best match per tile kind
        if self.embed is not None and self.tileset.embeddings is not None and self.tileset.embed_codes is not None:
            sim_e = _embedding(self.embed, crops) @ self.tileset.embeddings.T
            per_class = np.full_like(best, -1.0)
            idx = np.searchsorted(self.classes, self.tileset.embed_codes)
            for n in range(len(crops)):
                np.maximum.at(per_class[n], idx, sim_e[n])
            best = best + _EMBED_WEIGHT * per_class
        return best

    def _decide(self, score: np.ndarray, temperature: float) -> tuple[np.ndarray, np.ndarray]:
        """The best-scoring tile of each row and its softmax probability at ``temperature``."""
        z = (score - score.max(1, keepdims=True)) / temperature
        p = np.exp(z)
        p /= p.sum(1, keepdims=True)
        k = p.argmax(1)
        return self.classes[k], p[np.arange(len(k)), k].astype(np.float32)


class CalibratedReader:
    """A reader whose face-up tiles are named by a calibrated set's prototypes."""

    def __init__(self, reader: Any, tileset: TileSet) -> None:
        self.reader = reader
        shipped = getattr(reader, "classifier", None)
        self.classifier = PrototypeClassifier(tileset, embed=getattr(shipped, "probabilities", None),
                                              embed_codes=getattr(shipped, "codes", None))

    def __call__(self, image: np.ndarray) -> Detections:
        from vision.classifier import crop_boxes

        dets: Detections = self.reader.detector(image) if hasattr(self.reader, "detector") else self.reader(image)
        code = np.full(len(dets), int(Tile.BACK), np.int64)
        prob = np.ones(len(dets), np.float32)
        up = np.flatnonzero(dets.face_up)
        if len(up):
            code[up], prob[up] = self.classifier(crop_boxes(image, dets.xyxy[up]))
        return dets.with_codes(code, prob)
