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
    # the same command again resumes the run folder; a finished run trains no more
    results = (cfg.run_dir / "results.csv").read_text()
    assert train_detector(cfg) == best and (cfg.run_dir / "results.csv").read_text() == results
    assert sorted(p.name for p in cfg.out.iterdir()) == ["det"]
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


class _Interrupted(Exception):
    """Stands for the power going off mid-run."""


@pytest.mark.slow
def test_an_interrupted_run_resumes_where_it_stopped(yolo_dir: Path, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A run stopped after its first of two epochs: the same command again trains the second
    from the first's checkpoint, not from the start."""
    import ultralytics

    from vision.training.datasets import write_detector_yaml
    from vision.training.train import TrainConfig, last_checkpoint, train_detector

    real = ultralytics.YOLO

    class StoppedAfterOneEpoch(real):  # type: ignore[misc,valid-type]
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, **kwargs)

            def stop(trainer: object) -> None:
                if getattr(trainer, "epoch", None) == 0:
                    raise _Interrupted

            self.add_callback("on_fit_epoch_end", stop)

    data = write_detector_yaml([yolo_dir], [yolo_dir], tmp_path / "ds")
    cfg = TrainConfig(data=data, out=tmp_path / "runs", name="det", epochs=2, imgsz=160, batch=4)
    monkeypatch.setattr(ultralytics, "YOLO", StoppedAfterOneEpoch)
    with pytest.raises(_Interrupted):
        train_detector(cfg)
    assert last_checkpoint(cfg.run_dir) is not None
    first = (cfg.run_dir / "results.csv").read_text().splitlines()
    assert len(first) == 2  # the header and epoch 1
    monkeypatch.setattr(ultralytics, "YOLO", real)
    assert train_detector(cfg).is_file()
    rows = (cfg.run_dir / "results.csv").read_text().splitlines()
    assert rows[:2] == first  # epoch 1 as it was (its time and losses): not trained again
    assert [row.split(",")[0].strip() for row in rows[1:]] == ["1", "2"]
