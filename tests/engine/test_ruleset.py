"""Rulesets: lookup, table rules, tile sets, bonus tiles, status flags."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine import Hand, HandStatus, TableRuleError, Tile, UnknownRulesetError, find_ruleset
from engine.ruleset import Ruleset
from engine.shapes import Form


@pytest.mark.parametrize(
    ("name", "cls_name", "hand_size", "tiles"),
    [
        ("filipino", "Filipino", 16, 144),
        ("visayan", "Visayan", 16, 144),
        ("singapore", "Singapore", 13, 148),
        ("Singaporean", "Singapore", 13, 148),
        ("vietnamese", "Vietnamese", 13, 160),
        ("South Vietnamese", "Vietnamese", 13, 160),
        ("south_vietnamese", "Vietnamese", 13, 160),
    ],
)
def test_find_ruleset(name: str, cls_name: str, hand_size: int, tiles: int) -> None:
    rs = find_ruleset(name)
    assert type(rs).__name__ == cls_name and isinstance(rs, Ruleset)
    assert rs.hand_size == hand_size
    assert sum(rs.tiles.values()) == tiles


def test_unknown_ruleset_lists_the_known_names() -> None:
    with pytest.raises(UnknownRulesetError, match="'riichi'.*filipino.*singapore.*vietnamese.*visayan"):
        find_ruleset("riichi")
    assert issubclass(UnknownRulesetError, ValueError)


def test_forms() -> None:
    assert find_ruleset("filipino").forms == {Form.STANDARD, Form.SEVEN_PAIRS}
    assert find_ruleset("singapore").forms == {Form.STANDARD, Form.THIRTEEN_ORPHANS}
    assert find_ruleset("vietnamese").forms == {Form.STANDARD, Form.THIRTEEN_ORPHANS}
    assert find_ruleset("filipino").seven_pairs_extra_set and not find_ruleset("singapore").seven_pairs_extra_set


def test_table_rules() -> None:
    rs = find_ruleset("filipino", joker="5p", seven_pairs="pair_plus_pung")
    assert rs.rule("joker") is Tile.P5 and rs.rule("seven_pairs") == "pair_plus_pung"
    assert find_ruleset("filipino").rule("joker") is None
    assert find_ruleset("filipino", joker=Tile.S9).rule("joker") is Tile.S9
    assert set(find_ruleset("visayan").table_rules) >= {"joker", "seven_pairs"}  # merged from Filipino
    with pytest.raises(TableRuleError, match="'jokers'"):
        find_ruleset("filipino", jokers="5p")
    with pytest.raises(TableRuleError, match="'1z'"):
        find_ruleset("filipino", joker="1z")
    with pytest.raises(TableRuleError, match="'pair_plus_chow'"):
        find_ruleset("filipino", seven_pairs="pair_plus_chow")
    with pytest.raises(TableRuleError, match="'nope'"):
        find_ruleset("singapore").rule("nope")
    # the values a person types in the set-up form or after --rule, refused by name
    assert find_ruleset("filipino", doubles="off").rule("doubles") is False
    assert find_ruleset("filipino", quick_win_value="1/2").rule("quick_win_value") == Fraction(1, 2)
    for rule, bad, why in (("doubles", "maybe", "is not yes or no"), ("quick_win_value", "-1/4", "is negative"),
                           ("jai_alai_markers", "0", "is not a positive whole number"),
                           ("jai_alai_markers", True, "is not a positive whole number")):
        with pytest.raises(TableRuleError, match=f"{bad!r} {why}"):
            find_ruleset("filipino", **{rule: bad})


def test_repr_pastes_back() -> None:
    for rs in (find_ruleset("singapore"), find_ruleset("filipino", joker="5p", seven_pairs="pair_plus_pung")):
        again = eval(repr(rs), {"find_ruleset": find_ruleset})
        assert again == rs and hash(again) == hash(rs)
    assert repr(find_ruleset("filipino", joker="5p")) == "find_ruleset('filipino', joker='5p')"


def test_bonus_tiles() -> None:
    fil, vis, sg, vn = (find_ruleset(n) for n in ("filipino", "visayan", "singapore", "vietnamese"))
    assert fil.is_bonus(Tile.EAST) and fil.is_bonus(Tile.RED) and fil.is_bonus(Tile.FLOWER1)
    assert not vis.is_bonus(Tile.EAST) and vis.is_bonus(Tile.SEASON4)
    assert sg.is_bonus(Tile.CAT) and not sg.is_bonus(Tile.M1)
    assert vn.is_bonus(Tile.EMPEROR1) and not vn.is_bonus(Tile.TONG)


def test_joker_scopes() -> None:
    vn = find_ruleset("vietnamese")
    assert vn.joker_scope(Tile.THUNG) == {Tile(t) for t in range(9, 18)}
    assert vn.joker_scope(Tile.HY) == {Tile.EAST, Tile.SOUTH, Tile.WEST, Tile.NORTH}
    assert vn.joker_scope(Tile.NGUYEN) == {Tile.WHITE, Tile.GREEN, Tile.RED}
    assert len(vn.joker_scope(Tile.HOP)) == 27 and Tile.FLOWER1 in vn.joker_scope(Tile.TONG)
    assert vn.joker_scope(Tile.M1) == frozenset()
    fil = find_ruleset("filipino", joker="9s")
    assert len(fil.joker_scope(Tile.S9)) == 27 and fil.joker_scope(Tile.S8) == frozenset()
    assert find_ruleset("filipino").joker_scope(Tile.S9) == frozenset()


@pytest.mark.parametrize(
    ("variant", "text", "flags"),
    [
        ("singapore", "123m456p789s1122z", HandStatus.VALID),
        ("singapore", "123m456p789s11z 222z", HandStatus.VALID),  # 14: just drawn
        ("singapore", "123m", HandStatus.TOO_FEW_TILES),
        ("singapore", "123m456p789s11z 222z 33z", HandStatus.TOO_MANY_TILES),
        ("singapore", "123m456p789s1122z / 1j", HandStatus.TILE_NOT_IN_SET),
        ("singapore", "11111m456p789s112z", HandStatus.TOO_MANY_COPIES),
        ("filipino", "123456789m123p4456s / 1a", HandStatus.TILE_NOT_IN_SET),
        ("filipino", "123456789m123p4456s 1z", HandStatus.BONUS_IN_HAND),
        ("vietnamese", "123m456p789s1122z / 1r", HandStatus.VALID),
        ("vietnamese", "123m456p789s112z 44j", HandStatus.TOO_MANY_COPIES),  # one Tổng in the set
        ("visayan", "123m456p789s1z [567z] [1234z]", HandStatus.VALID),  # NEWS counts three, like a kang
    ],
)
def test_status(variant: str, text: str, flags: HandStatus) -> None:
    assert find_ruleset(variant).status(Hand.parse(text)) == flags
