"""Actions: the log notation and the repr read back to the same action; bad text refused by name."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.game.actions import (
    AddedKang,
    Chow,
    ConcealedKang,
    DeclareBeauty,
    DeclareFlower,
    DeclareNews,
    Discard,
    Draw,
    DrawGame,
    InvalidActionTextError,
    Kang,
    Pung,
    Win,
    parse_action,
)
from engine.seats import Seat
from engine.tiles import Tile

seats = st.sampled_from(list(Seat))
tiles = st.sampled_from(list(Tile))
actions = st.one_of(
    st.builds(Draw, seats, st.none() | tiles),
    st.builds(Discard, seats, tiles),
    st.builds(Chow, seats, tiles),
    st.builds(ConcealedKang, seats, tiles),
    st.builds(AddedKang, seats, tiles),
    st.builds(DeclareFlower, seats, tiles),
    st.builds(Pung, seats),
    st.builds(Kang, seats),
    st.builds(DrawGame, seats),
    st.builds(DeclareBeauty, seats, st.booleans()),
    st.builds(DeclareNews, seats, st.booleans()),
    st.builds(Win, seats, st.none() | st.lists(tiles, min_size=1, max_size=18).map(tuple)),
)


@given(actions)
def test_the_log_notation_and_the_repr_read_back_to_the_same_action(action) -> None:  # noqa: ANN001
    """The ledger stores ``str(action)`` and replays it; ``repr`` pastes back as code."""
    assert parse_action(str(action)) == action
    namespace = {cls.__name__: cls for cls in (Draw, Discard, Chow, ConcealedKang, AddedKang, DeclareFlower, Pung,
                                                 Kang, DrawGame, DeclareBeauty, DeclareNews, Win, Seat, Tile)}
    assert eval(repr(action), namespace) == action


@pytest.mark.parametrize(("text", "message"), [
    ("E", r"cannot read action 'E': expected '<seat> <verb> \[tiles\]'"),
    ("Q discard 5p", r"in 'Q discard 5p': "),
    ("E discard 5q", r"in 'E discard 5q': "),
    ("S pung 5p", r"'S pung 5p': pung takes no tiles"),
    ("W drawgame 1m", r"'W drawgame 1m': drawgame takes no tiles"),
    ("N draw 1m2m", r"'N draw 1m2m': a draw is one tile"),
    ("E discard", r"'E discard': discard needs exactly one tile"),
    ("E flower 1f2f", r"'E flower 1f2f': flower needs exactly one tile"),
])
def test_bad_action_text_is_refused_and_quoted(text: str, message: str) -> None:
    with pytest.raises(InvalidActionTextError, match=message):
        parse_action(text)
