"""Evaluation: matching, labels, mAP and hands on hand-made cases."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from engine.tiles import Tile
from vision.detections import Detections
from vision.evaluation import GroundTruth, Scores, load_codes_csv, match, read_yolo_labels


def test_match_is_one_to_one() -> None:
    gt = np.array([[0, 0, 10, 10], [11, 0, 21, 10.0]])
    pred = np.array([[0, 0, 10, 10.0]])
    assert match(gt, pred).tolist() == [0, -1]
    assert match(gt, np.zeros((0, 4))).tolist() == [-1, -1]


def test_yolo_labels_to_pixels(tmp_path: Path) -> None:
    p = tmp_path / "a.txt"
    p.write_text("0 0.5 0.5 0.2 0.4\n1 0.1 0.1 0.2 0.2\n")
    xyxy, up = read_yolo_labels(p, 100, 50)
    assert xyxy.round(1).tolist() == [[40, 15, 60, 35], [0, 0, 20, 10]]
    assert up.tolist() == [True, False]
    assert len(read_yolo_labels(tmp_path / "missing.txt", 10, 10)[0]) == 0


def test_scores_perfect_and_imperfect() -> None:
    gt = GroundTruth(
        Path("x.jpg"),
        np.array([[0, 0, 10, 10], [20, 0, 30, 10.0]], np.float32),
        np.array([True, True]),
        np.array([4, 5]),
    )
    perfect = Detections(gt.xyxy, np.array([0.9, 0.8]), gt.face_up).with_codes(gt.code, np.ones(2))
    s = Scores()
    s.add(gt, perfect, crop_codes=gt.code)
    out = s.summary()
    assert out["recall@0.5"] == 1.0 and out["mAP50"] > 0.99
    assert out["tile_accuracy_end_to_end"] == 1.0 and out["hands_read_right"] == 1.0
    wrong = perfect.with_codes(np.array([4, 6]), np.ones(2))
    s2 = Scores()
    s2.add(gt, wrong[:1], crop_codes=np.array([4, 6]))
    out2 = s2.summary()
    assert out2["recall@0.5"] == 0.5 and out2["hands_read_right"] == 0.0
    assert out2["tile_accuracy_on_gt_boxes"] == 0.5
    assert s.wrong_hands == [] and s2.wrong_hands == [("x.jpg", [(5, -1)])]  # the 6m missed
    s3 = Scores()
    s3.add(gt, wrong, crop_codes=gt.code)
    assert s3.wrong_hands == [("x.jpg", [(5, 6)])]  # the 6m read as 7m


def test_codes_csv(tmp_path: Path) -> None:
    p = tmp_path / "c.csv"
    p.write_text("image,x1,y1,x2,y2,code\na.jpg,0,0,10,10,5m\na.jpg,20,0,30,10,7z\n")
    got = load_codes_csv(p)
    assert [c for _, c in got["a.jpg"]] == [4, 33]


def test_committed_real_labels_are_valid() -> None:
    csv = Path(__file__).resolve().parents[1] / "data" / "real_tiles.csv"
    got = load_codes_csv(csv)
    assert sum(len(v) for v in got.values()) >= 300
    assert len(got) >= 40


def test_accuracy_by_tile_size_leaves_out_backs() -> None:
    gt = GroundTruth(
        Path("x.jpg"),
        np.array([[0, 0, 15, 20], [20, 0, 60, 50], [70, 0, 110, 50], [120, 0, 160, 50]], np.float32),
        np.array([True, True, True, False]),
        np.array([4, 5, 6, int(Tile.BACK)]),
    )
    s = Scores()
    s.add(gt, Detections.empty(), crop_codes=np.array([4, 5, 7, int(Tile.BACK)]))
    out = s.summary()
    assert out["face_up_on_gt_boxes_under20px"] == 1.0 and out["face_up_tiles_under20px"] == 1
    assert out["face_up_on_gt_boxes_30-45px"] == 0.5 and out["face_up_tiles_30-45px"] == 2
    assert "face_up_tiles_70px+" not in out
