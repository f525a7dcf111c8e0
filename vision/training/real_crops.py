"""Classifier crops cut from the hand-labelled real *training* photos, mixed with rendered crops.

``tests/data/real_train_tiles.csv`` names 1,600+ tiles of the real training photos (same
format as the validation labels ``tests/data/real_tiles.csv``; the validation photos are
never used here). Each tile is cut ``--copies`` times with random margins and a fixed
pseudo-random quarter turn, squashed to 64 px, and written beside symlinks to a rendered
crops tree. ``--blur-share`` of the copies are cut from the photo blurred (Gaussian, sigma
0.5-1.5 photo pixels), as a phone photo often is (``benchmarks/bench_real_perturbed.py``);
``--shake-share`` of the others are cut from it blurred along a line 3-9 photo pixels long at
any angle, as a photo taken by a hand that moved is (the benchmark's "shaken"):

    python -m vision.training.real_crops --synthetic datasets/generated/crops-v1 \\
        --out datasets/generated/crops-v2 --copies 4
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

from vision.deblur import line_blur
from vision.evaluation import load_codes_csv, source_of
from vision.training.crops import cut
from vision.training.datasets import quarter_turns
from vision.training.env import REPO_ROOT
from vision.training.merge_crops import link_tree
from vision.training.real_split import DEFAULT_REAL_DIR, load_split

TRAIN_CSV = REPO_ROOT / "tests" / "data" / "real_train_tiles.csv"


class LeakError(ValueError):
    """A labelled training tile comes from a validation photo."""


def write_real(
    csv: Path, real_dir: Path, out: Path, copies: int, size: int, seed: int,
    blur_share: float = 0.0, shake_share: float = 0.0,
) -> int:
    val_sources = {source_of(n) for n in load_split()["val"]}
    n = 0
    from engine.tiles import Tile

    for name, tiles in sorted(load_codes_csv(csv).items()):
        if source_of(name) in val_sources:
            raise LeakError(f"{name!r} is a validation photo")
        image = cv2.imread(str(real_dir / "images" / name))
        if image is None:
            continue
        for k, (box, code) in enumerate(tiles):
            rng = np.random.default_rng([seed, n])
            blur_rng = np.random.default_rng([seed, n, 1])  # its own stream: the cuts stay as they were
            shake_rng = np.random.default_rng([seed, n, 2])
            d = out / "train" / str(Tile(code))
            d.mkdir(parents=True, exist_ok=True)
            for c in range(copies):
                fname = f"real_{Path(name).stem}_{k:02d}_{c}.png"
                source = image
                if blur_share > 0 and blur_rng.random() < blur_share:
                    source = cv2.GaussianBlur(image, (0, 0), float(blur_rng.uniform(0.5, 1.5)))
                elif shake_share > 0 and shake_rng.random() < shake_share:
                    length, degrees = int(shake_rng.integers(3, 10)), float(shake_rng.uniform(0, 180))
                    source = line_blur(image, length, degrees)
                sq = np.rot90(cut(source, list(box), rng, size), quarter_turns(fname))
                cv2.imwrite(str(d / fname), np.ascontiguousarray(sq))
            n += 1
    return n


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--synthetic", type=Path, required=True, help="rendered crops tree")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--csv", type=Path, default=TRAIN_CSV)
    ap.add_argument("--real", type=Path, default=DEFAULT_REAL_DIR)
    ap.add_argument("--copies", type=int, default=4)
    ap.add_argument("--size", type=int, default=64)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--blur-share", type=float, default=0.0, help="share of copies cut from the photo blurred")
    ap.add_argument("--shake-share", type=float, default=0.0,
                    help="share of the other copies cut from the photo blurred along a line")
    args = ap.parse_args(argv)
    synth = {s: link_tree(args.synthetic / s, args.out / s) for s in ("train", "val")}
    real = write_real(args.csv, args.real, args.out, args.copies, args.size, args.seed, args.blur_share, args.shake_share)
    summary = {"synthetic": synth, "real_tiles": real, "real_copies": args.copies,
               "blur_share": args.blur_share, "shake_share": args.shake_share}
    (args.out / "recipe.json").write_text(json.dumps(summary))
    print(summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
