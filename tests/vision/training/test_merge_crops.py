"""Merging crops shards rendered with different seeds (they reuse file names)."""

from __future__ import annotations

from pathlib import Path

import pytest

from vision.training.merge_crops import main, merge_trees


def _shard(root: Path, name: str, files: dict[str, bytes]) -> Path:
    src = root / name
    for rel, data in files.items():
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_bytes(data)
    return src


def test_same_names_in_two_shards_are_both_kept(tmp_path: Path) -> None:
    a = _shard(tmp_path, "a", {"train/1m/000001.png": b"A1", "val/1x/000002.png": b"A2"})
    b = _shard(tmp_path, "b", {"train/1m/000001.png": b"B1", "train/readme.txt": b"skip"})
    dest = tmp_path / "merged"
    assert merge_trees([a, b], dest) == 3
    assert (dest / "train/1m/a_000001.png").read_bytes() == b"A1"
    assert (dest / "train/1m/b_000001.png").read_bytes() == b"B1"
    assert (dest / "val/1x/a_000002.png").read_bytes() == b"A2"
    assert not list(dest.rglob("*.txt"))


def test_running_again_resumes_without_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = _shard(tmp_path, "a", {"train/5z/x.png": b"x"})
    dest = tmp_path / "merged"
    assert main([str(a), "--out", str(dest)]) == 0
    assert main([str(a), "--out", str(dest)]) == 0
    assert "1 crops linked" in capsys.readouterr().out
    assert [p.name for p in dest.rglob("*.png")] == ["a_x.png"]
