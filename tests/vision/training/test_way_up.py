"""The way-up probe's fitting (``python -m vision.training.way_up``), without the real photos."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.imageio import ImageLoadError
from vision.reader import shipped_classifier
from vision.training.way_up import fit_probe, photo_features, source_folds


def test_a_broken_training_photo_is_named_not_skipped(tmp_path: Path) -> None:
    (tmp_path / "images").mkdir()
    (tmp_path / "images" / "cut.jpg").write_bytes(b"\xff\xd8\xff\xe0 truncated")
    csv = tmp_path / "tiles.csv"
    csv.write_text("image,x1,y1,x2,y2,code\ncut.jpg,0,0,10,10,1m\n")
    with pytest.raises(ImageLoadError, match="cut.jpg"):
        photo_features(shipped_classifier(second_look=None, way_up=None), csv, tmp_path)


def test_the_probe_tells_the_two_ways_apart() -> None:
    # features that differ in their mean along one direction: upright ones read > 0
    rng = np.random.default_rng(0)
    shift = np.r_[1.0, np.zeros(7)]
    photos = [(f"p{k}.rf.x.jpg", rng.normal(size=(12, 8)) + shift, rng.normal(size=(12, 8)) - shift)
              for k in range(10)]
    probe = fit_probe(photos, lam=1e-3, steps=500)
    upright = np.concatenate([u for _, u, _ in photos])
    turned = np.concatenate([t for _, _, t in photos])
    assert (probe.logits(upright) > 0).mean() > 0.8 and (probe.logits(turned) < 0).mean() > 0.8


def test_copies_of_one_photo_share_a_fold() -> None:
    names = [f"src{k % 7}_jpg.rf.{k}.jpg" for k in range(30)]
    fold = source_folds(names, folds=5)
    assert set(fold) == {f"src{k}_jpg" for k in range(7)} and set(fold.values()) <= set(range(5))
