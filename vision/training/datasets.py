"""Assemble training sets: synthetic scenes + oversampled real photos; squared crops.

Real photos stay in ``../shared/data``; we only write symlinks and label copies
under ``datasets/generated/`` (gitignored).
"""

from __future__ import annotations

import json
import shutil
import zlib
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from vision.synth.dataset import face_box

__all__ = ["link_real", "write_detector_yaml", "square_crops", "face_box", "face_box_scenes", "DETECTOR_NAMES"]

DETECTOR_NAMES = {0: "tile", 1: "back"}
_IMG_EXT = {".jpg", ".jpeg", ".png", ".bmp", ".webp"}


def link_real(real_dir: Path, names: Iterable[str], dest: Path, repeats: int = 1,
              labels: Path | None = None) -> int:
    """Symlink ``names`` from ``real_dir/images`` into ``dest/images`` ``repeats`` times.

    Labels are copied (class 0, face-up tile) from ``real_dir/labels``, or from ``labels``
    (completed by ``vision.training.pseudo_labels``). Returns the number of images linked.
    """
    (dest / "images").mkdir(parents=True, exist_ok=True)
    (dest / "labels").mkdir(parents=True, exist_ok=True)
    n = 0
    for name in names:
        src = real_dir / "images" / name
        label = (labels or real_dir / "labels") / (Path(name).stem + ".txt")
        for k in range(repeats):
            img = dest / "images" / f"r{k}_{name}"
            if not img.exists():
                img.symlink_to(src.resolve())
            shutil.copyfile(label, dest / "labels" / f"r{k}_{Path(name).stem}.txt")
            n += 1
    return n


def face_box_scenes(scenes: Path, dest: Path) -> int:
    """Twin of a renderer folder in which face-up tiles are boxed by :func:`face_box`, in the
    YOLO labels and the sidecars alike (a sidecar's ``tile_box`` keeps the whole visible box;
    backs keep it as their box). Images are symlinked. Returns the number of images."""
    from vision.synth.dataset import label_line

    n = 0
    for meta in sorted(scenes.glob("meta/*/*.json")):
        split, side = meta.parent.name, json.loads(meta.read_text())
        w, h = side["width"], side["height"]
        img = dest / "images" / split / side["image"]
        img.parent.mkdir(parents=True, exist_ok=True)
        (dest / "labels" / split).mkdir(parents=True, exist_ok=True)
        if not img.exists():
            img.symlink_to((scenes / "images" / split / side["image"]).resolve())
        for t in side["tiles"]:
            t["tile_box"] = t["box"]
            if t["cls"] == 0:
                t["box"] = face_box(t["box"], t["quad"])
        lines = [label_line(t["cls"], t["box"], w, h) for t in side["tiles"]]
        (dest / "labels" / split / (img.stem + ".txt")).write_text("".join(f"{ln}\n" for ln in lines))
        (dest / "meta" / split).mkdir(parents=True, exist_ok=True)
        (dest / "meta" / split / meta.name).write_text(json.dumps(side, separators=(",", ":")))
        n += 1
    return n


def _images_of(folder: Path) -> list[str]:
    """Absolute paths (symlinks kept as links) of the images under ``folder``."""
    return sorted(str(p.absolute()) for p in folder.rglob("*") if p.suffix.lower() in _IMG_EXT)


def write_detector_yaml(
    train: Sequence[Path], val: Sequence[Path], dest: Path, names: dict[int, str] = DETECTOR_NAMES
) -> Path:
    """Write ``dest/data.yaml`` with image lists ``train.txt`` / ``val.txt``.

    Each entry is a folder of images somewhere under an ``images/`` folder whose twin
    ``labels/`` holds the YOLO txt files (ultralytics swaps the two path parts).
    """
    dest.mkdir(parents=True, exist_ok=True)
    for split, folders in (("train", train), ("val", val)):
        files = [f for folder in folders for f in _images_of(folder)]
        (dest / f"{split}.txt").write_text("\n".join(files) + "\n")
    lines = [f"path: {dest.resolve()}", "train: train.txt", "val: val.txt", "names:"]
    lines += [f"  {k}: {v}" for k, v in sorted(names.items())]
    (dest / "data.yaml").write_text("\n".join(lines) + "\n")
    return dest / "data.yaml"


ROTATIONS = (0, 0, 0, 0, 0, 0, 2, 2, 1, 3)  # quarter turns: 60 % upright, 20 % upside down


def quarter_turns(name: str) -> int:
    """A fixed pseudo-random number of quarter turns for a training crop's file name.

    >>> quarter_turns("a.png") == quarter_turns("a.png")
    True
    """
    return ROTATIONS[zlib.crc32(name.encode()) % len(ROTATIONS)]


def square_crops(
    src: Path, dst: Path, size: int = 64, rotate: Sequence[str] = ("train",)
) -> dict[str, int]:
    """Resize every crop under ``src/{train,val}/<code>/`` to ``size``×``size`` (squashed).

    Serving squashes crops the same way, so training and serving see the same geometry.
    Crops of the ``rotate`` splits are turned by :func:`quarter_turns` (real photos show
    tiles upside down and sideways; after squashing, a turned tile is a turned square).
    Returns images per split. Existing outputs are kept (resumable).
    """
    import cv2

    counts: dict[str, int] = {}
    for split_dir in sorted(p for p in src.iterdir() if p.is_dir()):
        n = 0
        for img_path in sorted(split_dir.rglob("*")):
            if img_path.suffix.lower() not in _IMG_EXT:
                continue
            out = dst / img_path.relative_to(src).with_suffix(".png")
            n += 1
            if out.exists():
                continue
            out.parent.mkdir(parents=True, exist_ok=True)
            im = cv2.imread(str(img_path), cv2.IMREAD_COLOR)
            if im is None:
                continue
            sq = cv2.resize(im, (size, size), interpolation=cv2.INTER_AREA)
            if split_dir.name in rotate:
                sq = np.rot90(sq, quarter_turns(img_path.name)).copy()
            cv2.imwrite(str(out), sq)
        counts[split_dir.name] = n
    (dst / "square.json").write_text(json.dumps({"size": size, "counts": counts}))
    return counts
