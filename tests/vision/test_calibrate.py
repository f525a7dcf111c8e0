"""Calibration: guide rows, sets that survive a save, the probe and its refit for new weights."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from engine.tiles import Tile
from vision.calibrate import (
    PHOTO_CUTS,
    CalibratedReader,
    CalibrationError,
    PrototypeClassifier,
    calibrate,
    guide_rows,
    label_guide,
    load_set,
    stored_sets,
    training_views,
)
from vision.classifier import crop_boxes
from vision.detections import Detections
from vision.detector import drop_nested
from vision.scripted import guide_photo, labels_to_detections


class ColourFeatures:
    """A stand-in for the shipped classifier's features: the crop's colours at 12 x 16 pixels."""

    has_features = True

    def __init__(self, key: str = "colour-v1") -> None:
        self.key = key
        self.calls = 0

    def features(self, crops):  # noqa: ANN001, ANN201
        self.calls += 1
        out = np.array([cv2.resize(c, (12, 16), interpolation=cv2.INTER_AREA).ravel() for c in crops], np.float32)
        return out - out.mean(1, keepdims=True)


@pytest.mark.parametrize("variant,sizes", [("filipino", [9, 9, 9, 7, 8]), ("singapore", [9, 9, 9, 7, 8, 4])])
def test_guide_rows_cover_the_set_once(variant: str, sizes: list[int]) -> None:
    rows = guide_rows(variant)
    flat = [t for r in rows for t in r]
    assert [len(r) for r in rows] == sizes and len(set(flat)) == len(flat) and Tile.BACK not in flat


def test_unknown_variant() -> None:
    with pytest.raises(CalibrationError, match="'klingon'"):
        guide_rows("klingon")


def test_a_set_survives_a_save_and_names_its_own_tiles(tmp_path, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    image, labels = guide_photo("singapore", style=901, size=(1200, 900))
    d = labels_to_detections(labels)
    feats = ColourFeatures()
    tileset = calibrate(image, "singapore", "mine", lambda im: d, classifier=feats)
    assert tileset.probe is not None and tileset.probe.weights.shape == (12 * 16 * 3, len(d))
    tileset.save()
    again = load_set("mine")
    assert again.codes.tolist() == tileset.codes.tolist() and again.probe is not None
    assert np.array_equal(again.probe.weights, tileset.probe.weights)
    pick = np.arange(0, len(d), 4)  # a spread of tile kinds (face matching is slow-ish)
    crops = crop_boxes(image, d.xyxy[pick])
    codes, conf = PrototypeClassifier(again, feats)(crops)
    assert codes.tolist() == PrototypeClassifier(tileset, feats)(crops)[0].tolist()
    assert ((conf > 0) & (conf <= 1)).all() and set(codes.tolist()) <= set(tileset.codes.tolist())
    faces_only, _ = PrototypeClassifier(again)(crops)
    assert faces_only.tolist() == d.code[pick].tolist()  # the guide's own tiles come back named right
    assert PrototypeClassifier(again, feats)(crops[:0])[0].shape == (0,)



def test_a_set_saved_again_is_replaced_whole_or_not_at_all(tmp_path, monkeypatch) -> None:  # noqa: ANN001
    """A save that fails part-way (a full disk) leaves the set taught before as it was; one
    stopped between moving the old set aside and putting the new one in its place finds the
    old one back; a set saved again without a probe keeps none of the old one's."""
    from dataclasses import replace

    import vision.calibrate as cal

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    image, labels = guide_photo("singapore", style=901, size=(1200, 900))
    d = labels_to_detections(labels)
    first = calibrate(image, "singapore", "mine", lambda im: d, classifier=ColourFeatures())
    first.save()
    writes = iter(range(5))
    monkeypatch.setattr(cal.cv2, "imwrite", lambda *a: next(writes, None) is not None)  # the disk fills up
    with pytest.raises(CalibrationError, match="cannot write"):
        replace(first, crops=[c[::2, ::2] for c in first.crops]).save()
    monkeypatch.undo()
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    kept = load_set("mine")
    assert [c.shape for c in kept.crops] == [c.shape for c in first.crops] and kept.probe is not None
    path = cal.sets_dir() / "mine"
    path.rename(cal.sets_dir() / ".mine.old")  # as a save stopped midway leaves it
    assert stored_sets() == ["mine"] and load_set("mine").codes.tolist() == first.codes.tolist()
    replace(first, probe=None).save()
    assert load_set("mine").probe is None and not (path / "probe.npz").exists()
    assert sorted(p.name for p in cal.sets_dir().iterdir()) == ["mine"]


def test_a_new_classifier_refits_the_probe_from_the_stored_crops(tmp_path, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    image, labels = guide_photo("filipino", style=555, size=(1200, 900))
    d = labels_to_detections(labels)
    calibrate(image, "filipino", "old", lambda im: d, classifier=ColourFeatures("v1")).save()
    same = PrototypeClassifier(load_set("old"), ColourFeatures("v1"))
    assert not same.refitted
    plain = CalibratedReader(lambda im: d, load_set("old"))  # no classifier: faces, nothing refitted
    assert plain.classifier.classifier is None

    class Reader:  # the shipped reader after a model update
        classifier = ColourFeatures("v2")

        def detector(self, image):  # noqa: ANN001, ANN202
            return d

    reader = CalibratedReader(Reader(), load_set("old"))
    assert reader.classifier.refitted
    assert load_set("old").probe.key == "v2"  # saved: the next start does not refit again
    out = reader(image)
    assert len(out) == len(d) and set(out.code.tolist()) <= set(d.code.tolist())


def test_training_views_cover_every_tile_in_every_pose() -> None:
    rng = np.random.default_rng(0)
    crops = [np.full((60, 48, 3), v, np.uint8) for v in (40, 200)]
    views, owner = training_views(crops, rng)
    assert np.bincount(owner).tolist() == [len(views) // 2] * 2
    assert all(v.ndim == 3 and v.shape[0] >= 4 and v.shape[1] >= 4 for v in views)
    assert {v.shape[0] > v.shape[1] for v in views[:8]} == {True, False}  # upright and turned


def test_a_classifier_without_features_cannot_fit_a_probe(tmp_path) -> None:  # noqa: ANN001
    class Plain(ColourFeatures):
        has_features = False

    image, labels = guide_photo("filipino", style=555, size=(1200, 900))
    d = labels_to_detections(labels)
    assert calibrate(image, "filipino", "x", lambda im: d, classifier=Plain()).probe is None


def test_the_shipped_classifier_learns_an_unseen_set_from_its_guide_photo() -> None:
    """Style 901 is none of the 48 styles the models were trained on."""
    from vision.classifier import TileClassifier
    from vision.reader import CLASSIFIER_PATH

    clf = TileClassifier(CLASSIFIER_PATH)
    assert clf.has_features  # the shipped ONNX carries the features output
    image, labels = guide_photo("singapore", style=901)
    d = labels_to_detections(labels)
    tileset = calibrate(image, "singapore", "mine", lambda im: d, classifier=clf)
    turned = [np.ascontiguousarray(np.rot90(c, 1)) for c in crop_boxes(image, d.xyxy)]  # as seen from a side seat
    codes, _ = PrototypeClassifier(tileset, clf)(turned)
    assert (codes == d.code).mean() >= 0.95


def test_a_photo_of_a_standing_row_is_read_from_the_tiles_faces() -> None:
    """A hand photographed steeply from above: each box is mostly the tiles' tops. Reading
    the crops also from their lower part names tiles the whole crops miss, and never loses
    one the whole crops named (unseen style 555, whose 万 rows fooled it)."""
    from vision.classifier import TileClassifier
    from vision.reader import CLASSIFIER_PATH
    from vision.scripted import HandLayout, hand_photo

    clf = TileClassifier(CLASSIFIER_PATH)
    image, labels = guide_photo("singapore", style=555)
    guide = labels_to_detections(labels)
    tileset = calibrate(image, "singapore", "mine", lambda im: guide, classifier=clf)
    photo, labels = hand_photo(HandLayout(tuple(Tile.parse(c) for c in "1m 2m 3m 4m 5m 2z 2z 6p 7p 8p 1s 1s 9s 7z".split())),
                               style=555, elevation=70.0, seed=1)
    d = labels_to_detections(labels)
    crops, truth = crop_boxes(photo, d.xyxy[d.face_up]), d.code[d.face_up]
    whole, _ = PrototypeClassifier(tileset, clf)(crops)
    cut, _ = PrototypeClassifier(tileset, clf, cuts=PHOTO_CUTS)(crops)
    assert (cut == truth).sum() > (whole == truth).sum(), ((cut == truth).sum(), (whole == truth).sum())
    assert not ((whole == truth) & (cut != truth)).any()
    assert PrototypeClassifier(tileset, clf, cuts=PHOTO_CUTS)(crops[:0])[0].shape == (0,)
    with pytest.raises(ValueError, match="blend=0"):
        PrototypeClassifier(tileset, clf, cuts=PHOTO_CUTS, blend=0)


@pytest.mark.parametrize("style", [777, 555])
def test_the_shipped_detector_reads_a_guide_photo(style: int) -> None:
    """Every guide tile is found once and named from its place (no box inside another)."""
    from vision.detections import box_iou
    from vision.reader import TileReader

    reader = TileReader()
    image, labels = guide_photo("singapore", style=style)
    truth = labels_to_detections(labels)
    seen: list[Detections] = []

    def detect(im: np.ndarray, imgsz: int | None = None) -> Detections:
        seen.append(reader.detector(im, imgsz=imgsz))
        return seen[-1]

    tileset = calibrate(image, "singapore", "mine", detect)
    assert len(tileset.codes) == len(truth) == 46
    dets = seen[-1][drop_nested(seen[-1].xyxy, np.argsort(-seen[-1].confidence), 0.6)]
    for tile, i in label_guide(dets, "singapore"):
        j = int(np.flatnonzero(truth.code == int(tile))[0])
        assert box_iou(dets.xyxy[i:i + 1], truth.xyxy[j:j + 1])[0, 0] > 0.5, f"{tile} is named from the wrong box"


def test_a_guide_read_wrong_is_looked_at_again_at_the_next_size() -> None:
    """A detector that splits a tile in two at the first of ``GUIDE_SIZES`` gets a second
    look at the next; a plain callable (no ``imgsz``) gets one look and the rows' error."""
    from vision.calibrate import GUIDE_SIZES, CalibrationError

    image, labels = guide_photo("singapore", style=901, size=(1200, 900))
    truth = labels_to_detections(labels)
    x0, y0, x1, y1 = truth.xyxy[0]
    halves = np.array([[x0, y0, (x0 + x1) / 2, y1], [(x0 + x1) / 2, y0, x1, y1]], np.float32)
    split = Detections(np.vstack([truth.xyxy[1:], halves]), np.ones(len(truth) + 1, np.float32),
                       np.ones(len(truth) + 1, bool))
    asked: list[int | None] = []

    def detect(im: np.ndarray, imgsz: int | None = None) -> Detections:
        asked.append(imgsz)
        return split if imgsz == GUIDE_SIZES[0] else truth

    assert len(GUIDE_SIZES) >= 2 and len(calibrate(image, "singapore", "mine", detect).codes) == 46
    assert asked == list(GUIDE_SIZES[:2])
    with pytest.raises(CalibrationError, match="found rows of"):
        calibrate(image, "singapore", "mine", lambda im: split)


class Opinionated(ColourFeatures):
    """Colour features plus probabilities that always favour one tile, as a classifier's would."""

    def __init__(self, favourite: Tile, codes: np.ndarray) -> None:
        super().__init__("opinionated")
        self.favourite = favourite
        self.codes = codes

    def read(self, crops):  # noqa: ANN001, ANN201
        probs = np.full((len(crops), len(self.codes)), 1e-3, np.float32)
        probs[:, list(self.codes).index(int(self.favourite))] = 1.0
        return probs / probs.sum(1, keepdims=True), self.features(crops)


def test_the_classifiers_own_opinion_counts_as_much_as_prior_says(tmp_path, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    image, labels = guide_photo("singapore", style=901, size=(1200, 900))
    d = labels_to_detections(labels)
    codes = np.array([int(t) for t in Tile], np.int64)
    feats = Opinionated(Tile.parse("5p"), codes)
    tileset = calibrate(image, "singapore", "opinion", lambda im: d, classifier=feats)
    crops = crop_boxes(image, d.xyxy[::6])
    probe_only, _ = PrototypeClassifier(tileset, feats, prior=0.0)(crops)
    assert tileset.probe is not None
    alone = tileset.codes[tileset.probe.scores(feats.features(crops)).argmax(1)]
    assert probe_only.tolist() == alone.tolist() and len(set(alone.tolist())) > 1  # the probe alone
    swayed, _ = PrototypeClassifier(tileset, feats, prior=50.0)(crops)
    assert set(swayed.tolist()) == {int(Tile.parse("5p"))}  # an overwhelming prior decides
    balanced, conf = PrototypeClassifier(tileset, feats)(crops)
    assert ((conf > 0) & (conf <= 1)).all() and set(balanced.tolist()) <= set(tileset.codes.tolist())



class LooksAgain(Opinionated):
    """A classifier whose looks (``probabilities``) change its mind: the main network
    (``read``) favours one tile, the looks another."""

    def __init__(self, favourite: Tile, looked: Tile, codes: np.ndarray) -> None:
        super().__init__(favourite, codes)
        self.looked = looked

    def probabilities(self, crops):  # noqa: ANN001, ANN201
        probs = np.full((len(crops), len(self.codes)), 1e-3, np.float32)
        probs[:, list(self.codes).index(int(self.looked))] = 1.0
        return probs / probs.sum(1, keepdims=True)


def test_the_classifiers_opinion_is_its_reading_after_its_looks(tmp_path, monkeypatch) -> None:  # noqa: ANN001
    """Style 555's 5-character read as 9 by the probe and the main network, right by the
    number look: the opinion that joins the probe is the one the looks leave."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    image, labels = guide_photo("singapore", style=901, size=(1200, 900))
    d = labels_to_detections(labels)
    codes = np.array([int(t) for t in Tile], np.int64)
    clf = LooksAgain(Tile.parse("9m"), Tile.parse("5m"), codes)
    tileset = calibrate(image, "singapore", "looks", lambda im: d, classifier=clf)
    named, _ = PrototypeClassifier(tileset, clf, prior=50.0)(crop_boxes(image, d.xyxy[::6]))
    assert set(named.tolist()) == {int(Tile.parse("5m"))}

def test_a_taught_set_reads_a_hand_photographed_turned_a_quarter_as_upright() -> None:
    """The calibrated reader finds the tiles as the shipped reader does (``read_upright``):
    a hand of unseen style 901 photographed with the phone held the other way reads the
    same hand, its boxes in the turned photo's pixels. Detected once as the photo came (a
    reader without ``read_upright``), the turned photo loses the hand."""
    from collections import Counter
    from types import SimpleNamespace

    from vision.pipeline import read_hand_photo
    from vision.reader import TileReader
    from vision.scripted import HandLayout, hand_photo
    from vision.upright import turn_quarters, turned_back

    shipped = TileReader()
    image, labels = guide_photo("singapore", style=901)
    guide = labels_to_detections(labels)
    tileset = calibrate(image, "singapore", "mine", lambda im: guide, classifier=shipped.classifier)
    reader = CalibratedReader(shipped, tileset)
    assert not reader.classifier.refitted
    hand = tuple(Tile.parse(c) for c in "1m 2m 3m 5p 6p 7p 2s 2s 4s 5s 6s 1z 1z 6z".split())
    photo, _ = hand_photo(HandLayout(hand), style=901, elevation=60.0, seed=2)
    upright = read_hand_photo(photo, reader=reader)
    right = sum((Counter(i.tile for i in upright.concealed) & Counter(hand)).values())
    assert len(upright.concealed) == 14 and right >= 13, right
    once = CalibratedReader(SimpleNamespace(detector=shipped.detector, classifier=shipped.classifier), tileset)
    for quarters in (1, 3):
        turned = turn_quarters(photo, quarters)
        assert reader.read_upright(turned)[2] == 4 - quarters  # the way back up
        reading = read_hand_photo(turned, reader=reader)
        assert reading.image_size == (turned.shape[1], turned.shape[0])
        assert [i.tile for i in reading.concealed] == [i.tile for i in upright.concealed]
        back = turned_back(reader(turned), photo.shape, quarters)
        np.testing.assert_allclose(back.xyxy, reader(photo).xyxy, atol=1.0)
        as_it_came = once(turned)
        named = Counter(Tile(int(c)) for c in as_it_came.code[as_it_came.face_up])
        assert sum((named & Counter(hand)).values()) < right


class _Brightness:
    """Names a crop 5m where it is bright (over 200 of 255 on average), else 9m."""

    def ranked(self, crops, k):  # noqa: ANN001, ANN201
        bright = np.array([c.mean() > 200 for c in crops], bool)
        first = np.where(bright, int(Tile.M5), int(Tile.M9))
        return np.stack([first, np.full(len(crops), int(Tile.M1))], 1), np.tile([[0.9, 0.1]], (len(crops), 1))


def test_a_taught_set_names_a_tilted_photos_tiles_from_the_photo_levelled(tmp_path, monkeypatch) -> None:  # noqa: ANN001
    """The set was taught on level tiles: where the reader finds the row off level, each
    tile is named from the photo levelled, cut at the box found there and matched to it
    (else at its own box levelled: here the grey between the found boxes)."""
    from vision.upright import rotated

    from .test_upright import _tilted_row

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    image, labels = guide_photo("singapore", style=901, size=(1200, 900))
    guide = labels_to_detections(labels)
    codes = np.array([int(t) for t in Tile], np.int64)
    reader = CalibratedReader(lambda im: guide, calibrate(image, "singapore", "level", lambda im: guide,
                                                         classifier=ColourFeatures(codes)))
    reader.classifier = _Brightness()  # type: ignore[assignment]
    photo = np.zeros((400, 600, 3), np.uint8)  # black: every crop cut from it reads 9m
    first, found = _tilted_row(photo)
    level, matrix = rotated(photo, 15.0)
    level[:] = 128
    for x1, y1, x2, y2 in found.xyxy.astype(int):
        level[y1 + 2:y2 - 2, x1 + 2:x2 - 2] = 255
    levelled = (level, matrix, found, np.array([0, 1, 2, 3, 4, 5, -1]))
    assert [str(t) for t in reader._named(photo, first, levelled).tiles] == ["5m"] * 6 + ["9m"]
    assert [str(t) for t in reader._named(photo, first).tiles] == ["9m"] * 7  # read level: named as found
