"""Flower and season crops cut from rendered 1080p tables the way live video cuts them.

The flower look (``models/flower_look.onnx``) learned from ``mahjongero synth crops``: tiles
rendered near and large. Live video reads a seat's flower row from across a table, a tile
some 30 px wide, cut with the live margins and stood upright (``vision.reader.tops_up``: lying
across turned a quarter, across the table turned half round, a square-ish box by its place and
grown to a tile's shape). This writes such crops: each picture a table
(``vision.scripted.ScriptedTable``) in a random set style whose four seats have laid a random
run of flowers and seasons, each flower's box jittered a little as a detector's is, cut with
each of ``LIVE_MARGINS``, stood up, and squashed to ``--size`` (as the look's serving squashes
it). Train and val come from different seeds. Resumable: a picture whose crops are written
is not drawn again.

    python -m vision.training.table_crops --pictures 900 --val-pictures 100 --seed 83 --out DIR
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from engine.seats import Seat
from engine.tiles import Tile
from vision.reader import LIVE_MARGINS, upright_crops
from vision.scripted import ScriptedTable, Step

FLOWERS = [Tile.parse(f"{n}f") for n in range(1, 9)]
STYLES = 48  # ``vision.synth.faces.make_style`` styles the table benches draw from
JITTER = 0.04  # a box edge's spread, as a share of its side: a detector's boxes wander so


def script(rng: np.random.Generator, most: int = 9) -> list[Step]:
    """A discard at each seat, then up to ``most`` flowers or seasons laid at each, drawn freely."""
    steps = [Step("discard", seat, (Tile.M3,)) for seat in Seat]
    for seat in Seat:
        steps += [Step("flower", seat, (FLOWERS[int(rng.integers(8))],)) for _ in range(int(rng.integers(2, most + 1)))]
    return steps


def jittered(box: list[float], rng: np.random.Generator) -> np.ndarray:
    """``box`` with each edge moved by a normal share ``JITTER`` of its side."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    spread = rng.normal(0, JITTER, 4) * np.array([w, h, w, h])
    return np.asarray(np.asarray(box) + spread, np.float32)


def picture_crops(index: int, seed: int, size: int) -> list[tuple[str, np.ndarray]]:
    """The flower crops of table ``index`` of ``seed``: (code, crop squashed to ``size``²)."""
    rng = np.random.default_rng([seed, index])
    steps = script(rng)
    table = ScriptedTable(steps, size=(1920, 1080), style=int(rng.integers(STYLES)), seed=int(rng.integers(1 << 30)))
    image, labels = table.picture(len(steps))
    flowers = [lab for lab in labels if lab.get("region") == "flower" and lab.get("face") == "up"]
    if not flowers:
        return []
    boxes = np.stack([jittered(lab["box"], rng) for lab in flowers])
    out = []
    for crops in upright_crops(image, boxes, LIVE_MARGINS):  # as ``VideoReader._read``
        out += [(lab["code"], cv2.resize(crop, (size, size), interpolation=cv2.INTER_AREA))
                for lab, crop in zip(flowers, crops, strict=True)]
    return out


def write_split(out: Path, split: str, pictures: int, seed: int, size: int) -> int:
    """Write ``pictures`` tables' crops under ``out/split/<code>/``; the crops written."""
    for tile in FLOWERS:
        (out / split / str(tile)).mkdir(parents=True, exist_ok=True)
    done = out / f".done-{split}-{seed}"
    first = int(done.read_text()) if done.exists() else 0
    written, t0 = 0, time.time()
    for i in range(first, pictures):
        for k, (code, crop) in enumerate(picture_crops(i, seed, size)):
            cv2.imwrite(str(out / split / code / f"{seed}_{i:05d}_{k:03d}.png"), crop)
            written += 1
        done.write_text(str(i + 1))
        if (i + 1) % 10 == 0 or i + 1 == pictures:
            rate = (time.time() - t0) / (i + 1 - first)
            print(f"{split}: table {i + 1}/{pictures}, {written} crops, {rate:.1f} s a table, "
                  f"{rate * (pictures - i - 1) / 60:.0f} min left", flush=True)
    return written


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--pictures", type=int, required=True, help="training tables")
    ap.add_argument("--val-pictures", type=int, default=0, help="validation tables (seed + 1000)")
    ap.add_argument("--seed", type=int, default=83)
    ap.add_argument("--size", type=int, default=128)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    if args.val_pictures:
        write_split(args.out, "val", args.val_pictures, args.seed + 1000, args.size)
    write_split(args.out, "train", args.pictures, args.seed, args.size)
    print("done", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
