"""Singaporean scoring (doc 004): golden hands, instant payouts, payout-table oracle, properties."""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import scoring
from engine.hand import Hand, Meld, MeldKind
from engine.ruleset import TableRuleError, find_ruleset
from engine.scoring.singapore import SINGAPORE_PATTERNS
from engine.seats import Seat
from engine.tiles import Tile

GOLDEN = json.loads((Path(__file__).parents[2] / "data" / "singapore" / "golden.json").read_text("utf-8"))
SEATS = {"E": Seat.EAST, "S": Seat.SOUTH, "W": Seat.WEST, "N": Seat.NORTH}

# 004's payout tables, transcribed row by row: an oracle independent of base_payment().
DISCARD_TABLE = {1: (1, 2, 4), 2: (2, 4, 8), 3: (4, 8, 16), 4: (8, 16, 32), 5: (16, 32, 64), 10: (32, 64, 128)}
SELF_PICK_TABLE = {1: (2, 6), 2: (4, 12), 3: (8, 24), 4: (16, 48), 5: (32, 96), 10: (64, 192)}


def _score(case: dict[str, Any]) -> scoring.Score:
    rs = find_ruleset("singapore", **case.get("rules", {}))
    return rs.score(
        case["hand"], win_tile=case["win_tile"], winner=case["winner"],
        self_drawn=case.get("self_drawn", False), discarder=case.get("discarder"),
        round_wind=case.get("round", "E"), dealer=case.get("dealer", "E"), **case.get("situation", {}),
    )


def _payments(expected: dict[str, str]) -> dict[Seat, Fraction]:
    return {SEATS[k]: Fraction(v) for k, v in expected.items()}


@pytest.mark.parametrize("case", GOLDEN["cases"], ids=[c["id"] for c in GOLDEN["cases"]])
def test_golden_hand(case: dict[str, Any]) -> None:
    score = _score(case)
    assert dict(score.patterns) == {k: Fraction(v) for k, v in case["patterns"].items()}, case["reason"]
    assert score.value == Fraction(case["value"]), case["reason"]
    assert score.payments == _payments(case["payments"]), case["reason"]
    assert score.unit == "tai"


def _instant(case: dict[str, Any]) -> scoring.InstantPayout:
    rs = find_ruleset("singapore", **case.get("rules", {}))
    return rs.instant(case["kind"], case["seat"], dealer=case.get("dealer", "E"), tiles=case["tiles"],
                      **case.get("situation", {}))


@pytest.mark.parametrize("case", GOLDEN["instants"], ids=[c["id"] for c in GOLDEN["instants"]])
def test_golden_instant(case: dict[str, Any]) -> None:
    payout = _instant(case)
    assert payout.payments == _payments(case["payments"]), case["reason"]
    assert payout.gift == case["gift"]


@pytest.mark.parametrize("case", GOLDEN["errors"], ids=[c["id"] for c in GOLDEN["errors"]])
def test_golden_error(case: dict[str, Any]) -> None:
    with pytest.raises(getattr(scoring, case["error"]), match=case["message"]) as info:
        _instant(case) if "kind" in case else _score(case)
    assert isinstance(info.value, ValueError)


def test_golden_covers_every_pattern_and_rule() -> None:
    """Each pattern scores in some golden hand; each table rule is set off its default in one."""
    seen = {name for c in GOLDEN["cases"] for name in c.get("patterns", {})}
    assert {p.name for p in SINGAPORE_PATTERNS} - seen == set()
    rules = {name for c in GOLDEN["cases"] + GOLDEN["instants"] + GOLDEN["errors"] for name in c.get("rules", {})}
    assert rules == set(find_ruleset("singapore").table_rules)
    assert len(GOLDEN["cases"]) >= 25


def test_golden_covers_every_instant_kind() -> None:
    rs = find_ruleset("singapore")
    kinds = {c["kind"] for c in GOLDEN["instants"]}
    assert [k for k in rs.instant_kinds if not any(rs.find_ambition(k).matches(x) for x in kinds)] == []


def test_cumulative_animals_example() -> None:
    """004: '$2 (Bitten (Cat and Mouse)) + $2 (Bitten (Chicken and Centipede)) + $4 (...) = $8'."""
    rs = find_ruleset("singapore")
    paid = [rs.instant("bitten", "W", tiles="1a2a"), rs.instant("bitten", "W", tiles="3a4a"),
            rs.instant("all animals", "W", tiles="1234a")]
    assert sum(p.payments[Seat.EAST] for p in paid) == -8


def test_instant_kinds_follow_the_table_rule() -> None:
    assert "bitten" in find_ruleset("singapore").instant_kinds
    assert find_ruleset("singapore", instant_payouts=False).instant_kinds == ("eight flowers",)


def test_bad_options_and_situations_are_refused() -> None:
    with pytest.raises(TableRuleError, match="seven_pairs"):
        find_ruleset("singapore", seven_pairs="pair_plus_pung")
    with pytest.raises(TableRuleError, match="min_tai=9"):
        find_ruleset("singapore", min_tai=9)
    rs = find_ruleset("singapore")
    with pytest.raises(scoring.InvalidWinError, match="cannot pay themself"):
        rs.score("777z234m99p [555z] [666z]", win_tile="7z", winner="E", discarder="S", liable="E")
    with pytest.raises(scoring.InvalidWinError, match="discarder"):
        rs.score("777z234m99p [555z] [666z]", win_tile="7z", winner="E", discarder="E")
    with pytest.raises(scoring.InvalidWinError, match="not in the hand"):
        rs.score("777z234m99p [555z] [666z]", win_tile="1s", winner="E", discarder="S")


# -- properties --------------------------------------------------------------------------------
def _random_hand(rng: random.Random) -> tuple[Hand, Tile]:
    """A random complete hand: four sets (some declared) and a pair, plus bonus tiles."""
    left = {Tile(t): 4 for t in range(34)}
    groups: list[list[Tile]] = []
    while len(groups) < 5:
        pair = len(groups) == 4
        first = Tile(rng.randrange(34))
        chow = not pair and first.is_suited and first.number <= 7 and rng.random() < 0.5
        tiles = [first, Tile(first + 1), Tile(first + 2)] if chow else [first] * (2 if pair else 3)
        if all(left[t] >= tiles.count(t) for t in tiles):
            for t in tiles:
                left[t] -= 1
            groups.append(tiles)
    melds: list[Meld] = []
    concealed: list[Tile] = []
    for tiles in groups[:4]:
        if rng.random() < 0.3:
            melds.append(Meld.from_tiles(tiles))
        else:
            concealed += tiles
    concealed += groups[4]
    bonus = tuple(rng.sample([Tile(t) for t in range(Tile.FLOWER1, Tile.CENTIPEDE + 1)], rng.randrange(4)))
    rng.shuffle(concealed)
    return Hand(tuple(concealed), tuple(melds), bonus), rng.choice(concealed)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(list(Seat)), st.sampled_from(list(Seat)), st.booleans())
def test_payments_zero_sum_order_free_and_match_the_tables(seed: int, winner: Seat, other: Seat,
                                                           self_drawn: bool) -> None:
    rng = random.Random(seed)
    hand, tile = _random_hand(rng)
    rs = find_ruleset("singapore", min_tai_counts_bonus=True)
    discarder = None if self_drawn or other is winner else other
    kwargs: dict[str, Any] = dict(win_tile=tile, winner=winner, self_drawn=discarder is None,
                                  discarder=discarder, dealer=rng.choice(list(Seat)), kang_replacement=True)
    score = rs.score(hand, **kwargs)  # kang_replacement: every hand has at least 1 tai
    assert sum(score.payments.values()) == 0
    assert score.payments[winner] > 0
    shuffled = list(hand.concealed)
    rng.shuffle(shuffled)
    again = rs.score(Hand(tuple(shuffled), tuple(reversed(hand.melds)), tuple(reversed(hand.bonus))), **kwargs)
    assert (again.patterns, again.value, again.payments) == (score.patterns, score.value, score.payments)
    _check_against_tile_counts(hand, score, winner, kwargs["dealer"])
    tai = int(score.value)
    if discarder is None:
        each, gain = SELF_PICK_TABLE[tai]
        assert all(score.payments[s] == -each for s in Seat if s is not winner) and score.total == gain
    else:
        each, by, gain = DISCARD_TABLE[tai]
        assert score.payments[discarder] == -by and score.total == gain
        assert all(score.payments[s] == -each for s in Seat if s not in (winner, discarder))


def _check_against_tile_counts(hand: Hand, score: scoring.Score, winner: Seat, dealer: Seat) -> None:
    """An oracle from the tile multiset alone (no arrangements): honours cannot chow, so a
    dragon or wind held three or four times is a pung; suits decide the colour patterns."""
    held = Counter(hand.concealed) + Counter(t for m in hand.melds for t in m.tiles)
    got = dict(score.patterns)
    dragons = sum(held[t] >= 3 for t in (Tile.WHITE, Tile.GREEN, Tile.RED))
    assert got.get("Dragon Pung", 0) == dragons
    assert ("Seat Wind Pung" in got) == (held[Tile(Tile.EAST + winner.relative_to(dealer))] >= 3)
    assert ("Prevailing Wind Pung" in got) == (held[Tile.EAST] >= 3)  # East round
    suits = {t.suit for t in held if t.is_suited}
    honours = any(t.is_honor for t in held)
    assert ("Full Color Game" in got) == (len(suits) == 1 and not honours)
    assert ("Half Color Game" in got) == (len(suits) == 1 and honours)
    assert got.get("Animal", 0) == sum(t.is_animal for t in hand.bonus)
    assert (dragons == 3) == ("Three Great Scholars" in got)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32))
def test_incomplete_hands_are_rejected(seed: int) -> None:
    rng = random.Random(seed)
    hand, _ = _random_hand(rng)
    rs = find_ruleset("singapore")
    concealed = list(hand.concealed)
    concealed[rng.randrange(len(concealed))] = Tile(rng.randrange(34))
    broken = Hand(tuple(concealed), hand.melds, hand.bonus)
    if rs.is_complete(broken) or broken.status():
        return  # the swap happened to leave a winning (or impossible) hand
    with pytest.raises(scoring.NotCompleteError, match="not a complete singapore hand"):
        rs.score(broken, win_tile=concealed[0], winner="S", self_drawn=True)


def test_kang_counts_as_three_tiles() -> None:
    hand = Hand.parse("567m888p345s99s [2222m]")
    assert hand.melds[0].kind is MeldKind.KANG
    assert find_ruleset("singapore").score(hand, win_tile="9s", winner="S", self_drawn=True,
                                           last_tile=True).value == 1


def test_breakdown_prints_payments_in_singapore_dollars_and_the_hand_in_tai() -> None:
    score = find_ruleset("singapore").score("123m456p222z99p [777z]", win_tile="9p", winner="S", discarder="W")
    lines = score.breakdown().splitlines()
    pay_lines = [line for line in lines if " pays " in line or " collects " in line]
    assert score.currency == "S$" and len(pay_lines) == 4
    assert all("S$" in line and "tai" not in line for line in pay_lines)
    assert f"West pays {scoring.format_money(-score.payments[Seat.WEST], 'S$')}" in score.breakdown()
    assert any(line.startswith("hand value:") and line.endswith("tai") for line in lines)
    assert score.to_json()["currency"] == "S$"


def test_instant_payouts_are_in_singapore_dollars() -> None:
    paid = find_ruleset("singapore").instant("bitten", "S", tiles="1a2a")
    assert paid.unit == "S$" and str(paid).endswith(f"{scoring.format_money(paid.payments[Seat.SOUTH], 'S$')} collected")
