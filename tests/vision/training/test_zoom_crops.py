"""Zoom crops: small-tiled scenes joined by crops whose tiles come out at the zoom's target."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.evaluation import read_yolo_labels
from vision.training.zoom_crops import zoom_crops
from vision.zoom import DEFAULT_ZOOM


def _scene(root: Path, name: str, tile: int, n: int = 12) -> None:
    """A 1280x960 scene of ``n`` tiles ``tile`` px wide in a row, labelled face up."""
    (root / "images" / "train").mkdir(parents=True, exist_ok=True)
    (root / "labels" / "train").mkdir(parents=True, exist_ok=True)
    image = np.full((960, 1280, 3), 60, np.uint8)
    lines = []
    for i in range(n):
        x0, y0 = 200 + i * (tile + 2), 400
        cv2.rectangle(image, (x0, y0), (x0 + tile, y0 + int(tile * 1.4)), (230, 230, 220), -1)
        lines.append(f"0 {(x0 + tile / 2) / 1280:.6f} {(y0 + tile * 0.7) / 960:.6f} {tile / 1280:.6f} {tile * 1.4 / 960:.6f}\n")
    cv2.imwrite(str(root / "images" / "train" / f"{name}.jpg"), image)
    (root / "labels" / "train" / f"{name}.txt").write_text("".join(lines))


@pytest.mark.parametrize("whole", [True, False])
def test_small_tiles_get_crops_at_the_target_size(tmp_path: Path, whole: bool) -> None:
    src, dest = tmp_path / "src", tmp_path / "dest"
    _scene(src, "far", 20)  # 7.5 px at 480: the zoom would detect it again
    _scene(src, "near", 90)  # 34 px at 480: read as it is
    kept, cut = zoom_crops(src, dest, copies=2, whole=whole)
    assert (kept, cut) == ((2, 2) if whole else (1, 2))
    names = sorted(p.stem for p in (dest / "images" / "train").iterdir())
    assert names == (["far", "far_z0", "far_z1", "near"] if whole else ["far_z0", "far_z1", "near"])
    for k in range(2):
        crop = cv2.imread(str(dest / "images" / "train" / f"far_z{k}.jpg"))
        h, w = crop.shape[:2]
        assert abs(w / h - 4 / 3) < 0.01
        xyxy, up = read_yolo_labels(dest / "labels" / "train" / f"far_z{k}.txt", w, h)
        assert len(xyxy) >= 6 and up.all()
        assert (xyxy >= 0).all() and (xyxy[:, [0, 2]] <= w).all() and (xyxy[:, [1, 3]] <= h).all()
        whole_tiles = xyxy[(xyxy[:, 2] - xyxy[:, 0]) > 19]
        assert abs(20 * 480 / max(w, h) - DEFAULT_ZOOM.target) < 0.5  # the crop's scale
        assert len(whole_tiles) >= 4


def test_an_unreadable_scene_is_named(tmp_path: Path) -> None:
    src = tmp_path / "src"
    (src / "images" / "train").mkdir(parents=True)
    (src / "images" / "train" / "broken.jpg").write_bytes(b"not a jpeg")
    with pytest.raises(ValueError, match="broken.jpg"):
        zoom_crops(src, tmp_path / "dest")


def test_prepare_trains_on_the_zoom_crops_and_validates_on_the_scenes(tmp_path: Path) -> None:
    from vision.training.prepare import main

    scenes = tmp_path / "scenes"
    _scene(scenes, "far", 20)
    _scene(scenes, "near", 90)
    (scenes / "images" / "val").mkdir(parents=True)
    cv2.imwrite(str(scenes / "images" / "val" / "held.jpg"), np.zeros((96, 128, 3), np.uint8))
    out = tmp_path / "det"
    assert main(["--scenes", str(scenes), "--real", str(tmp_path / "no-photos"), "--zoom-crops", "2",
                 "--out", str(out)]) == 0
    train = [Path(line).name for line in (out / "train.txt").read_text().split()]
    val = [Path(line).name for line in (out / "val.txt").read_text().split()]
    assert sorted(train) == ["far.jpg", "far_z0.jpg", "far_z1.jpg", "near.jpg"]
    assert val == ["held.jpg"]
    for line in (out / "train.txt").read_text().split():  # ultralytics finds each label by the path
        assert Path(line.replace("/images/", "/labels/")).with_suffix(".txt").is_file()
