"""TileReader: photo -> every tile with its box, face and code.

Detection runs on a downscaled letterboxed frame; each face-up tile is then named by
the classifier from a crop of the full-resolution frame. Face-down tiles are ``Tile.BACK``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from engine.tiles import Tile
from vision.classifier import TileClassifier, crop_boxes
from vision.detections import Detections
from vision.detector import TileDetector

__all__ = ["TileReader", "MODELS_DIR", "DETECTOR_PATH", "CLASSIFIER_PATH"]

MODELS_DIR = Path(__file__).resolve().parents[1] / "models"
DETECTOR_PATH = MODELS_DIR / "detector.onnx"
CLASSIFIER_PATH = MODELS_DIR / "classifier.onnx"


class TileReader:
    """Both models together; call with a BGR image."""

    def __init__(
        self,
        detector: TileDetector | None = None,
        classifier: TileClassifier | None = None,
    ) -> None:
        self.detector = detector or TileDetector(DETECTOR_PATH)
        self.classifier = classifier or TileClassifier(CLASSIFIER_PATH)

    def classify(self, image: np.ndarray, dets: Detections) -> Detections:
        """Name the face-up tiles of ``dets`` from crops of ``image``."""
        code = np.full(len(dets), int(Tile.BACK), dtype=np.int64)
        prob = np.ones(len(dets), dtype=np.float32)
        up = np.flatnonzero(dets.face_up)
        if len(up):
            c, p = self.classifier(crop_boxes(image, dets.xyxy[up]))
            code[up], prob[up] = c, p
        return dets.with_codes(code, prob)

    def __call__(self, image: np.ndarray) -> Detections:
        return self.classify(image, self.detector(image))
