"""Seeded random hands for tests and the benchmark (ready hands built from complete ones)."""

from __future__ import annotations

import random
from collections import Counter

from engine.hand import Hand
from engine.tiles import Tile

SUITED = list(range(27))
ALL34 = list(range(34))


def _sets(tiles: list[int]) -> list[list[int]]:
    pungs = [[t, t, t] for t in tiles]
    chows = [[t, t + 1, t + 2] for t in tiles if t < 27 and t % 9 <= 6 and t + 2 in tiles]
    return pungs + chows


def complete_tiles(rng: random.Random, n_sets: int, tiles: list[int], chow_weight: float = 0.6) -> list[int]:
    """A random complete concealed hand: ``n_sets`` sets and a pair, at most four of a tile."""
    pungs = [s for s in _sets(tiles) if s[0] == s[1]]
    chows = [s for s in _sets(tiles) if s[0] != s[1]]
    while True:
        held: Counter[int] = Counter()
        pair = rng.choice(tiles)
        held.update([pair, pair])
        for _ in range(n_sets):
            group = rng.choice(chows if chows and rng.random() < chow_weight else pungs)
            held.update(group)
        if max(held.values()) <= 4:
            return sorted(held.elements())


def ready_tiles(rng: random.Random, n_sets: int, tiles: list[int]) -> list[int]:
    """A random ready hand: a complete hand with one random tile taken out."""
    hand = complete_tiles(rng, n_sets, tiles)
    hand.pop(rng.randrange(len(hand)))
    return hand


def near_tiles(rng: random.Random, n_sets: int, tiles: list[int]) -> list[int]:
    """A ready hand with one tile swapped for a random one: often not ready, sometimes is."""
    while True:
        hand = ready_tiles(rng, n_sets, tiles)
        hand[rng.randrange(len(hand))] = rng.choice(tiles)
        if max(Counter(hand).values()) <= 4:
            return sorted(hand)


def orphans_tiles(rng: random.Random) -> list[int]:
    """A thirteen-orphans hand one tile short (or close to it)."""
    orphans = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
    hand = orphans + [rng.choice(orphans)]
    hand.pop(rng.randrange(len(hand)))
    if rng.random() < 0.3:
        hand[rng.randrange(len(hand))] = rng.choice(ALL34)
    return sorted(hand)


def with_jokers(rng: random.Random, tiles: list[int], jokers: list[Tile]) -> Hand:
    """Replace random tiles of a hand by the given joker tiles (the hand keeps its size)."""
    rest = list(tiles)
    for _ in jokers:
        rest.pop(rng.randrange(len(rest)))
    return Hand(tuple(Tile(t) for t in rest) + tuple(jokers))


def hand_of(tiles: list[int]) -> Hand:
    return Hand(tuple(Tile(t) for t in tiles))
