"""Golden waits and shapes: the textbook shapes and the documents' special hands."""

from __future__ import annotations

import pytest

from engine import Hand, Tile, WaitShape, find_ruleset

OPEN, EDGE, MIDDLE = WaitShape.OPEN_ENDED, WaitShape.EDGE, WaitShape.MIDDLE
SINGLE, B2B, OTHER = WaitShape.SINGLE, WaitShape.BACK_TO_BACK, WaitShape.OTHER


def waits(variant: str, text: str, **rules: object) -> dict[str, set[WaitShape]]:
    return {str(w): set(w.shapes) for w in find_ruleset(variant, **rules).waits(Hand.parse(text))}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("45m 123p456p789s11z", {"3m": {OPEN}, "6m": {OPEN}}),
        ("12m 123p456p789s11z", {"3m": {EDGE}}),
        ("89m 123p456p789s11z", {"7m": {EDGE}}),
        ("46m 123p456p789s11z", {"5m": {MIDDLE}}),  # paníngit
        ("123m456p789s111z 5s", {"5s": {SINGLE}}),  # waiting on the eye
        ("123m456p789s 11z 22z", {"1z": {B2B}, "2z": {B2B}}),  # back to back
        ("1112345678999m", {f"{n}m": None for n in range(1, 10)}),  # nine gates: every character
        ("2345m 123p456p789s", {"2m": {SINGLE}, "5m": {SINGLE}}),
    ],
)
def test_textbook_shapes(text: str, expected: dict[str, set[WaitShape] | None]) -> None:
    got = waits("singapore", text)
    assert set(got) == set(expected)
    for tile, shapes in expected.items():
        if shapes is not None:
            assert got[tile] == shapes, tile


def test_open_ended_and_single_at_once() -> None:
    # 4456s: the 4 either completes 456 (open-ended 56) or pairs the lone 4 (single)
    assert waits("filipino", "123456789m123p4456s") == {"4s": {OPEN, SINGLE}, "7s": {OPEN}}


def test_thirteen_orphans_thirteen_sided() -> None:
    got = waits("singapore", "19m19p19s1234567z")  # doc 004: 13 Wonders
    assert len(got) == 13 and all(s == {OTHER} for s in got.values())
    assert waits("singapore", "19m19p19s1234566z") == {"7z": {OTHER}}


def test_no_thirteen_orphans_in_filipino_and_no_seven_pairs_in_singapore() -> None:
    assert waits("visayan", "19m19p19s1234567z 19m1z") == {}
    assert waits("singapore", "1133557799m113p") == {}


def test_a_tile_held_four_times_is_not_a_wait() -> None:
    assert waits("singapore", "23m [111m] 456p789s11z") == {"1m": {OPEN}, "4m": {OPEN}}
    assert waits("singapore", "23m [1111m] 456p789s11z") == {"4m": {OPEN}}  # all four 1m are held
    assert waits("singapore", "1111m 23m 456p789s1z")["1z"] == {SINGLE}


def test_filipino_seven_pairs_with_a_set() -> None:
    # siete pares: seven pairs + one set, 17 tiles; the table rule decides whether the set may be a chow
    assert waits("filipino", "1133557799m113p 222s", seven_pairs="pair_plus_pung") == {"3p": {OTHER}}
    assert waits("filipino", "1133557799m113p 789s", seven_pairs="pair_plus_pung") == {}
    assert waits("filipino", "1133557799m113p 789s", seven_pairs="pair_plus_any_set") == {"3p": {OTHER}}
    # the set may be a declared meld; four of a kind counts as two pairs
    assert waits("filipino", "1133557799m113p [222s]") == {"3p": {OTHER}}
    assert waits("filipino", "1111557799m113p [222s]") == {"3p": {OTHER}}


def test_visayan_special_melds_count_as_sets() -> None:
    assert waits("visayan", "123m456p789s1z [567z] [1234z]") == {"1z": {SINGLE}}
    # Beauty and NEWS are Visayan only
    assert waits("singapore", "123m456p1z [567z]") == {}


def test_filipino_honours_are_flowers() -> None:
    rs = find_ruleset("filipino")
    hand = Hand.parse("123456789m123p4456s 1z")  # the East is laid aside, not played
    assert [str(w) for w in rs.waits(hand)] == ["4s", "7s"]
    assert "1z" not in {str(w) for w in find_ruleset("filipino").waits(Hand.parse("123456789m123p456s1z"))}


def test_filipino_joker_stands_for_any_suited_tile() -> None:
    # 5p is the joker: 12m, and 4p with the joker as a pair
    got = waits("filipino", "12m 123456789s 123p 4p 5p", joker="5p")
    assert got == {
        "3m": {EDGE},  # 123m from naturals, the eye 4p + joker
        "1p": {SINGLE},  # 11p + 234p, the joker completing 12m
        "4p": {SINGLE},  # 44p as the eye, the joker completing 12m
        "5p": {OTHER},  # a second joker: 12m + joker, 4p + joker
    }
    assert waits("filipino", "12m 123456789s 123p 4p 5p") == {}  # without the rule, 5p is a 5p


def test_vietnamese_jokers_keep_to_their_scope() -> None:
    # 1j Thùng stands for dots only; 6j Hỷ for winds only; 4j Tổng for anything
    assert waits("vietnamese", "123m456p789s11z 5s 1j") == {}  # a dots joker cannot join 5s
    soooc = waits("vietnamese", "123m456p789s11z 5s 2j")  # a bamboo joker can
    # 6s and 7s may also split the 789s: 567s natural + 89s with the joker
    assert soooc == {"3s": {OTHER}, "4s": {OTHER}, "5s": {OTHER}, "6s": {MIDDLE, OTHER}, "7s": {EDGE, OTHER}, "1z": {B2B}}
    tong = waits("vietnamese", "123m456p789s11z 5s 4j")  # Tổng may also pung the East
    assert tong == dict(soooc, **{"5s": {OTHER, SINGLE}})
    assert waits("vietnamese", "123m456p789s 55s 1z 6j") == {"1z": {OTHER}, "5s": {B2B}}  # Hỷ: winds only


def test_vietnamese_hoa_cannot_play() -> None:
    assert waits("vietnamese", "123m456p789s11z 5s 5j") == {}


@pytest.mark.parametrize(
    ("text", "variant", "expected"),
    [
        ("123m456p789s1122z", "singapore", 0),
        ("123m456p789s1135z", "singapore", 1),
        ("123m456p789s11z 222z", "singapore", -1),
        ("123m456p789s11z 22z 3z", "singapore", 0),
        ("19m19p19s1234567z", "singapore", 0),
        ("19m19p19s123456z 5m", "singapore", 1),
        ("1133557799m113p 222s", "filipino", 0),
        ("1133557799m135p 222s", "filipino", 1),
    ],
)
def test_shanten(text: str, variant: str, expected: int) -> None:
    assert find_ruleset(variant).shanten(Hand.parse(text)) == expected


def test_waits_of_a_hand_of_the_wrong_size_are_empty() -> None:
    rs = find_ruleset("singapore")
    assert rs.waits(Hand.parse("123m")) == []
    assert rs.waits(Hand.parse("123m456p789s11z 222z")) == []


def test_wait_str_and_repr() -> None:
    (w,) = find_ruleset("singapore").waits(Hand.parse("46m 123p456p789s11z"))
    assert str(w) == "5m" and w.tile is Tile.M5
    assert repr(w) == "Wait(Tile.M5, frozenset({WaitShape.MIDDLE}))"
