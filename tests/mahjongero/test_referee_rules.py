"""The referee plays by the ruleset: every table rule reaches the scoring, and the
instant payouts it records are the ones the scoring module defines and prices."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from engine.game import IllegalActionError, parse_action
from engine.ruleset import find_ruleset
from engine.seats import Seat
from engine.tiles import parse_tiles
from mahjongero.ledger import Ledger, Referee

PLAYERS = {"E": "Ana", "S": "Ben", "W": "Cris", "N": "Dina"}
VARIANTS = {"filipino": "filipino", "visayan": "visayan", "singapore": "singaporean",
            "vietnamese": "vietnamese"}
# a value other than the default for the table rules that take any value
OPEN_VALUES: dict[str, object] = {"joker": "5p", "quick_win_value": 1, "jai_alai_markers": 3}


def _non_defaults(variant: str) -> list[tuple[str, object]]:
    found = []
    for name, rule in find_ruleset(variant).table_rules.items():
        values = [v for v in rule.choices or (OPEN_VALUES[name],) if v != rule.default]
        found += [(name, v) for v in values]
    return found


CASES = [(v, name, value) for v in VARIANTS for name, value in _non_defaults(v)]


@pytest.mark.parametrize(("variant", "name", "value"), CASES, ids=[f"{v}-{n}={x}" for v, n, x in CASES])
def test_every_table_rule_of_the_ruleset_reaches_the_referee_scoring(
        tmp_path: Path, variant: str, name: str, value: object) -> None:
    led = Ledger(tmp_path / "t.sqlite")
    ref = Referee.create(led, VARIANTS[variant], PLAYERS, mode="observed", seed=None, **{name: value})
    wanted = find_ruleset(variant, **{name: value})
    assert ref.game.scorer.ruleset == wanted  # type: ignore[attr-defined]
    back = Referee.restore(led, ref.game_id)  # the option survives the ledger's JSON
    assert back.game.scorer.ruleset == wanted  # type: ignore[attr-defined]


SEVEN_PAIRS_AND_A_CHOW = ("E discard 9s", "S win 1122m3344p5566s77s78s9s")


def test_a_scoring_table_rule_changes_what_the_referee_accepts(tmp_path: Path) -> None:
    led = Ledger(tmp_path / "t.sqlite")
    strict = Referee.create(led, "filipino", PLAYERS, mode="observed", seed=None)
    strict.push(SEVEN_PAIRS_AND_A_CHOW[0])
    with pytest.raises(IllegalActionError, match="not a valid win"):
        strict.push(SEVEN_PAIRS_AND_A_CHOW[1])
    loose = Referee.create(led, "filipino", PLAYERS, mode="observed", seed=None,
                           seven_pairs="pair_plus_any_set")
    for text in SEVEN_PAIRS_AND_A_CHOW:
        loose.push(text)
    out = loose.game.outcome()
    assert out is not None and out.winner is Seat.SOUTH
    paid = [p for p in led.payments(loose.game_id) if p.reason.startswith("win")]
    assert {p.seat: p.amount for p in paid if p.amount} == {s: a for s, a in out.payments.items() if a}


def test_unknown_or_bad_table_rules_are_refused_and_nothing_is_written(tmp_path: Path) -> None:
    led = Ledger(tmp_path / "t.sqlite")
    with pytest.raises(ValueError, match="'seven_pairs'"):
        Referee.create(led, "singaporean", PLAYERS, seven_pairs="pair_plus_pung")
    with pytest.raises(ValueError, match="'maybe'"):
        Referee.create(led, "filipino", PLAYERS, seven_pairs="maybe")
    with pytest.raises(ValueError, match="'often'"):
        Referee.create(led, "filipino", PLAYERS, announce_waits="often")
    assert led.games() == []


# -- Singapore instant payouts: named and priced by engine.scoring.singapore --------------
# (script, kind as the scoring module names it, seat, tiles, at the deal)
SG_INSTANTS = [
    (("N flower 1a", "N flower 2a", "E discard 9m"), "bitten", "N", "1a2a", True),
    (("S flower 2f", "S flower 6f", "E discard 9m"), "flower bitten", "S", "2f6f", True),
    (("W flower 1f", "W flower 2f", "W flower 3f", "W flower 4f", "E discard 9m"),
     "four red flowers", "W", "1234f", True),
    (("E discard 9m", "S draw", "S flower 3a", "S flower 4a"), "bitten", "S", "3a4a", False),
    (("E discard 9m", "S draw", "S flower 2f", "S flower 6f"), "flower bitten", "S", "2f6f", False),
    (("E discard 9m", "S draw", "S flower 5f", "S flower 6f", "S flower 7f", "S flower 8f"),
     "four blue flowers", "S", "5678f", False),
    (("E discard 9m", "S draw", "S flower 1a", "S flower 2a", "S flower 3a", "S flower 4a"),
     "all animals", "S", "1234a", False),
    (("E discard 5p", "S kang"), "open kang", "S", "5555p", False),
    (("E secret 5p",), "concealed kang", "E", "5555p", False),
    (("E discard 5p", "S pung", "S discard 1m", "W draw", "W discard 2m", "N draw", "N discard 3m",
      "E draw", "E discard 4m", "S draw", "S sagasa 5p", "S draw"), "open kang", "S", "5555p", False),
]


@pytest.mark.parametrize(("script", "kind", "seat", "tiles", "at_deal"), SG_INSTANTS,
                         ids=[f"{c[1]}-{c[2]}-{'deal' if c[4] else 'play'}-{i}" for i, c in enumerate(SG_INSTANTS)])
def test_singapore_instant_payouts_reach_the_ledger_at_the_scoring_modules_price(
        tmp_path: Path, script: tuple[str, ...], kind: str, seat: str, tiles: str, at_deal: bool) -> None:
    led = Ledger(tmp_path / "t.sqlite")
    ref = Referee.create(led, "singaporean", PLAYERS, mode="observed", seed=None)
    said = [e for text in script for e in ref.push(parse_action(text))]
    rs = find_ruleset("singapore")
    name = rs.find_ambition(kind).name
    expected = rs.instant(kind, seat, tiles=tiles, **({"at_deal": True} if at_deal else {})).payments
    by_action: dict[int, dict[Seat, Fraction]] = {}
    for p in led.payments(ref.game_id):
        if p.reason == name:
            by_action.setdefault(p.seq, {})[p.seat] = p.amount
    assert {s: a for s, a in expected.items() if a} in by_action.values()
    assert any(e.kind == "instant" and "S$" in e.text and "tai" not in e.text for e in said)


def test_singapore_animals_pay_both_bittens_and_the_full_set(tmp_path: Path) -> None:
    led = Ledger(tmp_path / "t.sqlite")
    ref = Referee.create(led, "singaporean", PLAYERS, mode="observed", seed=None)
    for text in SG_INSTANTS[6][0]:
        ref.push(text)
    rs = find_ruleset("singapore")
    reasons = sorted(p.reason for p in led.payments(ref.game_id) if p.seat is Seat.SOUTH)
    assert reasons == sorted([rs.find_ambition("bitten").name] * 2 + [rs.find_ambition("all animals").name])
    assert sum(p.amount for p in led.payments(ref.game_id)) == 0


def test_singapore_instant_payouts_off_writes_no_instant_payment(tmp_path: Path) -> None:
    led = Ledger(tmp_path / "t.sqlite")
    ref = Referee.create(led, "singaporean", PLAYERS, mode="observed", seed=None, instant_payouts=False)
    assert not ref.game.rules.instant_payouts
    for text in ("N flower 1a", "N flower 2a", "E discard 9m", "S draw", "S flower 2f", "S flower 6f"):
        ref.push(text)
    assert led.payments(ref.game_id) == []
    assert parse_tiles("1a2a")  # the tiles were shown, only not paid


# -- where the evening stands: round wind and dealer ---------------------------------------
WEST_PUNGS_SOUTH_WIND = ("E discard 9m", "S draw", "S discard 9m", "W draw", "W discard 9p", "N draw",
                         "N discard 9p", "E draw", "E discard 2z", "W win 123m456m789m55p222z")


def test_a_table_may_open_in_the_south_round_and_the_wind_reaches_the_scoring(tmp_path: Path) -> None:
    led = Ledger(tmp_path / "t.sqlite")
    east = Referee.create(led, "singaporean", PLAYERS, mode="observed", seed=None)
    for text in WEST_PUNGS_SOUTH_WIND:
        east.push(text)
    first = east.game.outcome()
    assert first is not None and first.result is not None
    assert "Prevailing Wind Pung" not in dict(first.result.patterns)  # South is not the round wind
    south = Referee.create(led, "singaporean", PLAYERS, mode="observed", seed=None, round_wind="S")
    assert south.game.round_wind is Seat.SOUTH and south.game.dealer is Seat.EAST
    for text in WEST_PUNGS_SOUTH_WIND:
        south.push(text)
    out = south.game.outcome()
    assert out is not None and out.result is not None
    assert "Prevailing Wind Pung" in dict(out.result.patterns)
    assert out.payments[Seat.WEST] > first.payments[Seat.WEST]
    back = Referee.restore(led, south.game_id)
    assert back.game.round_wind is Seat.SOUTH and back.game.state_key() == south.game.state_key()


def test_the_dealer_and_round_wind_carry_into_the_next_hands(tmp_path: Path) -> None:
    led = Ledger(tmp_path / "t.sqlite")
    ref = Referee.create(led, "singaporean", PLAYERS, mode="observed", seed=None,
                         dealer="N", round_wind="W", starting_dealer="E", draw_game_slack=200)
    assert (ref.game.dealer, ref.game.round_wind) == (Seat.NORTH, Seat.WEST)
    ref.push("N discard 1m")
    ref.push("E drawgame")
    nxt = ref.next_hand()
    assert (nxt.dealer, nxt.round_wind) == (Seat.EAST, Seat.NORTH)  # back to the first dealer
    assert [(h["dealer"], h["round_wind"]) for h in led.hands(ref.game_id)] == [
        (Seat.NORTH, Seat.WEST), (Seat.EAST, Seat.NORTH)]
    with pytest.raises(ValueError, match="'middle'"):
        Referee.create(led, "singaporean", PLAYERS, mode="observed", seed=None, round_wind="middle")
