"""Warm-start training from a shipped ONNX model: turn its weights back into a ``.pt``.

Only the ONNX files are committed (``models/``), so without this a new training run
would start from random weights and throw away every hour already spent. ultralytics
exports a *fused* network (each BatchNorm folded into its convolution, which gains a
bias); we load those weights into a fresh model built from the architecture yaml and
give each BatchNorm the identity statistics (mean 0, variance 1, scale √(1+eps)) with
the folded bias as its shift, so the unfused network computes exactly what the ONNX did.
In training BatchNorm normalises by the batch's statistics, not those, so we then run a
few sample images through the network, record the mean and variance of every
convolution's output, and fold them into each BatchNorm (scale √(var+eps), shift
bias + mean): the network computes the same function in training mode too, and the
fine-tune starts where the shipped model stopped.

    python -m vision.training.warmstart models/classifier.onnx runs/warm-cls.pt \\
        --samples datasets/generated/crops-v3/train

The ``.pt`` is then given as ``--model`` to ``mahjongero train``.
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path
from typing import Any

import numpy as np

from vision.training.env import setup

__all__ = ["onnx_weights", "warm_model", "WarmStartError"]

_ARCH = {"detect": "yolo11n.yaml", "classify": "yolo11n-cls.yaml"}


class WarmStartError(ValueError):
    """The ONNX file does not fit the architecture it claims (a weight left unmatched)."""


def onnx_weights(path: Path) -> tuple[dict[str, np.ndarray], dict[str, str]]:
    """Named initializers and ultralytics metadata of an exported model; weights stored in
    half or int8 (``vision.training.train.store_half_weights``, ``store_int8_weights``) come
    back as float32 under the name their ``Cast`` or ``DequantizeLinear`` gives them."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    weights = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    for node in model.graph.node:
        if node.op_type == "Cast" and node.input[0] in weights:
            weights[node.output[0]] = weights.pop(node.input[0]).astype(np.float32)
        elif node.op_type == "DequantizeLinear" and node.input[0] in weights:
            steps = weights.pop(node.input[1])
            shape = (-1,) + (1,) * (weights[node.input[0]].ndim - 1)  # one step per output channel
            weights.pop(node.input[2], None)  # zero points: always 0 here
            weights[node.output[0]] = weights.pop(node.input[0]).astype(np.float32) * steps.reshape(shape)
    meta = {p.key: p.value for p in model.metadata_props}
    return weights, meta


def _load_into(model: Any, weights: dict[str, np.ndarray]) -> None:
    """Copy fused weights into an unfused torch model (every weight must be found)."""
    import torch

    state = model.state_dict()
    new: dict[str, Any] = {}
    for name, value in weights.items():
        tensor = torch.from_numpy(np.array(value))
        if name in state and "bn." not in name and state[name].shape == tensor.shape:
            new[name] = tensor
        elif name.endswith(".conv.bias") and name.replace(".conv.bias", ".bn.bias") in state:
            prefix = name[: -len(".conv.bias")]
            eps = float(model.get_submodule(f"{prefix}.bn").eps)
            new[f"{prefix}.bn.bias"] = tensor
            new[f"{prefix}.bn.weight"] = torch.full_like(tensor, float(np.sqrt(1.0 + eps)))
            new[f"{prefix}.bn.running_mean"] = torch.zeros_like(tensor)
            new[f"{prefix}.bn.running_var"] = torch.ones_like(tensor)
    unset = [k for k in state if k not in new and not k.endswith("num_batches_tracked")]
    if unset:
        raise WarmStartError(f"weights the ONNX file lacks: {unset[:5]!r} ({len(unset)} in all)")
    model.load_state_dict(new, strict=False)


def _sample_batch(folder: Path, size: int, square: bool, n: int = 96) -> Any:
    """``n`` images of ``folder`` as a network input batch (RGB, 0-1, NCHW)."""
    import cv2
    import torch

    files = sorted(p for p in folder.rglob("*") if p.suffix.lower() in {".png", ".jpg", ".jpeg"})
    if not files:
        raise WarmStartError(f"no images under {str(folder)!r}")
    pick = np.random.default_rng(0).choice(len(files), min(n, len(files)), replace=False)
    batch = []
    for k in sorted(pick):
        im = cv2.imread(str(files[k]), cv2.IMREAD_COLOR)
        if im is None:
            continue
        if square:
            im = cv2.resize(im, (size, size), interpolation=cv2.INTER_AREA)
        else:
            from vision.detector import letterbox

            im = letterbox(im, size)[0]
            pad = np.full((size, size, 3), 114, np.uint8)
            pad[: im.shape[0], : im.shape[1]] = im
            im = pad
        batch.append(im[:, :, ::-1].transpose(2, 0, 1).astype(np.float32) / 255.0)
    return torch.from_numpy(np.stack(batch))


def _fold_batch_stats(model: Any, batch: Any) -> None:
    """Give every BatchNorm the statistics of its input on ``batch`` (see the module doc)."""
    import torch

    stats: dict[Any, tuple[Any, Any]] = {}

    def record(module: Any, _inp: Any, out: Any) -> None:
        stats[module] = (out.mean((0, 2, 3)), out.var((0, 2, 3), unbiased=False))

    bns: list[Any] = [m for m in model.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    hooks = [bn.register_forward_hook(lambda m, i, o: record(m, i, i[0])) for bn in bns]
    model.eval()
    with torch.no_grad():
        model(batch)
    for h in hooks:
        h.remove()
    with torch.no_grad():
        for bn in bns:
            if bn not in stats:
                continue
            mean, var = stats[bn]
            shift = bn.bias - bn.weight * bn.running_mean / torch.sqrt(bn.running_var + bn.eps)
            bn.running_mean.copy_(mean)
            bn.running_var.copy_(var)
            bn.weight.copy_(torch.sqrt(var + bn.eps))
            bn.bias.copy_(shift + mean)


def warm_model(onnx_path: Path, out: Path, samples: Path | None = None) -> Path:
    """Write ``out`` (an ultralytics checkpoint) holding the ONNX model's weights, unfused.

    With ``samples`` (a folder of training images) the BatchNorm layers get those images'
    statistics, so the network also matches in training mode."""
    setup()
    from ultralytics import YOLO  # type: ignore[attr-defined]

    weights, meta = onnx_weights(onnx_path)
    names = {int(k): str(v) for k, v in ast.literal_eval(meta["names"]).items()}
    from ultralytics.nn import tasks

    tasks_: Any = tasks  # untyped library
    yolo: Any = YOLO(_ARCH[meta["task"]], task=meta["task"])
    net: Any = yolo.model
    if meta["task"] == "classify":
        tasks_.ClassificationModel.reshape_outputs(net, len(names))
    else:
        net = tasks_.DetectionModel("yolo11n.yaml", nc=len(names), verbose=False)
        yolo.model = net
    net.names = names
    net.nc = len(names)
    _load_into(net, weights)
    if samples is not None:
        size = max(int(v) for v in meta.get("imgsz", "[640]").strip("[]").split(","))
        _fold_batch_stats(net, _sample_batch(samples, size, meta["task"] == "classify"))
    out.parent.mkdir(parents=True, exist_ok=True)
    yolo.save(str(out))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("onnx", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--samples", type=Path, default=None, help="training images for BN statistics")
    args = ap.parse_args(argv)
    print(warm_model(args.onnx, args.out, args.samples))
    return 0


if __name__ == "__main__":
    sys.exit(main())
