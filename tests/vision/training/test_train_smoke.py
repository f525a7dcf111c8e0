"""Smoke test: one epoch of each model on the committed test images, then ONNX export.

Training itself never runs in CI beyond this; it checks the pipeline end to end
(offline ultralytics, the torchvision shim, resumable run folders, export, serving).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

pytest.importorskip("ultralytics")

DATA = Path(__file__).resolve().parents[2] / "data" / "vision"


@pytest.fixture(scope="module")
def yolo_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not (DATA / "images").is_dir():
        pytest.skip("no committed test images")
    root = tmp_path_factory.mktemp("det")
    shutil.copytree(DATA / "images", root / "images")
    (root / "labels").mkdir()
    for txt in (DATA / "labels").glob("*.txt"):
        shutil.copy(txt, root / "labels" / txt.name)
    return root


@pytest.mark.slow
def test_detector_one_epoch_and_export(yolo_dir: Path, tmp_path: Path) -> None:
    from vision.training.datasets import write_detector_yaml
    from vision.training.train import TrainConfig, export_onnx, last_checkpoint, train_detector

    data = write_detector_yaml([yolo_dir], [yolo_dir], tmp_path / "ds")
    cfg = TrainConfig(data=data, out=tmp_path / "runs", name="det", epochs=1, imgsz=160, batch=4)
    best = train_detector(cfg)
    assert best.is_file() and last_checkpoint(cfg.run_dir) is not None
    onnx = export_onnx(best, tmp_path / "det.onnx", 160, dynamic=True)

    from vision.detector import TileDetector
    from vision.imageio import load_image

    det = TileDetector(onnx, imgsz=160, conf=0.001)
    image = load_image(next((yolo_dir / "images").iterdir()))
    out = det(image)
    assert out.xyxy.shape[1] == 4
    if len(out):
        assert (out.xyxy[:, 2] <= image.shape[1]).all() and (out.xyxy[:, 3] <= image.shape[0]).all()


@pytest.mark.slow
def test_classifier_one_epoch(tmp_path: Path) -> None:
    if not (DATA / "labels").is_dir():
        pytest.skip("no committed test images")
    import cv2

    from vision.classifier import crop_boxes
    from vision.imageio import load_image
    from vision.training.train import TrainConfig, train_classifier

    root = tmp_path / "crops"
    n = 0
    for side in sorted((DATA / "labels").glob("*.json")):
        image = load_image(DATA / "images" / f"{side.stem}.jpg")
        tiles = json.loads(side.read_text())["tiles"]
        for k, t in enumerate(tiles):
            (crop,) = crop_boxes(image, [t["box"]])
            for split in ("train", "val"):
                d = root / split / t["tile"]
                d.mkdir(parents=True, exist_ok=True)
                cv2.imwrite(str(d / f"{side.stem}_{k}.png"), cv2.resize(crop, (32, 32)))
            n += 1
    assert n >= 10
    cfg = TrainConfig(data=root, out=tmp_path / "runs", name="cls", epochs=1, imgsz=32, batch=16)
    assert train_classifier(cfg).is_file()
