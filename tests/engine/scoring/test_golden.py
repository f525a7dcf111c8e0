"""Golden hands for Filipino and Visayan: every worked example of docs 000-002,
every pattern, every ambition and every table-rule option (tests/data/<variant>/)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from engine.ruleset import find_ruleset
from engine.scoring.filipino import FILIPINO_PATTERNS
from engine.seats import Seat
from tests.engine.scoring.golden import (
    error_class,
    instant_case,
    load,
    run_error_case,
    score_case,
    seat_amounts,
)

VARIANTS = ("filipino", "visayan")
DOCS = {v: load(v) for v in VARIANTS}


def _params(section: str) -> list[Any]:
    return [
        pytest.param(variant, case, id=f"{variant}-{case['id']}")
        for variant in VARIANTS
        for case in DOCS[variant][section]
    ]


@pytest.mark.parametrize(("variant", "case"), _params("cases"))
def test_golden_hand(variant: str, case: dict[str, Any]) -> None:
    score = score_case(variant, case)
    got = {name: str(value) for name, value in score.patterns}
    assert got == case["patterns"], case["reason"]
    assert score.value == Fraction(case["value"]), case["reason"]
    assert score.payments == seat_amounts(case["payments"]), case["reason"]
    instants = {i.kind: str(i.payments[score.winner]) for i in score.instants}
    assert instants == case["instants"], case["reason"]
    assert score.markers == case.get("markers", 0)
    assert score.jai_alai_won == case.get("jai_alai_won", False)


@pytest.mark.parametrize(("variant", "case"), _params("instants"))
def test_golden_instant(variant: str, case: dict[str, Any]) -> None:
    payout = instant_case(variant, case)
    assert payout.payments == seat_amounts(case["payments"]), case["reason"]
    assert payout.gift == case["gift"]


@pytest.mark.parametrize(("variant", "case"), _params("errors"))
def test_golden_error(variant: str, case: dict[str, Any]) -> None:
    with pytest.raises(error_class(case["error"]), match=case["message"]) as info:
        run_error_case(variant, case)
    assert isinstance(info.value, ValueError)


def test_the_002_worked_example_totals_five_dollars() -> None:
    """002: 'The responsible player will pay double the value of the hand, $2.50.
    The others will pay $1.25. Total winnings: $5.00.'"""
    score = find_ruleset("filipino").score(
        "11m 345p 678s 789s [234m] [789p] / 3f4f 124z", win_tile="9s", winner="S", discarder="E"
    )
    assert score.value == Fraction(5, 4)
    assert score.payments[Seat.EAST] == Fraction(-5, 2)
    assert score.payments[Seat.WEST] == score.payments[Seat.NORTH] == Fraction(-5, 4)
    assert score.total == 5


@pytest.mark.parametrize("variant", VARIANTS)
def test_golden_cases_cover_every_pattern(variant: str) -> None:
    seen = {name for case in DOCS[variant]["cases"] for name in case["patterns"]}
    names = {p.name for p in FILIPINO_PATTERNS}
    if variant == "visayan":  # 001's single (eye only) is 000's single too: same name
        names.discard("single")
        seen.discard("single")
    assert names - seen == set()


@pytest.mark.parametrize("variant", VARIANTS)
def test_golden_data_covers_every_table_rule(variant: str) -> None:
    rs = find_ruleset(variant)
    changed: set[str] = set()
    for section in ("cases", "errors"):
        for case in DOCS[variant][section]:
            changed.update(k for k in case.get("rules", {}) if k in rs.table_rules)
            if "preset" in case:
                changed.update(type(rs).presets[case["preset"]])  # type: ignore[attr-defined]
    assert set(rs.table_rules) - changed == set()


@pytest.mark.parametrize("variant", VARIANTS)
def test_golden_data_covers_every_ambition(variant: str) -> None:
    kinds = {i["kind"].lower() for i in DOCS[variant]["instants"]}
    kinds |= {c["instants"] and next(iter(c["instants"])) or "" for c in DOCS[variant]["cases"]}
    rs = find_ruleset(variant)
    assert {k for k in rs.instant_kinds if not any(rs.find_ambition(k).matches(x) for x in kinds)} == set()


@pytest.mark.parametrize("variant", VARIANTS)
def test_at_least_25_golden_hands(variant: str) -> None:
    assert len(DOCS[variant]["cases"]) >= 25
    assert all(case["reason"].strip() for case in DOCS[variant]["cases"])


@pytest.mark.parametrize("variant", VARIANTS)
def test_rules_index_lists_every_table_rule_with_its_default(variant: str) -> None:
    """docs/rules/README.md stays in step with the code."""
    from pathlib import Path

    index = (Path(__file__).resolve().parents[3] / "docs" / "rules" / "README.md").read_text(encoding="utf-8")
    rs = find_ruleset(variant)
    for name, rule in rs.table_rules.items():
        default = rule.default
        if isinstance(default, bool) or default is None:
            shown = {True: "true", False: "false", None: "none"}[default]
        else:
            shown = str(default)
        assert f"| {variant} | `{name}` |" in index, name
        row = next(line for line in index.splitlines() if line.startswith(f"| {variant} | `{name}` |"))
        assert f"| {shown} |" in row or f"| `{shown}` |" in row, (name, row)
