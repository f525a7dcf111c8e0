"""``mahjongero score "<hand>" --variant V --win-tile 9s --self-drawn|--discarder S --seat S``:
score a winning hand and print who pays whom (``--json`` for machines).

If HAND names an existing file it is a photo: ``mahjongero.commands._photo``
(the camera's reader) scores it, when installed.

Table rules: ``--preset NAME`` then ``--rule name=value`` (repeatable) one at a
time; the moment of the win: ``--situation key=value`` (repeatable), e.g.
``--situation discards_before_win=3 --situation dice_doubles=1``.
"""

from __future__ import annotations

import argparse
import json
import os
from fractions import Fraction
from typing import Any


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("score", help="score a winning hand: patterns, value, payments")
    p.add_argument("hand", help='hand notation, e.g. "11m345p678s789s [234m] [789p] / 3f4f" (or a photo file)')
    p.add_argument("--variant", default="filipino", help="filipino, visayan, singapore, vietnamese")
    p.add_argument("--win-tile", required=False, help="the tile that completed the hand, e.g. 9s")
    how = p.add_mutually_exclusive_group()
    how.add_argument("--self-drawn", action="store_true", help="won on a tile drawn from the wall (búnot)")
    how.add_argument("--discarder", help="seat that discarded the winning tile (E, S, W, N)")
    p.add_argument("--seat", default="E", help="the winner's seat (default E)")
    p.add_argument("--round", default="E", help="round wind (default E)")
    p.add_argument("--dealer", default="E", help="the dealer's (máno's) seat (default E)")
    p.add_argument("--preset", help="a named bundle of table rules of the variant")
    p.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE", help="a table rule")
    p.add_argument(
        "--situation", action="append", default=[], metavar="KEY=VALUE",
        help="the moment of the win: discards_before_win, dice_doubles, first_round, jai_alai, ...",
    )
    p.add_argument("--set", default=None, metavar="NAME",
                   help="for a photo: name tiles as a set taught with 'mahjongero calibrate' does")
    p.add_argument("--json", action="store_true", help="print JSON (patterns, value, payments, ...)")
    p.add_argument("--annotate", metavar="OUT.png", default=None,
                   help="for a photo: also write the photo with each tile outlined, named and grouped")
    p.set_defaults(func=run)


def _pairs(items: list[str], what: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"{what} {item!r} is not NAME=VALUE")
        out[key.strip()] = value.strip()
    return out


def situation_value(text: str) -> object:
    """Read a situation value: whole numbers, yes/no, none; anything else stays text.

    >>> situation_value("3"), situation_value("true"), situation_value("none"), situation_value("S")
    (3, True, None, 'S')
    """
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low in ("none", "null", ""):
        return None
    try:
        return int(text)
    except ValueError:
        return text


def rule_values(table_rules: dict[str, Any], texts: dict[str, str]) -> dict[str, object]:
    """Table-rule values from command-line text: the text itself when the rule takes
    it, else read as a number / yes-no / none (``min_tai=2``, ``doubles=off``)."""
    out: dict[str, object] = {}
    for name, text in texts.items():
        rule = table_rules.get(name)
        value: object = text
        if rule is not None:
            try:
                rule.check(text)
            except ValueError:
                value = situation_value(text)
        out[name] = value
    return out


def run(args: argparse.Namespace) -> int:
    if os.path.isfile(args.hand):
        try:
            from mahjongero.commands._photo import score_photo
        except ImportError:
            raise ValueError("photo scoring not available") from None
        return int(score_photo(args))

    from engine.ruleset import find_ruleset
    from engine.scoring.money import format_money

    if not args.win_tile:
        raise ValueError("--win-tile is required (the tile that completed the hand)")
    if not args.self_drawn and not args.discarder:
        raise ValueError("say how the hand won: --self-drawn or --discarder SEAT")
    ruleset = find_ruleset(args.variant)
    rules = rule_values(ruleset.table_rules, _pairs(args.rule, "--rule"))
    if args.preset:
        preset = getattr(type(ruleset), "preset", None)
        if preset is None:
            raise ValueError(f"{ruleset.name} has no presets")
        ruleset = preset(args.preset, **rules)
    elif rules:
        ruleset = find_ruleset(args.variant, **rules)
    situation = {k: situation_value(v) for k, v in _pairs(args.situation, "--situation").items()}
    score = ruleset.score(
        args.hand, win_tile=args.win_tile, winner=args.seat, self_drawn=args.self_drawn,
        discarder=args.discarder, round_wind=args.round, dealer=args.dealer, **situation,
    )
    if args.json:
        doc = {"variant": ruleset.name, "hand": args.hand, "arrangement": str(score.arrangement)}
        doc.update(score.to_json())
        print(json.dumps(doc, ensure_ascii=False, indent=1))
        return 0
    print(f"{ruleset!r}: {score.arrangement}  (won on {args.win_tile} by {score.winner})")
    print(score.breakdown())
    extra = sum((i.payments[score.winner] for i in score.instants), Fraction(0))
    also = f" (+ {format_money(extra, score.currency)} in instant payouts)" if extra else ""
    print(f"{score.winner} wins {format_money(score.total, score.currency)}{also}")
    return 0
