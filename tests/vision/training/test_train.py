"""The detector's training augmentation keeps a labelled face's box the size of the face."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("ultralytics")


def _mean_growth(degrees: float, draws: int = 100) -> tuple[float, float]:
    """Mean width and height of a 30×40 face box after ultralytics' ``RandomPerspective``
    turns it by up to ``degrees`` (no shift, scale, shear), over the box's own size."""
    from vision.training.env import setup

    setup(1)
    from ultralytics.data.augment import RandomPerspective
    from ultralytics.utils.instance import Instances

    turn = RandomPerspective(degrees=degrees, translate=0.0, scale=0.0, shear=0.0, perspective=0.0)
    grown = []
    for _ in range(draws):
        box = Instances(np.array([[220.0, 200.0, 250.0, 240.0]]), bbox_format="xyxy", normalized=False)
        out = turn({"img": np.zeros((480, 480, 3), np.uint8), "cls": np.zeros((1, 1)), "instances": box})
        x1, y1, x2, y2 = out["instances"].bboxes[0]
        grown.append(((x2 - x1) / 30, (y2 - y1) / 40))
    w, h = np.mean(grown, axis=0)
    return float(w), float(h)


def test_turning_a_box_by_its_corners_makes_it_wider() -> None:
    w, h = _mean_growth(5.0)
    assert w > 1.04 and h > 1.02  # why the detector is not trained with a turn


def test_detector_augmentation_keeps_face_boxes_their_size() -> None:
    from vision.training.train import DETECTOR_AUGMENT

    w, h = _mean_growth(DETECTOR_AUGMENT["degrees"])
    assert w == pytest.approx(1.0, abs=0.005) and h == pytest.approx(1.0, abs=0.005)


class _Recorder:
    """Stands in for ultralytics' ``YOLO``: keeps what ``train`` was asked."""

    asked: dict[str, object] = {}

    def __init__(self, model: str) -> None:
        self.model = model

    def train(self, **args: object) -> None:
        _Recorder.asked = args


@pytest.mark.parametrize("which", ["detector", "classifier"])
def test_finetuning_a_shipped_model_has_no_warm_up_and_keeps_the_asked_frozen_layers(
        which: str, tmp_path: object, monkeypatch: pytest.MonkeyPatch) -> None:
    import ultralytics

    from vision.training import train

    monkeypatch.setattr(ultralytics, "YOLO", _Recorder)
    data = tmp_path / ("data.yaml" if which == "detector" else "crops")  # type: ignore[operator]
    (data.write_text("path: .\n") if which == "detector" else (data / "train").mkdir(parents=True))
    warm = tmp_path / "warm.pt"  # type: ignore[operator]
    warm.write_bytes(b"")  # the recorder stands in for ultralytics and loads nothing
    cfg = train.TrainConfig(data=data, out=tmp_path, name=which, model=str(warm),  # type: ignore[arg-type]
                            finetune=True, freeze=11, lr0=0.001)
    with pytest.raises(FileNotFoundError):  # the recorder writes no checkpoint
        (train.train_detector if which == "detector" else train.train_classifier)(cfg)
    asked = _Recorder.asked
    assert asked["warmup_epochs"] == 0 and asked["freeze"] == 11 and asked["lr0"] == 0.001
    assert asked["pretrained"] is True
    if which == "detector":
        assert asked["mosaic"] == 0 and asked["optimizer"] == "SGD" and asked["degrees"] == 0


@pytest.mark.parametrize(("which", "make", "why"), [
    ("detector", None, "no such file"),
    ("detector", "folder", "not a file"),
    ("classifier", None, "no such folder"),
    ("classifier", "folder", "no train/ folder in it"),
])
def test_training_data_that_is_not_there_is_refused_before_training(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], which: str, make: str | None, why: str) -> None:
    from mahjongero.cli import main

    data = tmp_path / "data"
    if make == "folder":
        data.mkdir()
    assert main(["train", which, "--data", str(data), "--out", str(tmp_path / "runs"), "--epochs", "1"]) == 2
    err = capsys.readouterr().err
    assert f"--data {str(data)!r}: {why}" in err
    assert not (tmp_path / "runs").exists()  # nothing started


def test_a_checkpoint_to_start_from_that_is_not_there_is_refused(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    from mahjongero.cli import main

    (tmp_path / "crops" / "train").mkdir(parents=True)
    missing = tmp_path / "warm.pt"
    assert main(["train", "classifier", "--data", str(tmp_path / "crops"), "--model", str(missing),
                 "--out", str(tmp_path / "runs")]) == 2
    assert f"--model {str(missing)!r}: no such file" in capsys.readouterr().err
