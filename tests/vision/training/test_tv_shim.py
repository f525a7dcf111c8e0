"""The torchvision NMS shim: registers only when needed, and matches a reference NMS."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from vision.training import tv_shim  # noqa: E402


def _random_boxes(n: int, seed: int) -> tuple:
    g = torch.Generator().manual_seed(seed)
    xy = torch.rand(n, 2, generator=g) * 100
    wh = torch.rand(n, 2, generator=g) * 30 + 1
    return torch.cat([xy, xy + wh], 1), torch.rand(n, generator=g)


def test_reference_nms_keeps_the_best_of_each_cluster() -> None:
    boxes = torch.tensor([[0, 0, 10, 10], [0.5, 0, 10.5, 10], [50, 50, 60, 60.0]])
    keep = tv_shim.nms_reference(boxes, torch.tensor([0.5, 0.9, 0.1]), 0.5)
    assert keep.tolist() == [1, 2]
    assert tv_shim.nms_reference(torch.zeros(0, 4), torch.zeros(0), 0.5).numel() == 0


def test_torchvision_nms_works_after_install() -> None:
    tv_shim.install()
    import torchvision

    for seed in range(3):
        boxes, scores = _random_boxes(200, seed)
        got = torchvision.ops.nms(boxes, scores, 0.45)
        want = tv_shim.nms_reference(boxes, scores, 0.45)
        assert got.tolist() == want.tolist()
        # no two kept boxes overlap more than the threshold
        iou = torchvision.ops.box_iou(boxes[got], boxes[got]).fill_diagonal_(0)
        assert float(iou.max()) <= 0.45


def test_install_is_idempotent() -> None:
    first = tv_shim.install()
    assert tv_shim.install() == first
    assert tv_shim.installed() == first
