"""Evaluation: matching, labels, mAP and hands on hand-made cases."""

from __future__ import annotations

import json
import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.tiles import Tile
from vision.detections import Detections
from vision.evaluation import (
    GroundTruth,
    Scores,
    iter_dataset,
    load_codes_csv,
    load_off_hand,
    match,
    read_yolo_labels,
)


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
    assert out["AP50_face_up"] > 0.99 and "AP50_back" not in out  # no back in the labels
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


def test_map50_is_the_mean_of_the_two_classes_ap() -> None:
    gt = GroundTruth(
        Path("x.jpg"),
        np.array([[0, 0, 10, 10], [20, 0, 30, 10], [40, 0, 50, 10.0]], np.float32),
        np.array([True, False, False]),
        np.array([4, int(Tile.BACK), int(Tile.BACK)]),
    )
    # the face found; one back found, the other boxed far from where it lies
    boxes = np.array([[0, 0, 10, 10], [20, 0, 30, 10], [60, 0, 70, 10.0]], np.float32)
    s = Scores()
    s.add(gt, Detections(boxes, np.array([0.9, 0.8, 0.7]), gt.face_up), crop_codes=gt.code)
    out = s.summary()
    assert out["AP50_face_up"] == 1.0
    assert out["AP50_back"] < 0.6  # half the backs found, at the top of the ranking
    assert out["mAP50"] == round((out["AP50_face_up"] + out["AP50_back"]) / 2, 4)


def test_map50_down_to_the_floor_counts_the_tiles_found_under_the_served_confidence() -> None:
    gt = GroundTruth(Path("x.jpg"), np.array([[0, 0, 10, 10], [20, 0, 30, 10.0]], np.float32),
                     np.array([True, True]), np.array([4, 5]))
    served = Detections(gt.xyxy[:1], np.array([0.9]), gt.face_up[:1])
    # the same pass kept down to the floor: the second tile, found at 0.05, and a box on nothing
    floored = Detections(np.array([[0, 0, 10, 10], [20, 0, 30, 10], [60, 0, 70, 10.0]], np.float32),
                         np.array([0.9, 0.05, 0.01]), np.array([True, True, True]))
    s = Scores()
    s.add(gt, served, floored=floored)
    out = s.summary()
    assert s.gt_per_class == {0: 2, 1: 0}  # the truth counted once for both
    assert out["mAP50"] < 0.6 and out["recall@0.5"] == 0.5
    assert out["mAP50_down_to_0.001"] == out["AP50_face_up_down_to_0.001"] == 1.0  # both found before the stray box
    assert "mAP50_down_to_0.001" not in Scores().summary()


def test_codes_csv(tmp_path: Path) -> None:
    p = tmp_path / "c.csv"
    p.write_text("image,x1,y1,x2,y2,code\na.jpg,0,0,10,10,5m\na.jpg,20,0,30,10,7z\n")
    got = load_codes_csv(p)
    assert [c for _, c in got["a.jpg"]] == [4, 33]


def test_a_tile_off_the_hand_counts_for_tiles_not_for_the_hand() -> None:
    gt = GroundTruth(
        Path("x.jpg"),
        np.array([[0, 0, 10, 10], [20, 0, 30, 10], [0, 50, 10, 60.0]], np.float32),
        np.array([True, True, True]),
        np.array([4, 5, 33]),
        np.array([True, True, False]),  # the third: a discard the labels box too
    )
    det = Detections(gt.xyxy, np.ones(3), gt.face_up).with_codes(np.array([4, 5, 31]), np.ones(3))
    s = Scores()
    s.add(gt, det, crop_codes=np.array([4, 5, 31]))
    out = s.summary()
    assert out["hands_read_right"] == 1.0 and out["photos_every_labelled_tile_right"] == 0.0
    assert out["tile_accuracy_end_to_end"] == round(2 / 3, 4) and s.wrong_hands == []
    s.add(gt, det[:1], crop_codes=np.array([4, 5, 31]))  # the hand's 6m missed
    assert s.wrong_hands == [("x.jpg", [(5, -1)])] and s.summary()["hands_read_right"] == 0.5


def test_off_hand_marks_from_the_csv(tmp_path: Path) -> None:
    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    cv2.imwrite(str(tmp_path / "images" / "a.png"), np.zeros((100, 100, 3), np.uint8))
    (tmp_path / "labels" / "a.txt").write_text("0 0.05 0.05 0.1 0.1\n0 0.55 0.55 0.1 0.1\n")
    p = tmp_path / "c.csv"
    p.write_text("image,x1,y1,x2,y2,code,in_hand\na.png,0,0,10,10,5m,1\na.png,50,50,60,60,7z,0\n")
    assert [b.tolist() for b in load_off_hand(p)["a.png"]] == [[50, 50, 60, 60]]
    (gt,) = iter_dataset(tmp_path, codes_csv=p)
    assert gt.hand().tolist() == [True, False] and gt.code.tolist() == [4, 33]
    p.write_text("image,x1,y1,x2,y2,code,in_hand\na.png,0,0,10,10,5m,yes\n")
    with pytest.raises(ValueError, match="'yes'"):
        load_off_hand(p)
    p.write_text("image,x1,y1,x2,y2,code\na.png,0,0,10,10,5m\n")  # no column: all the hand's
    assert load_off_hand(p) == {} and next(iter_dataset(tmp_path, codes_csv=p)).hand().all()


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


def test_hands_interval_draws_whole_sources() -> None:
    right = [(f"s{k}.rf.{c}.jpg", True) for k in range(5) for c in range(3)]
    assert Scores(hand_results=right).hands_interval() == (1.0, 1.0)
    one = Scores(hand_results=[("a.rf.1.jpg", True), ("a.rf.2.jpg", False)])
    assert all(np.isnan(one.hands_interval()))
    # one source of three copies all wrong among nine right ones: every draw moves the three
    # together, so a share is always a multiple of 3 / (3 * sources) = 1/10
    mixed = Scores(hand_results=[*right, *[(f"s{k}.rf.{c}.jpg", True) for k in range(5, 9) for c in range(3)],
                                 *[(f"bad.rf.{c}.jpg", False) for c in range(3)]])
    lo, hi = mixed.hands_interval()
    assert 0.6 <= lo < 0.9 < hi == 1.0 and round(lo * 10, 6) == round(lo * 10)
    s = Scores()
    assert {"hands_from_sources", "hands_read_right_95%_low", "hands_read_right_95%_high"} <= set(s.summary())


def _crops_tree(root: Path, codes: list[str]) -> Path:
    """``root/<code>/k.png``: one small flat crop per code, its colour its position."""
    for k, code in enumerate(codes):
        (root / code).mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(root / code / f"{k}.png"), np.full((30, 22, 3), 40 * k, np.uint8))
    return root


def test_crops_accuracy_tallies_every_crop_by_kind(tmp_path: Path) -> None:
    from vision.evaluation import crops_accuracy

    root = _crops_tree(tmp_path, ["1m", "2m", "3f", "1x"])
    said = {0: Tile.M1, 40: Tile.M3, 80: Tile.FLOWER3, 120: Tile.FLOWER1}  # by the crop's grey level

    def classify(crops: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        codes = np.array([int(said[int(c[0, 0, 0])]) for c in crops])
        return codes, np.ones(len(crops))

    score = crops_accuracy(classify, root, batch=3)  # two batches
    assert [(p.parent.name, Tile(t), Tile(s)) for p, t, s in score.misread] == [
        ("1x", Tile.BACK, Tile.FLOWER1), ("2m", Tile.M2, Tile.M3)]
    summary = score.summary()
    assert summary["crops"] == 4 and summary["accuracy"] == 0.5
    assert summary["by_kind"] == {"backs": "0.000 of 1", "characters": "0.500 of 2",
                                  "flowers and seasons": "1.000 of 1"}
    assert summary["top_confusions"] == {"1x->1f": 1, "2m->3m": 1}


def test_crops_sheet_draws_each_crop_in_a_captioned_cell(tmp_path: Path) -> None:
    from vision.evaluation import crops_sheet

    root = _crops_tree(tmp_path / "crops", ["1m", "2m", "3m"])
    items = [(root / "1m" / "0.png", int(Tile.M1), int(Tile.M1)), (root / "2m" / "1.png", int(Tile.M2), int(Tile.M5)),
             (root / "3m" / "2.png", int(Tile.M3), int(Tile.M3))]
    sheet = cv2.imread(str(crops_sheet(items, tmp_path / "out" / "s.png", side=64, per_row=2)))
    assert sheet.shape == (2 * (64 + 20), 2 * 64, 3)  # three cells and a blank one, two a row
    assert (sheet[:64, 64 + 50 : 128] == 255).all()  # the 22-px-wide crop scaled to 64 high leaves white beside it
    assert sheet[10, 64 + 10].tolist() == [40, 40, 40]  # the second crop, in the first row's second cell
    with pytest.raises(ValueError, match="no crops"):
        crops_sheet([], tmp_path / "empty.png")


def test_eval_crops_prints_accuracy_and_draws_the_misread(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from mahjongero.cli import main

    root = _crops_tree(tmp_path / "crops", ["1m", "9p", "7z"])  # flat grey: the classifier misreads some
    assert main(["eval", "--crops", str(root), "--confusions", "--sheets", str(tmp_path / "sheets")]) == 0
    out = capsys.readouterr().out
    summary = json.loads(out[: out.rindex("}") + 1])
    assert summary["crops"] == 3 and set(summary["by_kind"]) <= {"characters", "dots", "winds and dragons"}
    misread = 3 - round(summary["accuracy"] * 3)
    assert out.count(" read as ") == misread
    assert len(list((tmp_path / "sheets").glob("misread-*.png"))) == (1 if misread else 0)



@pytest.mark.parametrize(("args", "why"), [
    (["--crops", "{empty}"], "holds no crops"),
    (["--data", "{empty}"], "holds no images"),
    (["--data", "{empty}", "--split", "{split}"], "holds none of the 2 images --split names"),
    (["--data", "{empty}", "--split", "{empty}/missing.json"], "--split '.*missing.json': no such file"),
    (["--data", "{empty}", "--split", "{bad}"], "not a JSON object with a 'val' list"),
])
def test_eval_on_nothing_to_measure_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            args: list[str], why: str) -> None:
    """An empty folder or a wrong split file measures nothing: an error naming it (exit 2),
    not a row of NaNs or a traceback."""
    from mahjongero.cli import main

    empty = tmp_path / "empty"
    empty.mkdir()
    (tmp_path / "split.json").write_text('{"val": ["a.jpg", "b.jpg"]}')
    (tmp_path / "bad.json").write_text('{"train": []}')
    paths = {"empty": str(empty), "split": str(tmp_path / "split.json"), "bad": str(tmp_path / "bad.json")}
    assert main(["eval", *(a.format(**paths) for a in args)]) == 2
    captured = capsys.readouterr()
    assert re.search(why, captured.err) and not captured.out



def test_a_codes_csv_that_is_not_there_or_not_in_its_form_is_named(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="missing.csv'?: no such file"):
        load_codes_csv(tmp_path / "missing.csv")
    bad = tmp_path / "codes.csv"
    bad.write_text("image,x1,y1,x2,y2,code\na.jpg,1,2,3,4,5m\nb.jpg,1,2,3,4,9q\n")
    with pytest.raises(ValueError, match="codes.csv' line 3: not image,x1,y1,x2,y2,code"):
        load_codes_csv(bad)


def test_recall_by_the_tiles_size_at_the_detectors_input() -> None:
    gt = GroundTruth(
        Path("x.jpg"),
        np.array([[0, 0, 10, 14], [20, 0, 50, 40], [60, 0, 100, 50.0]], np.float32),  # short sides 10, 30, 40
        np.array([True, True, True]),
        np.array([4, 5, 6]),
    )
    found = Detections(gt.xyxy[1:], np.ones(2), gt.face_up[1:])
    s = Scores()
    s.add(gt, found, input_scale=0.5)  # 5, 15 and 20 px at the input
    out = s.summary()
    assert out["recall_at_input_under8px"] == 0.0 and out["tiles_at_input_under8px"] == 1
    assert out["recall_at_input_12-20px"] == 1.0 and out["recall_at_input_20px+"] == 1.0
    assert "recall_at_input_8-12px" not in out
    s.add(gt, found)  # no scale given: counted for recall, not by size
    assert s.summary()["tiles_at_input_20px+"] == 1 and s.summary()["recall@0.5"] == round(4 / 6, 4)
