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


def test_a_discarder_given_as_seat_0_is_east(tmp_path: Path) -> None:
    """East is seat 0, and falsy: ``discarder or the winner's left-hand seat`` made South the
    discarder of a West win on East's discard."""
    paid = []
    for k, discarder in enumerate(("E", 0)):
        (tmp_path / str(k)).mkdir()
        book = fresh(tmp_path / str(k))
        book.apply("win", "W", "9s", hand="11m345p678s789s [234m] [789p] / 3f4f1z2z4z", discarder=discarder)
        paid.append({p.seat: p.amount for p in book.payments()})
    assert paid[1] == paid[0] and paid[0][Seat.EAST] < paid[0][Seat.SOUTH] < 0


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


def test_a_called_discard_leaves_the_pile_for_the_meld(tmp_path: Path) -> None:
    book = fresh(tmp_path)
    book.apply("discard", "E", "5p")
    assert book.apply("pung", "S", "5p") == ["Ben (South): pung of 5 dots"]
    book.apply("discard", "S", "7s")
    assert book.apply("chow", "W", "678s") == ["Cris (West): chow of 678s"]
    state = book.current()
    assert state is not None
    assert state.seats[Seat.EAST].discards == [] and state.seats[Seat.SOUTH].discards == []
    assert [m.tiles for m in state.seats[Seat.WEST].melds] == [(Tile.S6, Tile.S7, Tile.S8)]
    assert state.visible()[Tile.P5] == 3  # the called 5p counted once, in the pung


def test_a_discard_not_last_thrown_stays_on_its_pile(tmp_path: Path) -> None:
    book = fresh(tmp_path)
    book.apply("discard", "E", "5p")
    book.apply("discard", "S", "9m")
    book.apply("pung", "W", "5p")  # a pung of 5p from the hand: East's 5p is no longer the live discard
    state = book.current()
    assert state is not None and state.seats[Seat.EAST].discards == [Tile.P5]
    assert state.seats[Seat.SOUTH].discards == [Tile.M9]


def test_a_call_that_would_make_a_fifth_copy_is_refused_and_the_discard_stays(tmp_path: Path) -> None:
    book = fresh(tmp_path)
    for seat in ("S", "W", "N", "E"):
        book.apply("discard", seat, "5p")
    before = book.current()
    with pytest.raises(TableEventError, match="6 copies of 5p"):
        book.apply("pung", "S", "5p")
    assert book.current() == before
    assert before is not None and before.seats[Seat.EAST].discards == [Tile.P5]


@pytest.mark.parametrize(("kind", "seat", "tiles", "message"), [
    ("shout", "E", "5p", "unknown event 'shout'"),
    ("discard", "E", "9x", "9x"),
    ("discard", "E", "", "a discard needs 1 tile"),
    ("kang", "E", "1m1m", "a kang needs 4 tiles"),
    ("chow", "E", "135m", "135m|chow"),
    ("flower", "E", "5p", "5p .* is not a flower or bonus tile"),
    ("sagasa", "E", "5p", "E has no pung of 5p to add to|no pung"),
    ("discard", "Q", "5p", "Q"),
])
def test_a_bad_event_is_refused_by_name_and_changes_nothing(tmp_path: Path, kind: str, seat: str, tiles: str,
                                                            message: str) -> None:
    book = fresh(tmp_path)
    book.apply("discard", "N", "1s")
    before = book.current()
    with pytest.raises(ValueError, match=message):
        book.apply(kind, seat, tiles)
    assert book.current() == before


def test_an_added_kang_turns_the_pung_into_a_kang_and_is_paid_at_once(tmp_path: Path) -> None:
    book = fresh(tmp_path)  # Filipino: sagása, the extended kang, is an ambition paid on the spot
    book.apply("pung", "E", "5p")
    assert book.apply("sagasa", "E", "5p") == [
        "Ana (East): sagása (added kang) of 5 dots",
        "Extended kang (sagása) — payments: Ana +$1.50, Ben −$0.50, Cris −$0.50, Dina −$0.50"]
    state = book.current()
    assert state is not None and [m.tiles for m in state.seats[Seat.EAST].melds] == [(Tile.P5,) * 4]
    assert sum(p.amount for p in book.payments()) == 0


def test_a_draw_game_keeps_the_deal_and_nobody_pays(tmp_path: Path) -> None:
    book = fresh(tmp_path)
    book.apply("discard", "E", "5p")
    assert book.apply("draw", None) == ["Draw game: the wall ran out. Nobody pays."]
    state = book.current()
    assert state is not None and (state.hand_no, state.dealer, state.round_wind) == (2, Seat.EAST, Seat.EAST)
    assert state.previous is not None and state.previous[Seat.EAST].discards == [Tile.P5]
    assert state.next_dealer == Seat.EAST  # between hands: a camera starts its watch afresh
    assert book.payments() == []
    book.apply("discard", "E", "1m")
    assert (state := book.current()) is not None and state.next_dealer is None


def test_the_round_wind_moves_on_once_the_deal_has_gone_round(tmp_path: Path) -> None:
    book = fresh(tmp_path)
    hand = "11m345p678s789s [234m] [789p] / 3f4f1z2z4z"
    for winner, discarder in (("S", "E"), ("W", "S"), ("N", "W"), ("E", "N")):
        state = book.current()
        assert state is not None and state.round_wind == Seat.EAST
        book.apply("win", winner, "9s", hand=hand, discarder=discarder)
    state = book.current()
    assert state is not None and (state.hand_no, state.dealer, state.round_wind) == (5, Seat.EAST, Seat.SOUTH)


def test_undo_with_nothing_to_take_back_gives_none(tmp_path: Path) -> None:
    book = fresh(tmp_path)
    assert book.undo() is None
    book.apply("discard", "E", "5p")
    undone = book.undo()
    assert undone is not None and (undone.kind, undone.tiles) == ("discard", "5p")
    assert book.undo() is None

