"""Build walls that deal chosen hands, so a test can stage any table situation."""

from __future__ import annotations

from collections import Counter

from engine.game import Game, GameRules, rules_for
from engine.seats import Seat
from engine.tiles import Tile, parse_tiles


def staged_game(variant: str, hands: dict[Seat, str], *, first: str, draws: str = "",
                back: str = "", dealer: Seat = Seat.EAST, markers: tuple[int, ...] | None = None,
                **options: object) -> Game:
    """A full-mode game whose deal gives each seat ``hands[seat]``, the dealer ``first`` as
    the extra tile, then the wall draws ``draws`` in order and replacements come from
    ``back`` in order. Every other tile fills the middle of the wall."""
    rules: GameRules = rules_for(variant, **options)  # type: ignore[arg-type]
    want = {s: parse_tiles(h) for s, h in hands.items()}
    need = sum(rules.deal_chunks)
    for s, tiles in want.items():
        assert len(tiles) == need, f"{s} needs {need} tiles, got {len(tiles)}"
    remaining = Counter(rules.tile_set())
    order = [Seat((dealer + i) % 4) for i in range(4)]
    # seats not given get filler from the set, chosen deterministically below
    head: list[Tile] = []
    used: Counter[Tile] = Counter()
    for tiles in want.values():
        used.update(tiles)
    extra = parse_tiles(first) + parse_tiles(draws) + parse_tiles(back)
    used.update(extra)
    spare = list((remaining - used).elements())
    assert not (used - remaining), f"more copies than the set has: {used - remaining}"
    fill = iter(sorted(spare, key=lambda t: (not t.is_suited, t)))
    hand_tiles = {s: iter(want.get(s) or [next(fill) for _ in range(need)]) for s in order}
    for chunk in rules.deal_chunks:
        for s in order:
            head.extend(next(hand_tiles[s]) for _ in range(chunk))
    head.extend(parse_tiles(first))
    head.extend(parse_tiles(draws))
    middle = list(fill)
    tail = list(reversed(parse_tiles(back)))
    return Game(rules, wall=head + middle + tail, dealer=dealer, jai_alai=markers)
