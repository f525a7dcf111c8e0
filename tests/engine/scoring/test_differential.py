"""Differential test: the engine's Filipino / Visayan score against an independent
scorer written straight from the documents' tables, over seeded random hands.

The oracle shares nothing with ``engine.scoring``: it enumerates groupings with the
brute-force ``tests.engine.oracle`` (not the engine's decomposition), reads the wait
shape itself, adds up 001/002/000's values with plain ifs, and keeps the reading
that pays the winner most. Both must agree exactly on the value and every payment.
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest

from engine.ruleset import find_ruleset
from engine.seats import Seat
from tests.engine.oracle import Spec, _groupings
from tests.engine.scoring.test_properties import Built, _build

Q = Fraction(1, 4)


def _shape(kind: str, tiles: tuple[int, ...], t: int) -> str:
    if kind == "pair":
        return "single"
    if kind == "pung":
        return "back to back"
    a = tiles[0]
    if t == a + 1:
        return "middle"
    if (t == a + 2 and a % 9 == 0) or (t == a and a % 9 == 6):
        return "edge"
    return "open"


def _oracle(built: Built, variant: str, winner: Seat, discarder: Seat | None, discards: int) -> tuple[Fraction, dict[Seat, Fraction]]:
    hand = built.hand
    played = frozenset(range(34 if variant == "visayan" else 27))
    melds = [("chow" if len(set(m.tiles)) == 3 else "pung", tuple(int(t) for t in m.tiles)) for m in hand.melds]
    all_tiles = [int(t) for t in hand.concealed] + [t for _, ts in melds for t in ts]
    paid_waits = {"single", "back to back", "middle"} | ({"edge"} if variant == "visayan" else set())
    best: tuple[Fraction, Fraction, dict[Seat, Fraction]] | None = None
    for grouping in _groupings(Counter(int(t) for t in hand.concealed), [], True, Spec(playable=played)):
        groups = [(kind, tuple(sorted(x for x, _ in members))) for kind, members in grouping]
        sets = [g for g in groups if g[0] != "pair"] + melds
        for kind, tiles in groups:
            if int(built.win_tile) not in tiles:
                continue
            value = Fraction(1)
            kinds = {k for k, _ in sets}
            value += Q if kinds == {"chow"} else 0
            value += Q if kinds == {"pung"} else 0
            value += Q if not melds else 0
            value += Q if len(melds) == 5 and kind == "pair" else 0
            value += Fraction(1, 2) if len({t // 9 for t in all_tiles}) == 1 and max(all_tiles) < 27 else 0
            starts = {ts[0] for k, ts in sets if k == "chow"}
            value += Fraction(1, 2) if any({s, s + 3, s + 6} <= starts for s in (0, 9, 18)) else 0
            opening = winner is Seat.EAST and discarder is None and discards == 0  # dealer is East
            value += 1 if opening else (Q if discards <= 5 else 0)
            value += Q if _shape(kind, tiles, int(built.win_tile)) in paid_waits else 0
            dues = {s: value * (2 if discarder is None or s is discarder else 1) for s in Seat if s is not winner}
            total = sum(dues.values(), Fraction(0))
            if best is None or (total, value) > best[:2]:
                net = {s: -dues.get(s, Fraction(0)) for s in Seat}
                net[winner] = total
                best = (total, value, net)
    assert best is not None, "the oracle found no reading"
    return best[1], best[2]


@pytest.mark.parametrize("variant", ["filipino", "visayan"])
def test_engine_agrees_with_the_independent_scorer(variant: str) -> None:
    rng = random.Random(20261122)
    rs = find_ruleset(variant)
    for _ in range(150):
        built = _build(rng, honours=variant == "visayan")
        winner = rng.choice(list(Seat))
        discarder = rng.choice([None, *[s for s in Seat if s is not winner]])
        discards = rng.randint(0, 8)
        score = rs.score(
            built.hand, win_tile=built.win_tile, winner=winner, self_drawn=discarder is None,
            discarder=discarder, discards_before_win=discards,
        )
        value, payments = _oracle(built, variant, winner, discarder, discards)
        assert (score.value, score.payments) == (value, payments), (str(built.hand), built.win_tile, winner, discarder, discards, score.patterns)
