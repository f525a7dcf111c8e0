"""A deliberately simple brute-force oracle for completeness, waits and shapes.

It shares nothing with the engine's core: no segments, no memo tables, no
joker arithmetic. It takes the hand as plain ints (concealed playable tiles,
joker tiles with the set of tiles each may stand for) and searches every
grouping recursively, picking the lowest natural tile and trying every group
that could hold it, with each other member either a natural tile or any joker
whose scope contains it. Slow on purpose; fine for a few hundred hands.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)

# A member of a group: (tile it stands for, physical joker or None)
Member = tuple[int, int | None]
OGroup = tuple[str, tuple[Member, ...]]


@dataclass
class Spec:
    """The rules the oracle knows: what plays, what jokers stand for, which forms count."""

    playable: frozenset[int]
    scopes: dict[int, frozenset[int]] = field(default_factory=dict)  # joker tile -> tiles it stands for
    standard: bool = True
    seven_pairs: bool = False
    seven_pairs_chow: bool = True
    orphans: bool = False


def _chow_ok(a: int, playable: frozenset[int]) -> bool:
    return a < 27 and a % 9 <= 6 and a in playable and a + 1 in playable and a + 2 in playable


Counts = list[int]  # 34 counts of natural tiles


def _counts(tiles: list[int]) -> Counts:
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    return c


def _fill(
    needed: list[int], naturals: Counts, jokers: list[int], spec: Spec
) -> Iterator[tuple[tuple[Member, ...], Counts, list[int]]]:
    """Every way to supply the tiles ``needed`` from naturals or jokers."""
    if not needed:
        yield (), naturals, jokers
        return
    t, rest = needed[0], needed[1:]
    if naturals[t] > 0:
        n2 = list(naturals)
        n2[t] -= 1
        for members, n3, j3 in _fill(rest, n2, jokers, spec):
            yield ((t, None), *members), n3, j3
    for k, j in enumerate(jokers):
        if t in spec.scopes[j] and j not in jokers[:k]:
            for members, n3, j3 in _fill(rest, naturals, jokers[:k] + jokers[k + 1 :], spec):
                yield ((t, j), *members), n3, j3


def _groupings(
    naturals: Counts | Counter[int], jokers: list[int], pair: bool, spec: Spec
) -> Iterator[list[OGroup]]:
    """Every way to split naturals + jokers into sets (+ one pair if ``pair``).

    ``naturals`` is a 34-long count list (a ``Counter`` of tiles is accepted too:
    the scoring tests call this directly).
    """
    if not isinstance(naturals, list):
        naturals = _counts(list(naturals.elements()))
    present = [t for t, n in enumerate(naturals) if n > 0]
    if not present:
        if not jokers:
            if not pair:
                yield []
            return
        # only jokers: the first one anchors a group of some tile in its scope
        first, others = jokers[0], jokers[1:]
        for t in sorted(spec.scopes[first] & spec.playable):
            shapes = [("pung", [t, t])] + ([("pair", [t])] if pair else [])
            for a in (t - 2, t - 1, t):
                if a >= 0 and _chow_ok(a, spec.playable):
                    shapes.append(("chow", [x for x in (a, a + 1, a + 2) if x != t]))
            for kind, more in shapes:
                for members, n2, j2 in _fill(more, naturals, others, spec):
                    for tail in _groupings(n2, j2, pair and kind != "pair", spec):
                        yield [(kind, ((t, first), *members)), *tail]
        return
    t = present[0]
    rest = list(naturals)
    rest[t] -= 1
    options: list[tuple[str, list[int]]] = [("pung", [t, t])]
    if pair:
        options.append(("pair", [t]))
    for a in (t - 2, t - 1, t):
        if a >= 0 and _chow_ok(a, spec.playable):
            options.append(("chow", [x for x in (a, a + 1, a + 2) if x != t]))
    for kind, more in options:
        for members, n2, j2 in _fill(more, rest, jokers, spec):
            for tail in _groupings(n2, j2, pair and kind != "pair", spec):
                yield [(kind, ((t, None), *members)), *tail]


def _pairs_only(naturals: Counts, jokers: list[int], spec: Spec) -> bool:
    present = [t for t, n in enumerate(naturals) if n > 0]
    if not present:
        if not jokers:
            return True
        first, others = jokers[0], jokers[1:]
        return any(
            _pairs_only(naturals, others[:k] + others[k + 1 :], spec)
            for k, j in enumerate(others)
            if spec.scopes[first] & spec.scopes[j] & spec.playable
        )
    t = present[0]
    rest = list(naturals)
    rest[t] -= 1
    return any(_pairs_only(n2, j2, spec) for _, n2, j2 in _fill([t], rest, jokers, spec))


def complete(concealed: list[int], jokers: list[int], melds: int, meld_kinds: list[str], spec: Spec) -> bool:
    """Whether concealed naturals + jokers (+ ``melds`` declared sets) win in some form."""
    if any(t not in spec.playable for t in concealed):
        return False
    naturals = _counts(concealed)
    if spec.standard and any(True for _ in _groupings(naturals, list(jokers), True, spec)):
        return True
    if spec.seven_pairs and _seven_pairs(naturals, jokers, melds, meld_kinds, spec):
        return True
    return spec.orphans and melds == 0 and _orphans(naturals, jokers, spec)


def _seven_pairs(naturals: Counts, jokers: list[int], melds: int, meld_kinds: list[str], spec: Spec) -> bool:
    if melds == 1:
        return (meld_kinds[0] != "chow" or spec.seven_pairs_chow) and _pairs_only(naturals, list(jokers), spec)
    if melds:
        return False
    sets = [[t, t, t] for t in spec.playable]
    if spec.seven_pairs_chow:
        sets += [[a, a + 1, a + 2] for a in spec.playable if _chow_ok(a, spec.playable)]
    for tiles in sets:
        for _, n2, j2 in _fill(tiles, naturals, list(jokers), spec):
            if _pairs_only(n2, j2, spec):
                return True
    return False


def _orphans(naturals: Counts, jokers: list[int], spec: Spec) -> bool:
    if any(n and t not in ORPHANS for t, n in enumerate(naturals)):
        return False
    for doubled in ORPHANS:
        needed = list(ORPHANS) + [doubled]
        for _, n2, j2 in _fill(needed, naturals, list(jokers), spec):
            if not j2 and not sum(n2):
                return True
    return False


def waits(concealed: list[int], jokers: list[int], melds: list[tuple[str, list[int]]], spec: Spec) -> set[int]:
    """Tiles t (played ones, fewer than four held) with which the hand is complete."""
    held = Counter(concealed) + Counter(jokers) + Counter(t for _, ts in melds for t in ts)
    found = set()
    kinds = [k for k, _ in melds]
    for t in sorted(spec.playable):
        if held[t] >= 4:
            continue
        if t in spec.scopes:
            ok = complete(concealed, jokers + [t], len(melds), kinds, spec)
        else:
            ok = complete(concealed + [t], jokers, len(melds), kinds, spec)
        if ok:
            found.add(t)
    return found


def standard_shapes(concealed: list[int], jokers: list[int], t: int, spec: Spec) -> set[str]:
    """Shape names of every standard grouping of hand + t in which a natural t sits."""
    shapes = set()
    for grouping in _groupings(_counts(concealed + [t]), list(jokers), True, spec):
        for kind, members in grouping:
            if (t, None) not in members:
                continue
            if any(j is not None for _, j in members):
                shapes.add("other")
            elif kind == "pair":
                shapes.add("single")
            elif kind == "pung":
                shapes.add("back to back")
            else:
                a = min(x for x, _ in members)
                if t == a + 1:
                    shapes.add("middle")
                elif (t == a and a % 9 == 6) or (t == a + 2 and a % 9 == 0):
                    shapes.add("edge")
                else:
                    shapes.add("open-ended")
    return shapes


def standard_groupings(concealed: list[int], jokers: list[int], spec: Spec) -> set[tuple[tuple[str, tuple[int, ...], tuple[int, ...]], ...]]:
    """Every standard grouping as sorted (kind, tiles stood for, physical jokers) triples."""
    out = set()
    for grouping in _groupings(_counts(concealed), list(jokers), True, spec):
        key = tuple(
            sorted(
                (kind, tuple(sorted(x for x, _ in members)), tuple(sorted(j for _, j in members if j is not None)))
                for kind, members in grouping
            )
        )
        out.add(key)
    return out
