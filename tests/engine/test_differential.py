"""Differential tests: the engine against ``mahjong`` 2.1.0 and against our brute-force oracle.

Sizes are chosen to finish in a few seconds; set ``MAHJONGERO_BIG=1`` for ten
times more cases (``benchmarks/bench_engine.py --check`` runs a larger set too).
"""

from __future__ import annotations

import dataclasses
import os
import random

import pytest
from mahjong.agari import Agari
from mahjong.hand_calculating.divider import HandDivider
from mahjong.shanten import Shanten

from engine import Hand, Meld, MeldKind, Tile, find_ruleset
from engine.shapes import Form, GroupKind
from engine.variants.vietnam import SCOPES
from tests.engine import generators as gen
from tests.engine import oracle

SCALE = 10 if os.environ.get("MAHJONGERO_BIG") else 1
ORPHANS = set(oracle.ORPHANS)


def _counts(tiles: list[int]) -> list[int]:
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    return c


def _standard_divisions(counts: list[int]) -> list[list[list[int]]]:
    """mahjong's divisions without its seven-pairs ones (Singapore and Vietnam have none)."""
    divisions = HandDivider.divide_hand(counts)
    return [d for d in divisions if not (len(d) == 7 and all(len(b) == 2 for b in d))]


def _mahjong_complete(counts: list[int]) -> bool:
    if not Agari.is_agari(counts):
        return False
    kinds = [c for c in counts if c]
    if len(kinds) == 7 and all(c == 2 for c in kinds):  # is_agari said yes for seven pairs only?
        return bool(_standard_divisions(counts))
    return True


def _mahjong_shapes(counts: list[int], t: int) -> set[str]:
    if all(counts[o] for o in ORPHANS) and sum(counts[o] for o in ORPHANS) == 14:
        return {"other"}
    shapes = set()
    for division in _standard_divisions(counts):
        for block in division:
            if t not in block:
                continue
            if len(block) == 2:
                shapes.add("single")
            elif block[0] == block[1]:
                shapes.add("back to back")
            elif t == block[1]:
                shapes.add("middle")
            elif (t == block[0] and t % 9 == 6) or (t == block[2] and block[0] % 9 == 0):
                shapes.add("edge")
            else:
                shapes.add("open-ended")
    return shapes


def _thirteen_tile_hands(n: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    hands = []
    for i in range(n):
        kind = i % 10
        if kind < 6:
            hands.append(gen.ready_tiles(rng, 4, gen.ALL34))
        elif kind < 9:
            hands.append(gen.near_tiles(rng, 4, gen.ALL34))
        else:
            hands.append(gen.orphans_tiles(rng))
    return hands


def test_waits_and_shapes_agree_with_mahjong() -> None:
    rs = find_ruleset("singapore")
    hands = _thirteen_tile_hands(3000 * SCALE, seed=2)
    ready = 0
    for tiles in hands:
        counts = _counts(tiles)
        ours = {w.tile: {s.value for s in w.shapes} for w in rs.waits(gen.hand_of(tiles))}
        theirs = {}
        for t in range(34):
            if counts[t] < 4:
                counts[t] += 1
                if _mahjong_complete(counts):
                    theirs[t] = _mahjong_shapes(counts, t)
                counts[t] -= 1
        assert ours == theirs, gen.hand_of(tiles)
        ready += bool(theirs)
    assert ready > len(hands) // 2  # the generator really produces ready hands


def test_decompositions_agree_with_mahjong() -> None:
    rs = find_ruleset("singapore")
    rng = random.Random(3)
    for _ in range(1000 * SCALE):
        tiles = gen.complete_tiles(rng, 4, gen.ALL34)
        if rng.random() < 0.3:  # and some that are not complete
            tiles[rng.randrange(14)] = rng.randrange(34)
        counts = _counts(tiles)
        if max(counts) > 4:
            continue
        ours = {
            tuple(sorted(tuple(int(t) for t in g.tiles) for g in a.groups))
            for a in rs.decompositions(gen.hand_of(tiles))
            if a.form is Form.STANDARD
        }
        theirs = {tuple(sorted(tuple(b) for b in d)) for d in _standard_divisions(counts)}
        assert ours == theirs, gen.hand_of(tiles)


def test_shanten_agrees_with_mahjong() -> None:
    rs = find_ruleset("singapore")
    rng = random.Random(4)
    shanten = Shanten()
    for i in range(1500 * SCALE):
        if i % 3 == 0:
            tiles = sorted(rng.sample([t for t in range(34) for _ in range(4)], 13))
        else:
            tiles = gen.near_tiles(rng, 4, gen.ALL34)
        theirs = shanten.calculate_shanten(_counts(tiles), use_chiitoitsu=False)
        assert rs.shanten(gen.hand_of(tiles)) == theirs, gen.hand_of(tiles)


# -- against the oracle: 16-tile hands, seven pairs, jokers ------------------------------


def _spec(rs_name: str, **rules: object) -> tuple[object, oracle.Spec]:
    rs = find_ruleset(rs_name, **rules)
    playable = frozenset(t for t in range(34) if not rs.is_bonus(Tile(t)))
    scopes = {int(j): frozenset(int(t) for t in rs.joker_scope(Tile(j))) for j in Tile if rs.joker_scope(Tile(j))}
    spec = oracle.Spec(
        playable=playable,
        scopes=scopes,
        seven_pairs=Form.SEVEN_PAIRS in rs.forms,
        seven_pairs_chow=rs.seven_pairs_chow(),
        orphans=Form.THIRTEEN_ORPHANS in rs.forms,
    )
    return rs, spec


def _split(hand: Hand, spec: oracle.Spec) -> tuple[list[int], list[int]]:
    naturals = [int(t) for t in hand.concealed if int(t) not in spec.scopes]
    jokers = [int(t) for t in hand.concealed if int(t) in spec.scopes]
    return naturals, jokers


def _check_against_oracle(rs: object, spec: oracle.Spec, hand: Hand, shapes: bool = True) -> bool:
    naturals, jokers = _split(hand, spec)
    melds = [("chow" if m.kind is MeldKind.CHOW else "pung", [int(t) for t in m.tiles]) for m in hand.melds]
    ours = {int(w.tile): w for w in rs.waits(hand)}  # type: ignore[attr-defined]
    theirs = oracle.waits(naturals, jokers, melds, spec)
    assert set(ours) == theirs, hand
    if shapes and not hand.melds:
        special = dataclasses.replace(spec, standard=False)  # seven pairs / thirteen orphans only
        for t, w in ours.items():
            if t in spec.scopes:
                continue
            expected = oracle.standard_shapes(naturals, jokers, t, spec)
            if oracle.complete(naturals + [t], jokers, 0, [], special):
                expected.add("other")
            assert {s.value for s in w.shapes} == expected, (hand, t)
    return bool(theirs)


def test_sixteen_tile_hands_agree_with_oracle() -> None:
    rs, spec = _spec("filipino", seven_pairs="pair_plus_pung")
    rng = random.Random(5)
    ready = 0
    for i in range(150 * SCALE):
        make = gen.ready_tiles if i % 3 else gen.near_tiles
        ready += _check_against_oracle(rs, spec, gen.hand_of(make(rng, 5, gen.SUITED)))
    assert ready > 50


def test_visayan_hands_with_melds_agree_with_oracle() -> None:
    rs, spec = _spec("visayan")
    rng = random.Random(6)
    for _ in range(60 * SCALE):
        tiles = gen.ready_tiles(rng, 5, gen.ALL34)
        # declare one pung or chow the hand holds, if any
        for a in sorted(set(tiles)):
            if tiles.count(a) >= 3:
                meld = Meld(MeldKind.PUNG, (Tile(a),) * 3)
                for _ in range(3):
                    tiles.remove(a)
                hand = Hand(tuple(Tile(t) for t in tiles), (meld,))
                break
        else:
            hand = gen.hand_of(tiles)
        _check_against_oracle(rs, spec, hand)


def _seven_pairs_hand(rng: random.Random, chow: bool) -> list[int]:
    while True:
        pairs = [rng.randrange(27) for _ in range(7)]
        a = rng.randrange(27)
        extra = [a, a + 1, a + 2] if chow and a % 9 <= 6 else [a, a, a]
        tiles = sorted([p for p in pairs for _ in range(2)] + extra)
        if max(tiles.count(t) for t in tiles) <= 4:
            tiles.pop(rng.randrange(17))
            if rng.random() < 0.3:
                tiles[rng.randrange(16)] = rng.randrange(27)
            return sorted(tiles)


@pytest.mark.parametrize("rule", ["pair_plus_pung", "pair_plus_any_set"])
def test_seven_pairs_agree_with_oracle(rule: str) -> None:
    rs, spec = _spec("filipino", seven_pairs=rule)
    rng = random.Random(7)
    ready = 0
    for i in range(120 * SCALE):
        tiles = _seven_pairs_hand(rng, chow=i % 2 == 0)
        ready += _check_against_oracle(rs, spec, gen.hand_of(tiles))
    assert ready > 40


def test_filipino_joker_agrees_with_oracle() -> None:
    rng = random.Random(8)
    checked = 0
    for i in range(36 * SCALE):
        joker = Tile(rng.randrange(27))
        rs, spec = _spec("filipino", joker=str(joker))
        tiles = gen.ready_tiles(rng, 5, gen.SUITED)
        hand = gen.with_jokers(rng, tiles, [joker] * (1 + i % 2))  # copies already held are jokers too
        if hand.concealed.count(joker) > 4:
            continue
        _check_against_oracle(rs, spec, hand)
        checked += 1
    assert checked > 25


VN_JOKERS = list(SCOPES)


def test_vietnamese_jokers_agree_with_oracle() -> None:
    rs, spec = _spec("vietnamese")
    rng = random.Random(9)
    for i in range(200 * SCALE):
        tiles = gen.orphans_tiles(rng) if i % 10 == 9 else gen.ready_tiles(rng, 4, gen.ALL34)
        jokers = rng.sample(VN_JOKERS, 1 + i % 3)  # one to three jokers of mixed scopes
        if i % 4 == 1:
            tiles[rng.randrange(13)] = rng.randrange(34)
        _check_against_oracle(rs, spec, gen.with_jokers(rng, tiles, jokers))


def test_vietnamese_decompositions_agree_with_oracle() -> None:
    rs, spec = _spec("vietnamese")
    rng = random.Random(10)
    names = {GroupKind.CHOW: "chow", GroupKind.PUNG: "pung", GroupKind.PAIR: "pair"}
    for i in range(120 * SCALE):
        tiles = gen.complete_tiles(rng, 4, gen.ALL34)
        hand = gen.with_jokers(rng, tiles, rng.sample(VN_JOKERS, 1 + (i % 2)))
        naturals, jokers = _split(hand, spec)
        ours = {
            tuple(sorted((names[g.kind], tuple(int(t) for t in g.tiles), tuple(sorted(int(j) for j in g.jokers))) for g in a.groups))
            for a in rs.decompositions(hand)
            if a.form is Form.STANDARD
        }
        assert ours == oracle.standard_groupings(naturals, jokers, spec), hand
        for a in rs.decompositions(hand):  # every arrangement uses exactly the hand's tiles
            used = sorted(t for g in a.groups for t in g.naturals) + sorted(j for g in a.groups for j in g.jokers)
            assert sorted(used) == sorted(hand.concealed)
