"""``mahjongero waits``: readable, JSON and batch forms."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from mahjongero.cli import main


def test_readable(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["waits", "46m 123p456p789s11z", "--variant", "singapore"]) == 0
    out = capsys.readouterr().out
    assert "5m" in out and "5 characters" in out and "middle" in out


def test_not_ready_says_shanten(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["waits", "123m456p789s1135z"]) == 0
    assert "shanten 1" in capsys.readouterr().out


def test_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["waits", "123456789m123p4456s", "--variant", "filipino", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ready"] and data["shanten"] == 0
    assert data["waits"] == [
        {"tile": "4s", "name": "4 bamboo", "shapes": ["open-ended", "single"]},
        {"tile": "7s", "name": "7 bamboo", "shapes": ["open-ended"]},
    ]


def test_table_rule(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["waits", "12m 123456789s 123p 4p 5p", "--variant", "filipino", "--rule", "joker=5p", "--json"]) == 0
    assert [w["tile"] for w in json.loads(capsys.readouterr().out)["waits"]] == ["3m", "1p", "4p", "5p"]


def test_batch_file_and_stdin(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "hands.txt"
    path.write_text("123m456p789s1122z\n\n12q\n19m19p19s1234567z\n", encoding="utf-8")
    assert main(["waits", "--batch", str(path)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == 3
    assert [w["tile"] for w in lines[0]["waits"]] == ["1z", "2z"]
    assert lines[1]["hand"] == "12q" and "12q" in lines[1]["error"]
    assert len(lines[2]["waits"]) == 13
    monkeypatch.setattr("sys.stdin", io.StringIO("46m123p456p789s11z\n"))
    assert main(["waits", "--batch", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["waits"][0]["shapes"] == ["middle"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["waits", "123m", "--variant", "klingon"], "klingon"),
        (["waits", "12q"], "12q"),
        (["waits", "123m", "--rule", "joker"], "joker"),
        (["waits"], "give a hand"),
    ],
)
def test_errors_exit_2(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_complete_hand_lists_arrangements(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["waits", "111222333m789p11z", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["complete"] and data["shanten"] == -1 and data["waits"] == []
    assert sorted(a["groups"] for a in data["arrangements"]) == ["111m 222m 333m 789p 11z", "123m 123m 123m 789p 11z"]


def test_complete_hand_is_said_in_words_with_each_arrangement(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["waits", "11112222333344m", "--variant", "singapore"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "11112222333344m  (singapore, 13-tile hands)",
        "  complete: a winning hand, arranged as",
        "    123m 123m 123m 123m 44m  (standard)",
        "    11m 123m 123m 234m 234m  (standard)",
        "    111m 123m 222m 333m 44m  (standard)",
    ]
