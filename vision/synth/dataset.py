"""Writers for the synthetic data sets: YOLO detection scenes, classifier crops, a contact sheet.

Scene ``i`` of a seed is drawn from ``default_rng([seed, i])``, so runs are deterministic,
resumable (existing files are skipped) and parallel-safe.

>>> label_line(0, [10, 20, 30, 60], 100, 100)
'0 0.200000 0.400000 0.200000 0.400000'
>>> is_val(0, 0.1), is_val(1, 0.0)
(True, False)
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from engine.tiles import Tile
from vision.synth.faces import FACE_H, FACE_W, NUM_STYLES, face_image, make_style
from vision.synth.scenes import SceneResult, check_deal, make_scene, render_scene

__all__ = [
    "DETECT_NAMES",
    "label_line",
    "is_val",
    "write_scenes",
    "write_crops",
    "contact_sheet",
    "scene_files",
]

DETECT_NAMES = {0: "tile", 1: "back"}
CLASS_CODES = [str(Tile(t)) for t in range(64)]
BACK_CODE = str(Tile.BACK)


def label_line(cls: int, box: Sequence[float], w: int, h: int) -> str:
    """One YOLO detect line for pixel box [x0, y0, x1, y1] in a w x h image."""
    x0, y0, x1, y1 = box
    return f"{cls} {(x0 + x1) / 2 / w:.6f} {(y0 + y1) / 2 / h:.6f} {(x1 - x0) / w:.6f} {(y1 - y0) / h:.6f}"


def is_val(i: int, frac: float) -> bool:
    """Whether scene ``i`` belongs to the validation split (every 1/frac-th scene)."""
    if frac <= 0:
        return False
    step = max(1, round(1 / frac))
    return i % step == 0


def scene_files(out: Path, i: int, val_frac: float) -> tuple[Path, Path, Path]:
    split = "val" if is_val(i, val_frac) else "train"
    name = f"{i:06d}"
    return (
        out / "images" / split / f"{name}.jpg",
        out / "labels" / split / f"{name}.txt",
        out / "meta" / split / f"{name}.json",
    )


def _bgr(img: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(img[..., ::-1])


def sidecar(res: SceneResult, image_name: str) -> dict[str, Any]:
    tiles = []
    for lab in res.labels:
        tiles.append(
            {
                "code": lab["code"],
                "visible_code": lab["code"] if lab["cls"] == 0 else BACK_CODE,
                "face": lab["face"],
                "cls": lab["cls"],
                "region": lab["region"],
                "seat": lab["seat"],
                "group": lab["group"],
                "turned": lab["turned"],
                "box": lab["box"],
                "quad": lab["quad"],
                "visible": lab["visible"],
                "id": lab["id"],
            }
        )
    return {"image": image_name, **res.meta, "names": DETECT_NAMES, "tiles": tiles}


def _write_one(args: tuple[Path, int, int, str, tuple[int, int], float, str]) -> int:
    out, seed, i, kind, size, val_frac, deal = args
    img_p, lab_p, meta_p = scene_files(out, i, val_frac)
    if img_p.exists() and lab_p.exists() and meta_p.exists():
        return 0
    res = render_scene(make_scene(seed, i, kind=kind, size=size, deal=deal))
    w, h = size
    lines = [label_line(lab["cls"], lab["box"], w, h) for lab in res.labels]
    for p in (img_p, lab_p, meta_p):
        p.parent.mkdir(parents=True, exist_ok=True)
    _atomic_write(lab_p, ("\n".join(lines) + "\n") if lines else "")
    _atomic_write(meta_p, json.dumps(sidecar(res, img_p.name), separators=(",", ":")))
    ok, buf = cv2.imencode(".jpg", _bgr(res.image), [cv2.IMWRITE_JPEG_QUALITY, res.jpeg_quality])
    if not ok:
        raise RuntimeError(f"could not encode {img_p}")
    tmp = img_p.with_suffix(".tmp")
    tmp.write_bytes(buf.tobytes())
    os.replace(tmp, img_p)  # the image last: its presence marks the scene done
    return 1


def _atomic_write(p: Path, text: str) -> None:
    tmp = p.with_suffix(p.suffix + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, p)


def write_data_yaml(out: Path) -> Path:
    out = out.resolve()
    names = "\n".join(f"  {k}: {v}" for k, v in DETECT_NAMES.items())
    text = (
        "# Mahjongero synthetic scenes (vision/synth). Detector classes: tile face up / face down.\n"
        f"path: {out}\ntrain: images/train\nval: images/val\nnames:\n{names}\n"
    )
    p = out / "data.yaml"
    _atomic_write(p, text)
    return p


def _progress(it: Iterable[int], total: int, desc: str, quiet: bool) -> Iterator[int]:
    if quiet:
        yield from it
        return
    from tqdm import tqdm

    yield from tqdm(it, total=total, desc=desc, unit="img")


def write_scenes(
    out: Path,
    n: int,
    seed: int = 0,
    kind: str = "mixed",
    size: tuple[int, int] = (1280, 960),
    val_frac: float = 0.1,
    workers: int = 1,
    quiet: bool = False,
    start: int = 0,
    deal: str = "any",
) -> int:
    """Write scenes ``start .. start+n-1``; returns how many were newly rendered. ``deal``:
    ``any`` tile anywhere, or by the variant's ``rules`` (``vision.synth.scenes.make_scene``)."""
    check_deal(deal)  # before any folder is made
    out.mkdir(parents=True, exist_ok=True)
    for split in ("train", "val"):
        for sub in ("images", "labels", "meta"):
            (out / sub / split).mkdir(parents=True, exist_ok=True)
    write_data_yaml(out)
    jobs = [(out, seed, i, kind, size, val_frac, deal) for i in range(start, start + n)]
    done = 0
    if workers > 1:
        import multiprocessing as mp

        with mp.get_context("spawn").Pool(workers) as pool:
            for r in _progress(pool.imap_unordered(_write_one, jobs, chunksize=4), n, "scenes", quiet):
                done += r
    else:
        for r in _progress(map(_write_one, jobs), n, "scenes", quiet):
            done += r
    return done


# --------------------------------------------------------------------------- crops
def face_box(box: Sequence[float], quad: Sequence[Sequence[float]]) -> list[float]:
    """The face of a face-up tile: its projected face quad's bounding box, kept inside the
    tile's visible box (``box``), or the visible box when too little of the face shows.

    The real photos box the face only (a standing tile's side and top are left out), so a
    detector that learns whole tiles from rendered scenes and faces from real ones learns
    neither well: on steep real rows its boxes sat half a side off the labelled face.

    >>> face_box([10, 10, 50, 70], [[14, 20], [48, 21], [47, 69], [13, 68]])
    [13, 20, 48, 69]
    >>> face_box([10, 10, 50, 70], [[60, 20], [90, 20], [90, 60], [60, 60]])  # face hidden
    [10, 10, 50, 70]
    """
    q = np.asarray(quad, dtype=np.float64)
    x0, y0 = max(box[0], int(np.floor(q[:, 0].min()))), max(box[1], int(np.floor(q[:, 1].min())))
    x1, y1 = min(box[2], int(np.ceil(q[:, 0].max()))), min(box[3], int(np.ceil(q[:, 1].max())))
    if x1 - x0 < 4 or y1 - y0 < 4:
        return list(box)
    return [x0, y0, x1, y1]


def _crop(img: np.ndarray, box: list[int], rng: np.random.Generator, side: int) -> np.ndarray:
    h, w = img.shape[:2]
    x0, y0, x1, y1 = box
    bw, bh = x1 - x0, y1 - y0
    m = rng.uniform(0.0, 0.12, 4)
    j = rng.normal(0, 0.03, 2)
    cx0 = int(round(x0 - bw * m[0] + bw * j[0]))
    cx1 = int(round(x1 + bw * m[1] + bw * j[0]))
    cy0 = int(round(y0 - bh * m[2] + bh * j[1]))
    cy1 = int(round(y1 + bh * m[3] + bh * j[1]))
    cx0, cy0, cx1, cy1 = max(cx0, 0), max(cy0, 0), min(cx1, w), min(cy1, h)
    crop = img[cy0:cy1, cx0:cx1]
    sc = side / max(crop.shape[:2])
    nw, nh = max(1, round(crop.shape[1] * sc)), max(1, round(crop.shape[0] * sc))
    interp = cv2.INTER_AREA if sc < 1 else cv2.INTER_LINEAR
    return cv2.resize(crop, (nw, nh), interpolation=interp)


def write_crops(
    out: Path,
    per_class: int,
    seed: int = 0,
    val_per_class: int | None = None,
    size: tuple[int, int] = (1280, 960),
    quiet: bool = False,
    min_side: int = 18,
    codes: Sequence[str] | None = None,
    face_share: float = 0.0,
    styles: int | None = None,
) -> dict[str, int]:
    """Classifier crops, ``out/{train,val}/<code>/*.png``, cut from rendered scenes.

    Tiles are drawn uniformly over all 63 face codes (plus the set's own tiles); scenes are
    rendered until every class has ``per_class`` train and ``val_per_class`` val crops.
    ``codes``: only these face codes are drawn and cut (more of the classes a model reads
    worst, e.g. the flowers), each a name of ``Tile.parse``.
    Progress is kept in ``out/.progress.json`` so an interrupted run resumes where it
    stopped and ends with the same files as an uninterrupted one. Returns crops per class.
    ``face_share``: this share of the face-up tiles is cut around its face alone
    (:func:`face_box`), as a detector trained on the real photos' face boxes boxes them; the
    rest around the whole visible tile. 0 draws nothing more from the random stream, so
    earlier seeds render the same crops.
    ``styles``: each scene's set design is drawn from styles ``0..styles-1`` instead of the
    scenes' usual ``NUM_STYLES``: more set designs than the held-out sets draw from, so that
    a model cannot learn each design's flower conventions by heart.
    """
    if not 0.0 <= face_share <= 1.0:
        raise ValueError(f"face_share must lie in [0, 1], not {face_share!r}")
    if styles is not None and styles < 1:
        raise ValueError(f"styles must be at least 1, not {styles!r}")
    face_codes = [Tile(t) for t in range(63)] if codes is None else [Tile.parse(c) for c in codes]
    if not face_codes or Tile.BACK in face_codes:
        raise ValueError(f"codes must name face-up tiles, not {codes!r}")
    wanted = {str(t) for t in face_codes} | ({BACK_CODE} if codes is None else set())
    n_val = max(1, per_class // 5) if val_per_class is None else val_per_class
    need = per_class + n_val
    for split in ("train", "val"):
        for code in CLASS_CODES:
            (out / split / code).mkdir(parents=True, exist_ok=True)
    prog_p = out / ".progress.json"
    # a run for other codes, another share of face boxes or other styles starts over
    state = _crops_progress(prog_p, {"seed": seed, "need": need, "codes": None if codes is None else sorted(wanted),
                                     "face_share": face_share, "styles": styles}, wanted)

    def sampler(rng: np.random.Generator, k: int) -> list[Tile]:
        return [face_codes[int(rng.integers(len(face_codes)))] for _ in range(k)]

    counts: dict[str, int] = state["counts"]
    bar = None
    if not quiet:
        from tqdm import tqdm

        bar = tqdm(total=need * len(counts), initial=sum(min(v, need) for v in counts.values()), desc="crops",
                   unit="crop")
    i = int(state["next"])
    while min(counts.values()) < need:
        sc = make_scene(seed, i, kind="mixed", size=size, sampler=sampler, styles=styles or NUM_STYLES)
        added = _cut_crops(render_scene(sc, min_visible=0.6), np.random.default_rng([seed, i, 77]), out, i, counts,
                           per_class, need, min_side, face_share)
        i += 1
        state["next"] = i
        _atomic_write(prog_p, json.dumps(state))
        if bar is not None:
            bar.update(added)
    if bar is not None:
        bar.close()
    return dict(counts)


def _crops_progress(path: Path, settings: dict[str, Any], wanted: set[str]) -> dict[str, Any]:
    """``write_crops``' progress in ``path``: the scene to render next and the crops of each
    class written so far, as left by a run with the same ``settings``; else a fresh start."""
    state: dict[str, Any] = {"seed": settings["seed"], "next": 0, "counts": {c: 0 for c in CLASS_CODES if c in wanted}}
    if path.exists():
        old = json.loads(path.read_text())
        if (old.get("seed"), old.get("need"), old.get("codes"), old.get("face_share", 0.0),
                old.get("styles")) == tuple(settings[k] for k in ("seed", "need", "codes", "face_share", "styles")):
            state = old
    state.update({k: settings[k] for k in ("need", "codes", "face_share", "styles")})
    return state


def _cut_crops(res: SceneResult, rng: np.random.Generator, out: Path, scene: int, counts: dict[str, int],
               per_class: int, need: int, min_side: int, face_share: float) -> int:
    """Cut the crops of one rendered ``scene`` that ``counts`` still wants (``need`` a class:
    the first ``per_class`` to train, the rest to val) into ``out``; returns how many."""
    added = 0
    for lab in res.labels:
        code = lab["code"] if lab["cls"] == 0 else BACK_CODE
        x0, y0, x1, y1 = lab["box"]
        if min(x1 - x0, y1 - y0) < min_side or counts.get(code, need) >= need:
            continue
        side = int(rng.integers(64, 97))
        box = lab["box"]
        if face_share and lab["cls"] == 0 and rng.random() < face_share:
            face = face_box(box, lab["quad"])
            box = face if min(face[2] - face[0], face[3] - face[1]) >= min_side else box
        crop = _crop(res.image, box, rng, side)
        k = counts[code]
        split = "train" if k < per_class else "val"
        cv2.imwrite(str(out / split / code / f"{scene:06d}_{lab['id']:03d}.png"), _bgr(crop))
        counts[code] = k + 1
        added += 1
    return added


# --------------------------------------------------------------------------- sheet
def contact_sheet(styles: list[int] | None = None, scale: float = 0.6) -> np.ndarray:
    """RGB contact sheet: one row block per style, every code, label under each tile."""
    styles = styles if styles is not None else [0, 1, 2, 3, 6, 11]
    tw, th = int(FACE_W * scale), int(FACE_H * scale)
    pad, lab_h = 6, 16
    cols = 16
    rows_per_style = (64 + cols - 1) // cols
    head = 22
    block_h = head + rows_per_style * (th + lab_h + pad)
    sheet = np.full((block_h * len(styles) + pad, cols * (tw + pad) + pad, 3), 70, np.uint8)
    for si, k in enumerate(styles):
        st = make_style(k)
        y_base = si * block_h
        font = st.font.family if st.font else "default"
        txt = (f"style {k}: {font} font, {st.back_name} back, {'simplified' if st.wan == '万' else 'traditional'}"
               f" wan, {'formal' if st.formal_five else 'plain'} five, corner index {'on' if st.corner_index else 'off'},"
               f" white dragon {st.white_dragon}")
        cv2.putText(sheet, txt, (pad, y_base + 16),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.45, (235, 235, 235), 1, cv2.LINE_AA)
        for t in range(64):
            r, c = divmod(t, cols)
            x = pad + c * (tw + pad)
            y = y_base + head + r * (th + lab_h + pad)
            f = face_image(Tile(t), st)
            f = cv2.resize(f, (tw, th), interpolation=cv2.INTER_AREA).astype(np.float32)
            a = f[..., 3:] / 255
            bg = np.array(st.back_rgb, np.float32)
            sheet[y : y + th, x : x + tw] = (f[..., :3] * a + bg * (1 - a)).astype(np.uint8)
            cv2.putText(sheet, str(Tile(t)), (x + tw // 2 - 10, y + th + 12), cv2.FONT_HERSHEY_SIMPLEX,
                        0.42, (255, 255, 255), 1, cv2.LINE_AA)
    return sheet


def write_sheet(path: Path, styles: list[int] | None = None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), _bgr(contact_sheet(styles)), [cv2.IMWRITE_PNG_COMPRESSION, 9])
    return path
