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
