"""``mahjongero score PHOTO``: what was read, then waits (one short) or the score (complete)."""

from __future__ import annotations

import argparse
import json

import cv2
import pytest

from mahjongero.commands._photo import looks_like_photo, score_photo
from vision.regions import NoTilesError, TwoHandsError
from vision.scripted import HandLayout, hand_photo, labels_to_detections


def shoot(tmp_path, text: str, **kw):  # noqa: ANN001, ANN201
    image, labels = hand_photo(HandLayout.parse(text, **kw), size=(960, 720))
    path = tmp_path / "hand.png"
    cv2.imwrite(str(path), image)
    return path, (lambda im: labels_to_detections(labels))


def args(path, **kw) -> argparse.Namespace:  # noqa: ANN001
    base = dict(photo=str(path), variant="singapore", json=True, annotate=None, seat="S", round="E")
    return argparse.Namespace(**(base | kw))


def test_one_short_prints_waits(tmp_path, capsys) -> None:  # noqa: ANN001
    path, reader = shoot(tmp_path, "23m456p789s11z / [555s]^0 /")
    assert score_photo(args(path), reader=reader) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["hand"] == "23m456p789s11z [555s]"
    assert [w["tile"] for w in out["waits"]] == ["1m", "4m"]
    assert out["score"] is None
    regions = {t["region"] for t in out["tiles"]}
    assert regions == {"hand", "meld"} and all({"box", "tile", "confidence", "group"} <= set(t) for t in out["tiles"])


def test_complete_hand_is_scored_with_payments(tmp_path, capsys) -> None:  # noqa: ANN001
    path, reader = shoot(tmp_path, "123m456p1z1z / [555s]^0 [777z]^1 /")
    annotated = tmp_path / "out.png"
    code = score_photo(args(path, variant="singapore", annotate=str(annotated), discarder="E"), reader=reader)
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["score"] is not None
    pays = {k: v for k, v in out["score"]["payments"].items()}
    assert sum(float(eval(v)) for v in pays.values()) == 0  # noqa: S307 - fractions like "-1/2"
    assert annotated.is_file() and cv2.imread(str(annotated)).shape[:2] == (720, 960)


def test_text_output_says_what_was_read(tmp_path, capsys) -> None:  # noqa: ANN001
    path, reader = shoot(tmp_path, "23m456p789s11z / [555s]^0 /")
    score_photo(args(path, json=False), reader=reader)
    text = capsys.readouterr().out
    assert text.startswith("read: 2m 3m 4p") and "waits: 1m (1 characters), 4m (4 characters)" in text


def test_no_tiles_and_two_hands(tmp_path) -> None:  # noqa: ANN001
    from vision.detections import Detections

    path, _ = shoot(tmp_path, "123m")
    with pytest.raises(NoTilesError, match="no tiles"):
        score_photo(args(path), reader=lambda im: Detections.empty())
    path, reader = shoot(tmp_path, "123456789m12345p", second_hand=tuple(HandLayout.parse("1112345678999s").concealed))
    with pytest.raises(TwoHandsError):
        score_photo(args(path), reader=reader)


def test_a_short_hand_at_the_photos_edge_says_part_may_be_outside(tmp_path, capsys) -> None:  # noqa: ANN001
    from vision.detections import Detections

    path, reader = shoot(tmp_path, "23m456p789s11z / [555s]^0 /")
    full = reader(None)
    row = full[full.xyxy[:, 1] < full.xyxy[:, 1].max() - 10]  # the concealed row: the meld out of the picture
    boxes = row.xyxy.copy()
    boxes[boxes[:, 0].argmin(), 0] = 0.0  # and its first tile reaching the photo's left edge
    edge = Detections(boxes, row.confidence, row.face_up, row.code, row.code_confidence)
    assert score_photo(args(path), reader=lambda im: edge) == 1
    problem = json.loads(capsys.readouterr().out)["problem"]
    assert problem.startswith("10 tiles read; a singapore hand has 13") and "1 tile by the hand reaches" in problem
    assert score_photo(args(path), reader=lambda im: row) == 1  # nothing at the edge: nothing said
    assert "edge" not in json.loads(capsys.readouterr().out)["problem"]


def test_a_shaken_photo_is_said_to_look_shaken(tmp_path, capsys) -> None:  # noqa: ANN001
    from vision.deblur import line_blur
    from vision.reader import TileReader

    image, _ = hand_photo(HandLayout.parse("23m456p789s11z / [555s]^0 /"), size=(960, 720))
    reader = TileReader()
    for name, picture, shaken in (("sharp.png", image, False), ("shaken.png", line_blur(image, 5, 90), True)):
        cv2.imwrite(str(tmp_path / name), picture)
        score_photo(args(tmp_path / name), reader=reader)
        assert json.loads(capsys.readouterr().out)["shaken"] is shaken
        score_photo(args(tmp_path / name, json=False), reader=reader)
        assert ("Hold the phone still" in capsys.readouterr().out) is shaken


def test_looks_like_photo() -> None:
    assert looks_like_photo("x.jpeg") and not looks_like_photo("123m [555p]")


def test_a_taught_set_reads_the_photo(tmp_path, monkeypatch, capsys) -> None:  # noqa: ANN001
    """The whole path with the shipped models: teach a set from its guide photo, then
    score a photo of a hand of that set with --set; an unknown set is a clear error."""
    from mahjongero.cli import main
    from vision.scripted import guide_photo

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    guide, _ = guide_photo("singapore", style=901)
    cv2.imwrite(str(tmp_path / "guide.png"), guide)
    assert main(["calibrate", str(tmp_path / "guide.png"), "--variant", "singapore", "--name", "mine"]) == 0
    image, labels = hand_photo(HandLayout.parse("123m456p789s1122z"), style=901, size=(1280, 960))
    cv2.imwrite(str(tmp_path / "hand.png"), image)
    capsys.readouterr()
    assert main(["score", str(tmp_path / "hand.png"), "--variant", "singapore", "--set", "mine", "--json"]) in (0, 1)
    out = json.loads(capsys.readouterr().out)
    assert len(out["tiles"]) >= 12
    assert main(["score", str(tmp_path / "hand.png"), "--variant", "singapore", "--set", "nope"]) == 2
    assert "no calibrated set 'nope'" in capsys.readouterr().err


def test_the_command_line_writes_the_annotated_photo(tmp_path, capsys) -> None:  # noqa: ANN001
    from mahjongero.cli import main

    path, _ = shoot(tmp_path, "123m456p789s11z / [777z]^1 /")  # a dragon pung: the 1 tai Singapore asks
    out = tmp_path / "read.png"
    assert main(["score", str(path), "--variant", "singapore", "--annotate", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["annotated"] == str(out)
    assert cv2.imread(str(out)).shape[:2] == (720, 960)
