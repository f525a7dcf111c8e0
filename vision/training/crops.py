"""Classifier crops cut from rendered scenes, written square (squashed) like serving sees them.

A stand-in for ``mahjongero synth crops`` while that names face-down tiles with the
American joker's code: same scene API (``vision.synth.scenes``), tiles drawn uniformly
over the 63 face codes, face-down tiles filed under ``str(Tile.BACK)``. Train and val come
from different seeds, so no scene feeds both. Resumable: progress in ``OUT/.progress-<split>.json``.

    python -m vision.training.crops --per-class 200 --val-per-class 40 --seed 11 --out DIR
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from engine.tiles import Tile
from vision.training.datasets import quarter_turns

CODES = [str(Tile(t)) for t in range(64)]
FACE_CODES = [Tile(t) for t in range(63)]


def _sampler(rng: np.random.Generator, k: int) -> list[Tile]:
    return [FACE_CODES[int(rng.integers(len(FACE_CODES)))] for _ in range(k)]


_JOKER = str(Tile.AMERICAN_JOKER)  # "0x"
_SENTINEL = "american-joker"


def _unhide_american_jokers(scene: object) -> None:
    """The renderer treats the code "0x" as a back (render.py tests ``code != "0x"``), but
    "0x" is the American joker; rename it for the render so its face counts as visible."""
    for obj in getattr(scene, "objects", []):
        label = getattr(obj, "label", None)
        if isinstance(label, dict) and label.get("code") == _JOKER:
            label["code"] = _SENTINEL


def cut(img: np.ndarray, box: list[float], rng: np.random.Generator, size: int) -> np.ndarray:
    """A crop with 0-12 % margin per side and a little jitter, squashed to ``size``²."""
    h, w = img.shape[:2]
    x0, y0, x1, y1 = (float(v) for v in box)
    bw, bh = x1 - x0, y1 - y0
    m = rng.uniform(0.0, 0.12, 4)
    j = rng.normal(0, 0.03, 2)
    a = int(max(0, round(x0 - bw * m[0] + bw * j[0])))
    c = int(min(w, round(x1 + bw * m[1] + bw * j[0])))
    b = int(max(0, round(y0 - bh * m[2] + bh * j[1])))
    d = int(min(h, round(y1 + bh * m[3] + bh * j[1])))
    crop = img[b : max(d, b + 1), a : max(c, a + 1)]
    return cv2.resize(crop, (size, size), interpolation=cv2.INTER_AREA)


def write_split(
    out: Path, split: str, need: int, seed: int, size: int = 64, rotate: bool = False,
    min_side: int = 18, scene_size: tuple[int, int] = (1280, 960),
) -> dict[str, int]:
    from vision.synth.scenes import make_scene, render_scene

    for code in CODES:
        (out / split / code).mkdir(parents=True, exist_ok=True)
    prog = out / f".progress-{split}.json"
    state: dict[str, Any] = {"seed": seed, "need": need, "next": 0, "counts": {c: 0 for c in CODES}}
    if prog.exists():
        old = json.loads(prog.read_text())
        if old.get("seed") == seed and old.get("need") == need:
            state = old
    counts: dict[str, int] = state["counts"]
    i = int(state["next"])
    t0 = time.time()
    while min(counts.values()) < need:
        scene = make_scene(seed, i, kind="mixed", size=scene_size, sampler=_sampler)
        _unhide_american_jokers(scene)
        res = render_scene(scene, min_visible=0.6)
        rgb = res.image
        rng = np.random.default_rng([seed, i, 77])
        for lab in res.labels:
            code = _JOKER if lab["code"] == _SENTINEL else lab["code"]
            code = code if lab.get("face", "up") == "up" else str(Tile.BACK)
            x0, y0, x1, y1 = lab["box"]
            if min(x1 - x0, y1 - y0) < min_side or counts[code] >= need:
                continue
            sq = cut(rgb, lab["box"], rng, size)[:, :, ::-1]
            name = f"{i:06d}_{lab['id']:03d}.png"
            if rotate:
                sq = np.rot90(sq, quarter_turns(name))
            cv2.imwrite(str(out / split / code / name), np.ascontiguousarray(sq))
            counts[code] += 1
        i += 1
        state["next"] = i
        prog.write_text(json.dumps(state))
        if i % 20 == 0:
            done = sum(min(v, need) for v in counts.values())
            print(f"{split}: scene {i}, {done}/{need * len(CODES)} crops, "
                  f"{time.time() - t0:.0f}s, short: {min(counts, key=lambda c: counts[c])}", flush=True)
    return counts


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-class", type=int, required=True)
    ap.add_argument("--val-per-class", type=int, default=None)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--size", type=int, default=64)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--only", choices=["train", "val"], default=None)
    args = ap.parse_args(argv)
    nval = args.val_per_class if args.val_per_class is not None else max(1, args.per_class // 5)
    if args.only in (None, "val"):
        write_split(args.out, "val", nval, args.seed + 1000, args.size, rotate=False)
    if args.only in (None, "train"):
        write_split(args.out, "train", args.per_class, args.seed, args.size, rotate=True)
    print("done", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
