"""Money: exact amounts (a quarter payout is 1/4, never 0.25000001).

>>> format_money(Money(5, 4), "$")
'$1.25'
>>> format_money(Money(-1, 2), "$"), format_money(Money(3), "tai"), format_money(Money(144), "Phán")
('-$0.50', '3 tai', '144 Phán')
>>> format_money(Money(2), "S$"), format_money(Money(144), "points")
('S$2.00', '144 points')
>>> parse_money("1/4"), parse_money("$0.75"), parse_money(2), parse_money(0.1)
(Fraction(1, 4), Fraction(3, 4), Fraction(2, 1), Fraction(1, 10))
>>> format_money(Money(1, 3), "$")  # a third of a dollar: not rounded to a cent
'$0.3333'
>>> parse_money("a lot")
Traceback (most recent call last):
ValueError: 'a lot' is not an amount (try 1, 1/4 or 0.25)
>>> parse_money(True)
Traceback (most recent call last):
ValueError: True is not an amount
"""

from __future__ import annotations

from fractions import Fraction

__all__ = ["Money", "format_money", "parse_money"]

Money = Fraction


def format_money(amount: Money, unit: str = "$") -> str:
    """Dollars with cents (any unit ending in ``$``, such as ``S$``, is a currency
    written before the amount); any other unit as a number followed by the unit."""
    if unit.endswith("$"):
        sign = "-" if amount < 0 else ""
        cents = abs(amount) * 100
        whole = round(cents)
        text = f"{whole // 100}.{whole % 100:02d}"
        if cents != whole:  # fractions of a cent: show them exactly rather than round
            text = f"{float(abs(amount)):.4f}".rstrip("0")
        return f"{sign}{unit}{text}"
    number = str(amount.numerator) if amount.denominator == 1 else str(amount)
    return f"{number} {unit}"


def parse_money(value: object) -> Money:
    """Read ``1``, ``"1/4"``, ``"0.25"``, ``"$0.25"`` or a Fraction; ValueError quotes the input."""
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not an amount")
    if isinstance(value, Fraction | int):
        return Fraction(value)
    if isinstance(value, float):
        return Fraction(value).limit_denominator(1000)
    try:
        return Fraction(str(value).strip().lstrip("$"))
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"{value!r} is not an amount (try 1, 1/4 or 0.25)") from None
