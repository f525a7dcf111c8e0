"""Which way up a row of tiles is, from the classifier's pooled features.

The classifier learned tiles lying every way round, so its confidence barely changes when a
hand photographed from across the table has every crop upside down; its pooled features still
say which way up a crop is, one crop in four wrongly, and a hand's dozen crops outvote that
(``benchmarks/bench_way_up.py``). ``WayUp`` is a logistic probe on those features, fitted on
the real *training* photos by ``vision.training.way_up`` and tied to the classifier it read.
It judges each row of touching tiles on its own (``TileClassifier.one_picture``): a photo's
discards face every way, and a vote over all of its tiles turned two upright hands
(models/HISTORY.md, "Tried on 2026-11-27 (stop 31)").
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

__all__ = ["WayUp", "WayUpLoadError", "TURN_MARGIN"]

# A row is turned only when its crops read turned look more upright than as photographed by
# this much (mean logit). Out of fold over the 110 real training photos the upright ones that
# looked upside down (mean logit < 0) came out 1.9-6.4 *less* upright when turned, and the
# upside-down ones 1.9-23.7 more: 1 lies between, chosen before the validation photos were read.
# Judged row by row on the detector's boxes, out of fold, it turned none of the rows holding a
# labelled hand tile, and 99 of 111 such rows of the photos turned over (bench_way_up.py).
TURN_MARGIN = 1.0


class WayUpLoadError(ValueError):
    """A way-up probe file that is missing or malformed."""


class WayUp:
    """A logistic probe: crop features -> logit that the crop is as photographed (upright).

    >>> probe = WayUp(np.array([1.0, 0.0]), 0.0, np.zeros(2), np.ones(2), key="k")
    >>> probe.logits(np.array([[2.0, 5.0], [-1.0, 0.0]])).tolist()
    [2.0, -1.0]
    >>> probe.turned(np.array([[-1.0, 0.0]]), lambda: np.array([[1.5, 0.0]]))
    True
    >>> probe.turned(np.array([[1.0, 0.0]]), lambda: 1 / 0)  # upright: the turned read is never made
    False
    """

    def __init__(self, weights: np.ndarray, bias: float, mean: np.ndarray, scale: np.ndarray, key: str,
                 margin: float = TURN_MARGIN) -> None:
        self.weights = np.asarray(weights, np.float64)
        self.bias = float(bias)
        self.mean = np.asarray(mean, np.float64)
        self.scale = np.asarray(scale, np.float64)
        self.key = key  # the classifier whose features it reads (``TileClassifier.key``)
        self.margin = margin

    @classmethod
    def load(cls, path: str | Path) -> WayUp:
        try:
            with np.load(path) as f:
                return cls(f["weights"], float(f["bias"]), f["mean"], f["scale"], str(f["key"]))
        except (OSError, KeyError, ValueError) as exc:
            raise WayUpLoadError(f"{str(path)!r}: not a way-up probe ({exc})") from exc

    def save(self, path: str | Path) -> None:
        np.savez(path, weights=self.weights.astype(np.float32), bias=self.bias, mean=self.mean.astype(np.float32),
                 scale=self.scale.astype(np.float32), key=self.key)

    def logits(self, features: np.ndarray) -> np.ndarray:
        """(N,) per crop: above 0, the crop looks as photographed; below, turned half round."""
        return np.asarray(((np.asarray(features, np.float64) - self.mean) / self.scale) @ self.weights + self.bias)

    def turned(self, features: np.ndarray, turned_features: Callable[[], np.ndarray]) -> bool:
        """Whether a row whose crops have ``features`` is upside down. Only a row that looks
        upside down (mean logit below 0) has its crops read turned (``turned_features``, one
        more pass), and it is turned only when they look more upright by ``margin``: the
        crops' vote alone judged 6 of the 45 upright validation photos upside down."""
        if not len(features):
            return False
        first = float(self.logits(features).mean())
        if first >= 0:
            return False
        return float(self.logits(turned_features()).mean()) - first > self.margin
