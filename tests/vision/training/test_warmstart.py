"""Warm start: the shipped ONNX weights come back as a .pt that computes the same thing."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("ultralytics")

from vision.reader import CLASSIFIER_PATH  # noqa: E402

DATA = Path(__file__).resolve().parents[2] / "data" / "vision" / "images"

pytestmark = pytest.mark.skipif(not CLASSIFIER_PATH.is_file(), reason="no shipped classifier")


def _outputs(pt: Path, x: np.ndarray, train_mode: bool = False) -> np.ndarray:
    import torch
    from ultralytics import YOLO  # type: ignore[attr-defined]

    net = YOLO(str(pt)).model.float()
    net.train(train_mode)
    with torch.no_grad():
        y = net(torch.from_numpy(x))
    y = y[0] if isinstance(y, list | tuple) else y
    if train_mode:  # raw logits in training mode; eval mode gives probabilities
        y = torch.softmax(y, 1)
    out: np.ndarray = y.numpy()
    return out


def test_the_warm_classifier_matches_the_onnx_model(tmp_path: Path) -> None:
    from vision.onnx_runtime import OnnxModel
    from vision.training.warmstart import _sample_batch, warm_model

    pt = warm_model(CLASSIFIER_PATH, tmp_path / "warm.pt", samples=DATA)
    x = _sample_batch(DATA, 64, square=True, n=3).numpy()
    ref = OnnxModel(CLASSIFIER_PATH)(x)
    assert np.abs(_outputs(pt, x) - ref).max() < 0.02
    # BatchNorm holds the samples' statistics: training mode on those samples agrees too
    assert (_outputs(pt, x, train_mode=True).argmax(1) == ref.argmax(1)).all()


def test_an_empty_sample_folder_is_refused(tmp_path: Path) -> None:
    from vision.training.warmstart import WarmStartError, _sample_batch

    with pytest.raises(WarmStartError, match="no images"):
        _sample_batch(tmp_path, 64, square=True)
