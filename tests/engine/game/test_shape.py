"""The referee's fast shape arithmetic against independent oracles:
the ``mahjong`` package (13/14-tile shanten) and the rules engine (``engine.ruleset``)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from mahjong.shanten import Shanten

from engine.game.shape import (
    counts_of,
    is_complete,
    is_seven_pairs_plus_set,
    shanten,
    shanten_after_each_discard,
    waits,
)
from engine.hand import Hand
from engine.ruleset import find_ruleset
from engine.tiles import Tile

ALL = [Tile(t) for t in range(34) for _ in range(4)]
SUITED = [Tile(t) for t in range(27) for _ in range(4)]


def hands(pool: list[Tile], size: int) -> st.SearchStrategy[list[Tile]]:
    return st.permutations(pool).map(lambda p: sorted(p[:size]))


def _complete_hand(draw: st.DrawFn, sets: int, suited_only: bool) -> list[Tile]:
    counts = [0] * 34
    top = 27 if suited_only else 34
    tiles: list[Tile] = []
    for _ in range(sets):
        if draw(st.booleans()):
            t = draw(st.integers(0, 26).filter(lambda x: x % 9 <= 6))
            group = [t, t + 1, t + 2]
        else:
            t = draw(st.integers(0, top - 1))
            group = [t, t, t]
        for x in group:
            counts[x] += 1
        tiles += [Tile(x) for x in group]
    eye = draw(st.integers(0, top - 1))
    counts[eye] += 2
    tiles += [Tile(eye)] * 2
    if max(counts) > 4:
        from hypothesis import reject

        reject()
    return sorted(tiles)


@st.composite
def complete_hands(draw: st.DrawFn, sets: int = 4, suited_only: bool = False) -> list[Tile]:
    return _complete_hand(draw, sets, suited_only)


@settings(max_examples=150, deadline=None)
@given(hands(ALL, 14))
def test_shanten_matches_the_mahjong_package_on_14_tiles(tiles: list[Tile]) -> None:
    ref = Shanten().calculate_shanten_for_regular_hand(counts_of(tiles))
    assert shanten(counts_of(tiles), 4) == ref


@settings(max_examples=150, deadline=None)
@given(hands(ALL, 13))
def test_shanten_matches_the_mahjong_package_on_13_tiles(tiles: list[Tile]) -> None:
    ref = Shanten().calculate_shanten_for_regular_hand(counts_of(tiles))
    assert shanten(counts_of(tiles), 4) == ref


@settings(max_examples=100, deadline=None)
@given(complete_hands(sets=5, suited_only=True))
def test_built_17_tile_hands_are_complete_and_agree_with_the_ruleset(tiles: list[Tile]) -> None:
    c = counts_of(tiles)
    assert is_complete(c, 5) and shanten(c, 5) == -1
    assert find_ruleset("filipino").is_complete(Hand(tuple(tiles)))


@settings(max_examples=150, deadline=None)
@given(hands(SUITED, 17))
def test_completeness_agrees_with_the_filipino_ruleset(tiles: list[Tile]) -> None:
    rs = find_ruleset("filipino", seven_pairs="pair_plus_any_set")
    c = counts_of(tiles)
    mine = is_complete(c, 5) or is_seven_pairs_plus_set(c)
    assert mine == rs.is_complete(Hand(tuple(tiles)))


@settings(max_examples=100, deadline=None)
@given(hands(ALL, 13))
def test_waits_agree_with_the_singapore_ruleset(tiles: list[Tile]) -> None:
    rs = find_ruleset("singapore")
    ours = [t for t in waits(counts_of(tiles), 4) if counts_of(tiles)[t] < 4]
    theirs = [w.tile if hasattr(w, "tile") else w for w in rs.waits(Hand(tuple(tiles)))]
    if any(counts_of(tiles)[t] == 0 for t in (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)):
        assert [str(t) for t in ours] == [str(t) for t in theirs]


@settings(max_examples=60, deadline=None)
@given(hands(SUITED, 17))
def test_shanten_after_each_discard_is_shanten_of_the_smaller_hand(tiles: list[Tile]) -> None:
    c = counts_of(tiles)
    fast = shanten_after_each_discard(c, 5)
    for t, v in fast.items():
        c[t] -= 1
        assert v == shanten(c, 5)
        c[t] += 1
    assert set(fast) == {t for t in range(34) if c[t]}
