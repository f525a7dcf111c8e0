"""Can the shipped classifier's features tell which way up a row of tiles is?

Run: ``.venv/bin/python benchmarks/bench_way_up.py`` (about two minutes on 2 cores).

A hand photographed from across the table has every crop cut upside down, and the
classifier (trained on tiles lying every way round) is about as sure of a turned crop as of
an upright one (models/README.md, "The same photos taken a little differently"). Its pooled
features (the ``features`` output, which its first look computes anyway) still say which way
up a crop is. The probe (``vision.training.way_up``: logistic, crop as photographed (1)
against the same crop turned half round (0)) is fitted on the hand-labelled *training*
tiles (``tests/data/real_train_tiles.csv``). Printed:

1. per ``--lam``, out of fold over the training photos (five folds by source photo): the
   share of photos, as photographed and turned, whose crops' mean logit says the right way
   up; fitted on all training photos, the same on the real validation photos per crop and
   per photo, and the photos it judges wrongly;
2. the served rule, blind: each training photo read by the detector, as photographed and
   turned half round, every row of at least ``WAY_UP_ROW`` touching tiles judged by a probe
   that never saw its source (``WayUp.turned``, margin ``TURN_MARGIN``): the rows turned,
   and how many of them hold the photo's labelled hand tiles (as photographed, none should).

The served figures (the validation photos read with the rule) come from
``benchmarks/bench_real_perturbed.py``.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.classifier import WAY_UP_ROW, TileClassifier  # noqa: E402
from vision.detections import box_iou  # noqa: E402
from vision.evaluation import load_codes_csv, source_of, split_names  # noqa: E402
from vision.imageio import load_image  # noqa: E402
from vision.reader import CLASSIFIER_PATH, TileReader, shipped_classifier  # noqa: E402
from vision.row_crops import cut_along_rows  # noqa: E402
from vision.training.way_up import (  # noqa: E402
    LAM,
    Photo,
    fit_probe,
    out_of_fold,
    photo_features,
    source_folds,
)

REAL = ROOT.parent / "shared" / "data" / "mahjong-yolo-v2-train"
TRAIN_CSV = ROOT / "tests" / "data" / "real_train_tiles.csv"
Row = tuple[np.ndarray, np.ndarray, bool]  # features as photographed, turned; holds hand tiles


def lam_table(train: list[Photo], val: list[Photo], lam: float) -> dict[str, object]:
    """Part 1 for one ``lam``."""
    up, down = out_of_fold(train, lam)
    probe = fit_probe(train, lam)
    crop = np.concatenate([np.r_[probe.logits(u) > 0, probe.logits(t) < 0] for _, u, t in val]).mean()
    means = [(n, float(probe.logits(u).mean()), float(probe.logits(t).mean())) for n, u, t in val]
    wrong = sorted({source_of(n)[:9] for n, mu, mt in means if mu <= 0 or mt >= 0})
    return {
        "lam": lam, "train_photos": len(train), "train_sources": len({source_of(n) for n, _, _ in train}),
        "out_of_fold_upright_right": round(up, 3), "out_of_fold_turned_right": round(down, 3),
        "val_photos": len(val), "val_crops_right": round(float(crop), 3),
        "val_upright_right": sum(mu > 0 for _, mu, _ in means), "val_turned_right": sum(mt < 0 for _, _, mt in means),
        "val_sources_judged_wrong": wrong,
    }


def detected_rows(reader: TileReader, image: np.ndarray, hand: np.ndarray) -> list[Row]:
    """The rows of touching face-up tiles the served reader would judge in ``image``, and
    whether each holds a labelled hand tile (a detector box at IoU >= 0.5 with one)."""
    dets = reader.detector(image)
    boxes = dets.xyxy[dets.face_up]
    crops, runs = cut_along_rows(image, boxes)
    runs = [r for r in runs if len(r) >= WAY_UP_ROW]
    if not runs:
        return []
    upright = reader.classifier.features(crops)  # the reader's classifier reads one turn: (0,)
    turned = reader.classifier.features([np.ascontiguousarray(c[::-1, ::-1]) for c in crops])
    labelled = box_iou(boxes, hand).max(1) >= 0.5 if len(hand) else np.zeros(len(boxes), bool)
    return [(upright[r], turned[r], bool(labelled[r].any())) for r in runs]


def served_rule_blind(train: list[Photo], real: Path) -> dict[str, int]:
    """Part 2: the rows the served rule turns in the training photos, each photo judged by a
    probe fitted without its source."""
    reader = TileReader(classifier=TileClassifier(CLASSIFIER_PATH, turns=(0,)))
    labels = load_codes_csv(TRAIN_CSV)
    rows: dict[str, tuple[list[Row], list[Row]]] = {}
    for name, _, _ in train:
        image = load_image(real / "images" / name)
        hand = np.array([box for box, _ in labels[name]], np.float64).reshape(-1, 4)
        h, w = image.shape[:2]
        hand_turned = np.c_[w - hand[:, 2], h - hand[:, 3], w - hand[:, 0], h - hand[:, 1]]
        rows[name] = (detected_rows(reader, image, hand), detected_rows(reader, image[::-1, ::-1].copy(), hand_turned))
    fold = source_folds(list(rows))
    out = dict.fromkeys(("rows_as_photographed", "turned", "turned_holding_hand_tiles", "rows_turned_round",
                         "turned_back", "hand_rows_turned_round", "hand_rows_turned_back"), 0)
    for k in range(max(fold.values()) + 1):
        probe = fit_probe([p for p in train if fold[source_of(p[0])] != k], LAM)
        for name, (upright, turned) in rows.items():
            if fold[source_of(name)] != k:
                continue
            for f, t, hand_row in upright:
                flip = probe.turned(f, functools.partial(np.asarray, t))
                out["rows_as_photographed"] += 1
                out["turned"] += flip
                out["turned_holding_hand_tiles"] += flip and hand_row
            for f, t, hand_row in turned:
                flip = probe.turned(f, functools.partial(np.asarray, t))
                out["rows_turned_round"] += 1
                out["turned_back"] += flip
                out["hand_rows_turned_round"] += hand_row
                out["hand_rows_turned_back"] += flip and hand_row
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--real", type=Path, default=REAL)
    ap.add_argument("--lam", type=float, nargs="+", default=[1e-1, 1e-2, 1e-3])
    args = ap.parse_args()
    clf = shipped_classifier(second_look=None, way_up=None, flower_look=None, number_look=None)
    train = photo_features(clf, TRAIN_CSV, args.real)
    val = photo_features(clf, ROOT / "tests" / "data" / "real_tiles.csv", args.real)
    val_names = set(split_names(ROOT / "datasets" / "real-split.json"))
    if {source_of(n) for n, _, _ in train} & {source_of(n) for n in val_names}:
        raise SystemExit("a training photo shares its source with a validation photo")
    for lam in args.lam:
        print(json.dumps(lam_table(train, val, lam)), flush=True)
    print(json.dumps({"served_rule_blind_on_training_photos": served_rule_blind(train, args.real)}))


if __name__ == "__main__":
    main()
