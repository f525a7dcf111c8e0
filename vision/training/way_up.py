"""Fit the way-up probe (``vision.way_up``) on the hand-labelled real *training* photos.

    python -m vision.training.way_up            # writes models/way_up.npz (about a minute)

Each labelled tile of ``tests/data/real_train_tiles.csv`` is cut along its row, as served,
and read by the shipped classifier as photographed and turned half round; a logistic probe
(L2 ``--lam``, chosen out of fold by source in ``benchmarks/bench_way_up.py``) learns to tell
the two from the pooled features. The validation photos are never read here. The probe is
tied to the classifier's weights (``TileClassifier.key``): fit it again after a new one.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from vision.classifier import TileClassifier
from vision.evaluation import load_codes_csv, source_of
from vision.imageio import load_image
from vision.row_crops import row_crops
from vision.training.real_crops import TRAIN_CSV
from vision.training.real_split import DEFAULT_REAL_DIR, load_split
from vision.way_up import WayUp

LAM = 1e-3  # out of fold: 96.4 % of photos judged right either way up (0.01: 88.2 / 96.4 %)
Photo = tuple[str, np.ndarray, np.ndarray]  # name, features as photographed, turned


def photo_features(clf: TileClassifier, csv: Path, real: Path) -> list[Photo]:
    """Each labelled photo's crops (cut along rows, as served): ``clf``'s features as
    photographed and turned half round."""
    upright, turned = _one_way(clf, (0,)), _one_way(clf, (2,))
    out: list[Photo] = []
    for name, tiles in sorted(load_codes_csv(csv).items()):
        image = load_image(real / "images" / name)  # decoded as served; a broken photo says so
        crops = row_crops(image, np.array([box for box, _ in tiles]))
        out.append((name, upright.features(crops), turned.features(crops)))
    return out


def _one_way(clf: TileClassifier, turns: tuple[int, ...]) -> TileClassifier:
    """``clf``'s network reading every crop in ``turns`` only."""
    return TileClassifier(clf.model.path, size=clf.size, turns=turns)


def fit_probe(photos: list[Photo], lam: float, key: str = "", steps: int = 3000) -> WayUp:
    """Logistic regression (L2 ``lam``) on standardised features by gradient descent:
    crops as photographed (1) against the same crops turned half round (0)."""
    x = np.concatenate([np.concatenate([u, t]) for _, u, t in photos]).astype(np.float64)
    y = np.concatenate([np.r_[np.ones(len(u)), np.zeros(len(t))] for _, u, t in photos])
    mu, sd = x.mean(0), x.std(0) + 1e-6
    z = (x - mu) / sd
    w, b = np.zeros(z.shape[1]), 0.0
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(z @ w + b)))
        w -= 0.5 * (z.T @ (p - y) / len(y) + lam * w)
        b -= 0.5 * float((p - y).mean())
    return WayUp(w, b, mu, sd, key)


def source_folds(names: list[str], folds: int = 5) -> dict[str, int]:
    """Each photo's source to one of ``folds`` folds (seeded): a source's copies stay together."""
    sources = sorted({source_of(n) for n in names})
    order = np.random.default_rng(0).permutation(len(sources))
    return {sources[i]: k % folds for k, i in enumerate(order)}


def out_of_fold(photos: list[Photo], lam: float, folds: int = 5) -> tuple[float, float]:
    """Shares of training photos judged right, upright and turned, each by a probe that
    never saw its source."""
    fold = source_folds([n for n, _, _ in photos], folds)
    up_right = down_right = 0
    for k in range(folds):
        probe = fit_probe([p for p in photos if fold[source_of(p[0])] != k], lam)
        for name, u, t in photos:
            if fold[source_of(name)] == k:
                up_right += int(probe.logits(u).mean() > 0)
                down_right += int(probe.logits(t).mean() < 0)
    return up_right / len(photos), down_right / len(photos)


def main(argv: list[str] | None = None) -> None:
    from vision.reader import WAY_UP_PATH, shipped_classifier

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--real", type=Path, default=DEFAULT_REAL_DIR)
    ap.add_argument("--lam", type=float, default=LAM)
    ap.add_argument("--out", type=Path, default=WAY_UP_PATH)
    args = ap.parse_args(argv)
    clf = shipped_classifier(second_look=None, way_up=None, flower_look=None, number_look=None)
    photos = photo_features(clf, TRAIN_CSV, args.real)
    val_sources = {source_of(n) for n in load_split()["val"]}
    if {source_of(n) for n, _, _ in photos} & val_sources:
        raise SystemExit("a training photo shares its source with a validation photo")
    fit_probe(photos, args.lam, clf.key).save(args.out)
    print(f"{args.out}: {len(photos)} photos, {sum(len(u) for _, u, _ in photos)} tiles, lam {args.lam}")


if __name__ == "__main__":
    main()
