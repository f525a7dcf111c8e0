"""``mahjongero calibrate``: the guide, teaching a set from one photo, and using it."""

from __future__ import annotations

import argparse

import cv2
import numpy as np
import pytest

from mahjongero.commands import calibrate as cmd
from vision.calibrate import CalibrationError, PrototypeClassifier, guide_rows, load_set
from vision.classifier import crop_boxes
from vision.scripted import guide_photo, labels_to_detections


def ns(**kw) -> argparse.Namespace:  # noqa: ANN003
    base = dict(target=None, variant="singapore", name=None, out="guide.png", list=False)
    return argparse.Namespace(**(base | kw))


def test_guide_png(tmp_path, capsys) -> None:  # noqa: ANN001
    out = tmp_path / "guide.png"
    assert cmd.run(ns(target="guide", variant="vietnamese", out=str(out))) == 0
    img = cv2.imread(str(out))
    assert img is not None and img.shape[0] > img.shape[1] * 0.9  # eight rows of tiles
    assert [len(r) for r in guide_rows("vietnamese")] == [9, 9, 9, 7, 8, 8, 8]


def test_teach_a_set_then_use_it(tmp_path, monkeypatch, capsys) -> None:  # noqa: ANN001
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    image, labels = guide_photo("singapore", style=777, size=(1200, 900))
    photo = tmp_path / "guide-photo.png"
    cv2.imwrite(str(photo), image)
    detect = lambda im: labels_to_detections(labels)  # noqa: E731 - a perfect detector
    assert cmd.run(ns(target=str(photo), name="grandmas-set"), detect=detect) == 0
    assert "learned 46 tiles" in capsys.readouterr().out
    stored = tmp_path / "mahjongero" / "sets" / "grandmas-set"
    assert (stored / "set.json").is_file() and len(list((stored / "crops").glob("*.png"))) == 46
    cmd.run(ns(list=True))
    assert capsys.readouterr().out.strip() == "grandmas-set"
    tileset = load_set("grandmas-set")
    d = labels_to_detections(labels)
    codes, conf = PrototypeClassifier(tileset)(crop_boxes(image, d.xyxy[:12]))
    assert codes.tolist() == d.code[:12].tolist() and float(np.min(conf)) > 0.5


def test_wrong_layout_names_the_rows(tmp_path, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    image, labels = guide_photo("singapore", style=3, size=(1200, 900))
    photo = tmp_path / "p.png"
    cv2.imwrite(str(photo), image)
    with pytest.raises(CalibrationError, match=r"found rows of \[9, 9, 9, 7, 8\] tiles"):
        cmd.run(ns(target=str(photo), name="x"), detect=lambda im: labels_to_detections(labels[:-4]))


def test_bad_names(tmp_path, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    with pytest.raises(CalibrationError, match="'../evil'"):
        cmd.run(ns(target="whatever.png", name="../evil"), detect=lambda im: None)
    with pytest.raises(CalibrationError, match="no calibrated set 'nope'"):
        load_set("nope")


def test_a_photo_with_no_tiles_is_refused_by_name(tmp_path, monkeypatch) -> None:  # noqa: ANN001
    """The shipped detector on a bare table: nothing is learned, and the error says why."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    photo = tmp_path / "empty-table.png"
    cv2.imwrite(str(photo), np.full((900, 1200, 3), (40, 110, 40), np.uint8))  # green baize
    with pytest.raises(CalibrationError, match="no tiles found in the calibration photo"):
        cmd.run(ns(target=str(photo), name="bare"))
    assert not (tmp_path / "mahjongero" / "sets" / "bare").exists()


def test_a_taught_set_that_lost_a_crop_asks_for_the_guide_again(tmp_path, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    image, labels = guide_photo("singapore", style=777, size=(1200, 900))
    photo = tmp_path / "guide-photo.png"
    cv2.imwrite(str(photo), image)
    assert cmd.run(ns(target=str(photo), name="gran"), detect=lambda im: labels_to_detections(labels)) == 0
    crops = sorted((tmp_path / "mahjongero" / "sets" / "gran" / "crops").glob("*.png"))
    crops[5].unlink()  # a file lost from the set's folder
    with pytest.raises(CalibrationError, match="set 'gran' in .* is incomplete: photograph the guide again"):
        load_set("gran")
