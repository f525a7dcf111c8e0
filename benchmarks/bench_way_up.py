"""Can the shipped classifier's features tell which way up a photo is? (A feasibility check.)

Run: ``.venv/bin/python benchmarks/bench_way_up.py`` (about a minute on 2 cores).

A photo taken from across the table has every crop cut upside down, and the classifier
(trained on tiles lying every way round) is about as sure of a turned crop as of an upright
one (models/README.md, "The same photos taken a little differently"). Its pooled features
(the ``features`` output, which its first look computes anyway) may still say which way up
a crop is. This fits a logistic probe, crop as photographed (1) against the same crop turned
half round (0), on the hand-labelled *training* tiles (``tests/data/real_train_tiles.csv``),
and prints:

1. out of fold over the training photos, five folds by source photo: the share of photos,
   as photographed and turned, whose crops' mean logit says the right way up;
2. fitted on all training photos, on the real validation photos: the same per crop and per
   photo, and the photos it would judge wrongly.

Nothing here is served; numbers only.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.classifier import TileClassifier  # noqa: E402
from vision.evaluation import load_codes_csv, source_of  # noqa: E402
from vision.reader import CLASSIFIER_PATH  # noqa: E402
from vision.row_crops import row_crops  # noqa: E402

REAL = ROOT.parent / "shared" / "data" / "mahjong-yolo-v2-train"
Photo = tuple[str, np.ndarray, np.ndarray]  # name, features as photographed, turned


def photo_features(csv: Path, real: Path) -> list[Photo]:
    """Each labelled photo's crops (cut along rows, as served): the shipped classifier's
    features as photographed and turned half round."""
    upright, turned = TileClassifier(CLASSIFIER_PATH, turns=(0,)), TileClassifier(CLASSIFIER_PATH, turns=(2,))
    out: list[Photo] = []
    for name, tiles in sorted(load_codes_csv(csv).items()):
        image = cv2.imread(str(real / "images" / name))
        if image is None:
            continue
        crops = row_crops(image, np.array([box for box, _ in tiles]))
        out.append((name, upright.features(crops), turned.features(crops)))
    return out


def fit_probe(photos: list[Photo], lam: float, steps: int = 3000) -> tuple[np.ndarray, float, np.ndarray, np.ndarray]:
    """Logistic regression (L2 ``lam``) on standardised features by gradient descent:
    weights, bias, mean, scale."""
    x = np.concatenate([np.concatenate([u, t]) for _, u, t in photos]).astype(np.float64)
    y = np.concatenate([np.r_[np.ones(len(u)), np.zeros(len(t))] for _, u, t in photos])
    mu, sd = x.mean(0), x.std(0) + 1e-6
    z = (x - mu) / sd
    w, b = np.zeros(z.shape[1]), 0.0
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(z @ w + b)))
        w -= 0.5 * (z.T @ (p - y) / len(y) + lam * w)
        b -= 0.5 * float((p - y).mean())
    return w, b, mu, sd


def logits(probe: tuple[np.ndarray, float, np.ndarray, np.ndarray], f: np.ndarray) -> np.ndarray:
    w, b, mu, sd = probe
    return np.asarray(((f - mu) / sd) @ w + b)


def out_of_fold(photos: list[Photo], lam: float, folds: int = 5) -> tuple[float, float]:
    """Shares of training photos judged right, upright and turned, each by a probe that
    never saw its source."""
    sources = sorted({source_of(n) for n, _, _ in photos})
    order = np.random.default_rng(0).permutation(len(sources))
    fold = {sources[i]: k % folds for k, i in enumerate(order)}
    up_right = down_right = 0
    for k in range(folds):
        probe = fit_probe([p for p in photos if fold[source_of(p[0])] != k], lam)
        for name, u, t in photos:
            if fold[source_of(name)] == k:
                up_right += int(logits(probe, u).mean() > 0)
                down_right += int(logits(probe, t).mean() < 0)
    return up_right / len(photos), down_right / len(photos)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--real", type=Path, default=REAL)
    ap.add_argument("--lam", type=float, nargs="+", default=[1e-1, 1e-2, 1e-3])
    args = ap.parse_args()
    train = photo_features(ROOT / "tests" / "data" / "real_train_tiles.csv", args.real)
    val = photo_features(ROOT / "tests" / "data" / "real_tiles.csv", args.real)
    val_names = set(json.loads((ROOT / "datasets" / "real-split.json").read_text())["val"])
    if {source_of(n) for n, _, _ in train} & {source_of(n) for n in val_names}:
        raise SystemExit("a training photo shares its source with a validation photo")
    for lam in args.lam:
        up, down = out_of_fold(train, lam)
        probe = fit_probe(train, lam)
        crop = np.concatenate([np.r_[logits(probe, u) > 0, logits(probe, t) < 0] for _, u, t in val]).mean()
        means = [(n, float(logits(probe, u).mean()), float(logits(probe, t).mean())) for n, u, t in val]
        wrong = sorted({source_of(n)[:9] for n, mu, mt in means if mu <= 0 or mt >= 0})
        print(json.dumps({
            "lam": lam, "train_photos": len(train), "train_sources": len({source_of(n) for n, _, _ in train}),
            "out_of_fold_upright_right": round(up, 3), "out_of_fold_turned_right": round(down, 3),
            "val_photos": len(val), "val_crops_right": round(float(crop), 3),
            "val_upright_right": sum(mu > 0 for _, mu, _ in means), "val_turned_right": sum(mt < 0 for _, _, mt in means),
            "val_sources_judged_wrong": wrong,
        }))


if __name__ == "__main__":
    main()
