"""Referee throughput: whole hands per second per variant with four greedy bots.

Target (issue 4): at least 50 full Filipino hands per second on one core. Run:

    .venv/bin/python benchmarks/bench_game.py [--games 200] [--seed 0]

Prints, side by side in one process, games/s per variant and the ratio to the
target, plus where the time goes (the shanten arithmetic the bots use, the referee's
push/undo machinery, the ruleset's scoring of wins).
"""

from __future__ import annotations

import argparse
import time

from engine.bots import GreedyBot, play_hand
from engine.game import Game, rules_for
from engine.game.shape import counts_of, shanten_after_each_discard

TARGET = 50.0


def bench_variant(variant: str, games: int, seed: int) -> tuple[float, int, int]:
    rules = rules_for(variant)
    bots = [GreedyBot()] * 4
    wins = actions = 0
    start = time.perf_counter()
    for i in range(games):
        g = Game(rules, seed=seed + i)
        out = play_hand(g, bots)
        wins += out.kind == "win"
        actions += len(g.history)
    return games / (time.perf_counter() - start), wins, actions


def bench_shanten(n: int = 2000) -> float:
    import random

    rng = random.Random(1)
    wall = [t for t in range(27) for _ in range(4)]
    hands = []
    for _ in range(n):
        rng.shuffle(wall)
        hands.append(counts_of(wall[:17]))
    start = time.perf_counter()
    for h in hands:
        shanten_after_each_discard(h, 5)
    return (time.perf_counter() - start) / n * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    bench_variant("filipino", 20, 10_000)  # warm the shape caches
    print(f"{'variant':<12} {'games/s':>8} {'vs target':>9} {'wins':>6} {'actions/hand':>13}")
    for variant in ("filipino", "visayan", "singaporean", "vietnamese"):
        rate, wins, actions = bench_variant(variant, args.games, args.seed)
        print(f"{variant:<12} {rate:8.1f} {rate / TARGET:8.2f}x {wins:6d} {actions / args.games:13.1f}")
    print(f"greedy discard choice (17 tiles, all candidates): {bench_shanten():.0f} µs")


if __name__ == "__main__":
    main()
