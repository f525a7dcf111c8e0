"""Detector training scenes at the scale the zoom serves them.

A table photographed whole is detected twice (``vision.zoom``): the second pass at the input
that makes its median tile ``target`` pixels. Trained at 480 on whole rendered tables, the
detector sees those tiles at 8-18 px instead. :func:`zoom_crops` writes a twin of a scene
folder in which every scene whose median labelled tile would be under ``below`` px at the
training input is joined by crops of it whose tiles come out ``target`` px there. The whole
scenes stay by default (``whole``): trained on the crops alone, the detector's first pass,
which sizes the second, found fewer of the smallest tiles (``models/HISTORY.md``, stop 51,
where neither way was shipped).

    python -m vision.training.zoom_crops datasets/generated/scenes-s320s-faces datasets/generated/scenes-s320s-zoom
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from vision.detector import letterbox_scale
from vision.evaluation import read_yolo_labels
from vision.synth.dataset import label_line
from vision.zoom import DEFAULT_ZOOM, median_short_side

__all__ = ["crop_window", "zoom_crops"]


def crop_window(shape: tuple[int, ...], median_tile: float, imgsz: int, target: float) -> tuple[int, int]:
    """(width, height) of a crop of a ``shape`` picture, of its aspect, whose tiles of
    ``median_tile`` px come out ``target`` px once the crop is letterboxed to ``imgsz``.

    >>> crop_window((960, 1280, 3), 20.0, 480, 22.0)  # tiles 7.5 px at 480: a crop 436 px wide
    (436, 327)
    >>> crop_window((960, 1280, 3), 80.0, 480, 22.0)  # never past the picture
    (1280, 960)
    """
    h, w = shape[:2]
    long = min(max(h, w), imgsz * median_tile / target)
    cw, ch = (long, long * h / w) if w >= h else (long * w / h, long)
    return int(round(cw)), int(round(ch))


def zoom_crops(src: Path, dest: Path, split: str = "train", imgsz: int = 480, copies: int = 2, keep: float = 0.4,
               whole: bool = True, seed: int = 51) -> tuple[int, int]:
    """Write ``dest/{images,labels}/split``: the scenes of ``src`` (linked, ``whole``) and
    ``copies`` crops of each whose median tile is under the zoom's ``below`` at ``imgsz``,
    each centred near a random tile; a box clipped by the crop stays labelled where ``keep``
    of its area is inside. Returns (scenes kept whole, crops written)."""
    rng = np.random.default_rng(seed)
    images, labels = dest / "images" / split, dest / "labels" / split
    images.mkdir(parents=True, exist_ok=True)
    labels.mkdir(parents=True, exist_ok=True)
    kept = cut = 0
    for img_path in sorted((src / "images" / split).glob("*.jpg")):
        label_path = src / "labels" / split / (img_path.stem + ".txt")
        image = cv2.imread(str(img_path))
        if image is None:
            raise ValueError(f"{str(img_path)!r}: not a readable image")
        h, w = image.shape[:2]
        xyxy, up = read_yolo_labels(label_path, w, h)
        median = median_short_side(xyxy) if len(xyxy) else 0.0
        small = len(xyxy) > 0 and median * letterbox_scale(image.shape, imgsz) < DEFAULT_ZOOM.below
        if whole or not small:
            link = images / img_path.name
            if not link.exists():
                link.symlink_to(img_path.resolve())
            (labels / label_path.name).write_text(label_path.read_text() if label_path.exists() else "")
            kept += 1
        if small:
            cut += _write_crops(image, xyxy, np.where(up, 0, 1), img_path.stem, images, labels, rng,
                                crop_window(image.shape, median, imgsz, DEFAULT_ZOOM.target),
                                copies, keep)
    return kept, cut


def _write_crops(image: np.ndarray, xyxy: np.ndarray, cls: np.ndarray, stem: str, images: Path, labels: Path,
                 rng: np.random.Generator, size: tuple[int, int], copies: int, keep: float) -> int:
    h, w = image.shape[:2]
    cw, ch = size
    area = (xyxy[:, 2] - xyxy[:, 0]) * (xyxy[:, 3] - xyxy[:, 1])
    for k in range(copies):
        c = xyxy[rng.integers(len(xyxy))]
        x0 = int(np.clip((c[0] + c[2] - cw) / 2 + rng.uniform(-0.25, 0.25) * cw, 0, w - cw))
        y0 = int(np.clip((c[1] + c[3] - ch) / 2 + rng.uniform(-0.25, 0.25) * ch, 0, h - ch))
        clipped = np.clip(xyxy, [x0, y0, x0, y0], [x0 + cw, y0 + ch, x0 + cw, y0 + ch])
        inside = (clipped[:, 2] - clipped[:, 0]) * (clipped[:, 3] - clipped[:, 1]) >= keep * area
        name = f"{stem}_z{k}"
        cv2.imwrite(str(images / f"{name}.jpg"), image[y0:y0 + ch, x0:x0 + cw], [cv2.IMWRITE_JPEG_QUALITY, 95])
        lines = [label_line(int(kind), box, cw, ch)
                 for kind, box in zip(cls[inside], clipped[inside] - [x0, y0, x0, y0], strict=True)]
        (labels / f"{name}.txt").write_text("".join(f"{line}\n" for line in lines))
    return copies


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("src", type=Path, help="a scene folder (images/, labels/)")
    ap.add_argument("dest", type=Path)
    ap.add_argument("--split", default="train")
    ap.add_argument("--imgsz", type=int, default=480, help="the training input's long side")
    ap.add_argument("--copies", type=int, default=2, help="crops of each small-tiled scene")
    ap.add_argument("--crops-only", action="store_true", help="leave the small-tiled scenes out whole")
    args = ap.parse_args(argv)
    kept, cut = zoom_crops(args.src, args.dest, args.split, args.imgsz, args.copies, whole=not args.crops_only)
    print(f"{args.dest}: {kept} scenes whole, {cut} crops")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
