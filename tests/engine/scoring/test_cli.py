"""``mahjongero score``: readable breakdown, JSON, table rules, errors as exit 2."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from mahjongero.cli import main

EXAMPLE = "11m 345p 678s 789s [234m] [789p] / 3f4f 124z"


def test_readable_breakdown_of_the_002_example(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["score", EXAMPLE, "--variant", "filipino", "--win-tile", "9s", "--discarder", "E", "--seat", "S"])
    out = capsys.readouterr().out
    assert code == 0
    assert "winning (tódas): $1.00" in out and "all chows (all chow): $0.25" in out
    assert "East pays $2.50" in out and "West pays $1.25" in out and "South wins $5.00" in out


def test_json_output_with_preset_rule_and_situation(capsys: pytest.CaptureFixture[str]) -> None:
    code = main([
        "score", EXAMPLE, "--variant", "filipino", "--win-tile", "9s", "--self-drawn", "--seat", "S",
        "--preset", "001", "--rule", "jai_alai=on", "--situation", "discards_before_win=4", "--json",
    ])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0
    assert {p["name"]: p["value"] for p in doc["patterns"]} == {"winning": "1", "all chows": "1/4", "quick win": "1"}
    assert doc["value"] == "9/4"
    assert doc["payments"] == {"East": "-9/2", "South": "27/2", "West": "-9/2", "North": "-9/2"}
    assert doc["markers"] == 2


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--win-tile", "9s", "--discarder", "S", "--seat", "S"], "discarder South cannot be the winner"),
        (["--win-tile", "9s", "--seat", "S"], "--self-drawn or --discarder"),
        (["--win-tile", "9s", "--self-drawn", "--rule", "bao=1"], "no table rule 'bao'"),
        (["--win-tile", "9s", "--self-drawn", "--rule", "bao"], "'bao' is not NAME=VALUE"),
        (["--self-drawn"], "--win-tile is required (the tile that completed the hand)"),
        (["--win-tile", "9s", "--self-drawn", "--preset", "house"], "no preset 'house' (known: default, 001, 002)"),
    ],
)
def test_bad_input_is_an_error_line_and_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["score", EXAMPLE, *argv]) == 2
    assert message in capsys.readouterr().err


def test_a_photo_path_goes_to_the_photo_scorer_or_says_it_is_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys
    import types

    photo = tmp_path / "table.jpg"
    photo.write_bytes(b"not really a jpeg")
    fake = types.ModuleType("mahjongero.commands._photo")
    seen: list[str] = []
    fake.score_photo = lambda args: seen.append(args.hand) or 0  # type: ignore[attr-defined]
    fake.register = lambda sub: None  # type: ignore[attr-defined]  # the CLI registers every module
    monkeypatch.setitem(sys.modules, "mahjongero.commands._photo", fake)
    assert main(["score", str(photo), "--win-tile", "9s", "--self-drawn"]) == 0
    assert seen == [str(photo)]
    from mahjongero.commands import score

    monkeypatch.setitem(sys.modules, "mahjongero.commands._photo", None)  # as if not installed
    with pytest.raises(ValueError, match="photo scoring not available"):
        score.run(argparse.Namespace(hand=str(photo)))
