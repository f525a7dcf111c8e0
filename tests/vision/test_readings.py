"""HandReading / TableReading: conversion to the engine's Hand and the variant check."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.hand import Hand, MeldKind
from engine.ruleset import find_ruleset
from engine.seats import Seat
from engine.tiles import Tile, parse_tiles
from vision.readings import (
    RUNNER_UP_FLOOR,
    HandReading,
    MeldReading,
    ReadingError,
    SeatReading,
    TableReading,
    TileItem,
    check_against,
)


def items(text: str, conf: float = 0.95) -> tuple[TileItem, ...]:
    return tuple(TileItem(t, (30.0 * k, 0.0, 30.0 * k + 28, 40.0), conf) for k, t in enumerate(parse_tiles(text)))


def test_to_hand_uses_engine_notation() -> None:
    back = TileItem(Tile.BACK, (0, 0, 1, 1))
    secret = MeldReading((back, *items("22s")[:2], back), concealed=True)
    called = MeldReading(tuple(TileItem(t.tile, t.box, turned=(k == 1)) for k, t in enumerate(items("555p"))),
                         called=True)
    r = HandReading(items("123m456p789s1z1z"), (called, secret), items("3f"))
    hand = r.to_hand()
    assert str(hand) == str(Hand.parse("123m456p789s11z [555p] (2222s) / 3f"))
    assert hand.melds[0].called is Tile.P5
    assert hand.melds[1].kind is MeldKind.CONCEALED_KANG
    assert r.tile_count == 17


def test_a_flower_stood_in_the_row_is_a_bonus_tile_of_the_hand() -> None:
    # the reading keeps it where it was seen; the engine's hand lays it aside, as the
    # notation does: "123m456p789s1122p3f" is a ready 13-tile hand and a flower
    r = HandReading(items("3f123m456p789s1122p"), (), items("1f"))
    assert r.concealed[0].tile == Tile.FLOWER3 and r.tile_count == 13
    assert r.to_hand() == Hand.parse("123m456p789s1122p / 3f1f")
    assert [str(w.tile) for w in find_ruleset("singapore").waits(r.to_hand())] == ["1p", "2p"]


def test_bad_meld_is_a_reading_error_quoting_tiles() -> None:
    r = HandReading(items("123m"), (MeldReading(items("135p")),))
    with pytest.raises(ReadingError, match="1p 3p 5p"):
        r.to_hand()


def guessed(item: TileItem, runner_up: str, share: float) -> TileItem:
    return replace(item, runner_up=Tile.parse(runner_up), runner_up_confidence=share)


def test_a_meld_group_misread_by_one_tile_is_the_meld_its_runner_up_makes() -> None:
    six, seven, eight = items("678s", 0.9)
    misread = replace(six, tile=Tile.S4, turned=True)  # the called 6s, lying sideways, read as 4s
    meld = MeldReading((guessed(misread, "6s", 0.12), seven, eight), called=True).to_meld()
    assert (meld.kind, meld.tiles, meld.called) == (MeldKind.CHOW, (Tile.S6, Tile.S7, Tile.S8), Tile.S6)
    # of two ways to make a meld, the likelier: 5p 5p 6p as 555p (6p's runner-up) or as 456p
    five, five_too, six_p = items("556p", 0.9)
    for as_four, as_five, meld_of in [(0.1, 0.3, "555p"), (0.3, 0.1, "456p")]:
        group = MeldReading((guessed(five, "4p", as_four), five_too, guessed(six_p, "5p", as_five)))
        assert group.to_meld().tiles == tuple(parse_tiles(meld_of))
    with pytest.raises(ReadingError, match="4s 7s 8s"):  # a runner-up below the floor names nothing
        MeldReading((guessed(misread, "6s", RUNNER_UP_FLOOR / 2), seven, eight), called=True).to_meld()


def test_a_secret_kang_whose_faces_differ_takes_the_likelier_face() -> None:
    back, two, four = TileItem(Tile.BACK, (0, 0, 1, 1)), *items("2p4p", 0.9)
    meld = MeldReading((back, guessed(two, "4p", 0.2), guessed(four, "2p", 0.4), back), concealed=True).to_meld()
    assert str(meld) == "(2222p)"


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["123m", "789p", "555s", "7777z", "3333m", "345s"]),
       st.lists(st.tuples(st.integers(0, 33), st.floats(0.0, 1.0)), min_size=4, max_size=4))
def test_a_group_that_is_a_meld_as_read_is_never_renamed(tiles: str, seconds: list[tuple[int, float]]) -> None:
    plain = MeldReading(items(tiles, 0.6))
    guessing = MeldReading(tuple(guessed(i, str(Tile(c)), p) for i, (c, p) in zip(plain.items, seconds, strict=False)))
    assert guessing.to_meld() == plain.to_meld()


def test_fifth_copy_is_flagged_never_dropped() -> None:
    r = HandReading(items("3333m"), (MeldReading(items("333m")),)).check(find_ruleset("singapore"))
    assert len(r.concealed) == 4 and len(r.melds[0].items) == 3  # nothing dropped
    doubts = {i.doubt for i in r.doubtful}
    assert doubts == {"7 copies of 3m: a set has 4"}
    assert len(r.doubtful) == 7


@pytest.mark.parametrize("variant,tile,lacks", [
    ("filipino", "1a", True),  # animals are Singaporean
    ("singapore", "1a", False),
    ("singapore", "1j", True),  # Vietnamese jokers
    ("vietnamese", "5r", False),
])
def test_tiles_the_variant_lacks(variant: str, tile: str, lacks: bool) -> None:
    it = TileItem(Tile.parse(tile), (0, 0, 1, 1), 0.99)
    doubts = check_against([it], find_ruleset(variant))
    assert bool(doubts) is lacks
    if lacks:
        assert "is not in the" in doubts[id(it)] and tile in doubts[id(it)]


def test_weak_reads_are_doubtful_and_say_whether_the_tile_or_its_name_is_in_doubt() -> None:
    weak = TileItem(Tile.M1, (0, 0, 1, 1), 0.2)  # found surely, named unsurely
    assert check_against([weak]) == {id(weak): "unsure which tile (named 0.20 sure)"}
    die = TileItem(Tile.M1, (0, 0, 1, 1), 0.3, found=0.3)  # found weakly: perhaps a die or a coin
    assert check_against([die]) == {id(die): "perhaps no tile (found 0.30 sure): leave it out if so"}


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 33), min_size=1, max_size=20))
def test_check_flags_exactly_the_overcounted_tiles(codes: list[int]) -> None:
    its = [TileItem(Tile(c), (0, 0, 1, 1), 0.9) for c in codes]
    doubts = check_against(its)
    for it in its:
        assert (id(it) in doubts) == (codes.count(int(it.tile)) > 4)


def test_table_reading_items_and_check() -> None:
    seat = SeatReading(Seat.SOUTH, items("1x1x1x"), (MeldReading(items("777p")),), items("2f"))
    table = TableReading({Seat.SOUTH: seat}, discards=items("7p7p"))
    regions = [(r, s) for _, r, s, _ in table.items()]
    assert regions.count(("hand", Seat.SOUTH)) == 3 and regions.count(("discard", None)) == 2
    assert table.seat(Seat.NORTH).concealed_count == 0
    checked = table.check(None)
    assert all(i.doubt for i in checked.discards)  # five 7p seen on the table


def test_tiles_reaching_the_photos_edge() -> None:
    row = tuple(TileItem(t, (30.0 * k, 30.0, 30.0 * k + 28, 70.0)) for k, t in enumerate(parse_tiles("123456789m1p")))
    meld = MeldReading(tuple(TileItem(t, (400.0 + 30 * k, 60.0, 428.0 + 30 * k, 100.0))
                             for k, t in enumerate(parse_tiles("555s"))))
    far = TileItem(Tile.parse("9p"), (900.0, 0.0, 928.0, 40.0))  # a discard at the top edge, far off
    near = TileItem(Tile.parse("9s"), (372.0, 60.0, 400.0, 100.0))  # by the hand, at the bottom edge
    wall = TileItem(Tile.BACK, (500.0, 60.0, 528.0, 100.0))  # face down by the hand: a wall, not the hand
    reading = HandReading(row, (meld,), (), (far, near, wall), image_size=(1000, 100))
    assert reading.cut_by_edge() == (row[0], *meld.items, near)  # the row's first at the left, the rest at the bottom
    assert HandReading(row, (meld,), (), (far, near, wall)).cut_by_edge() == ()  # the picture's size unknown
