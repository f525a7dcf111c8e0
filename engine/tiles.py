"""Every tile of every supported set, as named ints, with the text notation.

Tiles 0-33 follow the riichi "34" order (so hands paste from mpsz tools and index
count arrays directly); everything else (flowers, seasons, animals, Vietnamese
jokers, royalty, the American joker, a face-down back) follows.

>>> Tile.parse("5p")
Tile.P5
>>> str(Tile.RED), Tile.RED.english, Tile.RED.chinese
('7z', 'Red dragon', '中')
>>> [str(t) for t in parse_tiles("123m 0p 7z 2f 1a 8j 5r 0x")]
['1m', '2m', '3m', '5p', '7z', '2f', '1a', '8j', '5r', '0x']
>>> format_tiles(parse_tiles("3m1m2m11z"))
'123m11z'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import IntEnum

__all__ = [
    "Tile",
    "InvalidTileError",
    "SUIT_LETTERS",
    "parse_tiles",
    "format_tiles",
    "NUM_PLAYABLE",
]

NUM_PLAYABLE = 34  # suits and honours: the tiles that form sets; index of count arrays

SUIT_LETTERS = "mpsz"
# Letters for the tiles beyond the riichi 34, in enum order; each is "<digit><letter>".
_EXTRA_LETTERS = {"f": (34, 8), "a": (42, 4), "j": (46, 8), "r": (54, 8), "x": (62, 2)}


class InvalidTileError(ValueError):
    """A token that names no tile. The message quotes the token."""


class Tile(IntEnum):
    """One tile kind. ``str(tile)`` is its notation; ``repr`` pastes back as code."""

    M1, M2, M3, M4, M5, M6, M7, M8, M9 = range(0, 9)  # characters 萬 (craks)
    P1, P2, P3, P4, P5, P6, P7, P8, P9 = range(9, 18)  # dots / circles / balls
    S1, S2, S3, S4, S5, S6, S7, S8, S9 = range(18, 27)  # bamboo / sticks / bams
    EAST, SOUTH, WEST, NORTH = range(27, 31)
    WHITE, GREEN, RED = range(31, 34)  # Visayan: Window (Mirror), Berde, Dagger
    FLOWER1, FLOWER2, FLOWER3, FLOWER4 = range(34, 38)  # plum, orchid, chrysanthemum, bamboo
    SEASON1, SEASON2, SEASON3, SEASON4 = range(38, 42)  # spring, summer, autumn, winter
    CAT, RAT, ROOSTER, CENTIPEDE = range(42, 46)  # Singapore animals
    # South Vietnamese jokers: green set then red set (doc 003).
    THUNG, SOOC, THAY, TONG, HOA, HY, NGUYEN, HOP = range(46, 54)
    EMPEROR1, EMPEROR2, EMPEROR3, EMPEROR4 = range(54, 58)
    EMPRESS1, EMPRESS2, EMPRESS3, EMPRESS4 = range(58, 62)
    AMERICAN_JOKER = 62
    BACK = 63  # a face-down tile: the camera sees one, the rules never score one

    # -- notation ---------------------------------------------------------------
    def __str__(self) -> str:
        return _CODES[self]

    def __repr__(self) -> str:
        return f"Tile.{self.name}"

    @classmethod
    def parse(cls, token: str) -> Tile:
        """Parse one token like ``"5p"``, ``"0m"`` (red five), ``"3f"``.

        >>> Tile.parse("0s"), Tile.parse("4a")
        (Tile.S5, Tile.CENTIPEDE)
        >>> Tile.parse("8z")
        Traceback (most recent call last):
        ...
        engine.tiles.InvalidTileError: no tile '8z': honours are 1z-7z
        >>> Tile.parse("12m")
        Traceback (most recent call last):
        ...
        engine.tiles.InvalidTileError: '12m' is not exactly one tile
        """
        tiles = parse_tiles(token)
        if len(tiles) != 1:
            raise InvalidTileError(f"{token!r} is not exactly one tile")
        return tiles[0]

    # -- classification -----------------------------------------------------------
    @property
    def suit(self) -> str:
        """One letter: m p s z for playable tiles, f a j r x for the others."""
        return _CODES[self][1]

    @property
    def number(self) -> int:
        """The digit in the notation (1-9 for suits; 1-7 for honours; ...)."""
        return int(_CODES[self][0])

    @property
    def is_suited(self) -> bool:
        return self < 27

    @property
    def is_honor(self) -> bool:
        return 27 <= self < 34

    @property
    def is_wind(self) -> bool:
        return 27 <= self < 31

    @property
    def is_dragon(self) -> bool:
        return 31 <= self < 34

    @property
    def is_playable(self) -> bool:
        """Suits and honours: tiles that can form sets (in some variant)."""
        return self < NUM_PLAYABLE

    @property
    def is_terminal(self) -> bool:
        return self.is_suited and self.number in (1, 9)

    @property
    def is_flower(self) -> bool:
        """Flowers and seasons (numbered 1-4 each)."""
        return 34 <= self < 42

    @property
    def is_animal(self) -> bool:
        return 42 <= self < 46

    @property
    def is_vn_joker(self) -> bool:
        return 46 <= self < 54

    @property
    def is_royalty(self) -> bool:
        return 54 <= self < 62

    @property
    def is_bonus(self) -> bool:
        """Never part of a set in any variant: flowers, seasons, animals, royalty."""
        return self.is_flower or self.is_animal or self.is_royalty

    @property
    def seat_number(self) -> int | None:
        """The seat (1 = East ... 4 = North) a numbered bonus tile belongs to.

        >>> Tile.SEASON3.seat_number, Tile.EMPRESS2.seat_number, Tile.CAT.seat_number
        (3, 2, None)
        """
        if self.is_flower or self.is_royalty:
            return (self - 34) % 4 + 1
        return None

    # -- names --------------------------------------------------------------------
    @property
    def english(self) -> str:
        return _ENGLISH[self]

    @property
    def chinese(self) -> str:
        return _CHINESE[self]

    @property
    def aliases(self) -> tuple[str, ...]:
        """Other names the rule documents use for this tile."""
        return _ALIASES.get(self, ())


def _code(t: int) -> str:
    if t < NUM_PLAYABLE:
        return f"{t % 9 + 1}{SUIT_LETTERS[t // 9]}"
    for letter, (start, count) in _EXTRA_LETTERS.items():
        if start <= t < start + count:
            first = 0 if letter == "x" else 1
            return f"{t - start + first}{letter}"
    raise AssertionError(t)


_CODES: dict[int, str] = {t: _code(t) for t in range(64)}
_BY_CODE: dict[str, Tile] = {code: Tile(t) for t, code in _CODES.items()}

_NUMERALS = "一二三四五六七八九"
_SUIT_EN = {"m": "characters", "p": "dots", "s": "bamboo"}
_SUIT_ZH = {"m": "萬", "p": "筒", "s": "索"}
_HONOURS = [
    ("East wind", "東"), ("South wind", "南"), ("West wind", "西"), ("North wind", "北"),
    ("White dragon", "白"), ("Green dragon", "發"), ("Red dragon", "中"),
]
_FLOWERS = [
    ("Plum", "梅"), ("Orchid", "蘭"), ("Chrysanthemum", "菊"), ("Bamboo flower", "竹"),
    ("Spring", "春"), ("Summer", "夏"), ("Autumn", "秋"), ("Winter", "冬"),
]
_ANIMALS = [("Cat", "貓"), ("Rat", "鼠"), ("Rooster", "雞"), ("Centipede", "蜈蚣")]
_VN_JOKERS = [
    ("Thùng (dots joker)", "筒"), ("Soọc (bamboo joker)", "索"),
    ("Thay (characters joker)", "萬"), ("Tổng (general joker)", "縂"),
    ("Hoa (flower joker)", "花"), ("Hỷ (wind joker)", "喜"),
    ("Nguyên (dragon joker)", "元"), ("Hợp (suited joker)", "合"),
]


def _names() -> tuple[dict[int, str], dict[int, str]]:
    english: dict[int, str] = {}
    chinese: dict[int, str] = {}
    for t in range(27):
        suit, n = SUIT_LETTERS[t // 9], t % 9 + 1
        english[t] = f"{n} {_SUIT_EN[suit]}"
        chinese[t] = f"{_NUMERALS[n - 1]}{_SUIT_ZH[suit]}"
    extras = _HONOURS + _FLOWERS + _ANIMALS + _VN_JOKERS
    for offset, (en, zh) in enumerate(extras):
        english[27 + offset], chinese[27 + offset] = en, zh
    for i in range(4):
        english[54 + i], chinese[54 + i] = f"Emperor {i + 1}", f"皇{_NUMERALS[i]}"
        english[58 + i], chinese[58 + i] = f"Empress {i + 1}", f"后{_NUMERALS[i]}"
    english[62], chinese[62] = "American joker", "JOKER"
    english[63], chinese[63] = "Face-down tile", "背"
    return english, chinese


_ENGLISH, _CHINESE = _names()
_ALIASES: dict[int, tuple[str, ...]] = {
    Tile.RED: ("Dagger", "Beauty", "Chung"),
    Tile.GREEN: ("Berde", "Beauty", "Fa"),
    Tile.WHITE: ("Window", "Mirror", "Beauty", "Bai"),
    Tile.EAST: ("Tóng",),
    Tile.SOUTH: ("Nam",),
    Tile.WEST: ("Sái",),
    Tile.NORTH: ("Pak",),
    Tile.CAT: ("貓",),
    Tile.RAT: ("Mouse",),
    Tile.ROOSTER: ("Chicken",),
    Tile.TONG: ("皇", "General"),
    Tile.THUNG: ("Coins",),
    Tile.SOOC: ("Stick",),
    Tile.THAY: ("Myriad",),
    Tile.HOA: ("Flower joker",),
    Tile.HY: ("Happiness",),
    Tile.NGUYEN: ("Origin",),
    Tile.HOP: ("Unity",),
}
for _i in range(4):
    _ALIASES[Tile.EMPEROR1 + _i] = ("Vương",)
    _ALIASES[Tile.EMPRESS1 + _i] = ("Hoàng",)

_LETTER_HELP = {
    "m": ("characters", "1m-9m"), "p": ("dots", "1p-9p"), "s": ("bamboo", "1s-9s"),
    "z": ("honours", "1z-7z"), "f": ("flowers and seasons", "1f-8f"),
    "a": ("animals", "1a-4a"), "j": ("Vietnamese jokers", "1j-8j"),
    "r": ("emperors and empresses", "1r-8r"), "x": ("back and American joker", "0x-1x"),
}
_GROUP = re.compile(r"(\d+)([a-z])")


def parse_tiles(text: str) -> list[Tile]:
    """Parse mpsz-style groups (``"123m44z"``) into tiles, in the order written.

    Spaces separate groups freely. ``0m``/``0p``/``0s`` (red fives in riichi
    tools) read as fives.

    >>> parse_tiles("19m 19p19s 1234567z")[-1]
    Tile.RED
    >>> parse_tiles("12q")
    Traceback (most recent call last):
    ...
    engine.tiles.InvalidTileError: cannot read '12q' in '12q': expected digits followed by one of mpszfajrx
    """
    tiles: list[Tile] = []
    pos = 0
    compact = "".join(text.split())
    while pos < len(compact):
        m = _GROUP.match(compact, pos)
        if m is None or (m.group(2) not in SUIT_LETTERS and m.group(2) not in _EXTRA_LETTERS):
            bad = re.match(r"\S*?[a-z]|\S+", compact[pos:])
            token = bad.group(0) if bad else compact[pos:]
            raise InvalidTileError(
                f"cannot read {token!r} in {text!r}: expected digits followed by one of "
                f"{SUIT_LETTERS}{''.join(_EXTRA_LETTERS)}"
            )
        digits, letter = m.groups()
        tiles.extend(_tile(d, letter) for d in digits)
        pos = m.end()
    return tiles


def _tile(digit: str, letter: str) -> Tile:
    if digit == "0" and letter in "mps":
        digit = "5"
    tile = _BY_CODE.get(digit + letter)
    if tile is None:
        what, valid = _LETTER_HELP[letter]
        raise InvalidTileError(f"no tile '{digit}{letter}': {what} are {valid}")
    return tile


def format_tiles(tiles: Iterable[Tile], *, sort: bool = True) -> str:
    """Write tiles in compact mpsz form, grouping runs of the same letter.

    >>> format_tiles([Tile.EAST, Tile.M1, Tile.M1, Tile.CAT])
    '11m1z1a'
    >>> format_tiles([Tile.EAST, Tile.M1], sort=False)
    '1z1m'
    """
    seq = sorted(tiles) if sort else list(tiles)
    out: list[str] = []
    digits = ""
    letter = ""
    for t in seq:
        code = _CODES[t]
        if code[1] != letter and digits:
            out.append(digits + letter)
            digits = ""
        digits += code[0]
        letter = code[1]
    if digits:
        out.append(digits + letter)
    return "".join(out)
