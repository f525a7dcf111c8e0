"""The fixed, seeded split of the real photos into detector-training and validation.

The validation photos are never trained on. The split is written once to
``datasets/real-split.json`` (committed) and read from there afterwards.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from vision.evaluation import source_of
from vision.training.env import REPO_ROOT

__all__ = ["SPLIT_FILE", "DEFAULT_REAL_DIR", "make_split", "load_split"]

SPLIT_FILE = REPO_ROOT / "datasets" / "real-split.json"
DEFAULT_REAL_DIR = REPO_ROOT.parent / "shared" / "data" / "mahjong-yolo-v2-train"
SEED = 20261122
N_VAL = 44


class SplitError(ValueError):
    """The split file and the photo folder disagree."""


def make_split(real_dir: Path = DEFAULT_REAL_DIR, n_val: int = N_VAL, seed: int = SEED) -> dict[str, Any]:
    """Shuffle the source photos with ``seed``; whole groups go to val until ``n_val`` images.

    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp()); (d / "images").mkdir()
    >>> for i in range(6): _ = (d / "images" / f"{i // 2}.rf.{i}.jpg").write_bytes(b"")
    >>> s = make_split(d, n_val=3, seed=1)
    >>> len(s["val"]), len(s["train"]), {source_of(n) for n in s["val"]} & {source_of(n) for n in s["train"]}
    (4, 2, set())
    """
    names = sorted(p.name for p in (real_dir / "images").iterdir() if p.is_file())
    groups: dict[str, list[str]] = {}
    for n in names:
        groups.setdefault(source_of(n), []).append(n)
    order = sorted(groups)
    random.Random(seed).shuffle(order)
    val: list[str] = []
    for g in order:
        if len(val) >= n_val:
            break
        val += groups[g]
    train = [n for n in names if n not in set(val)]
    return {
        "source": "Mahjong_YOLO v2, Roboflow Universe, CC BY 4.0",
        "seed": seed,
        "grouped_by": "source photo (name before '.rf.'): augmented copies never straddle the split",
        "val_sources": len({source_of(n) for n in val}),
        "train_sources": len({source_of(n) for n in train}),
        "val": sorted(val),
        "train": sorted(train),
    }


def load_split(path: Path = SPLIT_FILE) -> dict[str, Any]:
    """The committed split: ``{"val": [...], "train": [...]}``."""
    data: dict[str, Any] = json.loads(path.read_text())
    overlap = {source_of(n) for n in data["val"]} & {source_of(n) for n in data["train"]}
    if overlap:
        raise SplitError(f"photos in both train and val: {sorted(overlap)[:3]!r}")
    return data


if __name__ == "__main__":
    SPLIT_FILE.write_text(json.dumps(make_split(), indent=1) + "\n")
    print(f"wrote {SPLIT_FILE}")
