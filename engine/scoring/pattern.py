"""Scoring patterns: one small object per pattern, and the loop that applies a list.

A pattern has an English ``name``, the variant's own word ``local``, a ``value``
and ``excludes`` (names of patterns it replaces). ``applies(ctx)`` says whether it
scores; patterns that can score several times override ``count(ctx)`` instead.
A list of patterns is in priority order: when two exclude each other the earlier
one stays, so exclusions are data, never nested ifs.

>>> class Lucky(Pattern):
...     name, local, value = "lucky", "suwerte", Money(1, 4)
...     def applies(self, ctx: WinContext) -> bool:
...         return True
>>> class Luckier(Lucky):
...     name, value, excludes = "luckier", Money(1), ("lucky",)
>>> [(p.name, v) for p, v in apply_patterns([Luckier(), Lucky()], None)]  # type: ignore[arg-type]
[('luckier', Fraction(1, 1))]
>>> Lucky(value=Money(2))
Lucky(value=Fraction(2, 1))
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, ClassVar

from engine.scoring.money import Money, parse_money

if TYPE_CHECKING:
    from engine.ruleset import Ruleset
    from engine.scoring.context import WinContext

__all__ = ["Pattern", "apply_patterns"]


class Pattern:
    """Base of every scoring pattern. Subclasses set the class attributes and
    override ``applies`` (or ``count``). ``value_rule`` names a table rule whose
    value replaces ``value``; ``rule`` = (name, values) enables the pattern only
    when that table rule has one of those values."""

    name: ClassVar[str] = ""
    local: ClassVar[str] = ""
    value: Money = Money(0)
    excludes: ClassVar[tuple[str, ...]] = ()
    value_rule: ClassVar[str | None] = None
    rule: ClassVar[tuple[str, tuple[object, ...]] | None] = None

    def __init__(self, *, value: Money | int | None = None) -> None:
        if value is not None:
            self.value = Money(value)

    def __repr__(self) -> str:
        if "value" in vars(self):
            return f"{type(self).__name__}(value={self.value!r})"
        return f"{type(self).__name__}()"

    def enabled(self, ruleset: Ruleset) -> bool:
        """Whether the table plays this pattern at all."""
        if self.rule is None:
            return True
        rule_name, wanted = self.rule
        return ruleset.rule(rule_name) in wanted

    def applies(self, ctx: WinContext) -> bool:
        return self.count(ctx) > 0

    def count(self, ctx: WinContext) -> int:
        """How many times the pattern scores (override for repeated patterns)."""
        return int(self.applies(ctx))

    def worth(self, ctx: WinContext) -> Money:
        """The value of one occurrence at this table."""
        if self.value_rule is not None:
            return parse_money(ctx.ruleset.rule(self.value_rule))
        return self.value


def apply_patterns(patterns: Iterable[Pattern], ctx: WinContext) -> list[tuple[Pattern, Money]]:
    """The patterns that score on ``ctx`` with their total values, exclusions applied."""
    kept: list[tuple[Pattern, Money]] = []
    excluded: set[str] = set()
    for pattern in patterns:
        if pattern.name in excluded:
            continue
        times = pattern.count(ctx)
        if times <= 0:
            continue
        kept.append((pattern, pattern.worth(ctx) * times))
        excluded.update(pattern.excludes)
    return kept
