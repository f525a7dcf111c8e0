"""Detector scenes from the renderer's scene API, in YOLO layout with JSON sidecars.

A stand-in for ``mahjongero synth scenes`` while that one cannot write its sidecars
(numpy ints in JSON) and files face-up American jokers as face-down. Train and val use
different seeds. Resumable: existing images are skipped.

    python -m vision.training.scenes --n 1500 --val 150 --seed 21 --out DIR [--kind mixed]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2

from engine.tiles import Tile
from vision.training.crops import _JOKER, _SENTINEL, _unhide_american_jokers


def write(out: Path, split: str, n: int, seed: int, kind: str, size: tuple[int, int]) -> None:
    from vision.synth.dataset import label_line
    from vision.synth.scenes import make_scene, render_scene

    (out / "images" / split).mkdir(parents=True, exist_ok=True)
    (out / "labels" / split).mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    for i in range(n):
        img_p = out / "images" / split / f"{i:06d}.jpg"
        if img_p.exists():
            continue
        scene = make_scene(seed, i, kind=kind, size=size)
        _unhide_american_jokers(scene)
        res = render_scene(scene)
        w, h = size
        lines, tiles = [], []
        for lab in res.labels:
            code = _JOKER if lab["code"] == _SENTINEL else str(lab["code"])
            up = lab["face"] == "up"
            box = [float(v) for v in lab["box"]]
            lines.append(label_line(0 if up else 1, box, w, h))
            tiles.append({
                "box": box, "tile": code if up else str(Tile.BACK), "hidden": code,
                "face": "up" if up else "down", "region": lab.get("region"),
                "seat": lab.get("seat"), "group": lab.get("group"),
            })
        stem = out / "labels" / split / f"{i:06d}"
        stem.with_suffix(".txt").write_text("\n".join(lines) + ("\n" if lines else ""))
        stem.with_suffix(".json").write_text(
            json.dumps({"kind": res.meta["kind"], "tiles": tiles}, default=int)
        )
        cv2.imwrite(str(img_p), res.image[:, :, ::-1], [cv2.IMWRITE_JPEG_QUALITY, res.jpeg_quality])
        if i % 50 == 0:
            print(f"{split}: {i}/{n} {time.time() - t0:.0f}s", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, required=True)
    ap.add_argument("--val", type=int, default=100)
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--kind", default="mixed")
    ap.add_argument("--size", default="1280x960")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    size = tuple(int(v) for v in args.size.split("x"))
    write(args.out, "val", args.val, args.seed + 1000, args.kind, size)  # type: ignore[arg-type]
    write(args.out, "train", args.n, args.seed, args.kind, size)  # type: ignore[arg-type]
    print("done", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
