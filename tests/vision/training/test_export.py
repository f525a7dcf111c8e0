"""The classifier's ONNX gains a ``features`` output; its probabilities do not change."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("onnx")

from vision.classifier import TileClassifier  # noqa: E402
from vision.reader import CLASSIFIER_PATH, DETECTOR_PATH  # noqa: E402
from vision.training.train import add_features_output  # noqa: E402


def _strip_features(src: Path, dest: Path) -> None:
    """The classifier as ultralytics exports it: one output, the probabilities."""
    import onnx

    model = onnx.load(str(src))
    keep = [o for o in model.graph.output if o.name != "features"]
    del model.graph.output[:]
    model.graph.output.extend(keep)
    onnx.save(model, str(dest))


def test_features_output_is_added_once_and_keeps_the_probabilities(tmp_path: Path) -> None:
    plain = tmp_path / "plain.onnx"
    _strip_features(CLASSIFIER_PATH, plain)
    assert not TileClassifier(plain).has_features
    with pytest.raises(ValueError, match="no 'features' output"):
        TileClassifier(plain).features([np.zeros((40, 30, 3), np.uint8)])
    patched = tmp_path / "patched.onnx"
    shutil.copy(plain, patched)
    assert add_features_output(patched) and add_features_output(patched)  # the second time: already there
    crops = [np.random.default_rng(k).integers(0, 256, (50, 38, 3), dtype=np.uint8) for k in range(6)]
    before, after = TileClassifier(plain), TileClassifier(patched)
    assert np.array_equal(before.probabilities(crops), after.probabilities(crops))
    assert after.features(crops).shape == (6, 1280)


def test_the_detector_is_left_alone(tmp_path: Path) -> None:
    copy = tmp_path / "det.onnx"
    shutil.copy(DETECTOR_PATH, copy)
    assert not add_features_output(copy)
    assert copy.read_bytes() == DETECTOR_PATH.read_bytes()


def test_weights_stored_in_half_keep_the_readings_in_half_the_file(tmp_path: Path) -> None:
    from vision.onnx_runtime import OnnxModel
    from vision.training.train import store_half_weights

    half = tmp_path / "half.onnx"
    shutil.copy(DETECTOR_PATH, half)  # the shipped detector is stored in float32
    assert store_half_weights(half) > 100
    assert half.stat().st_size < 0.55 * DETECTOR_PATH.stat().st_size
    before = half.read_bytes()
    assert store_half_weights(half) == 0 and half.read_bytes() == before  # already in half
    x = np.random.default_rng(0).random((1, 3, 256, 320), dtype=np.float32)
    full, halved = OnnxModel(DETECTOR_PATH)(x), OnnxModel(half)(x)
    np.testing.assert_allclose(halved[:, :4], full[:, :4], atol=1.0)  # boxes, in input pixels
    np.testing.assert_allclose(halved[:, 4:], full[:, 4:], atol=0.01)  # class scores


def test_the_shipped_classifier_is_stored_in_half(tmp_path: Path) -> None:
    from vision.training.train import store_half_weights

    copy = tmp_path / CLASSIFIER_PATH.name
    shutil.copy(CLASSIFIER_PATH, copy)
    assert store_half_weights(copy) == 0
    assert TileClassifier(CLASSIFIER_PATH).has_features  # the probe's output survives


def _one_conv(path: Path, weights: np.ndarray) -> Path:
    """A model of one convolution with ``weights`` and a bias, in float32."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    bias = np.linspace(-1, 1, len(weights), dtype=np.float32)
    graph = helper.make_graph(
        [helper.make_node("Conv", ["x", "w", "b"], ["y"], pads=[1, 1, 1, 1])], "one_conv",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, weights.shape[1], 8, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, len(weights), 8, 8])],
        [numpy_helper.from_array(weights, "w"), numpy_helper.from_array(bias, "b")])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))
    return path


def test_weights_stored_in_int8_are_each_channels_steps_in_a_quarter_of_the_file(tmp_path: Path) -> None:
    from vision.onnx_runtime import OnnxModel
    from vision.training.train import store_int8_weights

    rng = np.random.default_rng(0)
    weights = (rng.normal(size=(16, 8, 3, 3)) * np.linspace(0.01, 3, 16)[:, None, None, None]).astype(np.float32)
    stored = _one_conv(tmp_path / "int8.onnx", weights)
    size = stored.stat().st_size
    assert store_int8_weights(stored) == 1  # the weights; the bias (one value a channel) stays
    assert stored.stat().st_size < 0.4 * size
    assert store_int8_weights(stored) == 0  # stored so already
    step = np.abs(weights).reshape(16, -1).max(1) / 127  # each output channel's own step
    rounded = np.round(weights / step[:, None, None, None]) * step[:, None, None, None]
    assert (np.abs(rounded - weights) <= step[:, None, None, None] / 2 + 1e-7).all()
    x = rng.random((1, 8, 8, 8), dtype=np.float32)
    want = OnnxModel(_one_conv(tmp_path / "rounded.onnx", rounded.astype(np.float32)))(x)
    np.testing.assert_allclose(OnnxModel(stored)(x), want, atol=1e-4)  # computed in float32 on the steps
    from vision.training.warmstart import onnx_weights

    back, _ = onnx_weights(stored)  # a warm start from it reads the rounded weights back
    assert sorted(back) == ["b", "w"]
    np.testing.assert_allclose(back["w"], rounded, atol=1e-6)


def test_a_model_stored_in_half_is_stored_in_int8_from_its_half_weights(tmp_path: Path) -> None:
    from vision.training.train import store_half_weights, store_int8_weights

    weights = (np.random.default_rng(1).normal(size=(16, 8, 3, 3)) * 0.3).astype(np.float32)
    via_half = _one_conv(tmp_path / "via_half.onnx", weights)
    assert store_half_weights(via_half) == 2  # the weights and the bias
    assert store_int8_weights(via_half) == 1  # the weights again, now in int8; the bias stays in half
    direct = _one_conv(tmp_path / "direct.onnx", weights.astype(np.float16).astype(np.float32))
    assert store_int8_weights(direct) == 1
    from vision.training.warmstart import onnx_weights

    (a, _), (b, _) = onnx_weights(via_half), onnx_weights(direct)
    assert sorted(a) == sorted(b) == ["b", "w"]
    np.testing.assert_array_equal(a["w"], b["w"])  # the same steps as from the half weights in float32


def test_the_shipped_looks_are_stored_in_int8(tmp_path: Path) -> None:
    from vision.reader import FLOWER_LOOK_PATH, NUMBER_LOOK_PATH, SECOND_LOOK_PATH
    from vision.training.train import store_int8_weights

    for shipped in (SECOND_LOOK_PATH, FLOWER_LOOK_PATH, NUMBER_LOOK_PATH):
        copy = tmp_path / shipped.name
        shutil.copy(shipped, copy)
        assert store_int8_weights(copy) == 0, shipped
        assert shipped.stat().st_size < 2_000_000, shipped


def _tiny_classifier(path: Path, names: list[str]) -> Path:
    """A classifier as ultralytics exports one: features, then Gemm and Softmax, and its
    class names in the metadata."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(2)
    weight = rng.normal(size=(len(names), 6)).astype(np.float32)
    bias = rng.normal(size=len(names)).astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["f"]), helper.make_node("Gemm", ["f", "w", "b"], ["logits"], transB=1),
         helper.make_node("Softmax", ["logits"], ["output0"], axis=1)], "tiny",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 6])],
        [helper.make_tensor_value_info("output0", TensorProto.FLOAT, ["batch", len(names)])],
        [numpy_helper.from_array(weight, "w"), numpy_helper.from_array(bias, "b")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    helper.set_model_props(model, {"names": repr(dict(enumerate(names)))})
    onnx.save(model, str(path))
    return path


def test_a_classifier_kept_to_some_classes_splits_all_its_probability_among_them(tmp_path: Path) -> None:
    from vision.onnx_runtime import OnnxModel
    from vision.training.train import keep_classes

    names = ["1f", "1m", "2f", "2m", "3j"]
    full = OnnxModel(_tiny_classifier(tmp_path / "full.onnx", names))
    kept = _tiny_classifier(tmp_path / "kept.onnx", names)
    assert keep_classes(kept, ["3j", "1m", "2m"]) == 3
    narrow = OnnxModel(kept)
    assert narrow.names == {0: "1m", 1: "2m", 2: "3j"}  # in the model's own order
    x = np.random.default_rng(3).normal(size=(4, 6)).astype(np.float32)
    every, some = full(x), narrow(x)
    want = every[:, [1, 3, 4]] / every[:, [1, 3, 4]].sum(1, keepdims=True)
    np.testing.assert_allclose(some, want, atol=1e-6)
    with pytest.raises(ValueError, match="9m"):
        keep_classes(kept, ["1m", "9m"])
    with pytest.raises(ValueError, match="Gemm and Softmax"):  # not a classifier: a convolution alone
        keep_classes(_one_conv(tmp_path / "conv.onnx", np.ones((2, 1, 3, 3), np.float32)), ["1m"])


def test_the_shipped_number_look_names_the_characters_jokers_and_royals() -> None:
    from vision.reader import NUMBER_LOOK_PATH

    look = TileClassifier(NUMBER_LOOK_PATH)
    named = sorted(look.model.names.values())
    assert len(named) == 25 and {n[-1] for n in named} == {"m", "j", "r"}
    assert look.size == 128
