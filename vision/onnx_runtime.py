"""The one place that imports onnxruntime: sessions tuned for this 2-core machine."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import numpy as np
import onnxruntime as ort

__all__ = ["OnnxModel", "ModelLoadError"]


class ModelLoadError(ValueError):
    """A model file that is missing or not a usable ONNX model."""


def _threads() -> int:
    return int(os.environ.get("MAHJONGERO_THREADS", "2"))


def _spinning() -> str:
    """``stop`` (default): a session's threads spin while it runs and stop when the run ends;
    ``off``: they sleep between the operators of a run too (benchmarks/bench_vision.py
    compares the two)."""
    spin = os.environ.get("MAHJONGERO_SPIN", "stop")
    if spin not in ("stop", "off"):
        raise ValueError(f"MAHJONGERO_SPIN={spin!r}: expected 'stop' or 'off'")
    return spin


class OnnxModel:
    """An ONNX model with one input; ``names`` comes from the ultralytics metadata."""

    def __init__(self, path: str | Path, threads: int | None = None) -> None:
        self.path = Path(path)
        if not self.path.is_file():
            raise ModelLoadError(f"{str(self.path)!r}: model file not found")
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads or _threads()
        opts.inter_op_num_threads = 1
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        # Each session has its own thread pool, whose threads by default spin for a while after
        # a run. The reader runs two or three sessions back to back (detector, classifier,
        # second look) on two cores: the detector's spinning threads took the cores from the
        # classifier's, and a 1080p frame read in 136-145 ms instead of 87-96 ms. So they spin
        # during a run (waking a sleeping thread for each of a network's ~200 operators costs
        # more) and are made to stop when it ends: the hand photo and the table in 0.70-0.95x
        # the time of never spinning, as until stop 30 (benchmarks/bench_vision.py, spinning_*).
        spin = _spinning()
        opts.add_session_config_entry("session.intra_op.allow_spinning", "1" if spin == "stop" else "0")
        opts.add_session_config_entry("session.force_spinning_stop", "1")
        # A model whose weights are stored in int8 (the flower look: store_int8_weights) turns
        # them back to float32 by DequantizeLinear nodes. Left for quantized kernels, they ran
        # at every call (one crop 2.5 ms against 1.5 in float32); with the quantization passes
        # off they are folded into float32 weights when the model loads. No model here computes
        # in int8, so the passes have nothing else to do.
        opts.add_session_config_entry("session.disable_quant_qdq", "1")
        try:
            self.session = ort.InferenceSession(
                str(self.path), sess_options=opts, providers=["CPUExecutionProvider"]
            )
        except Exception as exc:  # onnxruntime raises its own exception types
            raise ModelLoadError(f"{str(self.path)!r}: not a usable ONNX model ({exc})") from exc
        inp = self.session.get_inputs()[0]
        self.input_name: str = inp.name
        self.input_shape: list[int | str | None] = list(inp.shape)
        self.metadata: dict[str, str] = dict(self.session.get_modelmeta().custom_metadata_map)
        self.output_names: list[str] = [o.name for o in self.session.get_outputs()]

    @property
    def names(self) -> dict[int, str]:
        raw = self.metadata.get("names", "{}")
        return {int(k): str(v) for k, v in ast.literal_eval(raw).items()}

    def trained_size(self, default: int) -> int:
        """The input side the model was trained at (ultralytics metadata ``imgsz``), else
        ``default``: a dynamic-shape export does not say it in its input shape."""
        raw = self.metadata.get("imgsz", "").strip("[]() ")
        try:
            return max(int(v) for v in raw.split(","))
        except ValueError:
            return default

    def __call__(self, x: np.ndarray) -> np.ndarray:
        return self.run(x, self.output_names[:1])[0]

    def run(self, x: np.ndarray, names: list[str]) -> list[np.ndarray]:
        """The named outputs for input ``x``."""
        return list(self.session.run(names, {self.input_name: x}))
