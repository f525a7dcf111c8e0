"""South Vietnamese scoring (doc 003): golden hands, the payout table as an oracle, properties."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import scoring
from engine.hand import Hand, Meld
from engine.ruleset import TableRuleError, find_ruleset
from engine.scoring.vietnam import NFNL_PATTERNS, VIETNAMESE_PATTERNS, payout
from engine.seats import Seat
from engine.tiles import Tile, parse_tiles

GOLDEN = json.loads((Path(__file__).parents[2] / "data" / "vietnamese" / "golden.json").read_text("utf-8"))
SEATS = {"E": Seat.EAST, "S": Seat.SOUTH, "W": Seat.WEST, "N": Seat.NORTH}

# 003's "Scoring Payout Table", row by row: (discarder, non-discarder).
PHAN_ROWS = {0: (1, 1), 1: (2, 1), 2: (4, 2), 3: (8, 4), 4: (16, 8), 5: (32, 16)}
MUN_ROWS = {1: (64, 32), 2: (128, 64), 3: (192, 96), 4: (256, 128), 5: (320, 160), 6: (384, 192),
            7: (448, 224), 8: (512, 256)}


def _oracle(phan_total: int) -> tuple[int, int]:
    """'Use the following table to count Phán and Mủn as necessary. e.g. 2 Mủn + 4 Phán as the
    discarder would be 128+16'."""
    mun, phan = divmod(phan_total, 6)
    if not mun:
        return PHAN_ROWS[phan]
    high, low = MUN_ROWS[mun]
    if phan:
        high, low = high + PHAN_ROWS[phan][0], low + PHAN_ROWS[phan][1]
    return high, low


def _score(case: dict[str, Any]) -> scoring.Score:
    rs = find_ruleset("vietnamese", **case.get("rules", {}))
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
    assert score.unit == "Phán"


def _instant(case: dict[str, Any]) -> scoring.InstantPayout:
    rs = find_ruleset("vietnamese", **case.get("rules", {}))
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


def test_golden_covers_every_instant_kind() -> None:
    assert {c["kind"] for c in GOLDEN["instants"]} == {"green jokers"}
    assert sorted(len(parse_tiles(c["tiles"])) for c in GOLDEN["instants"]) == [3, 6]  # 3rd and 6th joker
    assert set(find_ruleset("vietnamese").instant_kinds) == {"green jokers", "six green jokers"}


def test_worked_example_144() -> None:
    """003: '2 Mủn + 4 Phán as the discarder would be 128+16 for a total of 144 points paid out.'"""
    assert payout(16, discarder=True) == _oracle(16)[0] == 144


def test_golden_covers_every_pattern_and_rule() -> None:
    seen = {name for c in GOLDEN["cases"] for name in c.get("patterns", {})}
    names = {p.name for p in VIETNAMESE_PATTERNS + NFNL_PATTERNS}
    assert names - seen == set()
    assert {"No Flowers No Leaves", "Pure No Flowers No Leaves"} <= seen
    rules = {name for c in GOLDEN["cases"] + GOLDEN["instants"] + GOLDEN["errors"] for name in c.get("rules", {})}
    assert rules == set(find_ruleset("vietnamese").table_rules)
    assert len(GOLDEN["cases"]) >= 25


@pytest.mark.parametrize("phan", range(0, 8 * 6 + 6))
def test_payout_matches_the_table(phan: int) -> None:
    assert (payout(phan, discarder=True), payout(phan, discarder=False)) == _oracle(phan)


def test_dealer_does_not_pay_or_collect_double() -> None:
    """003: 'East does not pay or collect double.'"""
    rs = find_ruleset("vietnamese")
    east = rs.score("123m456p789s22z [777m]", win_tile="2z", winner="E", discarder="S")
    south = rs.score("123m456p789s22z [777m]", win_tile="2z", winner="S", discarder="E")
    assert east.total == south.total == 3


def test_bad_input_is_refused() -> None:
    with pytest.raises(TableRuleError, match="min_tai"):
        find_ruleset("vietnamese", min_tai=2)
    rs = find_ruleset("vietnamese")
    with pytest.raises(scoring.InvalidWinError, match="discarder"):
        rs.score("123m456p789s22z [777m]", win_tile="2z", winner="S", discarder="S")
    with pytest.raises(scoring.InvalidWinError, match="not in the hand"):
        rs.score("123m456p789s22z [777m]", win_tile="9p", winner="S", discarder="W")
    with pytest.raises(scoring.InvalidWinError, match="unknown situation"):
        rs.score("123m456p789s22z [777m]", win_tile="2z", winner="S", discarder="W", bao="W")
    with pytest.raises(scoring.InvalidWinError, match="joker"):
        rs.score("12589m369p12457s1j", win_tile="1s", winner="E", self_drawn=True, nfnl=True)
    with pytest.raises(scoring.NotCompleteError, match="counts 13 tiles"):
        rs.score("12589m369p12457s", win_tile="1s", winner="E", self_drawn=True, nfnl=True)



NFNL_HAND = "12589m369p112457s"  # 003's No Flowers No Leaves: no honours, jokers or flowers


@pytest.mark.parametrize(("hand", "tile", "how", "why"), [
    (NFNL_HAND + " / 1f", "1s", {"self_drawn": True}, "shows flowers '1f'"),
    (NFNL_HAND, "1z", {"self_drawn": True}, "goes out only on a suit tile, not 1z"),
    (NFNL_HAND, "3s", {"self_drawn": True}, "win tile 3s is not in the hand"),
    (NFNL_HAND, "1s", {"self_drawn": True, "discarder": "S"}, "either self_drawn=True or the discarder"),
    (NFNL_HAND, "1s", {"discarder": "E"}, "the discarder East cannot be the winner"),
])
def test_a_no_flowers_no_leaves_claim_that_breaks_its_terms_is_refused(hand: str, tile: str, how: dict[str, Any],
                                                                        why: str) -> None:
    rs = find_ruleset("vietnamese")
    assert rs.score(NFNL_HAND, win_tile="1s", winner="E", self_drawn=True, nfnl=True).total > 0  # as dealt: valid
    with pytest.raises(scoring.InvalidWinError, match=why):
        rs.score(hand, win_tile=tile, winner="E", nfnl=True, **how)


# -- properties --------------------------------------------------------------------------------
def _random_hand(rng: random.Random) -> tuple[Hand, Tile]:
    """A random complete hand (four sets, some declared, and a pair), sometimes with a joker
    standing in a concealed set, plus random flowers and laid-out jokers."""
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
    if rng.random() < 0.3:
        concealed[rng.randrange(len(concealed))] = Tile.TONG  # the Tổng stands for what it replaced
    extras = [Tile(t) for t in range(Tile.FLOWER1, Tile.SEASON4 + 1)] + [Tile(t) for t in range(54, 62)]
    extras += [j for j in (Tile.THUNG, Tile.HOA, Tile.HOP) if j not in concealed]
    bonus = tuple(rng.sample(extras, rng.randrange(4)))
    rng.shuffle(concealed)
    return Hand(tuple(concealed), tuple(melds), bonus), rng.choice(concealed)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(list(Seat)), st.sampled_from(list(Seat)), st.booleans())
def test_payments_zero_sum_order_free_and_match_the_table(seed: int, winner: Seat, other: Seat,
                                                          self_drawn: bool) -> None:
    rng = random.Random(seed)
    hand, tile = _random_hand(rng)
    rs = find_ruleset("vietnamese")
    discarder = None if self_drawn or other is winner else other
    kwargs: dict[str, Any] = dict(win_tile=tile, winner=winner, self_drawn=discarder is None,
                                  discarder=discarder, dealer=rng.choice(list(Seat)))
    score = rs.score(hand, **kwargs)
    assert sum(score.payments.values()) == 0 and score.payments[winner] > 0
    shuffled = list(hand.concealed)
    rng.shuffle(shuffled)
    again = rs.score(Hand(tuple(shuffled), tuple(reversed(hand.melds)), tuple(reversed(hand.bonus))), **kwargs)
    assert (again.patterns, again.value, again.payments) == (score.patterns, score.value, score.payments)
    if Tile.TONG not in hand.concealed:  # an oracle from the tiles alone, where no joker blurs them
        held = list(hand.concealed) + [t for m in hand.melds for t in m.tiles]
        clean = not any(t.is_honor for t in held) and not any(t.is_flower or t.is_royalty for t in hand.bonus)
        names = dict(score.patterns)
        assert clean == ("No Flowers or Honors" in names or "No Flowers, Honors, or Triplets" in names)
        assert ("All Honors" in names) == all(t.is_honor for t in held)
        mine = kwargs["dealer"]
        own = sum(t.seat_number == winner.relative_to(mine) + 1 for t in hand.bonus if not t.is_vn_joker)
        assert names.get("Own Flower", 0) == own
    high, low = _oracle(int(score.value))
    for seat in Seat:
        if seat is not winner:
            assert score.payments[seat] == -(high if discarder in (None, seat) else low)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32))
def test_incomplete_hands_are_rejected(seed: int) -> None:
    rng = random.Random(seed)
    hand, _ = _random_hand(rng)
    rs = find_ruleset("vietnamese")
    concealed = list(hand.concealed)
    concealed[rng.randrange(len(concealed))] = Tile(rng.randrange(34))
    broken = Hand(tuple(concealed), hand.melds, hand.bonus)
    if rs.is_complete(broken) or broken.status():
        return  # the swap happened to leave a winning (or impossible) hand
    with pytest.raises(scoring.NotCompleteError, match="not a complete vietnamese hand"):
        rs.score(broken, win_tile=concealed[0], winner="S", self_drawn=True)


def test_breakdown_prints_the_hand_in_phan_and_payments_in_points() -> None:
    score = find_ruleset("vietnamese").score("119m19p19s1234567z / 1f 4j", win_tile="1m", winner="E", discarder="S")
    lines = score.breakdown().splitlines()
    pay_lines = [line for line in lines if " pays " in line or " collects " in line]
    assert score.unit == "Phán" and score.currency == "points" and len(pay_lines) == 4
    assert all(line.endswith(" points") and "$" not in line for line in pay_lines)
    assert f"South pays {-score.payments[Seat.SOUTH]} points" in score.breakdown()
    assert any(line.startswith("hand value:") and line.endswith("Phán") for line in lines)


@pytest.mark.parametrize(("hand", "tile", "single"), [
    ("123456m789p234s55s", "3s", True),  # 24s55s waited on the middle tile alone
    ("123456m789p234s55s", "5s", False),  # 2345s: 2s or 5s
    ("123456m789p345s55s", "3s", False),  # 45s: 3s or 6s
])
def test_nfnl_concealed_all_sequences_pays_4_mun_only_for_a_single_wait(hand: str, tile: str, single: bool) -> None:
    """003, Additional Scoring for NFNL hands: "Concealed, All Sequences, Waiting for just 1
    tile: be it the middle tile of the sequence or the pair tile: +4 Mủn"."""
    from engine.scoring.vietnam import MUN

    result = find_ruleset("vietnamese").score(hand, win_tile=tile, winner="E", self_drawn=True, nfnl=True)
    names = dict(result.patterns)
    assert "No Flowers No Leaves" in names
    assert names.get("NFNL Concealed Single Wait All Sequences") == (4 * MUN if single else None)
