"""Calibration: guide rows, prototypes that survive a save, and the classifier-embedding path."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from engine.tiles import Tile
from vision.calibrate import CalibrationError, PrototypeClassifier, calibrate, guide_rows, load_set
from vision.classifier import crop_boxes
from vision.scripted import guide_photo, labels_to_detections


def colour_embed(crops):  # noqa: ANN001, ANN201 - a stand-in for the classifier's probabilities
    out = []
    for c in crops:
        h = cv2.calcHist([cv2.resize(c, (32, 32))], [0, 1, 2], None, [4, 4, 4], [0, 256] * 3).ravel() + 1
        out.append(h / h.sum())
    return np.array(out)


@pytest.mark.parametrize("variant,sizes", [("filipino", [9, 9, 9, 7, 8]), ("singapore", [9, 9, 9, 7, 8, 4])])
def test_guide_rows_cover_the_set_once(variant: str, sizes: list[int]) -> None:
    rows = guide_rows(variant)
    flat = [t for r in rows for t in r]
    assert [len(r) for r in rows] == sizes and len(set(flat)) == len(flat) and Tile.BACK not in flat


def test_unknown_variant() -> None:
    with pytest.raises(CalibrationError, match="'klingon'"):
        guide_rows("klingon")


def test_prototypes_with_embeddings_survive_a_save(tmp_path, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    image, labels = guide_photo("singapore", style=901, size=(1200, 900))
    d = labels_to_detections(labels)
    tileset = calibrate(image, "singapore", "mine", lambda im: d, embed=colour_embed)
    tileset.save()
    again = load_set("mine")
    assert again.embeddings is not None and again.embeddings.shape == tileset.embeddings.shape
    pick = np.arange(0, len(d), 4)  # a spread of tile kinds (matching is slow-ish)
    crops = crop_boxes(image, d.xyxy[pick])
    codes, _ = PrototypeClassifier(again, embed=colour_embed)(crops)
    assert codes.tolist() == PrototypeClassifier(tileset, embed=colour_embed)(crops)[0].tolist()
    assert (codes == d.code[pick]).mean() > 0.9  # the guide's own tiles come back named right
    faces_only, _ = PrototypeClassifier(again)(crops)
    assert faces_only.tolist() == d.code[pick].tolist()


def test_classifier_prior_plus_set_prototypes() -> None:
    image, labels = guide_photo("singapore", style=555, size=(1200, 900))
    d = labels_to_detections(labels)
    tileset = calibrate(image, "singapore", "mine", lambda im: d, embed=colour_embed)
    assert tileset.embed_codes is not None and len(tileset.embed_codes) == len(d) * (4 + 8)  # posed views
    prior_codes = np.arange(64)  # colour_embed's 64 bins stand in for the classifier's 64 classes
    clf = PrototypeClassifier(tileset, embed=colour_embed, embed_codes=prior_codes)
    codes, conf = clf(crop_boxes(image, d.xyxy))
    assert set(codes.tolist()) <= set(tileset.codes.tolist()) and ((conf > 0) & (conf <= 1)).all()
    assert clf(crop_boxes(image, d.xyxy[:0]))[0].shape == (0,)
    other = PrototypeClassifier(tileset, embed=colour_embed, embed_codes=np.arange(80))  # another classifier
    assert other._centroids is None  # its embeddings mean nothing there: faces are used instead
