"""Completing partly labelled photos: the tiles a photo leaves unboxed get the teacher's boxes."""

from __future__ import annotations

import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.detections import box_iou
from vision.detector import TileDetector
from vision.evaluation import read_yolo_labels
from vision.reader import CLASSIFIER_PATH, DETECTOR_PATH
from vision.training.pseudo_labels import CONF, complete_labels, grey_out

DATA = Path(__file__).parents[2] / "data" / "vision"
pytestmark = pytest.mark.skipif(not DETECTOR_PATH.is_file(), reason="shipped models absent")


def _labelled_photo(tmp_path: Path, name: str, cls: str) -> tuple[Path, np.ndarray, np.ndarray]:
    """A real-photo folder holding one rendered photo whose labels keep only its boxes of
    class ``cls`` (a row), as the real photos box only their hand row; returns the folder,
    the kept boxes and the dropped ones (pixels)."""
    image = cv2.imread(str(DATA / "images" / f"{name}.jpg"))
    lines = (DATA / "labels" / f"{name}.txt").read_text().splitlines()
    (tmp_path / "images").mkdir(parents=True)
    (tmp_path / "labels").mkdir()
    shutil.copy(DATA / "images" / f"{name}.jpg", tmp_path / "images")
    kept = [ln for ln in lines if ln.split()[0] == cls]
    (tmp_path / "labels" / f"{name}.txt").write_text("\n".join(kept) + "\n")
    dropped = [ln for ln in lines if ln not in kept]
    (tmp_path / "dropped.txt").write_text("\n".join(dropped) + "\n")
    h, w = image.shape[:2]
    return (tmp_path, read_yolo_labels(tmp_path / "labels" / f"{name}.txt", w, h)[0],
            read_yolo_labels(tmp_path / "dropped.txt", w, h)[0])


def test_grey_out_paints_the_boxes_and_their_margin_only() -> None:
    img = np.zeros((20, 20, 3), np.uint8)
    out = grey_out(img, np.array([[5, 5, 15, 15.]]), margin=0.2)
    assert (out[3:17, 3:17] == 114).all()
    assert (out[:2] == 0).all() and (out[18:] == 0).all()
    assert (img == 0).all()  # the photo itself is left as it was


def test_the_unlabelled_tiles_of_a_photo_are_boxed_and_the_labelled_ones_kept(tmp_path: Path) -> None:
    from vision.classifier import TileClassifier

    # the photo's row of standing backs is labelled; the meld and the other tiles above it not
    real, kept, dropped = _labelled_photo(tmp_path / "real", "hand_7_0", "1")
    out = tmp_path / "completed"
    photos, added = complete_labels(real, ["hand_7_0.jpg"], out, TileDetector(DETECTOR_PATH, imgsz=640, conf=CONF),
                                    TileClassifier(CLASSIFIER_PATH))
    boxes, face_up = read_yolo_labels(out / "hand_7_0.txt", 640, 480)
    assert photos == 1 and len(boxes) == len(kept) + added
    np.testing.assert_allclose(boxes[: len(kept)], kept, atol=0.5)  # the photo's own labels come first, unchanged
    new = boxes[len(kept):]
    assert len(new) and (box_iou(new, kept).max(1) < 0.3).all()  # nothing boxed twice
    assert len(dropped) >= 5 and (box_iou(dropped, new).max(1) >= 0.5).all()  # every unlabelled tile boxed
    assert (box_iou(new, dropped).max(1) >= 0.5).all()  # and nothing else
    assert face_up[len(kept):].all()  # face up, as the classifier names them


def test_the_training_set_links_each_photo_with_its_completed_labels(tmp_path: Path) -> None:
    from vision.training.datasets import link_real

    real, _, _ = _labelled_photo(tmp_path / "real", "hand_7_0", "1")
    completed = tmp_path / "completed"
    completed.mkdir()
    (completed / "hand_7_0.txt").write_text("0 0.5 0.5 0.1 0.1\n")
    assert link_real(real, ["hand_7_0.jpg"], tmp_path / "own", repeats=2) == 2
    assert link_real(real, ["hand_7_0.jpg"], tmp_path / "done", repeats=2, labels=completed) == 2
    own = (real / "labels" / "hand_7_0.txt").read_text()
    assert (tmp_path / "own" / "labels" / "r1_hand_7_0.txt").read_text() == own
    assert (tmp_path / "done" / "labels" / "r1_hand_7_0.txt").read_text() == "0 0.5 0.5 0.1 0.1\n"
    assert (tmp_path / "done" / "images" / "r0_hand_7_0.jpg").resolve() == (real / "images" / "hand_7_0.jpg").resolve()
