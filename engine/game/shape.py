"""Fast hand-shape arithmetic on count arrays: completeness, shanten and waits.

The referee and the bots ask these questions thousands of times per game, so they
work on 34-long count arrays (index = ``Tile`` code) and cache every suit's answer
by its nine counts: changing one tile re-evaluates one suit only. The rulesets in
``engine/ruleset.py`` stay the authority for scoring; this module only decides
shapes ("n sets and one pair", "seven pairs plus a set") and is checked against
them and against the ``mahjong`` package in the tests.

>>> from engine.tiles import parse_tiles
>>> c = counts_of(parse_tiles("123m456p789s11122z"))
>>> is_complete(c, 4)
True
>>> shanten(counts_of(parse_tiles("123m456p789s1112z")), 4)  # ready
0
>>> [str(t) for t in waits(counts_of(parse_tiles("123m456p789s1113z")), 4)]
['3z']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.tiles import NUM_PLAYABLE, Tile

__all__ = [
    "counts_of",
    "is_complete",
    "is_seven_pairs_plus_set",
    "shanten",
    "waits",
    "group_options",
    "Options",
]

# (melds, partial sets, eye) triples a group of tiles can be split into, Pareto-pruned.
Options = tuple[tuple[int, int, int], ...]

_SUITED_OPTS: dict[tuple[int, ...], Options] = {}
_HONOUR_OPTS: dict[tuple[int, ...], Options] = {}
_SUITED_FULL: dict[tuple[int, ...], int] = {}  # bit 1: splits into sets; bit 2: sets + one eye
_HONOUR_FULL: dict[tuple[int, ...], int] = {}
_GROUPS = ((0, 9, False), (9, 18, False), (18, 27, False), (27, 34, True))


def counts_of(tiles: Iterable[Tile | int]) -> list[int]:
    """A 34-long count array of the playable tiles (others are ignored).

    >>> counts_of([Tile.M1, Tile.M1, Tile.RED])[0], counts_of([Tile.RED])[33]
    (2, 1)
    """
    counts = [0] * NUM_PLAYABLE
    for t in tiles:
        if t < NUM_PLAYABLE:
            counts[t] += 1
    return counts


# -- completeness -----------------------------------------------------------------


def _full(key: tuple[int, ...], honours: bool) -> int:
    """Bitmask: 1 if the group splits into sets only, 2 if into sets plus one eye."""
    cache = _HONOUR_FULL if honours else _SUITED_FULL
    hit = cache.get(key)
    if hit is not None:
        return hit
    mask = (1 if _splits(list(key), honours, False) else 0) | (
        2 if _splits(list(key), honours, True) else 0
    )
    cache[key] = mask
    return mask


def _splits(c: list[int], honours: bool, eye: bool) -> bool:
    i = 0
    n = len(c)
    while i < n and c[i] == 0:
        i += 1
    if i == n:
        return not eye
    if eye and c[i] >= 2:
        c[i] -= 2
        ok = _splits(c, honours, False)
        c[i] += 2
        if ok:
            return True
    if c[i] >= 3:
        c[i] -= 3
        ok = _splits(c, honours, eye)
        c[i] += 3
        if ok:
            return True
    if not honours and i + 2 < n and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        ok = _splits(c, honours, eye)
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1
        return ok
    return False


def is_complete(counts: Sequence[int], sets: int) -> bool:
    """Whether the concealed counts are exactly ``sets`` sets and one eye.

    ``sets`` is how many sets are still to be formed in the hand (the variant's
    number minus the declared melds).

    >>> from engine.tiles import parse_tiles
    >>> is_complete(counts_of(parse_tiles("11m")), 0), is_complete(counts_of(parse_tiles("112m")), 0)
    (True, False)
    """
    if sum(counts) != 3 * sets + 2:
        return False
    eyes = 0
    for lo, hi, honours in _GROUPS:
        key = tuple(counts[lo:hi])
        mask = _full(key, honours)
        if mask == 0:
            return False
        if not mask & 1:  # this group needs the eye
            eyes += 1
            if eyes > 1:
                return False
    # Group sizes are 0 or 2 mod 3 and the total is 2 mod 3: exactly one group
    # holds the eye, and it was counted above.
    return eyes == 1


def is_seven_pairs_plus_set(counts: Sequence[int]) -> bool:
    """Filipino siete pares: seven pairs and one set (17 tiles).

    A four-of-a-kind counts as two pairs; the set is a pung or a chow.

    >>> from engine.tiles import parse_tiles
    >>> is_seven_pairs_plus_set(counts_of(parse_tiles("1122m3344p5566s77888s")))
    True
    >>> is_seven_pairs_plus_set(counts_of(parse_tiles("1122m3344p5566s77s789s")))
    True
    """
    if sum(counts) != 17:
        return False
    c = list(counts)
    for t in range(NUM_PLAYABLE):
        candidates: list[tuple[int, ...]] = []
        if c[t] >= 3:
            candidates.append((t, t, t))
        if t < 27 and t % 9 <= 6 and c[t] and c[t + 1] and c[t + 2]:
            candidates.append((t, t + 1, t + 2))
        for meld in candidates:
            for x in meld:
                c[x] -= 1
            ok = all(n % 2 == 0 for n in c)
            for x in meld:
                c[x] += 1
            if ok:
                return True
    return False


# -- shanten ----------------------------------------------------------------------


def group_options(key: tuple[int, ...], honours: bool) -> Options:
    """Pareto-best (melds, partials, eye) splits of one suit's (or the honours') counts.

    >>> group_options((1, 1, 1, 0, 0, 0, 0, 0, 2), False)
    ((1, 1, 0), (1, 0, 1))
    >>> group_options((2, 2, 2, 0, 0, 0, 0, 0, 0), False)  # two chows, three pairs, or eye + two partials
    ((2, 0, 0), (0, 3, 0), (0, 2, 1))
    """
    cache = _HONOUR_OPTS if honours else _SUITED_OPTS
    hit = cache.get(key)
    if hit is not None:
        return hit
    i = 0
    n = len(key)
    while i < n and key[i] == 0:
        i += 1
    if i == n:
        result: Options = ((0, 0, 0),)
        cache[key] = result
        return result
    found: set[tuple[int, int, int]] = set()
    c = list(key)

    def branch(take: Sequence[int], dm: int, dt: int, de: int) -> None:
        for x in take:
            c[x] -= 1
        for m, t, e in group_options(tuple(c), honours):
            if e + de <= 1:
                found.add((m + dm, t + dt, e + de))
        for x in take:
            c[x] += 1

    if c[i] >= 3:
        branch((i, i, i), 1, 0, 0)
    if c[i] >= 2:
        branch((i, i), 0, 0, 1)
        branch((i, i), 0, 1, 0)
    if not honours:
        if i + 2 < n and c[i + 1] and c[i + 2]:
            branch((i, i + 1, i + 2), 1, 0, 0)
        if i + 1 < n and c[i + 1]:
            branch((i, i + 1), 0, 1, 0)
        if i + 2 < n and c[i + 2]:
            branch((i, i + 2), 0, 1, 0)
    branch((i,), 0, 0, 0)  # leave this tile isolated
    result = _pareto(found)
    cache[key] = result
    return result


def _pareto(found: Iterable[tuple[int, int, int]]) -> Options:
    items = sorted(set(found), reverse=True)
    kept: list[tuple[int, int, int]] = []
    for a in items:
        # A meld is worth at least a partial set, so b beats a when it has as many
        # melds, as many melds+partials, and the eye if a has it.
        if not any(
            b[0] >= a[0] and b[0] + b[1] >= a[0] + a[1] and b[2] >= a[2] for b in kept
        ):
            kept.append(a)
    return tuple(kept)


def _combine(a: Options, b: Options, cap: int) -> Options:
    out = set()
    for m1, t1, e1 in a:
        for m2, t2, e2 in b:
            if e1 + e2 <= 1:
                out.add((min(m1 + m2, cap), min(t1 + t2, cap), e1 + e2))
    return _pareto(out)


def _best(opts: Options, sets: int) -> int:
    best = 0
    for m, t, e in opts:
        m = min(m, sets)
        v = 2 * m + min(t, sets - m) + e
        if v > best:
            best = v
    return 2 * sets - best


def _best_of_two(a: Options, b: Options, sets: int) -> int:
    """``_best(_combine(a, b))`` without building the combined set (the hot path)."""
    best = 0
    for m1, t1, e1 in a:
        for m2, t2, e2 in b:
            e = e1 + e2
            if e > 1:
                continue
            m = m1 + m2
            if m > sets:
                m = sets
            t = t1 + t2
            if t > sets - m:
                t = sets - m
            v = 2 * m + t + e
            if v > best:
                best = v
    return 2 * sets - best


def hand_options(counts: Sequence[int], sets: int, skip: int = -1) -> Options:
    """Combined options of every group but ``skip`` (the group index 0-3)."""
    acc: Options = ((0, 0, 0),)
    for g, (lo, hi, honours) in enumerate(_GROUPS):
        if g == skip:
            continue
        acc = _combine(acc, group_options(tuple(counts[lo:hi]), honours), sets)
    return acc


def shanten(counts: Sequence[int], sets: int) -> int:
    """Tiles away from ready (0 = ready, -1 = complete) for ``sets`` sets and an eye.

    Standard formula ``2·sets − 2·melds − partials − eye`` with partials capped so
    that melds + partials ≤ sets. Seven pairs is not considered (bots don't aim at it).

    >>> from engine.tiles import parse_tiles
    >>> shanten(counts_of(parse_tiles("123m456p789s11z")), 3), shanten(counts_of(parse_tiles("19m19p19s1234567z")), 4)
    (-1, 8)
    """
    return _best(hand_options(counts, sets), sets)


def shanten_after_each_discard(counts: list[int], sets: int) -> dict[int, int]:
    """Shanten of the hand after discarding each kind of tile it holds (``sets`` as after).

    Used by the greedy bot: one suit is re-evaluated per candidate.

    >>> from engine.tiles import parse_tiles
    >>> r = shanten_after_each_discard(counts_of(parse_tiles("123m456p789s112z")), 3)
    >>> r[Tile.SOUTH], r[Tile.EAST]
    (-1, 0)
    """
    out: dict[int, int] = {}
    others = [hand_options(counts, sets, skip=g) for g in range(4)]
    for g, (lo, hi, honours) in enumerate(_GROUPS):
        seg = counts[lo:hi]
        for j in range(hi - lo):
            if seg[j]:
                seg[j] -= 1
                opts = group_options(tuple(seg), honours)
                seg[j] += 1
                out[lo + j] = _best_of_two(others[g], opts, sets)
    return out


def waits(counts: Sequence[int], sets: int, *, seven_pairs: bool = False) -> list[Tile]:
    """Tiles that would complete the hand (ignoring how many copies are left).

    >>> from engine.tiles import parse_tiles
    >>> [str(t) for t in waits(counts_of(parse_tiles("1112345678999m")), 4)][:3]
    ['1m', '2m', '3m']
    """
    c = list(counts)
    out: list[Tile] = []
    for t in range(NUM_PLAYABLE):
        if c[t] >= 4:
            continue
        c[t] += 1
        if is_complete(c, sets) or (seven_pairs and is_seven_pairs_plus_set(c)):
            out.append(Tile(t))
        c[t] -= 1
    return out
