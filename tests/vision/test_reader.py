"""The shipped ONNX models read the committed rendered images; the serving path has no torch."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from vision.classifier import crop_boxes
from vision.evaluation import Scores, iter_dataset
from vision.imageio import load_image
from vision.reader import CLASSIFIER_PATH, DETECTOR_PATH, TileReader

DATA = Path(__file__).resolve().parents[1] / "data" / "vision"
ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(
    not (DETECTOR_PATH.is_file() and CLASSIFIER_PATH.is_file() and (DATA / "images").is_dir()),
    reason="shipped models or test images missing",
)


@pytest.fixture(scope="module")
def reader() -> TileReader:
    return TileReader()


def test_models_fit_the_size_budget() -> None:
    total = sum(p.stat().st_size for p in DETECTOR_PATH.parent.glob("*.onnx"))
    assert total <= 20_000_000


def test_reads_the_rendered_images(reader: TileReader) -> None:
    scores = Scores()
    for gt in iter_dataset(DATA):
        image = load_image(gt.image)
        det = reader(image)
        codes, _ = reader.classifier(crop_boxes(image, gt.xyxy))
        codes = np.where(gt.face_up, codes, gt.code)
        scores.add(gt, det, codes)
    s = scores.summary()
    assert s["images"] == 3
    assert s["recall@0.5"] >= 0.85, s
    assert s["tile_accuracy_on_gt_boxes"] >= 0.85, s


def test_the_pass_kept_down_to_a_low_floor_holds_every_served_box_and_more(reader: TileReader) -> None:
    """``pass_at`` is the pass ``detect`` served, zoomed or not; kept down to the mAP floor
    it gives the served boxes first and less sure ones after (``mahjongero eval``'s
    ``mAP50_down_to_0.001``)."""
    for gt in iter_dataset(DATA):
        image = load_image(gt.image)
        served, size = reader.detect(image)
        again = reader.pass_at(image, size)
        assert np.array_equal(again.xyxy, served.xyxy) and np.array_equal(again.confidence, served.confidence)
        floored = reader.pass_at(image, size, conf=0.001)
        assert len(floored) > len(served) and floored.confidence.min() < reader.detector.conf
        sure = floored.confidence >= reader.detector.conf
        assert np.allclose(floored.xyxy[sure], served.xyxy)


def test_cli_eval_counts_map50_from_the_served_boxes_and_down_to_the_floor(capsys: pytest.CaptureFixture[str]) -> None:
    from mahjongero.cli import main

    assert main(["eval", "--data", str(DATA), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["images"] == 3 and out["recall@0.5"] >= 0.85
    assert out["mAP50_down_to_0.001"] >= out["mAP50"] > 0.5
    assert {"AP50_face_up_down_to_0.001", "AP50_back_down_to_0.001"} <= set(out)


def test_empty_image_gives_no_tiles(reader: TileReader) -> None:
    out = reader(np.full((480, 640, 3), 90, np.uint8))
    assert len(out) <= 1


def test_classifier_names_a_crop(reader: TileReader) -> None:
    side = sorted((DATA / "labels").glob("*.json"))[0]
    tiles = [t for t in json.loads(side.read_text())["tiles"] if t["face"] == "up"]
    image = load_image(DATA / "images" / f"{side.stem}.jpg")
    codes, probs = reader.classifier(crop_boxes(image, np.array([t["box"] for t in tiles])))
    assert len(codes) == len(tiles) and ((probs > 0) & (probs <= 1.0001)).all()


def test_each_face_up_tile_keeps_its_runner_up(reader: TileReader) -> None:
    image = load_image(sorted((DATA / "images").glob("*.jpg"))[0])
    out = reader(image)
    up = out.face_up
    assert up.any() and (~up).any()
    assert (out.runner_up[up] >= 0).all() and (out.runner_up[up] != out.code[up]).all()
    assert ((out.runner_up_confidence[up] >= 0) & (out.runner_up_confidence[up] <= 1.0001)).all()
    assert (out.runner_up[~up] == -1).all() and (out.runner_up_confidence[~up] == 0).all()


def _face_up_crops() -> list[np.ndarray]:
    """Crops of the face-up tiles of the first committed rendered image, on their true boxes."""
    side = sorted((DATA / "labels").glob("*.json"))[0]
    tiles = [t for t in json.loads(side.read_text())["tiles"] if t["face"] == "up"]
    return crop_boxes(load_image(DATA / "images" / f"{side.stem}.jpg"), np.array([t["box"] for t in tiles]))


def test_second_look_only_for_crops_the_first_turn_is_unsure_of() -> None:
    from vision.classifier import TileClassifier

    crops = _face_up_crops()
    upright = TileClassifier(CLASSIFIER_PATH, turns=(0,), trim=0).probabilities(crops)
    turned = TileClassifier(CLASSIFIER_PATH, turns=(2,), trim=0).probabilities(crops)
    sure = float(np.median(upright.max(1)))  # half the crops get a second look
    mixed = TileClassifier(CLASSIFIER_PATH, sure=sure, trim=0).probabilities(crops)
    unsure = upright.max(1) < sure
    assert 0 < unsure.sum() < len(crops)
    np.testing.assert_allclose(mixed[~unsure], upright[~unsure], atol=1e-5)
    np.testing.assert_allclose(mixed[unsure], (upright[unsure] + turned[unsure]) / 2, atol=1e-5)
    always = TileClassifier(CLASSIFIER_PATH, sure=1.01, trim=0).probabilities(crops)
    np.testing.assert_allclose(always, (upright + turned) / 2, atol=1e-5)


def test_trimmed_look_only_for_crops_still_unsure_after_the_turns() -> None:
    from vision.classifier import TRIM, TileClassifier, trimmed

    crops = _face_up_crops()
    upright = TileClassifier(CLASSIFIER_PATH, turns=(0,), trim=0)
    turns = TileClassifier(CLASSIFIER_PATH, sure=1.01, trim=0).probabilities(crops)
    looks = upright.probabilities([trimmed(c, TRIM) for c in crops])
    every = TileClassifier(CLASSIFIER_PATH, sure=1.01, trimmed_most=len(crops)).probabilities(crops)
    np.testing.assert_allclose(every, (turns + looks) / 2, atol=1e-5)
    sure = float(np.median(turns.max(1)))
    some = TileClassifier(CLASSIFIER_PATH, sure=sure, trimmed_most=len(crops)).probabilities(crops)
    first = upright.probabilities(crops)
    at_once = first.max(1) >= sure  # no second look at all
    after_turns = ~at_once & (turns.max(1) >= sure)  # the turns settle it: no trimmed look
    trimmed_too = ~at_once & ~after_turns
    assert at_once.any() and trimmed_too.any()
    np.testing.assert_allclose(some[at_once], first[at_once], atol=1e-5)
    np.testing.assert_allclose(some[after_turns], turns[after_turns], atol=1e-5)
    np.testing.assert_allclose(some[trimmed_too], every[trimmed_too], atol=1e-5)
    one = TileClassifier(CLASSIFIER_PATH, sure=1.01, trimmed_most=1).probabilities(crops)
    least = int(turns.max(1).argmin())  # the budget goes to the least sure crop
    np.testing.assert_allclose(one[least], every[least], atol=1e-5)
    rest = np.arange(len(crops)) != least
    np.testing.assert_allclose(one[rest], turns[rest], atol=1e-5)


def test_the_second_classifier_reads_the_least_sure_crops_below_its_bar() -> None:
    from vision.classifier import TileClassifier
    from vision.reader import SECOND_LOOK_PATH

    crops = _face_up_crops()
    first = TileClassifier(CLASSIFIER_PATH).probabilities(crops)
    second = TileClassifier(SECOND_LOOK_PATH, turns=(0,), trim=0)
    seen = second.probabilities(crops)
    bar = float(np.median(first.max(1)))  # half the crops below it
    both = TileClassifier(CLASSIFIER_PATH, second=second, second_below=bar, second_most=len(crops))
    got = both.probabilities(crops)
    below = first.max(1) < bar
    assert 0 < below.sum() < len(crops)
    np.testing.assert_allclose(got[~below], first[~below], atol=1e-5)
    np.testing.assert_allclose(got[below], (first[below] + seen[below]) / 2, atol=1e-5)
    one = TileClassifier(CLASSIFIER_PATH, second=second, second_below=bar, second_most=1).probabilities(crops)
    least = int(first.max(1).argmin())  # a bound of one goes to the least sure crop
    np.testing.assert_allclose(one[least], got[least], atol=1e-5)
    rest = np.arange(len(crops)) != least
    np.testing.assert_allclose(one[rest], first[rest], atol=1e-5)


def test_a_second_classifier_naming_other_tiles_is_refused(tmp_path: Path) -> None:
    import onnx

    from vision.classifier import TileClassifier

    model = onnx.load(str(CLASSIFIER_PATH))
    for prop in model.metadata_props:
        if prop.key == "names":  # two classes swapped: the same network, other codes
            prop.value = prop.value.replace("'1m'", "'@'").replace("'2m'", "'1m'").replace("'@'", "'2m'")
    other = tmp_path / "other.onnx"
    onnx.save(model, str(other))
    with pytest.raises(ValueError, match="other.onnx"):
        TileClassifier(CLASSIFIER_PATH, second=TileClassifier(other))


@pytest.mark.parametrize("look,bound,option,path,most", [
    ("second", "second_most", "--second-look", "SECOND_LOOK_PATH", "SECOND_MOST"),
    ("numbers", "number_most", "--number-look", "NUMBER_LOOK_PATH", "NUMBER_MOST"),
])
def test_the_shipped_reader_takes_a_bounded_look_and_the_cli_can_leave_it_out(look: str, bound: str, option: str,
                                                                             path: str, most: str) -> None:
    import vision.classifier
    import vision.reader
    from mahjongero.cli import build_parser
    from mahjongero.commands._classifier import classifier_from

    assert getattr(TileReader().classifier, look) is not None
    args = build_parser().parse_args(["eval", "--crops", "x"])
    picture, crops = classifier_from(args), classifier_from(args, crops=True)
    assert getattr(picture, look).model.path == getattr(vision.reader, path)
    assert getattr(picture, bound) == getattr(vision.classifier, most)  # a picture: the least sure few
    assert getattr(crops, bound) > 10**6  # crops cut beforehand: every unsure one
    assert getattr(classifier_from(build_parser().parse_args(["eval", option, "none"])), look) is None


def _all_face_up_crops() -> list[np.ndarray]:
    """Crops of the face-up tiles of every committed rendered image (five flowers and seasons
    among them), on their true boxes."""
    crops: list[np.ndarray] = []
    for side in sorted((DATA / "labels").glob("*.json")):
        tiles = [t for t in json.loads(side.read_text())["tiles"] if t["face"] == "up"]
        crops += crop_boxes(load_image(DATA / "images" / f"{side.stem}.jpg"), np.array([t["box"] for t in tiles]))
    return crops


def test_the_flower_look_splits_only_the_flower_share_of_likely_flowers() -> None:
    from vision.classifier import TileClassifier
    from vision.reader import FLOWER_LOOK_PATH, SECOND_LOOK_PATH

    crops = _all_face_up_crops()
    second = TileClassifier(SECOND_LOOK_PATH, turns=(0,), trim=0)
    flowers = TileClassifier(FLOWER_LOOK_PATH, turns=(0,), trim=0)
    before = TileClassifier(CLASSIFIER_PATH, second=second, sure=1.01).probabilities(crops)
    after = TileClassifier(CLASSIFIER_PATH, second=second, sure=1.01, flowers=flowers, flower_from=0.3,
                           flower_say=0.4).probabilities(crops)  # every crop unsure: each likely flower looked at
    codes = TileClassifier(CLASSIFIER_PATH).codes
    cols = np.array([int(np.flatnonzero(codes == code)[0]) for code in flowers.codes])  # the look's order
    others = np.ones(len(codes), bool)
    others[cols] = False
    assert len(cols) == 8
    mass = before[:, cols].sum(1)
    asked = mass >= 0.3
    assert 0 < asked.sum() < len(crops)
    np.testing.assert_allclose(after[~asked], before[~asked], atol=1e-6)  # no flower: not looked at
    np.testing.assert_allclose(after[:, others], before[:, others], atol=1e-6)  # the other tiles keep theirs
    np.testing.assert_allclose(after[:, cols].sum(1), mass, atol=1e-5)  # the flowers' share is only split
    seen = flowers.probabilities([c for c, a in zip(crops, asked, strict=True) if a])
    want = 0.6 * before[asked][:, cols] + 0.4 * mass[asked, None] * seen
    np.testing.assert_allclose(after[asked][:, cols], want, atol=1e-5)
    surely = TileClassifier(CLASSIFIER_PATH, second=second)  # a crop named surely is left as it is
    sure = surely.probabilities(crops).max(1) >= surely.sure
    assert sure.any()
    np.testing.assert_allclose(TileClassifier(CLASSIFIER_PATH, second=second, flowers=flowers, flower_from=0.0)
                               .probabilities(crops)[sure], surely.probabilities(crops)[sure], atol=1e-6)


def test_the_number_look_splits_its_share_of_the_least_sure_crops_after_the_flower_look() -> None:
    from vision.classifier import TileClassifier
    from vision.reader import FLOWER_LOOK_PATH, NUMBER_LOOK_PATH, SECOND_LOOK_PATH

    crops = _all_face_up_crops()
    second = TileClassifier(SECOND_LOOK_PATH, turns=(0,), trim=0)
    flowers = TileClassifier(FLOWER_LOOK_PATH, turns=(0,), trim=0)
    numbers = TileClassifier(NUMBER_LOOK_PATH, turns=(0,), trim=0)

    def reading(**look: object) -> np.ndarray:  # every crop unsure: each likely one looked at
        return TileClassifier(CLASSIFIER_PATH, second=second, sure=1.01, flowers=flowers, **look).probabilities(crops)

    before = reading()
    after = reading(numbers=numbers, number_from=0.3, number_say=0.3, number_most=len(crops))
    codes = TileClassifier(CLASSIFIER_PATH).codes
    cols = np.array([int(np.flatnonzero(codes == code)[0]) for code in numbers.codes])  # the look's order
    assert len(cols) == 25
    others = np.ones(len(codes), bool)
    others[cols] = False
    mass = before[:, cols].sum(1)
    asked = mass >= 0.3
    assert 1 < asked.sum() < len(crops)
    np.testing.assert_allclose(after[~asked], before[~asked], atol=1e-6)  # none of its tiles: not looked at
    np.testing.assert_allclose(after[:, others], before[:, others], atol=1e-6)  # the other tiles keep theirs
    np.testing.assert_allclose(after[:, cols].sum(1), mass, atol=1e-5)  # its tiles' share is only split
    seen = numbers.probabilities([c for c, a in zip(crops, asked, strict=True) if a])
    want = 0.7 * before[asked][:, cols] + 0.3 * mass[asked, None] * seen
    np.testing.assert_allclose(after[asked][:, cols], want, atol=1e-5)
    one = reading(numbers=numbers, number_from=0.3, number_say=0.3, number_most=1)
    least = int(np.where(asked, before.max(1), 2.0).argmin())  # a bound of one goes to the least sure
    np.testing.assert_allclose(one[least], after[least], atol=1e-5)
    rest = np.arange(len(crops)) != least
    np.testing.assert_allclose(one[rest], before[rest], atol=1e-6)


def test_a_flower_look_naming_tiles_the_classifier_does_not_is_refused() -> None:
    from vision.classifier import TileClassifier
    from vision.reader import FLOWER_LOOK_PATH

    with pytest.raises(ValueError, match="classifier.onnx"):  # 64 classes cannot split 8 classes' share
        TileClassifier(FLOWER_LOOK_PATH, flowers=TileClassifier(CLASSIFIER_PATH))


def test_the_shipped_reader_takes_the_flower_look_and_the_cli_can_leave_it_out() -> None:
    from mahjongero.cli import build_parser
    from mahjongero.commands._classifier import classifier_from
    from vision.reader import FLOWER_LOOK_PATH

    assert TileReader().classifier.flowers is not None
    picture = classifier_from(build_parser().parse_args(["eval", "--crops", "x"]))
    assert picture.flowers is not None and picture.flowers.model.path == FLOWER_LOOK_PATH
    assert classifier_from(build_parser().parse_args(["eval", "--flower-look", "none"])).flowers is None


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mahjongero", *args], capture_output=True, text=True, cwd=ROOT
    )


def test_cli_detect_json() -> None:
    img = sorted((DATA / "images").glob("*.jpg"))[0]
    out = _cli("detect", str(img), "--json")
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)["tiles"]
    assert rows and set(rows[0]) >= {"box", "tile", "confidence", "face"}
    up = [r for r in rows if r["face"] == "up"]
    assert up and all(r["runner_up"] != r["tile"] and 0 <= r["runner_up_confidence"] <= 1 for r in up)
    assert all("runner_up" not in r for r in rows if r["face"] == "down")  # a back is surely a back


def test_cli_detect_table_says_how_sure_and_the_runner_up() -> None:
    img = sorted((DATA / "images").glob("*.jpg"))[0]
    out = _cli("detect", str(img))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].endswith(f"tiles in {img}")
    up = r"\s+\w\w up\s+found [01]\.\d\d\s+\[[\d, ]+\]\s+named [01]\.\d\d, or \w\w [01]\.\d\d"
    down = r"\s+1x down\s+found [01]\.\d\d\s+\[[\d, ]+\]\s+named 1\.00"
    assert len(lines) == 1 + int(lines[0].split()[0])
    assert all(re.fullmatch(up, line) or re.fullmatch(down, line) for line in lines[1:]), out.stdout
    assert any(re.fullmatch(up, line) for line in lines[1:])


def test_cli_detect_gives_a_big_photos_boxes_in_its_own_pixels(tmp_path: Path) -> None:
    """A phone's 12 MP JPEG is read decoded at half size (``vision.imageio.load_photo``), and
    its boxes are scaled back: they fall on the tiles the small picture's boxes fall on."""
    import cv2

    from vision.detections import box_iou

    img = DATA / "images" / "hand_7_1.jpg"
    small = load_image(img)
    big = tmp_path / "phone.jpg"
    factor = 4032 / small.shape[1]
    cv2.imwrite(str(big), cv2.resize(small, None, fx=factor, fy=factor, interpolation=cv2.INTER_CUBIC))
    out = _cli("detect", str(big), "--json")
    assert out.returncode == 0, out.stderr
    boxes = np.array([r["box"] for r in json.loads(out.stdout)["tiles"]])
    assert boxes[:, [0, 2]].max() <= 4032 and boxes[:, 2].max() > 2 * small.shape[1]
    expected = TileReader()(small).xyxy * factor
    assert (box_iou(expected, boxes).max(1) >= 0.7).mean() >= 0.9


def test_cli_bad_input_names_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "notes.jpg"
    bad.write_text("hello")
    out = _cli("detect", str(bad))
    assert out.returncode == 2 and "notes.jpg" in out.stderr and "Traceback" not in out.stderr
    out = _cli("classify", str(bad))
    assert out.returncode == 2 and "notes.jpg" in out.stderr


def test_serving_path_imports_no_torch() -> None:
    img = sorted((DATA / "images").glob("*.jpg"))[0]
    code = (
        "import sys; from vision.reader import TileReader; from vision.imageio import load_image;"
        f"TileReader()(load_image({str(img)!r}));"
        "assert 'torch' not in sys.modules and 'ultralytics' not in sys.modules, 'torch loaded'"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
