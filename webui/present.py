"""How things are said and shown on the pages: tiles, seats, money.

>>> money(Fraction(5, 4)), money(Fraction(-5, 2)), money(Fraction(64), "Phán"), money(3, "tai")
('$1.25', '−$2.50', '64 Phán', '3 tai')
>>> money(Fraction(-4), "S$"), money(144, "points")
('−S$4.00', '144 points')
>>> tile_caption("5p")
{'code': '5p', 'big': '5', 'word': 'dot', 'english': '5 dots', 'chinese': '五筒'}
>>> seat_name(2), seat_name("N")
('West', 'North')
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

from markupsafe import Markup

from engine.seats import Seat
from engine.tiles import Tile
from webui.tilesvg import short_label, suit_word, tile_svg

__all__ = ["money", "tile_caption", "tile_markup", "seat_name", "as_tile", "parse_money"]


def as_tile(code: Tile | str) -> Tile:
    return code if isinstance(code, Tile) else Tile.parse(str(code))


def tile_markup(code: Tile | str) -> Markup:
    """Inline SVG for a tile code (``"5p"``) or ``Tile``."""
    return tile_svg(as_tile(code))


def tile_caption(code: Tile | str) -> dict[str, str]:
    """The words under a tile: a big Arabic label, an English word, the Chinese name."""
    t = as_tile(code)
    if t == Tile.BACK:
        return {"code": str(Tile.BACK), "big": "", "word": "", "english": "face down", "chinese": "背"}
    return {"code": str(t), "big": short_label(t), "word": suit_word(t), "english": t.english, "chinese": t.chinese}


def seat_name(seat: Seat | int | str) -> str:
    return str(Seat.parse(seat if not isinstance(seat, Seat) else int(seat)))


def clock(epoch: float) -> str:
    """Local time of day, as people say it at the table."""
    return time.strftime("%H:%M", time.localtime(epoch))


def parse_money(value: Any) -> Fraction:
    """Read an amount stored as text (``"5/4"``) or number.

    >>> parse_money("5/4"), parse_money(2)
    (Fraction(5, 4), Fraction(2, 1))
    """
    return Fraction(str(value)) if not isinstance(value, Fraction) else value


def money(value: Any, unit: str = "$") -> str:
    """Amounts as people say them: a currency ending in ``$`` (``$``, ``S$``) before the
    amount with cents; tai, Phán and points after it as numbers."""
    amount = parse_money(value)
    sign = "−" if amount < 0 else ""
    amount = abs(amount)
    if unit.endswith("$"):
        return f"{sign}{unit}{float(amount):.2f}"
    number = str(amount.numerator) if amount.denominator == 1 else f"{float(amount):.2f}"
    return f"{sign}{number} {unit}"
