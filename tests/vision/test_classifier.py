"""The classifier's picture-wide naming: one of each one-of-a-kind tile."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from engine.tiles import Tile
from vision.classifier import TileClassifier, one_of_each
from vision.reader import CLASSIFIER_PATH

probs = st.integers(1, 12).flatmap(
    lambda n: st.tuples(
        arrays(np.float64, (n, 6), elements=st.floats(0.0, 1.0)),
        arrays(bool, 6, elements=st.booleans()),
    )
)


@given(probs)
@settings(max_examples=300, deadline=None)
def test_one_of_each_never_names_a_single_class_twice(case: tuple[np.ndarray, np.ndarray]) -> None:
    p, single = case
    pick = one_of_each(p, single)
    best = p.argmax(1)
    assert pick.shape == (len(p),)
    assert (pick[~single[best]] == best[~single[best]]).all()  # a suit tile's read never moves
    firsts = best[single[best]]
    if len(firsts) == len(set(firsts.tolist())):
        assert (pick == best).all()  # nothing clashes: every crop its own best
    if (~single).any():  # every crop can fall back on a tile a set holds four of
        named = pick[single[pick]]
        assert len(named) == len(set(named.tolist()))


def test_the_surer_crop_keeps_a_flower_the_other_takes_its_next_best() -> None:
    p = np.array([[0.5, 0.4, 0.1], [0.9, 0.05, 0.05], [0.45, 0.35, 0.2]])
    assert one_of_each(p, np.array([True, True, False])).tolist() == [1, 0, 2]


@pytest.fixture(scope="module")
def classifier() -> TileClassifier:
    return TileClassifier(CLASSIFIER_PATH)


def test_one_picture_reads_two_crops_of_one_flower_as_two_tiles(
        classifier: TileClassifier, monkeypatch: pytest.MonkeyPatch) -> None:
    codes = [int(c) for c in classifier.codes]
    p = np.zeros((3, len(codes)), np.float32)
    f1, f2, m5 = codes.index(int(Tile.FLOWER1)), codes.index(int(Tile.FLOWER2)), codes.index(int(Tile.M5))
    p[0, [f1, f2]] = 0.8, 0.2
    p[1, [f1, f2]] = 0.6, 0.4
    p[2, m5] = 1.0
    monkeypatch.setattr(classifier, "probabilities", lambda crops, streaks=None: p.copy())
    crops = [np.zeros((8, 8, 3), np.uint8)] * 3
    assert [Tile(int(c)) for c in classifier(crops)[0]] == [Tile.FLOWER1, Tile.FLOWER1, Tile.M5]
    got, conf = classifier.one_picture(crops)
    assert [Tile(int(c)) for c in got] == [Tile.FLOWER1, Tile.FLOWER2, Tile.M5]
    assert conf.tolist() == pytest.approx([0.8, 0.4, 1.0])
    # suits come four to a set: two 5m crops both stay 5m
    monkeypatch.setattr(classifier, "probabilities", lambda crops, streaks=None: np.stack([p[2], p[2]]))
    assert [Tile(int(c)) for c in classifier.one_picture(crops[:2])[0]] == [Tile.M5, Tile.M5]


def _with_imgsz(tmp_path, value: str):  # type: ignore[no-untyped-def]
    """The shipped classifier with its ultralytics ``imgsz`` metadata set to ``value``."""
    import onnx

    model = onnx.load(str(CLASSIFIER_PATH))
    for prop in model.metadata_props:
        if prop.key == "imgsz":
            prop.value = value
    path = tmp_path / "classifier.onnx"
    onnx.save(model, str(path))
    return path


def test_a_dynamic_shape_classifier_reads_crops_at_the_size_it_was_trained_at(tmp_path) -> None:  # type: ignore[no-untyped-def]
    assert TileClassifier(CLASSIFIER_PATH).size == 64  # the shipped one says [64, 64]
    wide = TileClassifier(_with_imgsz(tmp_path, "[96, 96]"))
    assert wide.size == 96
    crops = [np.full((50, 40, 3), 200, np.uint8)] * 2
    assert wide.preprocess(crops).shape == (2, 3, 96, 96)
    assert wide.probabilities(crops).shape == (2, len(wide.codes))
    assert TileClassifier(_with_imgsz(tmp_path, "unknown")).size == 64  # unreadable: the usual 64
