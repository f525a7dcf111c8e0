"""Invariants of Filipino and Visayan scoring over random complete hands (hypothesis),
and a differential check against an independent mini-scorer of the generating
arrangement: the engine keeps the best arrangement, so it never pays less."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.hand import Hand, Meld
from engine.ruleset import find_ruleset
from engine.scoring import NotCompleteError
from engine.seats import Seat
from engine.tiles import Tile


@dataclass
class Built:
    """A complete hand built from known sets, with what it is made of."""

    hand: Hand
    win_tile: Tile
    sets: list[tuple[str, Tile]]  # ("chow"|"pung", first tile)
    declared: int


def _build(rng: random.Random, honours: bool) -> Built:
    while True:
        counts: Counter[Tile] = Counter()
        sets: list[tuple[str, Tile]] = []
        pool = list(range(34 if honours else 27))
        while len(sets) < 5:
            kind = rng.choice(("chow", "pung"))
            first = Tile(rng.choice(pool))
            tiles = [first] * 3
            if kind == "chow":
                if not first.is_suited or first.number > 7:
                    continue
                tiles = [first, Tile(first + 1), Tile(first + 2)]
            if any(counts[t] + tiles.count(t) > 4 for t in tiles):
                continue
            counts.update(tiles)
            sets.append((kind, first))
        pair = Tile(rng.choice(pool))
        if counts[pair] + 2 <= 4:
            break
    declared = rng.randint(0, 5)
    melds, concealed = [], [pair, pair]
    for i, (kind, first) in enumerate(sets):
        tiles = [first] * 3 if kind == "pung" else [first, Tile(first + 1), Tile(first + 2)]
        if i < declared:
            melds.append(Meld.from_tiles(tiles))
        else:
            concealed.extend(tiles)
    rng.shuffle(concealed)
    flowers = tuple(rng.sample([Tile(t) for t in range(Tile.FLOWER1, Tile.SEASON4 + 1)], rng.randint(0, 3)))
    hand = Hand(tuple(concealed), tuple(melds), flowers)
    return Built(hand, rng.choice(concealed), sets, declared)


def _oracle_value(built: Built, ruleset_name: str) -> Fraction:
    """Filipino value of the generating arrangement, from the documents' table,
    counting only patterns read straight off how the hand was built."""
    value = Fraction(1)
    kinds = {k for k, _ in built.sets}
    if kinds == {"chow"}:
        value += Fraction(1, 4)
    if kinds == {"pung"}:
        value += Fraction(1, 4)
    if built.declared == 0:
        value += Fraction(1, 4)
    suits = {t.suit for t in built.hand.concealed} | {t.suit for m in built.hand.melds for t in m.tiles}
    if len(suits) == 1 and "z" not in suits:
        value += Fraction(1, 2)
    return value


situations = st.tuples(
    st.integers(0, 2**32 - 1),  # hand seed
    st.sampled_from(list(Seat)),  # winner
    st.integers(0, 3),  # discarder offset (0: self-drawn)
    st.sampled_from(("filipino", "visayan")),
    st.integers(0, 2),  # dice doubles
)


@settings(max_examples=40, deadline=None)
@given(situations)
def test_payments_sum_to_zero_and_follow_who_pays(args: tuple[int, Seat, int, str, int]) -> None:
    seed, winner, offset, variant, doubles = args
    rng = random.Random(seed)
    built = _build(rng, honours=variant == "visayan")
    discarder = None if offset == 0 else Seat((winner + offset) % 4)
    score = find_ruleset(variant).score(
        built.hand, win_tile=built.win_tile, winner=winner, self_drawn=discarder is None,
        discarder=discarder, dice_doubles=doubles,
    )
    assert sum(score.payments.values()) == 0
    base = score.value * 2**doubles
    for seat in Seat:
        if seat is winner:
            continue
        doubled = discarder is None or seat is discarder
        assert -score.payments[seat] == base * (2 if doubled else 1)
    assert score.value >= _oracle_value(built, variant)
    for instant in score.instants:
        assert sum(instant.payments.values()) == 0


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(("filipino", "visayan")))
def test_score_is_invariant_to_tile_order(seed: int, variant: str) -> None:
    rng = random.Random(seed)
    built = _build(rng, honours=variant == "visayan")
    rs = find_ruleset(variant)
    first = rs.score(built.hand, win_tile=built.win_tile, winner="S", discarder="E")
    shuffled = list(built.hand.concealed)
    rng.shuffle(shuffled)
    melds = list(built.hand.melds)
    rng.shuffle(melds)
    again = rs.score(Hand(tuple(shuffled), tuple(melds), built.hand.bonus[::-1]),
                     win_tile=built.win_tile, winner="S", discarder="E")
    assert (again.patterns, again.value, again.payments) == (first.patterns, first.value, first.payments)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(("filipino", "visayan")))
def test_a_hand_missing_a_tile_is_rejected_with_a_clear_message(seed: int, variant: str) -> None:
    rng = random.Random(seed)
    built = _build(rng, honours=variant == "visayan")
    rest = list(built.hand.concealed)
    rest.remove(built.win_tile)
    short = Hand(tuple(rest), built.hand.melds, built.hand.bonus)  # the eye keeps one tile at least
    with pytest.raises(NotCompleteError, match="is not a complete .* counts 16 tiles"):
        find_ruleset(variant).score(short, win_tile=rest[0], winner="S", self_drawn=True)


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(("filipino", "visayan")),
    st.sampled_from(list(Seat)),
    st.sampled_from(list(Seat)),
    st.integers(0, 3),
    st.data(),
)
def test_instant_payouts_sum_to_zero_and_each_other_seat_pays_alike(
    variant: str, seat: Seat, dealer: Seat, doubles: int, data: st.DataObject
) -> None:
    rs = find_ruleset(variant)
    kind = data.draw(st.sampled_from(rs.instant_kinds))
    payout = rs.instant(kind, seat, dealer=dealer, dice_doubles=doubles)
    assert sum(payout.payments.values()) == 0
    each = payout.value * 2**doubles
    assert all(payout.payments[s] == -each for s in Seat if s is not seat)
    assert payout.payments[seat] == 3 * each
