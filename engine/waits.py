"""Readiness: which tiles complete a hand (with their shapes), and shanten.

Waits without jokers never try the 34 tiles one by one: each suit is cut
into blocks no single tile can join (``suit_units``), and each block's table
entry (``segment_waits``, memoised by its count vector, shared with its mirror
image) already says which single tiles turn it into sets or into sets plus the
eye, and in which shapes. The whole hand is a handful of look-ups. With jokers
each candidate tile costs a few memoised look-ups: the segment's joker
minimums and the assignment of joker tiles to segments (``distributions``).
Seven pairs and thirteen orphans have closed-form checks.

>>> from engine.decompose import Layout, Prepared
>>> from engine.shapes import Form
>>> layout = Layout(((0, 9, True),), {}, frozenset({Form.STANDARD}), 1, False, frozenset())
>>> [str(w) for w in waits(layout, Prepared((0, 0, 0, 1, 1, 1, 1, 0, 0) + (0,) * 25, (), 0, (), 4), [0] * 34, frozenset())]
['4m', '7m']
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from engine.decompose import (
    INF,
    ORPHANS,
    Layout,
    Prepared,
    Profile,
    distributions,
    min_jokers,
    orphan_arrangements,
    segment_info,
    segment_mins,
    segment_shapes,
    seven_pairs_arrangements,
    standard_complete,
    usable,
    vectors,
)
from engine.shapes import Form, Wait, WaitShape
from engine.tiles import Tile

__all__ = ["waits", "shanten"]

_OTHER = frozenset({WaitShape.OTHER})
_NONE: frozenset[WaitShape] = frozenset()
_TILES = tuple(Tile)
_WAITS: dict[tuple[int, frozenset[WaitShape]], Wait] = {}  # immutable, so shared


def _bump(v: tuple[int, ...], i: int) -> tuple[int, ...]:
    return v[:i] + (v[i] + 1,) + v[i + 1 :]


SegmentWaits = tuple[tuple[int, frozenset[WaitShape]], ...]


@cache
def segment_waits(v: tuple[int, ...], chow: bool) -> tuple[bool, bool, SegmentWaits, SegmentWaits]:
    """``segment_info`` with the shapes already attached: (sets_ok, pair_ok, set waits, pair waits).

    >>> segment_waits((0, 0, 0, 1, 1, 0, 0, 0, 0), True)[2]
    ((2, frozenset({WaitShape.OPEN_ENDED})), (5, frozenset({WaitShape.OPEN_ENDED})))
    """
    sets_ok, pair_ok, set_mask, pair_mask = segment_info(v, chow)
    as_sets = tuple((i, segment_shapes(_bump(v, i), chow, False, 0, i)) for i in range(len(v)) if set_mask >> i & 1)
    as_pair = tuple((i, segment_shapes(_bump(v, i), chow, True, 0, i)) for i in range(len(v)) if pair_mask >> i & 1)
    return sets_ok, pair_ok, as_sets, as_pair


Unit = tuple[int, tuple[bool, bool, SegmentWaits, SegmentWaits]]  # (offset, segment_waits)


@cache
def suit_units(v: tuple[int, ...], chow: bool) -> tuple[Unit, ...]:
    """A segment cut into blocks that no single tile can join, each with its ``segment_waits``.

    Without jokers a set never spans an empty rank, and a new tile touches at
    most one run of held tiles when two or more empty ranks separate them; so
    each block is answered on its own, trimmed to two empty ranks either side
    (fewer at the ends of the suit, which keeps edge waits exact). Small blocks
    recur across very different hands, so fresh hands mostly hit the tables.

    >>> [(off, info[2]) for off, info in suit_units((1, 1, 0, 0, 0, 0, 0, 1, 1), True)]
    [(0, ((2, frozenset({WaitShape.EDGE})),)), (5, ((1, frozenset({WaitShape.EDGE})),))]
    """
    held = [i for i, c in enumerate(v) if c]
    if not held:
        return ()
    if not chow:
        return ((0, segment_waits(v, chow)),)
    blocks, start = [], held[0]
    for prev, i in zip(held, held[1:], strict=False):
        if i - prev > 2:
            blocks.append((start, prev))
            start = i
    blocks.append((start, held[-1]))
    units = []
    for a, b in blocks:
        lo, hi = max(a - 2, 0), min(b + 2, len(v) - 1)
        units.append((lo, _mirrored_waits(v[lo : hi + 1])))
    return tuple(units)


def _mirrored_waits(v: tuple[int, ...]) -> tuple[bool, bool, SegmentWaits, SegmentWaits]:
    """``segment_waits`` of a suit block, sharing one table entry with its mirror image.

    Reading a suit from 9 down to 1 changes no shape (an edge stays an edge),
    so a block and its reverse have mirrored waits.
    """
    back = v[::-1]
    if back >= v:
        return segment_waits(v, True)
    sets_ok, pair_ok, as_sets, as_pair = segment_waits(back, True)
    last = len(v) - 1
    return sets_ok, pair_ok, tuple((last - i, s) for i, s in as_sets), tuple((last - i, s) for i, s in as_pair)


def _plain_standard(layout: Layout, hand: Prepared, held: Sequence[int], found: dict[int, frozenset[WaitShape]]) -> None:
    """Waits without jokers: one table look-up per segment (the hot path).

    The hand is complete with one more tile when every block is sets except
    one that takes the eye: so either the new tile goes to the one unfinished
    block (as its eye or as a set beside a finished eye elsewhere), or to a
    block of its own when the eye is already there.
    """
    counts = hand.counts
    units: list[Unit] = []
    bad: list[int] = []  # blocks that are not all sets
    for f, n, chow in layout.segments:
        for offset, info in suit_units(tuple(counts[f : f + n]), chow):
            if not info[0]:
                if len(bad) == 2:
                    return  # three unfinished blocks: one tile cannot finish them all
                bad.append(len(units))
            units.append((f + offset, info))
    picks: list[tuple[int, SegmentWaits]] = []  # (first tile, the waits that apply there)
    if not bad:
        picks = [(first, info[3]) for first, info in units]  # any block may take the eye
    elif len(bad) == 1:
        first, info = units[bad[0]]
        picks.append((first, info[3]))  # it takes the eye ...
        if info[1]:  # ... or it holds the eye already and another block gets a set
            picks += [(f, i[2]) for k, (f, i) in enumerate(units) if k != bad[0]]
    else:
        (f1, i1), (f2, i2) = units[bad[0]], units[bad[1]]
        if i2[1]:
            picks.append((f1, i1[2]))
        if i1[1]:
            picks.append((f2, i2[2]))
    for first, options in picks:
        for idx, shapes in options:
            t = first + idx
            if held[t] < 4:
                found[t] = found[t] | shapes if t in found else shapes


@cache
def _bumped_mins(v: tuple[int, ...], chow: bool) -> tuple[tuple[int, tuple[int, int], tuple[int, ...]], ...]:
    """For each tile that could be added: (index, its joker minimums, the bigger vector)."""
    out = []
    for idx in range(len(v)):
        if v[idx] < 4:
            w = _bump(v, idx)
            m = (min_jokers(w, chow, False), min_jokers(w, chow, True))
            if m != (INF, INF):
                out.append((idx, m, w))
    return tuple(out)


@cache
def _target_roles(mins: tuple[tuple[int, int], ...], profile: Profile, s: int) -> frozenset[tuple[bool, int]]:
    """(holds the eye, wildcards it gets) for segment ``s`` over every feasible joker spread."""
    return frozenset((p == s, sum(alloc[s] for alloc in spread)) for p, spread in distributions(mins, profile))


def _joker_standard(
    layout: Layout, hand: Prepared, held: Sequence[int], as_joker: frozenset[int], found: dict[int, frozenset[WaitShape]]
) -> None:
    vecs = vectors(layout, hand.counts)
    mins = list(segment_mins(layout, vecs))
    profile = hand.profile(layout)
    for s, (first, _, chow) in enumerate(layout.segments):
        saved = mins[s]
        local: dict[tuple[int, int], frozenset[tuple[bool, int]]] = {}  # few distinct minimums per segment
        for idx, m, w in _bumped_mins(vecs[s], chow):
            t = first + idx
            if held[t] >= 4 or t in as_joker:
                continue
            roles = local.get(m)
            if roles is None:
                mins[s] = m
                roles = local[m] = _target_roles(tuple(mins), profile, s)
            if not roles:
                continue
            shapes = found.get(t, _NONE)
            # trimmed as in suit_waits (a wildcard reaches at most two ranks past a held tile)
            lo, hi = 0, len(w) - 1
            if chow:
                while not w[lo]:
                    lo += 1
                while not w[hi]:
                    hi -= 1
                lo, hi = max(lo - 2, 0), min(hi + 2, len(w) - 1)
            for pair, j in roles:
                shapes = shapes | segment_shapes(w[lo : hi + 1], chow, pair, j, idx - lo)
            found[t] = shapes
        mins[s] = saved


def _with(hand: Prepared, t: int, as_joker: frozenset[int]) -> Prepared:
    if t in as_joker:
        return Prepared(hand.counts, tuple(sorted((*hand.jokers, Tile(t)))), hand.dead, hand.melds, hand.size + 1)
    counts = list(hand.counts)
    counts[t] += 1
    return Prepared(tuple(counts), hand.jokers, hand.dead, hand.melds, hand.size + 1)


def _odd(counts: Sequence[int]) -> list[int]:
    return [t for t, c in enumerate(counts) if c & 1]


def _seven_pairs_cost(layout: Layout, counts: Sequence[int], melds: int) -> int:
    """Fewest wildcards that make seven pairs + a set (any tile may be stood for).

    Taking a natural tile into the set flips its parity; every odd count left
    needs one wildcard, and each wildcard in the set costs one. So a pung of a
    tile held an odd number (>= 3) of times saves one, a chow saves one per odd
    tile it takes and costs one per other tile. Exact when every joker may stand
    for every playable tile, which holds for the Filipino joker.

    >>> from engine.shapes import Form
    >>> layout = Layout(((0, 9, True),), {}, frozenset({Form.SEVEN_PAIRS}), 5, True, frozenset())
    >>> _seven_pairs_cost(layout, [2, 3, 1, 1, 2, 2, 2, 2, 0] + [0] * 25, 0)  # 11222 3 4 5566778 8
    0
    """
    odd = [c & 1 for c in counts]
    n_odd = sum(odd)
    if melds:
        return n_odd
    delta = 3  # a pung of three wildcards
    for t in layout.played:
        c = counts[t]
        if c:
            if c >= 3 and c & 1:
                delta = -1
                break
            delta = 1
    if layout.seven_pairs_chow:
        for a, b, c in layout.chow_triples:
            d = 3 - 2 * (odd[a] + odd[b] + odd[c])
            if d < delta:
                delta = d
    return n_odd + delta


def _seven_pairs_ok(layout: Layout, hand: Prepared, full_mask: int) -> bool:
    if hand.jokers and any(layout.joker_masks[j] != full_mask for j in hand.jokers):
        return any(True for _ in seven_pairs_arrangements(layout, hand, True))  # mixed scopes: search
    return _seven_pairs_cost(layout, hand.counts, len(hand.melds)) <= len(hand.jokers)


def _seven_pairs_waits(
    layout: Layout, hand: Prepared, held: Sequence[int], as_joker: frozenset[int], found: dict[int, frozenset[WaitShape]]
) -> None:
    full = (1 << len(layout.segments)) - 1
    jokers = len(hand.jokers)
    if any(layout.joker_masks[j] != full for j in hand.jokers):  # mixed scopes: search each tile
        for t in layout.played:
            if held[t] < 4 and any(True for _ in seven_pairs_arrangements(layout, _with(hand, t, as_joker), True)):
                found[t] = found.get(t, _NONE) | _OTHER
        return
    counts = list(hand.counts)
    melds = len(hand.melds)
    # one more tile changes the cost by at most one (it flips one parity)
    if _seven_pairs_cost(layout, counts, melds) - 1 > jokers:
        return
    for t in layout.played:
        if held[t] >= 4:
            continue
        if t in as_joker:
            ok = _seven_pairs_cost(layout, counts, melds) <= jokers + 1
        else:
            counts[t] += 1
            ok = _seven_pairs_cost(layout, counts, melds) <= jokers
            counts[t] -= 1
        if ok:
            found[t] = found.get(t, _NONE) | _OTHER


def _orphans_ok(layout: Layout, hand: Prepared) -> bool:
    counts = hand.counts
    if not hand.jokers:
        return sum(counts[t] for t in ORPHANS) == 14 and all(counts[t] for t in ORPHANS)
    return any(True for _ in orphan_arrangements(layout, hand, True))


def waits(layout: Layout, hand: Prepared, held: Sequence[int], as_joker: frozenset[int]) -> list[Wait]:
    """The waits of a prepared hand one tile short (``held``: physical copies per tile)."""
    if not usable(layout, hand):
        return []
    found: dict[int, frozenset[WaitShape]] = {}
    forms = layout.forms
    if Form.STANDARD in forms:
        if hand.jokers:
            _joker_standard(layout, hand, held, as_joker, found)
        else:
            _plain_standard(layout, hand, held, found)
        for t in as_joker:
            if held[t] < 4 and standard_complete(layout, _with(hand, t, as_joker)):
                found[t] = found.get(t, frozenset()) | _OTHER
    if Form.SEVEN_PAIRS in forms and len(hand.melds) <= 1 and _seven_pairs_meld_ok(layout, hand):
        _seven_pairs_waits(layout, hand, held, as_joker, found)
    if Form.THIRTEEN_ORPHANS in forms and not hand.melds:
        counts = hand.counts
        if not any(counts[t] for t in _NOT_ORPHANS):
            for t in (*ORPHANS, *as_joker):
                if held[t] < 4 and layout.seg_of(t)[0] >= 0 and _orphans_ok(layout, _with(hand, t, as_joker)):
                    found[t] = found.get(t, frozenset()) | _OTHER
    out = []
    for t in sorted(found):
        key = (t, found[t])
        wait = _WAITS.get(key)
        if wait is None:
            wait = _WAITS[key] = Wait(_TILES[t], found[t])
        out.append(wait)
    return out


_NOT_ORPHANS = tuple(t for t in range(34) if t not in ORPHANS)


def _seven_pairs_meld_ok(layout: Layout, hand: Prepared) -> bool:
    from engine.hand import MeldKind

    if not hand.melds:
        return True
    kind = hand.melds[0].kind
    return kind in (MeldKind.PUNG, MeldKind.KANG, MeldKind.CONCEALED_KANG, MeldKind.ADDED_KANG) or (
        kind is MeldKind.CHOW and layout.seven_pairs_chow
    )


# -- shanten -----------------------------------------------------------------------------


@cache
def _blocks(v: tuple[int, ...], chow: bool) -> frozenset[tuple[int, int, int]]:
    """Every (sets, partial sets, eye) count one segment can be cut into, best per (sets, eye)."""
    i = next((k for k, c in enumerate(v) if c), -1)
    if i < 0:
        return frozenset({(0, 0, 0)})
    out: set[tuple[int, int, int]] = set()

    def add(w: tuple[int, ...], m: int, t: int, p: int) -> None:
        for m2, t2, p2 in _blocks(w, chow):
            if p + p2 <= 1:
                out.add((m + m2, t + t2, p + p2))

    def take(*idx: int) -> tuple[int, ...] | None:
        w = list(v)
        for k in idx:
            if k >= len(w) or w[k] == 0:
                return None
            w[k] -= 1
        return tuple(w)

    add(v[:i] + (v[i] - 1,) + v[i + 1 :], 0, 0, 0)  # tile i left isolated
    for idx, m, t, p in (
        ((i, i, i), 1, 0, 0),
        ((i, i), 0, 0, 1),
        ((i, i), 0, 1, 0),
    ):
        w = take(*idx)
        if w is not None:
            add(w, m, t, p)
    if chow:
        for idx, m, t in (((i, i + 1, i + 2), 1, 0), ((i, i + 1), 0, 1), ((i, i + 2), 0, 1)):
            w = take(*idx)
            if w is not None:
                add(w, m, t, 0)
    best: dict[tuple[int, int], int] = {}
    for m, t, p in out:
        best[(m, p)] = max(best.get((m, p), -1), t)
    return frozenset((m, t, p) for (m, p), t in best.items())


def _standard_shanten(layout: Layout, hand: Prepared) -> int:
    need = layout.sets_needed - len(hand.melds)
    acc = {(0, 0, 0)}
    for v, (_, _, chow) in zip(vectors(layout, hand.counts), layout.segments, strict=True):
        acc = {
            (m1 + m2, t1 + t2, p1 + p2)
            for m1, t1, p1 in acc
            for m2, t2, p2 in _blocks(v, chow)
            if p1 + p2 <= 1
        }
    best = INF
    for m, t, p in acc:
        m = min(m, need)
        t = min(t, need - m)
        best = min(best, 2 * need - 2 * m - t - p)
    return best


def _orphans_shanten(hand: Prepared) -> int:
    kinds = sum(1 for t in ORPHANS if hand.counts[t])
    pair = any(hand.counts[t] >= 2 for t in ORPHANS)
    return 13 - kinds - (1 if pair else 0)


def _seven_pairs_shanten(layout: Layout, hand: Prepared, hand_size: int) -> int:
    """hand_size minus the most tiles kept toward seven pairs + a set."""

    def pairs_overlap(counts: Sequence[int]) -> int:
        parts: list[int] = []
        for c in counts:
            parts += [2] * (c // 2) + [1] * (c % 2)
        return sum(sorted(parts, reverse=True)[:7])

    best = 0
    if hand.melds:
        best = 3 + pairs_overlap(hand.counts)
    else:
        for first, n, chow in layout.segments:
            sets = [(first + r,) * 3 for r in range(n)]
            if chow and layout.seven_pairs_chow:
                sets += [(first + r, first + r + 1, first + r + 2) for r in range(n - 2)]
            for tiles in sets:
                counts = list(hand.counts)
                kept = 0
                for t in tiles:
                    if counts[t]:
                        counts[t] -= 1
                        kept += 1
                best = max(best, kept + pairs_overlap(counts))
    return hand_size - best


def shanten(layout: Layout, hand: Prepared, hand_size: int) -> int:
    """Shanten over the forms of the layout; jokers fill one missing tile each."""
    values = []
    if Form.STANDARD in layout.forms:
        values.append(_standard_shanten(layout, hand))
    if Form.THIRTEEN_ORPHANS in layout.forms and not hand.melds:
        values.append(_orphans_shanten(hand))
    if Form.SEVEN_PAIRS in layout.forms and len(hand.melds) <= 1:
        values.append(_seven_pairs_shanten(layout, hand, hand_size))
    return max(-1, min(values) - len(hand.jokers))
