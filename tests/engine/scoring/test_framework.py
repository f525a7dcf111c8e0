"""The scoring framework: pattern exclusions, readings of the win tile, the loop
keeping the best reading, payments, and the errors bad input gets."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.ruleset import find_ruleset
from engine.scoring import (
    InvalidWinError,
    Money,
    NotCompleteError,
    Pattern,
    WinContext,
    apply_patterns,
    net_payments,
)
from engine.scoring.context import readings, wait_shape
from engine.seats import Seat
from engine.shapes import Arrangement, Form, Group, GroupKind, WaitShape
from engine.tiles import Tile, parse_tiles


class _Always(Pattern):
    def applies(self, ctx: WinContext) -> bool:
        return True


class Big(_Always):
    name, value, excludes = "big", Money(1), ("small",)


class Small(_Always):
    name, value, excludes = "small", Money(1, 4), ("tiny",)


class Tiny(_Always):
    name, value = "tiny", Money(1, 8)


class Twice(Pattern):
    name, value = "twice", Money(1, 2)

    def count(self, ctx: WinContext) -> int:
        return 2


def _names(patterns: list[Pattern]) -> list[str]:
    return [p.name for p, _ in apply_patterns(patterns, None)]  # type: ignore[arg-type]


def test_exclusion_is_data_and_earlier_patterns_win() -> None:
    assert _names([Big(), Small(), Tiny()]) == ["big", "tiny"]  # small excluded, so it excludes nothing
    assert _names([Small(), Tiny()]) == ["small"]
    assert _names([Tiny(), Small()]) == ["tiny", "small"]  # a later pattern cannot remove an earlier one


def test_counted_patterns_multiply_their_value() -> None:
    [(pattern, value)] = apply_patterns([Twice()], None)  # type: ignore[arg-type]
    assert value == Money(1)


def test_value_override_and_repr_paste_back() -> None:
    assert Small(value=Money(3)).value == 3 and Small().value == Money(1, 4)
    assert repr(Small(value=Money(3))) == "Small(value=Fraction(3, 1))"


def test_net_payments_sum_to_zero_and_refuse_a_self_payment() -> None:
    net = net_payments(Seat.WEST, {Seat.EAST: Money(1), Seat.NORTH: Money(2)})
    assert sum(net.values()) == 0 and net[Seat.WEST] == 3 and net[Seat.SOUTH] == 0
    with pytest.raises(InvalidWinError, match="cannot pay themself"):
        net_payments(Seat.WEST, {Seat.WEST: Money(1)})


@pytest.mark.parametrize(
    ("chow", "tile", "shape"),
    [("123m", "3m", WaitShape.EDGE), ("789p", "7p", WaitShape.EDGE), ("789p", "9p", WaitShape.OPEN_ENDED),
     ("456s", "5s", WaitShape.MIDDLE), ("123m", "1m", WaitShape.OPEN_ENDED)],
)
def test_wait_shape_of_a_chow(chow: str, tile: str, shape: WaitShape) -> None:
    group = Group(GroupKind.CHOW, tuple(parse_tiles(chow)))
    assert wait_shape(group, Tile.parse(tile), Form.STANDARD) is shape


def test_seven_pairs_waits_are_other() -> None:
    pair = Group(GroupKind.PAIR, (Tile.M1, Tile.M1))
    assert wait_shape(pair, Tile.M1, Form.SEVEN_PAIRS) is WaitShape.OTHER


def test_identical_groups_give_one_reading() -> None:
    chow = Group(GroupKind.CHOW, tuple(parse_tiles("123m")))
    pair = Group(GroupKind.PAIR, (Tile.P5, Tile.P5))
    arrangement = Arrangement(Form.STANDARD, (chow, chow, pair))
    assert [shape for _, shape in readings(arrangement, Tile.M2)] == [WaitShape.MIDDLE]


def test_the_reading_that_pays_most_is_kept() -> None:
    # 5s completes 345s (open-ended, nothing) or the eye 55s (single, +1/4): single is kept.
    score = find_ruleset("filipino").score(
        "123m 456m 789p 345s 55s [678p] / 1f", win_tile="5s", winner="S", discarder="E"
    )
    assert score.wait_shapes == frozenset({WaitShape.SINGLE})
    assert dict(score.patterns)["single"] == Money(1, 4)


def test_the_arrangement_that_pays_most_is_kept() -> None:
    # 111222333m reads as three pungs (all pungs +1/4) or three chows 123m (nothing here).
    score = find_ruleset("filipino").score(
        "111m 222m 333m 444p 99s [777s] / 1f", win_tile="9s", winner="S", discarder="E"
    )
    assert "all pungs" in dict(score.patterns)
    assert all(g.kind is not GroupKind.CHOW for g in score.arrangement.sets)


def test_a_win_tile_that_completed_a_declared_meld() -> None:
    # 2m is only in the exposed chow: the discard completed that meld.
    score = find_ruleset("filipino").score(
        "11m 345p 678s 789s [234m] [789p] / 1f", win_tile="2m", winner="S", discarder="E"
    )
    assert score.wait_shapes == frozenset({WaitShape.OPEN_ENDED})
    assert score.value == Fraction(5, 4)


@pytest.mark.parametrize(
    ("situation", "message"),
    [({"discards_before_win": "3"}, "discards_before_win='3'"), ({"dice_doubles": -1}, "dice_doubles=-1"),
     ({"first_round": "yes"}, "first_round='yes'"), ({"liable": "middle"}, "middle")],
)
def test_bad_situation_values_are_named(situation: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        find_ruleset("filipino").score(
            "11m 345p 678s 789s [234m] [789p] / 1f", win_tile="9s", winner="S", discarder="E", **situation
        )


def test_self_drawn_with_a_discarder_is_refused() -> None:
    with pytest.raises(InvalidWinError, match="self-drawn win has no discarder"):
        find_ruleset("filipino").score(
            "11m 345p 678s 789s [234m] [789p]", win_tile="9s", winner="S", discarder="E", self_drawn=True
        )


def test_incomplete_message_names_the_hand_and_the_size() -> None:
    with pytest.raises(NotCompleteError, match=r"'11m345p67789s \[234m\] \[789p\]' is not a complete filipino hand: it counts 16 tiles .* has 17"):
        find_ruleset("filipino").score("11m 345p 678s 79s [234m] [789p]", win_tile="9s", winner="S", self_drawn=True)


def test_score_json_has_patterns_value_payments() -> None:
    doc = find_ruleset("filipino").score(
        "11m 345p 678s 789s [234m] [789p] / 1f", win_tile="9s", winner="S", discarder="E"
    ).to_json()
    assert doc["value"] == "5/4"
    assert doc["payments"] == {"East": "-5/2", "South": "5", "West": "-5/4", "North": "-5/4"}
    assert [p["local"] for p in doc["patterns"]] == ["tódas", "all chow"]  # type: ignore[union-attr]
