"""Golden decompositions and the per-segment core."""

from __future__ import annotations

from engine import Arrangement, Form, Group, GroupKind, Hand, Tile, find_ruleset
from engine.decompose import INF, distributions, min_jokers, segment_arrangements


def arrangements(variant: str, text: str, **rules: object) -> list[str]:
    return sorted(str(a) for a in find_ruleset(variant, **rules).decompositions(Hand.parse(text)))


def test_pungs_or_chows() -> None:
    assert arrangements("singapore", "111222333m789p11z") == ["111m 222m 333m 789p 11z", "123m 123m 123m 789p 11z"]


def test_declared_melds_are_groups() -> None:
    (a,) = find_ruleset("singapore").decompositions(Hand.parse("123m11z [456p] (7777s) <8888s>"))
    assert [g.kind for g in a.groups if g.meld is not None] == [GroupKind.CHOW, GroupKind.KANG, GroupKind.KANG]
    kangs = [g for g in a.groups if g.kind is GroupKind.KANG]
    assert [g.concealed for g in kangs] == [True, False]  # the secret is concealed, the sagása is not
    assert a.pair == Group(GroupKind.PAIR, (Tile.EAST, Tile.EAST))
    assert len(a.sets) == 4


def test_thirteen_orphans_arrangement() -> None:
    (a,) = find_ruleset("singapore").decompositions(Hand.parse("19m19p19s12345677z"))
    assert a.form is Form.THIRTEEN_ORPHANS and a.pair is None and a.sets == ()
    assert [g.kind for g in a.groups].count(GroupKind.SINGLE) == 12
    assert [g.tiles for g in a.groups if g.kind is GroupKind.PAIR] == [(Tile.RED, Tile.RED)]


def test_seven_pairs_arrangement() -> None:
    arr = find_ruleset("filipino").decompositions(Hand.parse("1133557799m1133p 222s"))
    forms = sorted(a.form.value for a in arr)
    assert forms == ["seven pairs"]
    (a,) = arr
    assert [g.kind for g in a.groups].count(GroupKind.PAIR) == 7 and len(a.sets) == 1


def test_seven_pairs_and_standard_at_once() -> None:
    # 123m 123m 456p 456p 777s 99s, or 11 22 33m 44 55 66p 99s + 777s
    arr = find_ruleset("filipino").decompositions(Hand.parse("112233m445566p 777s 99s"))
    assert sorted(a.form.value for a in arr) == ["seven pairs", "standard"]


def test_jokers_stand_for_tiles() -> None:
    rs = find_ruleset("vietnamese")
    arr = rs.decompositions(Hand.parse("123m456p789s11z 55s 2j"))
    assert arrangements("vietnamese", "123m456p789s11z 55s 2j") == ["123m 456p 555s(2j) 789s 11z"]
    (a,) = arr
    (pung,) = [g for g in a.groups if g.jokers]
    assert pung.stands_for == (Tile.S5,) and pung.naturals == (Tile.S5, Tile.S5) and a.jokers == (Tile.SOOC,)


def test_three_jokers_form_a_set_within_their_common_scope() -> None:
    # Tổng (any), Hợp (suited) and Thay (characters) together: only a characters set
    rs = find_ruleset("vietnamese")
    arr = rs.decompositions(Hand.parse("123m456p789s11z 348j"))
    assert arr and all(isinstance(a, Arrangement) for a in arr)
    assert len(arr) == len(set(arr))  # jokers swapped within a pung are one arrangement
    pure = {g.tiles for a in arr for g in a.groups if len(g.jokers) == 3}
    assert pure == {(Tile(t),) * 3 for t in range(9)} | {(Tile(t), Tile(t + 1), Tile(t + 2)) for t in range(7)}
    for a in arr:
        for g in a.groups:
            for j, t in zip(g.jokers, g.stands_for, strict=True):
                assert t in rs.joker_scope(j)


def test_incomplete_hands_have_no_arrangements() -> None:
    assert arrangements("singapore", "123m456p789s1123z") == []
    assert arrangements("singapore", "123m456p789s1122z") == []  # 13 tiles: not yet complete


def test_min_jokers() -> None:
    assert min_jokers((0,) * 9, True, False) == 0
    assert min_jokers((0,) * 9, True, True) == 2
    assert min_jokers((1, 0, 1, 0, 0, 0, 0, 0, 0), True, False) == 1
    assert min_jokers((1, 0, 0, 0, 0, 0, 0, 0, 1), True, False) == 4
    assert min_jokers((1, 1, 0, 0), False, False) == 4


def test_distributions_respect_scopes() -> None:
    mins = ((1, INF), (0, INF), (INF, 0))  # suit 0 needs one wildcard
    assert distributions(mins, ((0b010, 1),)) == ()  # a joker of segment 1 only cannot help
    assert distributions(mins, ((0b001, 1),)) == ((2, ((1, 0, 0),)),)


def test_segment_arrangements_with_wildcards() -> None:
    # 1 and 3 with one wildcard: the wildcard is the 2
    assert segment_arrangements((1, 0, 1, 0, 0, 0, 0, 0, 0), True, False, 1) == (
        ((GroupKind.CHOW, (0, 1, 2), (1,)),),
    )
