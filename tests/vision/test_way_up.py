"""The way-up probe: tied to its classifier, judging rows of touching tiles only, and turning
a hand photographed from across the table."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.classifier import WAY_UP_ROW, TileClassifier
from vision.imageio import load_image
from vision.reader import (
    CLASSIFIER_PATH,
    DETECTOR_PATH,
    WAY_UP_PATH,
    TileReader,
    shipped_classifier,
)
from vision.row_crops import cut_along_rows
from vision.way_up import WayUp, WayUpLoadError

HAND = Path(__file__).resolve().parents[1] / "data" / "vision" / "images" / "hand_7_1.jpg"

pytestmark = pytest.mark.skipif(
    not (CLASSIFIER_PATH.is_file() and WAY_UP_PATH.is_file() and HAND.is_file()),
    reason="shipped models or test images missing",
)


class Says(WayUp):
    """A probe that judges every row it is shown the same way, and counts them."""

    def __init__(self, upside_down: bool) -> None:
        super().__init__(np.zeros(1), 0.0, np.zeros(1), np.ones(1), key="")
        self.upside_down = upside_down
        self.rows: list[int] = []

    def turned(self, features: np.ndarray, turned_features):  # type: ignore[no-untyped-def]
        self.rows.append(len(features))
        return self.upside_down


def _crops(n: int) -> list[np.ndarray]:
    image = load_image(HAND)
    h, w = image.shape[:2]
    rng = np.random.default_rng(1)
    return [image[y:y + 60, x:x + 40].copy() for x, y in zip(rng.integers(0, w - 40, n), rng.integers(0, h - 60, n), strict=True)]


def test_the_probe_round_trips_through_its_file(tmp_path: Path) -> None:
    probe = WayUp(np.array([0.5, -1.0]), 0.25, np.array([1.0, 2.0]), np.array([2.0, 4.0]), key="abc")
    probe.save(tmp_path / "p.npz")
    back = WayUp.load(tmp_path / "p.npz")
    features = np.array([[3.0, 2.0], [1.0, 6.0]])
    np.testing.assert_allclose(back.logits(features), probe.logits(features), rtol=1e-6)
    assert back.key == "abc"


def test_a_file_that_is_not_a_probe_is_refused_by_name(tmp_path: Path) -> None:
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a probe")
    with pytest.raises(WayUpLoadError, match="junk.npz"):
        WayUp.load(junk)
    with pytest.raises(ValueError, match="missing.npz"):
        shipped_classifier(way_up=tmp_path / "missing.npz")


def test_the_shipped_probe_reads_the_shipped_classifier_and_no_other(tmp_path: Path) -> None:
    shipped = shipped_classifier()
    assert shipped.way_up is not None and shipped.way_up.key == shipped.key  # refit after a new classifier
    assert shipped_classifier(way_up=None).way_up is None
    other = WayUp.load(WAY_UP_PATH)
    other.key = "another classifier"
    other.save(tmp_path / "other.npz")
    assert shipped_classifier(way_up=tmp_path / "other.npz").way_up is None


@pytest.mark.parametrize("upside_down", [False, True])
def test_only_rows_of_touching_tiles_long_enough_are_judged(upside_down: bool) -> None:
    crops = _crops(WAY_UP_ROW + 4)
    plain = TileClassifier(CLASSIFIER_PATH)
    judged = TileClassifier(CLASSIFIER_PATH, way_up=Says(upside_down))
    row, short = np.arange(WAY_UP_ROW), np.arange(WAY_UP_ROW, WAY_UP_ROW + 4)
    codes, _ = judged.one_picture(crops, [row, short])
    assert judged.way_up is not None and judged.way_up.rows == [WAY_UP_ROW]  # the short row is not asked about
    turned = [c[::-1, ::-1].copy() if upside_down and i in row else c for i, c in enumerate(crops)]
    np.testing.assert_array_equal(codes, plain.one_picture(turned)[0])
    np.testing.assert_array_equal(TileClassifier(CLASSIFIER_PATH, way_up=Says(True)).one_picture(crops)[0],
                                  plain.one_picture(crops)[0])  # no rows given: nothing is judged
    assert judged.one_picture_turned(crops, [short, row])[2] == [False, upside_down]  # which rows were read turned


@pytest.mark.skipif(not DETECTOR_PATH.is_file(), reason="shipped detector missing")
def test_a_hand_photographed_from_across_the_table_has_its_row_read_turned() -> None:
    """The rendered hand (never seen by the probe, fitted on real photos) as photographed
    keeps its row; turned half round, its row is read turned back."""
    reader = TileReader()
    clf = reader.classifier
    for image, upside_down in ((load_image(HAND), False), (load_image(HAND)[::-1, ::-1].copy(), True)):
        dets = reader.detector(image)
        crops, rows = cut_along_rows(image, dets.xyxy[dets.face_up])
        [row] = [r for r in rows if len(r) >= WAY_UP_ROW]
        got = clf.one_picture(crops, rows)[0]
        as_cut = shipped_classifier(way_up=None).one_picture(crops)[0]
        turned = [c[::-1, ::-1].copy() if i in row else c for i, c in enumerate(crops)]
        turned_back = shipped_classifier(way_up=None).one_picture(turned)[0]
        np.testing.assert_array_equal(got, turned_back if upside_down else as_cut)


def test_the_cli_reads_with_the_probe_unless_told_none() -> None:
    from mahjongero.cli import build_parser
    from mahjongero.commands._classifier import classifier_from

    assert classifier_from(build_parser().parse_args(["eval"])).way_up is not None
    assert classifier_from(build_parser().parse_args(["eval", "--way-up", "none"])).way_up is None
