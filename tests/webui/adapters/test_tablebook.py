"""The table book: events, replay on restart, undo, payments that sum to zero."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.seats import Seat
from engine.tiles import Tile
from webui.adapters.rules import Rules
from webui.adapters.tablebook import TableBook, TableEventError, TableSetup

RULES = Rules()


def fresh(path: Path, rules: Rules | None = RULES) -> TableBook:
    book = TableBook(str(path / "t.sqlite3"), rules)
    book.new_table(TableSetup("filipino", ("Ana", "Ben", "Cris", "Dina")))
    return book


def test_no_table_yet_is_a_clear_error(tmp_path: Path) -> None:
    book = TableBook(str(tmp_path / "t.sqlite3"), None)
    with pytest.raises(TableEventError, match="no table is set up yet"):
        book.apply("discard", "E", "1m")


def test_unknown_variant_is_refused(tmp_path: Path) -> None:
    book = TableBook(str(tmp_path / "t.sqlite3"), RULES)
    with pytest.raises(TableEventError, match="'mars'"):
        book.new_table(TableSetup("mars"))


def test_win_ends_the_hand_and_the_dealer_passes_on(tmp_path: Path) -> None:
    book = fresh(tmp_path)
    book.apply("win", "S", "9s", hand="11m345p678s789s [234m] [789p] / 3f4f1z2z4z", discarder="E")
    state = book.current()
    assert state is not None and state.hand_no == 2 and state.dealer == Seat.SOUTH
    payments = book.payments()
    assert {p.seat: p.amount for p in payments} == {Seat.EAST: Fraction(-5, 2), Seat.SOUTH: Fraction(5),
                                                    Seat.WEST: Fraction(-5, 4), Seat.NORTH: Fraction(-5, 4)}


def test_dealer_keeps_the_deal_when_winning(tmp_path: Path) -> None:
    book = fresh(tmp_path)
    book.apply("win", "E", "9s", hand="11m345p678s789s [234m] [789p] / 3f4f1z2z4z", self_drawn=True)
    state = book.current()
    assert state is not None and state.dealer == Seat.EAST and state.hand_no == 2


def test_win_on_own_discard_is_refused(tmp_path: Path) -> None:
    book = fresh(tmp_path)
    with pytest.raises(TableEventError, match="own discard"):
        book.apply("win", "S", "9s", hand="11m345p678s789s [234m] [789p]", discarder="S")


def test_without_rules_events_still_record_and_wins_need_them(tmp_path: Path) -> None:
    book = fresh(tmp_path, rules=None)
    assert book.apply("kang", "N", "7s") == ["Dina (North): kang of 7 bamboo"]
    assert book.payments() == []


EVENTS = st.lists(st.tuples(st.sampled_from(["discard", "pung", "kang", "secret", "flower", "chow"]),
                            st.sampled_from(list(Seat)), st.sampled_from(list(range(27)))), max_size=12)


@given(EVENTS)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_payments_sum_to_zero_and_undo_restores_exactly(tmp_path_factory: pytest.TempPathFactory,
                                                        events: list[tuple[str, Seat, int]]) -> None:
    book = fresh(tmp_path_factory.mktemp("book"))
    for kind, seat, t in events:
        tile = Tile(t)
        tiles = {"chow": f"{min(tile.number, 7)}{min(tile.number, 7) + 1}{min(tile.number, 7) + 2}{tile.suit}",
                 "flower": f"{t % 8 + 1}f"}.get(kind, str(tile))
        before = book.current()
        paid_before = book.payments()
        try:
            book.apply(kind, seat, tiles)
        except TableEventError:
            assert book.current() == before and book.payments() == paid_before  # refused: untouched
            continue
        assert sum(p.amount for p in book.payments()) == 0
        for tile_kind, count in book.current().visible().items():  # type: ignore[union-attr]
            assert count <= (1 if tile_kind.is_bonus else 4)
        book.undo()
        assert book.current() == before and book.payments() == paid_before
        book.apply(kind, seat, tiles)
