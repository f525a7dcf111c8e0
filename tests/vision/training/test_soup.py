"""Model soups: an ONNX network whose float weights are the weighted mean of its parts'."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")

from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from vision.training.soup import SoupError, parse_part, soup  # noqa: E402


def _net(path: Path, weight: float, shape: tuple[int, ...] = (1, 2, 1, 1), flat: int = -1) -> Path:
    """A 1x1 convolution of 2 channels into 1, then a reshape: one float and one int initializer."""
    w = numpy_helper.from_array(np.full(shape, weight, dtype=np.float32), "w")
    b = numpy_helper.from_array(np.array([weight], dtype=np.float32), "b")
    s = numpy_helper.from_array(np.array([1, flat], dtype=np.int64), "s")
    graph = helper.make_graph(
        [helper.make_node("Conv", ["x", "w", "b"], ["c"]), helper.make_node("Reshape", ["c", "s"], ["y"])],
        "net",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 2, 2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        [w, b, s],
    )
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))
    return path


def _weights(path: Path) -> dict[str, np.ndarray]:
    return {t.name: numpy_helper.to_array(t) for t in onnx.load(str(path)).graph.initializer}


def test_a_soup_is_the_weighted_mean_of_its_parts_and_runs(tmp_path: Path) -> None:
    a, b = _net(tmp_path / "a.onnx", 1.0), _net(tmp_path / "b.onnx", 3.0)
    out = soup([(a, 1.0), (b, 3.0)], tmp_path / "soup.onnx")
    w = _weights(out)
    assert np.allclose(w["w"], 2.5) and np.allclose(w["b"], 2.5)
    assert w["s"].tolist() == [1, -1]
    from vision.onnx_runtime import OnnxModel

    x = np.ones((1, 2, 2, 2), dtype=np.float32)
    assert np.allclose(OnnxModel(out)(x), 2.5 * 2 + 2.5)  # two channels of 1 times 2.5, plus the bias


def test_a_soup_of_one_network_is_that_network(tmp_path: Path) -> None:
    a = _net(tmp_path / "a.onnx", 0.7)
    w = _weights(soup([(a, 1.0), (a, 2.0)], tmp_path / "soup.onnx"))
    assert all(np.array_equal(w[k], v) for k, v in _weights(a).items())


def test_networks_of_other_shapes_are_refused_by_name(tmp_path: Path) -> None:
    a = _net(tmp_path / "a.onnx", 1.0)
    wide = _net(tmp_path / "wide.onnx", 1.0, shape=(1, 2, 3, 3))
    with pytest.raises(SoupError, match=r"tensor 'w' of '.*wide.onnx'"):
        soup([(a, 1.0), (wide, 1.0)], tmp_path / "soup.onnx")
    other = _net(tmp_path / "other.onnx", 1.0, flat=4)
    with pytest.raises(SoupError, match=r"tensor 's' of '.*other.onnx' differs"):
        soup([(a, 1.0), (other, 1.0)], tmp_path / "soup.onnx")


def test_a_weight_must_be_positive() -> None:
    with pytest.raises(SoupError, match="'0' of 'a.onnx'"):
        parse_part("a.onnx:0")
    with pytest.raises(ValueError, match="positive"):
        soup([(Path("a.onnx"), -1.0)], Path("out.onnx"))
    assert parse_part("c:/x/a.onnx") == (Path("c:/x/a.onnx"), 1.0)


def test_the_command_names_a_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from vision.training.soup import main

    a = _net(tmp_path / "a.onnx", 1.0)
    assert main([str(tmp_path / "soup.onnx"), str(a), f"{tmp_path / 'gone.onnx'}:2"]) == 2
    assert "gone.onnx" in capsys.readouterr().err and not (tmp_path / "soup.onnx").exists()
    assert main([str(tmp_path / "soup.onnx"), f"{a}:1", f"{a}:3"]) == 0 and (tmp_path / "soup.onnx").is_file()


def test_checkpoints_are_mixed_before_their_batchnorms_are_folded(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    from vision.training.soup import soup_checkpoints

    def checkpoint(path: Path, value: float, seen: int) -> Path:
        net = torch.nn.Sequential(torch.nn.Conv2d(2, 1, 1), torch.nn.BatchNorm2d(1))
        for t in net.state_dict().values():
            t.fill_(seen if not t.is_floating_point() else value)
        torch.save({"model": net, "epoch": seen, "ema": net}, path)
        return path

    start, tuned = checkpoint(tmp_path / "a.pt", 1.0, 3), checkpoint(tmp_path / "b.pt", 5.0, 9)
    out = soup_checkpoints([(start, 0.75), (tuned, 0.25)], tmp_path / "mix.pt")
    mixed = torch.load(out, weights_only=False)
    state = mixed["model"].state_dict()
    assert mixed["epoch"] == 9 and mixed["ema"] is None  # the fine-tune's record, its own net only
    assert state["1.running_var"].dtype == torch.float16
    assert all(float(t.float().mean()) == 2.0 for t in state.values() if t.is_floating_point())
    assert int(state["1.num_batches_tracked"]) == 9
    other = tmp_path / "other.pt"
    torch.save({"model": torch.nn.Sequential(torch.nn.Conv2d(2, 1, 1))}, other)
    with pytest.raises(SoupError, match="running_mean"):
        soup_checkpoints([(start, 1.0), (other, 1.0)], tmp_path / "bad.pt")
