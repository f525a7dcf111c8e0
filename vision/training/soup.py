"""Average exported networks weight by weight: a "model soup" (Wortsman et al., 2022).

Networks fine-tuned from one starting point lie in one basin of the loss, so their
weights can be averaged and the average often keeps what each learned: the start's
robustness (for us: the real photos) and the fine-tune's gains (the rendered scenes).
ultralytics exports a fused network (each BatchNorm folded into its convolution), so
averaging the ONNX initializers averages each convolution's whole affine map, and the
soup is an ONNX file of the same graph, ready to serve.

    python -m vision.training.soup soup.onnx v6.onnx:1 runs/e1.onnx:1 runs/e4.onnx:2

Each input is ``PATH`` or ``PATH:WEIGHT`` (weight 1 when left out); the weights are
normalised to sum to one.

Given ultralytics checkpoints (``.pt``, out too), the networks are averaged before their
BatchNorms are folded in (:func:`soup_checkpoints`): each convolution's weights and each
BatchNorm's scale, shift and running statistics apart, as the paper's WiSE-FT mixes a network
and its own fine-tune. Folding divides by the running variance, so the two ways differ
(stop 62: mixing the shipped classifier 0.6 with its fine-tune 0.4 by the ONNX files and by
the checkpoints named a different tile for 3 of 600 crops):

    python -m vision.training.soup runs/soup.pt runs/warm-cls-ship.pt:0.6 runs/gpu62/cls2-last.pt:0.4
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["SoupError", "parse_part", "soup", "soup_checkpoints", "mean_state"]


class SoupError(ValueError):
    """The networks cannot be averaged: different graphs, or a weight that is not positive."""


def parse_part(text: str) -> tuple[Path, float]:
    """``PATH`` or ``PATH:WEIGHT`` as a path and a positive weight.

    >>> parse_part("a.onnx:2")
    (PosixPath('a.onnx'), 2.0)
    >>> parse_part("runs/e4.onnx")
    (PosixPath('runs/e4.onnx'), 1.0)
    """
    path, sep, weight = text.rpartition(":")
    try:
        value = float(weight) if sep and path else None
    except ValueError:
        value = None
    if value is None:
        return Path(text), 1.0
    if not value > 0:
        raise SoupError(f"weight {weight!r} of {path!r} is not positive")
    return Path(path), value


def soup(parts: list[tuple[Path, float]], out: Path) -> Path:
    """Write to ``out`` the first network with every float initializer replaced by the
    weighted mean of that initializer across ``parts``; other initializers (shapes,
    indices) must be equal in all. Raises :class:`SoupError` naming the first file and
    tensor that do not match."""
    import onnx
    from onnx import numpy_helper

    if not parts:
        raise SoupError("no networks to average")
    weights = np.array([w for _, w in parts], dtype=np.float64)
    if (weights <= 0).any():
        raise SoupError(f"weights {weights.tolist()} must all be positive")
    weights /= weights.sum()
    models = [onnx.load(str(p)) for p, _ in parts]
    tables = [{t.name: numpy_helper.to_array(t) for t in m.graph.initializer} for m in models]
    base = models[0]
    for tensor in base.graph.initializer:
        arrays = [_same_tensor(table, tensor.name, path) for table, (path, _) in zip(tables, parts, strict=True)]
        mean = _mean(arrays, weights, tensor.name, parts)
        tensor.CopyFrom(numpy_helper.from_array(mean, tensor.name))
    out.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(base, str(out))
    return out


def mean_state(states: list[dict[str, Any]], weights: list[float]) -> dict[str, Any]:
    """The weighted mean of each floating tensor of ``states`` (weights normalised to sum to
    one); other tensors (BatchNorm's batch counters) as in the last state.

    >>> import torch
    >>> a, b = {"w": torch.tensor([0.0, 2.0]), "n": torch.tensor(1)}, {"w": torch.tensor([4.0, 2.0]), "n": torch.tensor(7)}
    >>> {k: v.tolist() for k, v in mean_state([a, b], [3, 1]).items()}
    {'w': [1.0, 2.0], 'n': 7}
    """
    if not states or any(not w > 0 for w in weights):
        raise SoupError(f"weights {weights!r} must all be positive")
    shares = np.asarray(weights, dtype=np.float64) / float(np.sum(weights))
    last = states[-1]
    for state in states[:-1]:
        if state.keys() != last.keys():
            odd = sorted(set(state) ^ set(last))[:3]
            raise SoupError(f"tensors {odd!r} are in one checkpoint only: not the same network")
    return {k: sum(float(w) * st[k] for w, st in zip(shares, states, strict=True))
            if last[k].is_floating_point() else last[k] for k in last}


def soup_checkpoints(parts: list[tuple[Path, float]], out: Path) -> Path:
    """Write to ``out`` the last checkpoint of ``parts`` with its network's weights (BatchNorms
    unfolded) the weighted mean of all the parts', stored in float16 as ``strip_optimizer``
    leaves a checkpoint; export it as any other."""
    import copy

    from vision.training.env import setup

    setup()  # a checkpoint unpickles ultralytics, which imports torchvision: shimmed on a CPU torch
    import torch

    checkpoints = [torch.load(p, weights_only=False) for p, _ in parts]
    nets = [c["model"].float() for c in checkpoints]
    mixed = copy.deepcopy(nets[-1])
    mixed.load_state_dict(mean_state([n.state_dict() for n in nets], [w for _, w in parts]))
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.save(dict(checkpoints[-1], model=mixed.half(), ema=None), out)
    return out


def _same_tensor(table: dict[str, np.ndarray], name: str, path: Path) -> np.ndarray:
    if name not in table:
        raise SoupError(f"{str(path)!r} has no tensor {name!r}: not the same network")
    return table[name]


def _mean(arrays: list[np.ndarray], weights: np.ndarray, name: str, parts: list[tuple[Path, float]]) -> np.ndarray:
    first = arrays[0]
    for array, (path, _) in zip(arrays[1:], parts[1:], strict=True):
        if array.shape != first.shape or array.dtype != first.dtype:
            raise SoupError(f"tensor {name!r} of {str(path)!r} is {array.dtype}{list(array.shape)}, "
                            f"not {first.dtype}{list(first.shape)}")
        if first.dtype.kind != "f" and not np.array_equal(array, first):
            raise SoupError(f"tensor {name!r} of {str(path)!r} differs and cannot be averaged")
    if first.dtype.kind != "f":
        return first
    total = sum(w * a.astype(np.float64) for w, a in zip(weights, arrays, strict=True))
    return np.asarray(total, dtype=first.dtype)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("parts", nargs="+", metavar="ONNX[:WEIGHT]", help="or .pt checkpoints, with OUT a .pt")
    args = ap.parse_args(argv)
    try:
        parts = [parse_part(p) for p in args.parts]
        print(soup_checkpoints(parts, args.out) if args.out.suffix == ".pt" else soup(parts, args.out))
    except (OSError, ValueError) as err:  # a missing file, or networks that are not one graph
        print(f"soup: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
