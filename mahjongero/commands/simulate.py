"""``mahjongero simulate --variant V --games N --seed S [--bot greedy|random] [--json]``.

Self-play: four bots play N independent hands refereed by ``engine.game``; prints wins
by type, draws, the most frequent scoring patterns, mean payout per seat and games/s.
"""

from __future__ import annotations

import argparse
import json
import time


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("simulate", help="self-play whole hands with bots and summarise them")
    p.add_argument("--variant", default="filipino",
                   help="filipino, visayan, singaporean or vietnamese (default filipino)")
    p.add_argument("--games", type=int, default=100, help="hands to play (default 100)")
    p.add_argument("--seed", type=int, default=0, help="first hand's seed (hand i uses seed+i)")
    p.add_argument("--bot", choices=("greedy", "random"), default="greedy", help="players (default greedy)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from engine.bots import run_games

    if args.games < 1:
        raise ValueError(f"--games must be at least 1, got {args.games}")
    start = time.perf_counter()
    stats = run_games(args.variant, args.games, args.seed, bot=args.bot)
    elapsed = time.perf_counter() - start
    data = stats.to_json()
    data["seconds"] = round(elapsed, 3)
    data["games_per_second"] = round(args.games / elapsed, 1) if elapsed else None
    data["bot"] = args.bot
    if args.json:
        print(json.dumps(data, indent=1, ensure_ascii=False))
        return 0
    print(f"{stats.variant}: {stats.games} hands with {args.bot} bots, seed {args.seed}")
    wins = stats.games - stats.draws
    print(f"  wins {wins} ({', '.join(f'{k} {v}' for k, v in sorted(stats.wins.items())) or 'none'}),"
          f" exhaustive draws {stats.draws}")
    top = list(stats.patterns.most_common(8))
    if top:
        print("  patterns: " + ", ".join(f"{name} ×{n}" for name, n in top))
    means = data["mean_payout"]
    assert isinstance(means, dict)
    print(f"  mean payout per hand ({stats.unit}): " + ", ".join(f"{s} {v:+.3f}" for s, v in means.items()))
    print(f"  {data['games_per_second']} games/s ({elapsed:.2f} s, {data['mean_actions']:.0f} actions per hand)")
    return 0
