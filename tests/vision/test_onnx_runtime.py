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


def _entry(model: OnnxModel, key: str) -> str:
    return str(model.session.get_session_options().get_session_config_entry(key))


def test_sessions_spin_only_while_they_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two or three sessions run back to back on two cores: a session's threads may spin
    between its own operators but stop when its run ends, so the next session gets the
    cores; ``MAHJONGERO_SPIN=off`` never spins."""
    from vision.reader import CLASSIFIER_PATH

    model = OnnxModel(CLASSIFIER_PATH)
    assert _entry(model, "session.intra_op.allow_spinning") == "1"
    assert _entry(model, "session.force_spinning_stop") == "1"
    monkeypatch.setenv("MAHJONGERO_SPIN", "off")
    assert _entry(OnnxModel(CLASSIFIER_PATH), "session.intra_op.allow_spinning") == "0"
    monkeypatch.setenv("MAHJONGERO_SPIN", "sometimes")
    with pytest.raises(ValueError, match="sometimes"):
        OnnxModel(CLASSIFIER_PATH)


def test_int8_weights_are_turned_to_float32_when_the_model_loads() -> None:
    """The flower look stores its weights in int8 (``store_int8_weights``): with onnxruntime's
    quantization passes off, its DequantizeLinear nodes are folded at load, not run per call."""
    from vision.reader import FLOWER_LOOK_PATH

    assert _entry(OnnxModel(FLOWER_LOOK_PATH), "session.disable_quant_qdq") == "1"
