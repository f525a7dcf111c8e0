"""Load and run golden cases (``tests/data/<variant>/golden.json``).

Each file has ``cases`` (scored wins), ``instants`` (ambitions) and ``errors``
(bad input and the error it must raise). Amounts are exact fraction strings.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import engine.scoring.errors as scoring_errors
from engine import ruleset as ruleset_module
from engine.ruleset import Ruleset, find_ruleset
from engine.scoring import InstantPayout, Score
from engine.seats import Seat

DATA = Path(__file__).resolve().parents[2] / "data"


def load(variant: str) -> dict[str, Any]:
    with open(DATA / variant / "golden.json", encoding="utf-8") as f:
        doc: dict[str, Any] = json.load(f)
    return doc


def ruleset_for(variant: str, case: dict[str, Any]) -> Ruleset:
    rules = case.get("rules", {})
    if "preset" in case:
        cls = type(find_ruleset(variant))
        return cls.preset(case["preset"], **rules)  # type: ignore[attr-defined, no-any-return]
    return find_ruleset(variant, **rules)


def seat_amounts(raw: dict[str, str]) -> dict[Seat, Fraction]:
    return {Seat.parse(k): Fraction(v) for k, v in raw.items()}


def score_case(variant: str, case: dict[str, Any]) -> Score:
    rs = ruleset_for(variant, case)
    return rs.score(
        case["hand"],
        win_tile=case["win_tile"],
        winner=case["winner"],
        self_drawn=case.get("self_drawn", False),
        discarder=case.get("discarder"),
        round_wind=case.get("round", "E"),
        dealer=case.get("dealer", "E"),
        **case.get("situation", {}),
    )


def instant_case(variant: str, case: dict[str, Any]) -> InstantPayout:
    rs = ruleset_for(variant, case)
    return rs.instant(
        case["kind"], case["seat"], dealer=case.get("dealer", "E"), tiles=case.get("tiles", ""),
        **case.get("situation", {}),
    )


def error_class(name: str) -> type[Exception]:
    for module in (scoring_errors, ruleset_module):
        if hasattr(module, name):
            cls: type[Exception] = getattr(module, name)
            return cls
    raise KeyError(name)


def run_error_case(variant: str, case: dict[str, Any]) -> None:
    if "kind" in case:
        instant_case(variant, case)
    else:
        score_case(variant, case)
