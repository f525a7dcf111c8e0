"""The onnxruntime adapter refuses missing and broken model files with a clear error."""

from __future__ import annotations

from pathlib import Path

import pytest

from vision.onnx_runtime import ModelLoadError, OnnxModel


def test_missing_model(tmp_path: Path) -> None:
    with pytest.raises(ModelLoadError, match="not found"):
        OnnxModel(tmp_path / "nope.onnx")


def test_garbage_model(tmp_path: Path) -> None:
    p = tmp_path / "bad.onnx"
    p.write_bytes(b"\x00garbage")
    with pytest.raises(ModelLoadError, match="bad.onnx"):
        OnnxModel(p)


def test_sessions_do_not_spin() -> None:
    """Two sessions run back to back on two cores: idle threads must sleep, not spin."""
    from vision.reader import CLASSIFIER_PATH

    model = OnnxModel(CLASSIFIER_PATH)
    assert model.session.get_session_options().get_session_config_entry("session.intra_op.allow_spinning") == "0"
