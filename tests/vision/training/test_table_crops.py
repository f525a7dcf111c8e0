"""Flower crops cut from rendered tables as live video cuts them."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from vision.reader import LIVE_MARGINS
from vision.training.table_crops import FLOWERS, jittered, main, picture_crops, script


def test_a_table_gives_each_laid_flower_once_a_margin_squashed_square() -> None:
    rng = np.random.default_rng([7, 0])
    laid = Counter(str(step.tiles[0]) for step in script(rng) if step.kind == "flower")
    crops = picture_crops(0, 7, 64)
    assert Counter(code for code, _ in crops) == Counter({code: n * len(LIVE_MARGINS) for code, n in laid.items()})
    assert all(crop.shape == (64, 64, 3) and crop.dtype == np.uint8 for _, crop in crops)


def test_a_jittered_box_stays_near_its_box() -> None:
    box = [100.0, 200.0, 130.0, 240.0]
    moved = np.stack([jittered(box, np.random.default_rng(k)) for k in range(200)])
    assert np.abs(moved - box).max() < 0.25 * 40 and np.abs(moved - box).mean() > 0.1


def test_the_command_writes_each_split_and_resumes(tmp_path: Path) -> None:
    assert main(["--pictures", "1", "--val-pictures", "1", "--seed", "3", "--size", "32", "--out", str(tmp_path)]) == 0
    files = sorted(tmp_path.glob("*/*/*.png"))
    assert {p.parts[-3] for p in files} == {"train", "val"}
    assert {p.parts[-2] for p in files} <= {str(t) for t in FLOWERS}
    assert cv2.imread(str(files[0])).shape == (32, 32, 3)
    stamp = files[0].stat().st_mtime_ns
    main(["--pictures", "1", "--val-pictures", "1", "--seed", "3", "--size", "32", "--out", str(tmp_path)])
    assert files[0].stat().st_mtime_ns == stamp  # drawn once: not written again
