"""Make ``import torchvision`` work on a CPU-only torch whose torchvision wheel needs CUDA.

PyPI's torchvision 0.28.0 is built against CUDA torch: its ``_C.so`` needs
``libtorch_cuda.so``, so on the CPU build of torch 2.13.0 ``import torchvision``
dies with ``operator torchvision::nms does not exist``. ultralytics imports
torchvision for training, validation and prediction.

:func:`install` registers the ``torchvision::nms`` and ``torchvision::qnms`` operator
schemas with :mod:`torch.library`, backed by a plain-torch NMS, and only when
torchvision's own ``_C.so`` cannot be loaded, so a normal machine is untouched.
Call it before anything imports torchvision (the training entry points do).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import torch

__all__ = ["install", "nms_reference", "installed"]

_LIB: torch.library.Library | None = None


def nms_reference(boxes: torch.Tensor, scores: torch.Tensor, iou_threshold: float) -> torch.Tensor:
    """Greedy NMS in plain torch, same contract as ``torchvision.ops.nms``.

    Returns the kept indices (int64) sorted by decreasing score.

    >>> b = torch.tensor([[0, 0, 10, 10], [1, 1, 11, 11], [20, 20, 30, 30]], dtype=torch.float32)
    >>> nms_reference(b, torch.tensor([0.9, 0.8, 0.7]), 0.5).tolist()
    [0, 2]
    """
    if boxes.numel() == 0:
        return torch.empty(0, dtype=torch.int64, device=boxes.device)
    order = scores.argsort(descending=True)
    b = boxes[order].float()
    x1, y1, x2, y2 = b.unbind(1)
    area = (x2 - x1).clamp(min=0) * (y2 - y1).clamp(min=0)
    ix1 = torch.maximum(x1[:, None], x1[None, :])
    iy1 = torch.maximum(y1[:, None], y1[None, :])
    ix2 = torch.minimum(x2[:, None], x2[None, :])
    iy2 = torch.minimum(y2[:, None], y2[None, :])
    inter = (ix2 - ix1).clamp(min=0) * (iy2 - iy1).clamp(min=0)
    iou = inter / (area[:, None] + area[None, :] - inter).clamp(min=1e-9)
    n = b.shape[0]
    suppressed = torch.zeros(n, dtype=torch.bool)
    over = (iou > iou_threshold).cpu()
    keep: list[int] = []
    for i in range(n):
        if suppressed[i]:
            continue
        keep.append(i)
        suppressed |= over[i]
    return order[torch.tensor(keep, dtype=torch.int64, device=order.device)]


def _torchvision_c_loads() -> bool:
    """True when torchvision is absent or its compiled ops load (nothing to fix)."""
    spec = importlib.util.find_spec("torchvision")
    if spec is None or spec.origin is None:
        return True
    libs = sorted(Path(spec.origin).parent.glob("_C*.so")) + sorted(
        Path(spec.origin).parent.glob("_C*.pyd")
    )
    if not libs:
        return False
    try:
        torch.ops.load_library(str(libs[0]))  # type: ignore[no-untyped-call]
    except (OSError, RuntimeError):
        return False
    return True


def installed() -> bool:
    """Whether this process runs on the shim's NMS."""
    return _LIB is not None


def install() -> bool:
    """Register the NMS operators if torchvision cannot; returns True if it did.

    Idempotent. After registration, imports torchvision and marks its ops as present
    so ``torchvision.ops.nms`` dispatches to the plain-torch kernel.
    """
    global _LIB
    if _LIB is not None:
        return True
    if _torchvision_c_loads():
        return False
    lib = torch.library.Library("torchvision", "DEF")  # type: ignore[no-untyped-call]  # kept alive in _LIB
    for name in ("nms", "qnms"):
        lib.define(f"{name}(Tensor dets, Tensor scores, float iou_threshold) -> Tensor")  # type: ignore[no-untyped-call]
        lib.impl(name, nms_reference, "CPU")  # type: ignore[no-untyped-call]
    _LIB = lib
    import torchvision.extension

    torchvision.extension._has_ops = lambda: True
    return True
