"""The fast core: split count vectors into sets and a pair, with jokers.

A hand's playable tiles are cut into *segments* that never share a set: the
three suits (chows allowed), the winds and the dragons (pungs only). Every
question about a segment is answered once per count vector and memoised
(``functools.cache`` keyed by the vector as a tuple), so after warm-up a
whole hand costs a handful of dictionary look-ups:

* ``min_jokers(v, chow, pair)``: the fewest wildcards that complete the
  segment into sets (plus one pair if ``pair``). With ``m`` that minimum, the
  segment can absorb exactly ``m, m+3, m+6, ...`` wildcards (three more
  wildcards are one more pung), which turns the whole-hand question into a
  small assignment of joker tiles to segments (``distributions``).
* ``segment_arrangements(v, chow, pair, j)``: every way to do it with exactly
  ``j`` wildcards, as relative "proto groups".

Every joker scope used by the variants (one suit, all suits, winds, dragons,
everything) is a union of whole segments, which is what makes that reduction exact.

>>> min_jokers((1, 1, 1, 0, 0, 0, 0, 0, 0), True, False)
0
>>> min_jokers((1, 0, 0, 0, 0, 0, 0, 0, 1), True, True)
3
>>> min_jokers((2, 0, 0), False, False)  # a pair of dragons needs one more for a pung
1
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations_with_replacement, permutations, product

from engine.hand import Meld, MeldKind
from engine.shapes import Arrangement, Form, Group, GroupKind, WaitShape
from engine.tiles import NUM_PLAYABLE, Tile

__all__ = [
    "INF",
    "Layout",
    "Prepared",
    "min_jokers",
    "segment_arrangements",
    "segment_shapes",
    "segment_info",
    "distributions",
    "is_complete",
    "arrangements",
    "ORPHANS",
]

INF = 99  # "impossible" for joker minimums; stays impossible after small additions

Vec = tuple[int, ...]
# A group inside one segment: kind, the relative tiles it stands for (sorted),
# and the relative tiles its wildcards stand for (sorted).
Proto = tuple[GroupKind, tuple[int, ...], tuple[int, ...]]

ORPHANS: tuple[int, ...] = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def _minus(v: Vec, i: int, k: int = 1) -> Vec:
    return v[:i] + (v[i] - k,) + v[i + 1 :]


def _first(v: Vec) -> int:
    for i, c in enumerate(v):
        if c:
            return i
    return -1


@cache
def min_jokers(v: Vec, chow: bool, pair: bool) -> int:
    """Fewest wildcards that turn the segment ``v`` into sets (and one pair if ``pair``).

    >>> min_jokers((0, 2, 0, 1, 0, 0, 0, 0, 0), True, True)  # 22 4: 22 + 4 and two wildcards
    2
    >>> min_jokers((4, 0, 0, 0), False, False)  # four of a wind cannot be played as sets
    2
    """
    i = _first(v)
    if i < 0:
        return 2 if pair else 0
    if chow and i > 2:  # no set reaches further down than two below the first tile: share the entry
        return min_jokers(v[i - 2 :], chow, pair)
    c, n = v[i], len(v)
    best = INF
    for a in range(1, min(c, 3) + 1):  # pung of i with a naturals
        best = min(best, 3 - a + min_jokers(_minus(v, i, a), chow, pair))
    if pair:
        for a in range(1, min(c, 2) + 1):
            best = min(best, 2 - a + min_jokers(_minus(v, i, a), chow, False))
    if chow:
        # Chows holding the natural i; slots below i can only be wildcards, and
        # above i a natural is always at least as good as a wildcard (swap them).
        for start in (i - 2, i - 1, i):
            if start < 0 or start + 2 >= n:
                continue
            w, used = v, 0
            for p in range(start, start + 3):
                if p == i or (p > i and w[p]):
                    w = _minus(w, p)
                else:
                    used += 1
            best = min(best, used + min_jokers(w, chow, pair))
    return best


@cache
def sets_only(v: Vec, chow: bool, pair: bool) -> bool:
    """``min_jokers(v, chow, pair) == 0``, by a much smaller search (no wildcards to place).

    >>> sets_only((1, 1, 2, 1, 1, 0, 0, 0, 0), True, False), sets_only((3, 1, 1, 0, 0, 0, 0, 0, 0), True, True)
    (True, True)
    """
    i = _first(v)
    if i < 0:
        return not pair
    if i:  # without wildcards nothing reaches below the first tile: share the entry
        return sets_only(v[i:], chow, pair)
    c = v[i]
    if pair and c >= 2 and sets_only(_minus(v, i, 2), chow, False):
        return True
    if c >= 3 and sets_only(_minus(v, i, 3), chow, pair):
        return True
    if chow and i + 2 < len(v) and v[i + 1] and v[i + 2]:
        w = v[:i] + (c - 1, v[i + 1] - 1, v[i + 2] - 1) + v[i + 3 :]
        return sets_only(w, chow, pair)
    return False


@cache
def segment_info(v: Vec, chow: bool) -> tuple[bool, bool, int, int]:
    """``(sets_ok, pair_ok, set_waits, pair_waits)`` without jokers.

    The waits are bit masks of the relative tiles whose addition makes the
    segment all sets (``set_waits``) or sets plus a pair (``pair_waits``).

    >>> segment_info((0, 0, 0, 1, 1, 0, 0, 0, 0), True)  # 45: waits 3 and 6 as sets
    (False, False, 36, 0)
    """
    set_waits = pair_waits = 0
    n = sum(v) + 1  # tiles after adding one: only one of the two forms fits the count
    for i, c in enumerate(v):
        # a new tile only joins a set with a tile of its own kind or an adjacent one
        if c < 4 and (c or not chow or (i and v[i - 1]) or (i + 1 < len(v) and v[i + 1])):
            w = v[:i] + (c + 1,) + v[i + 1 :]
            if n % 3 == 0 and sets_only(w, chow, False):
                set_waits |= 1 << i
            if n % 3 == 2 and sets_only(w, chow, True):
                pair_waits |= 1 << i
    return (sets_only(v, chow, False), sets_only(v, chow, True), set_waits, pair_waits)


def _pure_joker_sets(n: int, chow: bool, count: int) -> list[tuple[Proto, ...]]:
    options: list[Proto] = [(GroupKind.PUNG, (x, x, x), (x, x, x)) for x in range(n)]
    if chow:
        options += [(GroupKind.CHOW, (a, a + 1, a + 2), (a, a + 1, a + 2)) for a in range(n - 2)]
    return [tuple(c) for c in combinations_with_replacement(options, count)]


_KIND_ORDER = {kind: i for i, kind in enumerate(GroupKind)}


def _proto_key(p: Proto) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    return (_KIND_ORDER[p[0]], p[1], p[2])


@cache
def segment_arrangements(v: Vec, chow: bool, pair: bool, j: int) -> tuple[tuple[Proto, ...], ...]:
    """Every split of segment ``v`` into sets (+ a pair) using exactly ``j`` wildcards.

    >>> segment_arrangements((1, 1, 1, 0, 0, 0, 0, 0, 0), True, False, 0)
    (((GroupKind.CHOW, (0, 1, 2), ()),),)
    >>> len(segment_arrangements((2, 0, 0), False, True, 0))
    1
    """
    found: set[tuple[Proto, ...]] = set()
    for groups in _split(v, chow, pair, j):
        found.add(tuple(sorted(groups, key=_proto_key)))
    return tuple(sorted(found, key=lambda gs: [_proto_key(p) for p in gs]))


def _split(v: Vec, chow: bool, pair: bool, j: int) -> Iterator[list[Proto]]:
    if j < 0 or min_jokers(v, chow, pair) > j or (j - min_jokers(v, chow, pair)) % 3:
        return
    i, n = _first(v), len(v)
    if i < 0:  # only wildcards left
        pairs: list[list[Proto]] = [[]]
        if pair:
            pairs = [[(GroupKind.PAIR, (x, x), (x, x))] for x in range(n)]
            j -= 2
        for head in pairs:
            for extra in _pure_joker_sets(n, chow, j // 3):
                yield head + list(extra)
        return
    c = v[i]
    for a in range(1, min(c, 3) + 1):
        g: Proto = (GroupKind.PUNG, (i, i, i), (i,) * (3 - a))
        for tail in _split(_minus(v, i, a), chow, pair, j - (3 - a)):
            yield [g, *tail]
    if pair:
        for a in range(1, min(c, 2) + 1):
            g = (GroupKind.PAIR, (i, i), (i,) * (2 - a))
            for tail in _split(_minus(v, i, a), chow, False, j - (2 - a)):
                yield [g, *tail]
    if chow:
        for start in (i - 2, i - 1, i):
            if start < 0 or start + 2 >= n:
                continue
            # slots above i may take the natural or a wildcard: enumerate both
            above = [p for p in range(start, start + 3) if p > i]
            for choice in product((True, False), repeat=len(above)):
                w, wild = _minus(v, i), [p for p in range(start, i)]
                ok = True
                for p, natural in zip(above, choice, strict=True):
                    if natural:
                        if not w[p]:
                            ok = False
                            break
                        w = _minus(w, p)
                    else:
                        wild.append(p)
                if not ok or len(wild) > j:
                    continue
                g = (GroupKind.CHOW, (start, start + 1, start + 2), tuple(wild))
                for tail in _split(w, chow, pair, j - len(wild)):
                    yield [g, *tail]


def _chow_shape(start: int, idx: int, n: int) -> WaitShape:
    """The shape of a chow starting at ``start`` completed by ``idx``, in a segment of length ``n``.

    Edge waits are 12 waiting on 3 and 89 on 7: the chow touches an end of the
    suit. Callers pass trimmed vectors only when an end they cut off could not
    hold such a chow anyway.
    """
    if idx == start + 1:
        return WaitShape.MIDDLE
    if (idx == start and start + 3 == n) or (idx == start + 2 and start == 0):
        return WaitShape.EDGE
    return WaitShape.OPEN_ENDED


def _plain_shapes(v: Vec, chow: bool, pair: bool, idx: int) -> frozenset[WaitShape]:
    """``segment_shapes`` without wildcards: at most five look-ups."""
    shapes: set[WaitShape] = set()
    c = v[idx]
    if c >= 3 and sets_only(_minus(v, idx, 3), chow, pair):
        shapes.add(WaitShape.BACK_TO_BACK)
    if pair and c >= 2 and sets_only(_minus(v, idx, 2), chow, False):
        shapes.add(WaitShape.SINGLE)
    if chow:
        for start in (idx - 2, idx - 1, idx):
            if start >= 0 and start + 2 < len(v) and v[start] and v[start + 1] and v[start + 2]:
                w = v[:start] + (v[start] - 1, v[start + 1] - 1, v[start + 2] - 1) + v[start + 3 :]
                if sets_only(w, chow, pair):
                    shapes.add(_chow_shape(start, idx, len(v)))
    return frozenset(shapes)


def _fits(w: Vec, chow: bool, pair: bool, j: int) -> bool:
    """Whether ``w`` splits into sets (+ the pair) with exactly ``j`` wildcards."""
    if j <= 0:
        return j == 0 and sets_only(w, chow, pair)
    m = min_jokers(w, chow, pair)
    return m <= j and (j - m) % 3 == 0


@cache
def segment_shapes(v: Vec, chow: bool, pair: bool, j: int, idx: int) -> frozenset[WaitShape]:
    """Shapes in which the natural tile ``idx`` of complete segment ``v`` was the winning tile.

    A group holding that natural tile is possible when the rest of the segment
    still fits, so each candidate group costs one memoised ``min_jokers``
    look-up instead of an enumeration of arrangements.

    >>> sorted(s.value for s in segment_shapes((0, 0, 1, 1, 1, 0, 0, 0, 0), True, False, 0, 2))
    ['open-ended']
    >>> sorted(s.value for s in segment_shapes((1, 1, 1, 0, 0, 0, 0, 0, 0), True, False, 0, 2))
    ['edge']
    >>> sorted(s.value for s in segment_shapes((0, 0, 0, 0, 1, 0, 0, 0, 0), True, True, 1, 4))  # 5 + joker
    ['other']
    """
    if j == 0:
        return _plain_shapes(v, chow, pair, idx)
    shapes: set[WaitShape] = set()
    c, n = v[idx], len(v)
    for a in range(1, min(c, 3) + 1):  # pungs holding it
        if _fits(_minus(v, idx, a), chow, pair, j - (3 - a)):
            shapes.add(WaitShape.BACK_TO_BACK if a == 3 else WaitShape.OTHER)
    if pair:
        for a in range(1, min(c, 2) + 1):
            if _fits(_minus(v, idx, a), chow, False, j - (2 - a)):
                shapes.add(WaitShape.SINGLE if a == 2 else WaitShape.OTHER)
    if chow:
        for start in (idx - 2, idx - 1, idx):
            if start < 0 or start + 2 >= n:
                continue
            others = [p for p in range(start, start + 3) if p != idx]
            for choice in product((True, False), repeat=2):
                w, wild = _minus(v, idx), 0
                for p, natural in zip(others, choice, strict=True):
                    if natural and w[p]:
                        w = _minus(w, p)
                    elif natural:
                        break
                    else:
                        wild += 1
                else:
                    if _fits(w, chow, pair, j - wild):
                        shapes.add(_chow_shape(start, idx, n) if not wild else WaitShape.OTHER)
    return frozenset(shapes)


# -- joker tiles to segments ------------------------------------------------------

Profile = tuple[tuple[int, int], ...]  # (segment bit mask, how many) per joker kind


@cache
def _spreads(profile: Profile, nseg: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Every way to hand each joker kind's copies to the segments it may serve."""
    per_kind: list[list[tuple[int, ...]]] = []
    for mask, count in profile:
        allowed = [s for s in range(nseg) if mask >> s & 1]
        options = []
        for combo in combinations_with_replacement(allowed, count):
            alloc = [0] * nseg
            for s in combo:
                alloc[s] += 1
            options.append(tuple(alloc))
        per_kind.append(options)
    return tuple(product(*per_kind))


@cache
def distributions(
    mins: tuple[tuple[int, int], ...], profile: Profile
) -> tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]:
    """Feasible ``(pair segment, per-kind allocation)`` for segments with these minimums.

    ``mins[s]`` is ``(min_jokers sets-only, min_jokers with the pair)`` of segment ``s``.

    >>> distributions(((0, INF), (INF, 0)), ())
    ((1, ()),)
    >>> distributions(((1, INF), (INF, 0)), ((0b11, 1),))
    ((1, ((1, 0),)),)
    """
    nseg = len(mins)
    out = []
    for spread in _spreads(profile, nseg):
        jvec = [sum(col) for col in zip(*spread, strict=True)] if spread else [0] * nseg
        for p in range(nseg):
            if all(
                jvec[s] >= mins[s][s == p] and (jvec[s] - mins[s][s == p]) % 3 == 0
                for s in range(nseg)
            ):
                out.append((p, spread))
    return tuple(out)


# -- a hand made ready for the core ------------------------------------------------


@dataclass(frozen=True)
class Layout:
    """What the core needs to know of a ruleset (built by ``Ruleset``)."""

    segments: tuple[tuple[int, int, bool], ...]  # (first tile, length, chows allowed)
    joker_masks: Mapping[Tile, int]  # segment bit mask for each joker tile (0: unusable)
    forms: frozenset[Form]
    sets_needed: int  # sets of a standard hand: 4 or 5
    seven_pairs_chow: bool  # the set of seven pairs may be a chow
    special_melds: frozenset[MeldKind]  # Beauty/NEWS where the variant has them
    # derived in __post_init__:
    played: tuple[int, ...] = field(init=False, repr=False)  # tiles that form sets here
    chow_triples: tuple[tuple[int, int, int], ...] = field(init=False, repr=False)
    where: tuple[tuple[int, int], ...] = field(init=False, repr=False)  # tile -> (segment, index)

    def __post_init__(self) -> None:
        where = [(-1, -1)] * NUM_PLAYABLE
        for s, (first, length, _) in enumerate(self.segments):
            for r in range(length):
                where[first + r] = (s, r)
        object.__setattr__(self, "where", tuple(where))
        object.__setattr__(self, "played", tuple(t for t in range(NUM_PLAYABLE) if where[t][0] >= 0))
        chows = [(f + r, f + r + 1, f + r + 2) for f, n, chow in self.segments if chow for r in range(n - 2)]
        object.__setattr__(self, "chow_triples", tuple(chows))

    def seg_of(self, t: int) -> tuple[int, int]:
        """(segment index, relative index) of a playable tile; (-1, -1) if it plays nowhere."""
        return self.where[t]

    def tiles_of(self, mask: int) -> list[int]:
        return [f + r for s, (f, n, _) in enumerate(self.segments) if mask >> s & 1 for r in range(n)]


class Prepared:
    """A hand as the core sees it (a plain slotted class: it is built once per call)."""

    __slots__ = ("counts", "jokers", "dead", "melds", "size")

    def __init__(
        self, counts: Sequence[int], jokers: tuple[Tile, ...], dead: int, melds: tuple[Meld, ...], size: int
    ) -> None:
        self.counts = counts  # natural playable tiles, 34 long
        self.jokers = jokers  # usable physical jokers, sorted
        self.dead = dead  # concealed tiles that can never be played here
        self.melds = melds
        self.size = size  # tiles toward the hand size (kang = 3)

    def __repr__(self) -> str:
        return f"Prepared({tuple(self.counts)}, {self.jokers}, {self.dead}, {self.melds}, {self.size})"

    def profile(self, layout: Layout) -> Profile:
        kinds: dict[int, int] = {}
        for t in self.jokers:
            m = layout.joker_masks[t]
            kinds[m] = kinds.get(m, 0) + 1
        return tuple(sorted(kinds.items()))


def vectors(layout: Layout, counts: Sequence[int]) -> list[Vec]:
    return [tuple(counts[f : f + n]) for f, n, _ in layout.segments]


def segment_mins(layout: Layout, vecs: Sequence[Vec]) -> tuple[tuple[int, int], ...]:
    return tuple(
        (min_jokers(v, c, False), min_jokers(v, c, True))
        for v, (_, _, c) in zip(vecs, layout.segments, strict=True)
    )


def _melds_ok(layout: Layout, melds: Sequence[Meld]) -> bool:
    for m in melds:
        if m.kind in (MeldKind.BEAUTY, MeldKind.NEWS):
            if m.kind not in layout.special_melds:
                return False
        elif any(layout.seg_of(t)[0] < 0 for t in m.tiles):
            return False
    return True


def standard_complete(layout: Layout, hand: Prepared) -> bool:
    """Standard form: sets + one pair, counting declared melds as sets."""
    if not hand.jokers:
        bad_pair = 0
        for v, (_, _, chow) in zip(vectors(layout, hand.counts), layout.segments, strict=True):
            sets_ok, pair_ok, _, _ = segment_info(v, chow)
            if not sets_ok:
                if not pair_ok:
                    return False
                bad_pair += 1
        return bad_pair == 1
    return bool(distributions(segment_mins(layout, vectors(layout, hand.counts)), hand.profile(layout)))


def usable(layout: Layout, hand: Prepared) -> bool:
    """No dead tiles, every natural in some segment, every meld allowed."""
    if hand.dead or (hand.melds and not _melds_ok(layout, hand.melds)):
        return False
    return len(layout.played) == NUM_PLAYABLE or not any(
        hand.counts[t] for t in range(NUM_PLAYABLE) if layout.seg_of(t)[0] < 0
    )


def is_complete(layout: Layout, hand: Prepared) -> bool:
    """Whether the prepared hand (of the right size) is a winning shape in some form."""
    if not usable(layout, hand):
        return False
    if Form.STANDARD in layout.forms and standard_complete(layout, hand):
        return True
    if Form.SEVEN_PAIRS in layout.forms and any(True for _ in seven_pairs_arrangements(layout, hand, True)):
        return True
    return Form.THIRTEEN_ORPHANS in layout.forms and any(True for _ in orphan_arrangements(layout, hand, True))


# -- whole arrangements --------------------------------------------------------------


def _assign(jokers: Sequence[Tile], slots: Sequence[tuple[int, int]], layout: Layout) -> Iterator[tuple[Tile, ...]]:
    """Distinct ways to put physical jokers on slots ``(tile, segment)`` within their scopes."""
    seen: set[tuple[Tile, ...]] = set()
    for perm in permutations(jokers):
        if perm in seen:
            continue
        seen.add(perm)
        if all(layout.joker_masks[j] >> seg & 1 for j, (_, seg) in zip(perm, slots, strict=True)):
            yield perm


def _build(layout: Layout, seg: int, protos: Sequence[Proto], physical: Sequence[Tile]) -> tuple[Group, ...]:
    first = layout.segments[seg][0]
    out, k = [], 0
    for kind, tiles, wild in protos:
        # canonical order, so jokers swapped between slots standing for the same tile compare equal
        pairs = sorted(zip((Tile(first + w) for w in wild), physical[k : k + len(wild)], strict=True))
        k += len(wild)
        jokers, stands = tuple(j for _, j in pairs), tuple(t for t, _ in pairs)
        out.append(Group(kind, tuple(Tile(first + t) for t in tiles), jokers, None, stands))
    return tuple(out)


def _standard(layout: Layout, hand: Prepared) -> Iterator[Arrangement]:
    vecs = vectors(layout, hand.counts)
    profile = hand.profile(layout)
    kinds_by_mask: dict[int, list[Tile]] = {}
    for t in hand.jokers:
        kinds_by_mask.setdefault(layout.joker_masks[t], []).append(t)
    melds = tuple(Group.from_meld(m) for m in hand.melds)
    for pair_seg, spread in distributions(segment_mins(layout, vecs), profile):
        # the physical jokers each segment receives
        per_seg: list[list[Tile]] = [[] for _ in layout.segments]
        for (mask, _), alloc in zip(profile, spread, strict=True):
            pool = list(kinds_by_mask[mask])
            for s, n in enumerate(alloc):
                per_seg[s] += pool[:n]
                del pool[:n]
        options: list[list[tuple[Group, ...]]] = []
        for s, (v, (_, _, chow)) in enumerate(zip(vecs, layout.segments, strict=True)):
            seg_opts: list[tuple[Group, ...]] = []
            for protos in segment_arrangements(v, chow, s == pair_seg, len(per_seg[s])):
                slots = [(w, s) for _, _, wild in protos for w in wild]
                for perm in _assign(per_seg[s], slots, layout):
                    seg_opts.append(_build(layout, s, protos, perm))
            options.append(seg_opts)
        for combo in product(*options):
            yield Arrangement(Form.STANDARD, melds + tuple(g for part in combo for g in part))


def orphan_arrangements(layout: Layout, hand: Prepared, first_only: bool) -> Iterator[Arrangement]:
    if hand.melds or any(hand.counts[t] for t in range(NUM_PLAYABLE) if t not in ORPHANS):
        return
    if any(layout.seg_of(t)[0] < 0 for t in ORPHANS):
        return
    for x in ORPHANS:
        need = {t: (2 if t == x else 1) - hand.counts[t] for t in ORPHANS}
        if any(n < 0 for n in need.values()):
            continue
        slots = [(t, layout.seg_of(t)[0]) for t in ORPHANS for _ in range(need[t])]
        if len(slots) != len(hand.jokers):
            continue
        for perm in _assign(hand.jokers, slots, layout):
            by_tile: dict[int, list[Tile]] = {}
            for j, (t, _) in zip(perm, slots, strict=True):
                by_tile.setdefault(t, []).append(j)
            groups = []
            for t in ORPHANS:
                js = tuple(sorted(by_tile.get(t, [])))
                kind = GroupKind.PAIR if t == x else GroupKind.SINGLE
                size = 2 if t == x else 1
                groups.append(Group(kind, (Tile(t),) * size, js, None, (Tile(t),) * len(js)))
            yield Arrangement(Form.THIRTEEN_ORPHANS, tuple(groups))
            if first_only:
                return


def _set_candidates(layout: Layout, hand: Prepared) -> Iterator[tuple[Group | None, tuple[int, ...], list[tuple[int, int]]]]:
    """Sets for seven pairs: (meld group or None, natural tiles used, wildcard slots)."""
    if hand.melds:
        if len(hand.melds) == 1:
            g = Group.from_meld(hand.melds[0])
            if g.kind in (GroupKind.PUNG, GroupKind.KANG) or layout.seven_pairs_chow:
                yield g, (), []
        return
    for s, (first, n, chow) in enumerate(layout.segments):
        shapes = [(first + r,) * 3 for r in range(n)]
        if chow and layout.seven_pairs_chow:
            shapes += [(first + r, first + r + 1, first + r + 2) for r in range(n - 2)]
        for tiles in shapes:
            # each tile of the set is natural where held, else a wildcard
            for choice in product((True, False), repeat=3):
                used = [t for t, nat in zip(tiles, choice, strict=True) if nat]
                if any(used.count(t) > hand.counts[t] for t in used):
                    continue
                wild = [(t, s) for t, nat in zip(tiles, choice, strict=True) if not nat]
                if len(wild) > len(hand.jokers):
                    continue
                yield None, tuple(used), wild


def seven_pairs_arrangements(layout: Layout, hand: Prepared, first_only: bool) -> Iterator[Arrangement]:
    seen: set[Arrangement] = set()
    for meld_group, used, set_wild in _set_candidates(layout, hand):
        counts = list(hand.counts)
        for t in used:
            counts[t] -= 1
        odd = [t for t in range(NUM_PLAYABLE) if counts[t] % 2]
        free = len(hand.jokers) - len(set_wild) - len(odd)
        if free < 0 or free % 2:
            continue
        candidates = layout.tiles_of((1 << len(layout.segments)) - 1)
        for extra in combinations_with_replacement(candidates, free // 2):
            pair_slots = [(t, layout.seg_of(t)[0]) for t in odd] + [
                (t, layout.seg_of(t)[0]) for t in extra for _ in range(2)
            ]
            slots = set_wild + pair_slots
            for perm in _assign(hand.jokers, slots, layout):
                arrangement = _seven_pairs_arrangement(meld_group, used, counts, slots, perm, len(set_wild), odd, extra)
                if arrangement in seen:
                    continue
                seen.add(arrangement)
                yield arrangement
                if first_only:
                    return


def _seven_pairs_arrangement(
    meld_group: Group | None,
    used: tuple[int, ...],
    counts: list[int],
    slots: Sequence[tuple[int, int]],
    perm: Sequence[Tile],
    n_set_wild: int,
    odd: Sequence[int],
    extra: Sequence[int],
) -> Arrangement:
    groups: list[Group] = []
    if meld_group is not None:
        groups.append(meld_group)
    else:
        set_tiles = tuple(sorted([Tile(t) for t in used] + [Tile(t) for t, _ in slots[:n_set_wild]]))
        kind = GroupKind.PUNG if len(set(set_tiles)) == 1 else GroupKind.CHOW
        stands = tuple(Tile(t) for t, _ in slots[:n_set_wild])
        groups.append(Group(kind, set_tiles, tuple(perm[:n_set_wild]), None, stands))
    for t in range(NUM_PLAYABLE):
        groups += [Group(GroupKind.PAIR, (Tile(t),) * 2)] * (counts[t] // 2)
    k = n_set_wild
    for t in odd:
        groups.append(Group(GroupKind.PAIR, (Tile(t),) * 2, (perm[k],), None, (Tile(t),)))
        k += 1
    for t in extra:
        both = tuple(sorted((perm[k], perm[k + 1])))
        groups.append(Group(GroupKind.PAIR, (Tile(t),) * 2, both, None, (Tile(t),) * 2))
        k += 2
    return Arrangement(Form.SEVEN_PAIRS, tuple(groups))


def arrangements(layout: Layout, hand: Prepared) -> list[Arrangement]:
    """Every arrangement of a complete prepared hand, in a stable order."""
    if not usable(layout, hand):
        return []
    found: dict[Arrangement, None] = {}
    if Form.STANDARD in layout.forms:
        found.update(dict.fromkeys(_standard(layout, hand)))
    if Form.SEVEN_PAIRS in layout.forms:
        found.update(dict.fromkeys(seven_pairs_arrangements(layout, hand, False)))
    if Form.THIRTEEN_ORPHANS in layout.forms:
        found.update(dict.fromkeys(orphan_arrangements(layout, hand, False)))
    return list(found)
