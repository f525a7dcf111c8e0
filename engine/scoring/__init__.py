"""Scoring: patterns over one shared context, a generic loop, payments that sum to zero.

A ruleset scores a complete hand with ``Ruleset.score`` and pays an ambition with
``Ruleset.instant``; both come from ``ScoringRules`` (mixed into ``Ruleset``).
Variant pattern lists live in ``engine.scoring.filipino`` and the variant modules.

Modules: ``money`` (exact amounts), ``context`` (``WinContext`` and wait readings),
``pattern`` (``Pattern`` and the exclusion loop), ``common`` (patterns shared by
variants), ``ambition`` (instant payouts), ``result`` (``Score``,
``InstantPayout``), ``rules`` (``ScoringRules``: the loop and the hooks).

>>> from engine.ruleset import find_ruleset
>>> rs = find_ruleset("filipino")
>>> score = rs.score("11m 345p 678s 789s [234m] [789p] / 3f4f", win_tile="9s", winner="S", discarder="E")
>>> print(score.breakdown())
  winning (tódas): $1.00
  all chows (all chow): $0.25
hand value: $1.25
  East pays $2.50
  South collects $5.00
  West pays $1.25
  North pays $1.25
>>> rs.instant("secret", "N", tiles="9999m").payments
{Seat.EAST: Fraction(-1, 2), Seat.SOUTH: Fraction(-1, 2), Seat.WEST: Fraction(-1, 2), Seat.NORTH: Fraction(3, 2)}
>>> rs.score("11m 345p", win_tile="1m", winner="S", self_drawn=True)
Traceback (most recent call last):
...
engine.scoring.errors.NotCompleteError: '11m345p' is not a complete filipino hand: it counts 5 tiles (kangs as three, bonus tiles aside), a winning hand has 17
"""

from engine.scoring.ambition import Ambition
from engine.scoring.context import SITUATION_FIELDS, WinContext
from engine.scoring.errors import (
    ImpossibleHandError,
    InvalidAmbitionError,
    InvalidWinError,
    NotCompleteError,
    ScoringError,
    UnknownAmbitionError,
)
from engine.scoring.money import Money, format_money, parse_money
from engine.scoring.pattern import Pattern, apply_patterns
from engine.scoring.result import InstantPayout, Score
from engine.scoring.rules import ScoringRules, net_payments

__all__ = [
    "Ambition",
    "SITUATION_FIELDS",
    "WinContext",
    "ImpossibleHandError",
    "InvalidAmbitionError",
    "InvalidWinError",
    "NotCompleteError",
    "ScoringError",
    "UnknownAmbitionError",
    "Money",
    "format_money",
    "parse_money",
    "Pattern",
    "apply_patterns",
    "InstantPayout",
    "Score",
    "ScoringRules",
    "net_payments",
]
