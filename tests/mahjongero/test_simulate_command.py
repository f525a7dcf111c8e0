"""``mahjongero simulate`` end to end through the CLI entry point."""

from __future__ import annotations

import json

import pytest

from mahjongero.cli import main


def test_simulate_json_reports_every_hand(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--variant", "visayan", "--games", "3", "--seed", "4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 3 and data["variant"] == "visayan"
    assert data["draws"] + sum(data["wins"].values()) == 3
    assert abs(sum(data["mean_payout"].values())) < 1e-9  # money only moves between players
    assert data["games_per_second"] > 0


def test_simulate_text_and_random_bots(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--variant", "sg", "--games", "2", "--bot", "random"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("singaporean: 2 hands with random bots") and "games/s" in out


def test_simulate_bad_input_is_a_clean_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--variant", "mahjong-solitaire", "--games", "1"]) == 2
    assert "unknown variant 'mahjong-solitaire'" in capsys.readouterr().err
    assert main(["simulate", "--games", "0"]) == 2
    assert "--games must be at least 1" in capsys.readouterr().err
