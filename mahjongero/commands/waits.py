"""``mahjongero waits HAND [--variant V] [--json]``: which tiles complete a hand, in what shapes.

``mahjongero waits --batch FILE`` (``-`` for stdin) reads one hand per line and
writes one JSON object per line; a line that cannot be read becomes
``{"hand": ..., "error": ...}`` and the run goes on. Table rules are set with
``--rule NAME=VALUE`` (e.g. ``--variant filipino --rule joker=5p``).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from engine.hand import Hand
    from engine.ruleset import Ruleset


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "waits",
        help="the waits of a hand (tiles that complete it) and their shapes",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("hand", nargs="?", help='hand notation, e.g. "123m456p789s1122z" (see docs/notation.md)')
    p.add_argument("--variant", default="singapore", help="filipino, visayan, singapore or vietnamese")
    p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE", help="a table rule")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--batch", metavar="FILE", help="one hand per line from FILE ('-': stdin), JSON lines out")
    p.set_defaults(func=run)


def _rules(pairs: list[str]) -> dict[str, object]:
    rules: dict[str, object] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise ValueError(f"--rule {pair!r}: expected NAME=VALUE")
        rules[name.strip()] = None if value.strip().lower() in ("none", "") else value.strip()
    return rules


def report(ruleset: Ruleset, hand: Hand) -> dict[str, Any]:
    """Everything the command says about one hand, as plain JSON-ready data."""
    from engine.hand import HandStatus

    status = ruleset.status(hand)
    waits = ruleset.waits(hand)
    arrangements = ruleset.decompositions(hand)
    return {
        "hand": str(hand),
        "variant": ruleset.name,
        "status": [f.name for f in HandStatus if f and f in status],
        "complete": bool(arrangements),
        "arrangements": [{"form": a.form.value, "groups": str(a)} for a in arrangements],
        "ready": bool(waits),
        "shanten": ruleset.shanten(hand),
        "waits": [
            {"tile": str(w.tile), "name": w.tile.english, "shapes": sorted(s.value for s in w.shapes)}
            for w in waits
        ],
    }


def _readable(data: dict[str, Any], hand_size: int) -> str:
    lines = [f"{data['hand']}  ({data['variant']}, {hand_size}-tile hands)"]
    for flag in data["status"]:
        lines.append(f"  warning: {flag.lower().replace('_', ' ')}")
    if data["complete"]:
        lines.append("  complete: a winning hand, arranged as")
        for a in data["arrangements"][:8]:
            lines.append(f"    {a['groups']}  ({a['form']})")
        if len(data["arrangements"]) > 8:
            lines.append(f"    ... {len(data['arrangements']) - 8} more")
    elif data["ready"]:
        lines.append(f"  ready, waiting on {len(data['waits'])} tile{'s' if len(data['waits']) != 1 else ''}:")
        for w in data["waits"]:
            lines.append(f"    {w['tile']:<3} {w['name']:<22} {', '.join(w['shapes'])}")
    else:
        lines.append(f"  not ready: shanten {data['shanten']} (tiles away from ready)")
    return "\n".join(lines)


def _batch(ruleset: Ruleset, stream: TextIO) -> int:
    from engine.hand import Hand

    for line in stream:
        text = line.strip()
        if not text:
            continue
        try:
            out = report(ruleset, Hand.parse(text))
        except ValueError as exc:
            out = {"hand": text, "error": str(exc)}
        print(json.dumps(out, ensure_ascii=False), flush=False)
    sys.stdout.flush()
    return 0


def run(args: argparse.Namespace) -> int:
    from engine.hand import Hand
    from engine.ruleset import find_ruleset

    ruleset = find_ruleset(args.variant, **_rules(args.rule))
    if args.batch:
        if args.batch == "-":
            return _batch(ruleset, sys.stdin)
        with open(args.batch, encoding="utf-8") as stream:
            return _batch(ruleset, stream)
    if args.hand is None:
        raise ValueError("give a hand (e.g. mahjongero waits \"123m456p789s1122z\") or --batch FILE")
    data = report(ruleset, Hand.parse(args.hand))
    print(json.dumps(data, ensure_ascii=False, indent=1) if args.json else _readable(data, ruleset.hand_size))
    return 0
