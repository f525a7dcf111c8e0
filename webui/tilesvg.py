"""Tiles drawn as SVG pictures, with Chinese, Arabic and English label layers.

Every tile is one small inline ``<svg>``: the traditional face (dots, bamboo
sticks, a character numeral, an honour glyph) plus label layers that the page
shows or hides with one class on ``<body>`` (``labels-zh``, ``labels-ar``,
``labels-en``), so the toggle needs no round trip and no re-render.

The markup is built from our own constants only (tile codes, names from
``engine.tiles``), never from user text, so it can be marked safe in templates.

>>> svg = tile_svg(Tile.P5)
>>> svg.startswith('<svg') and 'data-tile="5p"' in svg and svg.count('<circle') >= 5
True
>>> 'lbl-ar' in tile_svg(Tile.M3) and '三' in tile_svg(Tile.M3)
True
>>> short_label(Tile.EAST), short_label(Tile.S7), short_label(Tile.FLOWER2)
('E', '7', 'F2')
"""

from __future__ import annotations

from functools import lru_cache

from markupsafe import Markup

from engine.tiles import Tile

__all__ = ["tile_svg", "short_label", "suit_word", "back_svg"]

W, H = 60, 80  # the viewBox; CSS decides the size on screen

_NUMERALS = "一二三四五六七八九"
_DOT_POS: dict[int, list[tuple[float, float]]] = {
    1: [(30, 40)],
    2: [(30, 22), (30, 58)],
    3: [(16, 18), (30, 40), (44, 62)],
    4: [(18, 22), (42, 22), (18, 58), (42, 58)],
    5: [(18, 20), (42, 20), (30, 40), (18, 60), (42, 60)],
    6: [(19, 18), (41, 18), (19, 42), (41, 42), (19, 62), (41, 62)],
    7: [(14, 14), (30, 20), (46, 26), (19, 46), (41, 46), (19, 64), (41, 64)],
    8: [(19, 14), (41, 14), (19, 31), (41, 31), (19, 48), (41, 48), (19, 65), (41, 65)],
    9: [(14, 18), (30, 18), (46, 18), (14, 40), (30, 40), (46, 40), (14, 62), (30, 62), (46, 62)],
}
_DOT_COLOURS = ("#1f5fa8", "#c62828", "#2e7d32")
_HONOUR_COLOURS = {Tile.RED: "#c62828", Tile.GREEN: "#2e7d32", Tile.WHITE: "#1f5fa8"}
_ARABIC_HONOUR = {
    Tile.EAST: "E", Tile.SOUTH: "S", Tile.WEST: "W", Tile.NORTH: "N",
    Tile.WHITE: "Wh", Tile.GREEN: "G", Tile.RED: "R",
}
_SUIT_WORD = {"m": "crak", "p": "dot", "s": "bam"}  # the short English table words


def short_label(tile: Tile) -> str:
    """The big Arabic label a player reads at a glance: a number, a wind letter, F2, A1 ...

    >>> short_label(Tile.RED), short_label(Tile.CAT), short_label(Tile.HOP)
    ('R', 'A1', 'J8')
    """
    if tile.is_suited:
        return str(tile.number)
    if tile.is_honor:
        return _ARABIC_HONOUR[tile]
    prefix = {"f": "F", "a": "A", "j": "J", "r": "K", "x": "X"}[tile.suit]
    return f"{prefix}{tile.number}"


def suit_word(tile: Tile) -> str:
    """A short English word under the number: 'dot', 'bam', 'crak', 'wind', 'flower' ...

    >>> suit_word(Tile.S3), suit_word(Tile.M1), suit_word(Tile.NORTH), suit_word(Tile.SEASON1)
    ('bam', 'crak', 'wind', 'season')
    """
    if tile.is_suited:
        return _SUIT_WORD[tile.suit]
    if tile.is_wind:
        return "wind"
    if tile.is_dragon:
        return "dragon"
    if tile.is_flower:
        return "flower" if tile < Tile.SEASON1 else "season"
    return {"a": "animal", "j": "joker", "r": "royal", "x": "joker"}.get(tile.suit, "")


def _text(x: float, y: float, s: str, size: float, fill: str = "#222", cls: str = "", weight: str = "700") -> str:
    klass = f' class="{cls}"' if cls else ""
    return (
        f'<text{klass} x="{x}" y="{y}" font-size="{size}" fill="{fill}" font-weight="{weight}" '
        f'text-anchor="middle" dominant-baseline="central">{s}</text>'
    )


def _dots(n: int) -> str:
    out = []
    r = 9.5 if n == 1 else (7.5 if n <= 4 else 6.2)
    for i, (x, y) in enumerate(_DOT_POS[n]):
        colour = _DOT_COLOURS[(i + n) % 3] if n > 1 else _DOT_COLOURS[1]
        out.append(f'<circle cx="{x}" cy="{y}" r="{r}" fill="none" stroke="{colour}" stroke-width="2.4"/>')
        out.append(f'<circle cx="{x}" cy="{y}" r="{r * 0.35:.1f}" fill="{colour}"/>')
    return "".join(out)


def _bamboo(n: int) -> str:
    if n == 1:  # the bird of 1 bamboo, simplified to a green bird-ish mark
        return (
            '<ellipse cx="30" cy="42" rx="14" ry="20" fill="#2e7d32"/>'
            '<circle cx="30" cy="22" r="7" fill="#c62828"/>'
            '<path d="M22 60 L30 72 L38 60 Z" fill="#1f5fa8"/>'
        )
    cols = 2 if n in (2, 4) else 3
    rows = (n + cols - 1) // cols
    out = []
    for i in range(n):
        row, col = divmod(i, cols)
        x = 30 + (col - (cols - 1) / 2) * 15
        y = 40 + (row - (rows - 1) / 2) * 22
        colour = "#c62828" if (n in (5, 7, 9) and i == n // 2) else "#2e7d32"
        out.append(f'<rect x="{x - 3.5}" y="{y - 9}" width="7" height="18" rx="3" fill="{colour}"/>')
        out.append(f'<line x1="{x - 3.5}" y1="{y}" x2="{x + 3.5}" y2="{y}" stroke="#f5f0e1" stroke-width="1.2"/>')
    return "".join(out)


def _face(tile: Tile) -> str:
    """The picture a Chinese-reading player expects (shared by all label modes)."""
    if tile.suit == "p":
        return _dots(tile.number)
    if tile.suit == "s":
        return _bamboo(tile.number)
    if tile.suit == "m":
        return (
            _text(30, 24, _NUMERALS[tile.number - 1], 26, "#1a237e", "lbl-zh")
            + _text(30, 24, str(tile.number), 30, "#1a237e", "lbl-ar lbl-en", "800")
            + _text(30, 56, "萬", 28, "#c62828")
        )
    if tile == Tile.WHITE:
        return '<rect x="14" y="16" width="32" height="48" rx="3" fill="none" stroke="#1f5fa8" stroke-width="3"/>'
    if tile.is_honor:
        return _text(30, 40, tile.chinese, 36, _HONOUR_COLOURS.get(tile, "#222"))
    colour = "#ad1457" if tile.is_flower else ("#6a1b9a" if tile.is_vn_joker else "#4e342e")
    glyph = tile.chinese if len(tile.chinese) <= 2 else "J"
    return _text(30, 36, glyph, 24 if len(glyph) == 1 else 16, colour) + _text(30, 64, str(tile.number), 14, colour)


def _corner(tile: Tile) -> str:
    """The Arabic index in the corner, as on Arabic-numeral sets (doc 001)."""
    label = short_label(tile)
    size = 15 if len(label) == 1 else 12
    return (
        f'<g class="lbl-ar lbl-en"><rect x="1.5" y="1.5" width="{10 + 6 * len(label)}" height="17" rx="3" '
        f'fill="#fff8" /><text x="4" y="10.5" font-size="{size}" font-weight="800" fill="#111" '
        f'dominant-baseline="central">{label}</text></g>'
    )


@lru_cache(maxsize=128)
def _svg(tile: Tile) -> str:
    title = f"{tile.english} ({tile.chinese})"
    return (
        f'<svg class="tile-svg" viewBox="0 0 {W} {H}" role="img" data-tile="{tile}" '
        f'xmlns="http://www.w3.org/2000/svg"><title>{title}</title>'
        f'<rect x="1" y="1" width="{W - 2}" height="{H - 2}" rx="7" fill="#f7f3e6" stroke="#9e9784" stroke-width="1.5"/>'
        f"{_face(tile)}{_corner(tile)}</svg>"
    )


def tile_svg(tile: Tile) -> Markup:
    """One tile as inline SVG markup (safe: built only from our constants)."""
    if tile == Tile.BACK:
        return back_svg()
    return Markup(_svg(tile))


def back_svg() -> Markup:
    """A face-down tile (a concealed kang's outer tiles, a hidden hand)."""
    return Markup(
        f'<svg class="tile-svg" viewBox="0 0 {W} {H}" role="img" data-tile="{Tile.BACK}" xmlns="http://www.w3.org/2000/svg">'
        f'<title>face-down tile</title><rect x="1" y="1" width="{W - 2}" height="{H - 2}" rx="7" '
        f'fill="#2e7d6b" stroke="#1b4d42" stroke-width="1.5"/></svg>'
    )
