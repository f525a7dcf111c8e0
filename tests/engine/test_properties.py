"""Hypothesis properties of the notation, decompositions and waits."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Hand, Meld, MeldKind, Tile, find_ruleset, format_tiles, parse_tiles
from tests.engine import generators as gen

RULESETS = {name: find_ruleset(name) for name in ("filipino", "visayan", "singapore", "vietnamese")}
RULESETS["filipino+joker"] = find_ruleset("filipino", joker="5p")

tiles = st.sampled_from(list(Tile))
playable = st.integers(0, 33).map(Tile)


@st.composite
def melds(draw: st.DrawFn) -> Meld:
    kind = draw(st.sampled_from(list(MeldKind)))
    if kind is MeldKind.CHOW:
        first = draw(st.integers(0, 26).filter(lambda t: t % 9 <= 6))
        return Meld(kind, (Tile(first), Tile(first + 1), Tile(first + 2)))
    if kind is MeldKind.BEAUTY:
        return Meld(kind, (Tile.WHITE, Tile.GREEN, Tile.RED))
    if kind is MeldKind.NEWS:
        return Meld(kind, (Tile.EAST, Tile.SOUTH, Tile.WEST, Tile.NORTH))
    t = draw(playable)
    return Meld(kind, (t,) * (3 if kind is MeldKind.PUNG else 4))


@st.composite
def hands(draw: st.DrawFn) -> Hand:
    concealed = draw(st.lists(tiles.filter(lambda t: not t.is_bonus), max_size=17))
    bonus = draw(st.lists(tiles.filter(lambda t: t.is_bonus), max_size=4))
    return Hand(tuple(concealed), tuple(draw(st.lists(melds(), max_size=4))), tuple(bonus))


@given(tiles)
def test_tile_notation_round_trips(tile: Tile) -> None:
    assert Tile.parse(str(tile)) is tile
    assert eval(repr(tile)) is tile


@given(st.lists(tiles, max_size=20))
def test_tile_lists_round_trip(ts: list[Tile]) -> None:
    assert parse_tiles(format_tiles(ts, sort=False)) == ts
    assert sorted(parse_tiles(format_tiles(ts))) == sorted(ts)


@given(hands())
def test_hand_notation_round_trips(hand: Hand) -> None:
    again = Hand.parse(str(hand))
    assert Counter(again.concealed) == Counter(hand.concealed)
    assert again.melds == hand.melds
    assert Counter(again.bonus) == Counter(hand.bonus)
    assert eval(repr(again)) == again


@st.composite
def ready_hands(draw: st.DrawFn) -> tuple[str, Hand]:
    name = draw(st.sampled_from(sorted(RULESETS)))
    rs = RULESETS[name]
    rng = random.Random(draw(st.integers(0, 2**32)))  # the generator draws a lot: seed it instead
    n_sets = (rs.hand_size - 1) // 3
    pool = [t for t in range(34) if not rs.is_bonus(Tile(t))]
    make = gen.ready_tiles if draw(st.booleans()) else gen.near_tiles
    hand = gen.hand_of(make(rng, n_sets, pool))
    if name == "vietnamese" and draw(st.booleans()):
        hand = gen.with_jokers(rng, [int(t) for t in hand.concealed], [draw(st.sampled_from(list(Tile)[46:54]))])
    if name == "filipino+joker" and draw(st.booleans()):
        hand = gen.with_jokers(rng, [int(t) for t in hand.concealed], [Tile.P5])
    if draw(st.booleans()):  # declare a pung the hand holds
        for t, n in sorted(Counter(hand.concealed).items()):
            if n >= 3 and not rs.joker_scope(t):
                hand = Hand(hand.remove(t, t, t).concealed, (Meld(MeldKind.PUNG, (t, t, t)),))
                break
    return name, hand


@settings(max_examples=60, deadline=None)
@given(ready_hands())
def test_a_wait_completes_and_a_non_wait_does_not(case: tuple[str, Hand]) -> None:
    name, hand = case
    rs = RULESETS[name]
    waits = {w.tile for w in rs.waits(hand)}
    for t in range(34):
        tile = Tile(t)
        if rs.is_bonus(tile) or rs.held(hand, tile) >= 4:
            assert tile not in waits
            continue
        assert rs.is_complete(hand.add(tile)) == (tile in waits), (hand, tile)
    assert (rs.shanten(hand) == 0) == bool(waits)


@settings(max_examples=60, deadline=None)
@given(ready_hands(), st.integers(0, 33))
def test_every_decomposition_uses_exactly_the_hands_tiles(case: tuple[str, Hand], extra: int) -> None:
    name, hand = case
    rs = RULESETS[name]
    complete = hand.add(Tile(extra))
    arrangements = rs.decompositions(complete)
    assert bool(arrangements) == rs.is_complete(complete)
    for a in arrangements:
        concealed = [t for g in a.groups if g.meld is None for t in g.naturals]
        jokers = [j for g in a.groups for j in g.jokers]
        assert Counter(concealed + jokers) == Counter(t for t in complete.concealed if not rs.is_bonus(t))
        assert Counter(g.meld for g in a.groups if g.meld is not None) == Counter(complete.melds)
        for g in a.groups:  # every joker stands for a tile in its scope
            for j, t in zip(g.jokers, g.stands_for, strict=True):
                assert t in rs.joker_scope(j)
        assert len(a.sets) == (rs.hand_size - 1) // 3 or a.form.value != "standard"
