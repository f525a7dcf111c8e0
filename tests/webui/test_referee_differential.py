"""The web referee against the engine: hands the bots play in full mode (the engine sees every
tile) are typed into the Referee page as a person at the table would (observed: the page sees
only what is shown), and the page's ledger must come out paying what the engine paid.

Each seed below once found a difference: the winning tile named in Tiles ignored (filipino 6,
visayan 10 and 20: paníngit and singles unpaid), a thrown flower won on (vietnamese 15), a
pung grown to a kang nobody robbed (singaporean 38)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

import pytest
from flask.testing import FlaskClient

from engine.bots import GreedyBot, RandomBot, play_hand
from engine.game import (
    Action,
    AddedKang,
    Chow,
    ConcealedKang,
    DeclareBeauty,
    DeclareFlower,
    DeclareNews,
    Discard,
    Draw,
    DrawGame,
    Game,
    Kang,
    Pung,
    Win,
)
from engine.tiles import Tile, format_tiles
from tests.webui.conftest import token_of
from webui import create_app

PAGE_NAME = {"filipino": "filipino", "visayan": "visayan", "singaporean": "singapore", "vietnamese": "vietnamese"}
SEATS = "ESWN"


def typed(game: Game, action: Action) -> dict[str, str] | None:
    """The Referee form for ``action`` of the played ``game`` (None: a draw, never typed)."""
    seat = SEATS[int(action.seat)]
    simple = {Discard: "discard", DeclareFlower: "flower", ConcealedKang: "secret", AddedKang: "sagasa"}
    if isinstance(action, Draw):
        return None
    if type(action) in simple:
        return {"kind": simple[type(action)], "seat": seat, "tiles": str(action.tile)}  # type: ignore[attr-defined]
    if isinstance(action, Chow):
        return {"kind": "chow", "seat": seat, "tiles": format_tiles(Tile(action.low + i) for i in range(3))}
    kinds = {Pung: "pung", Kang: "kang", DeclareBeauty: "beauty", DeclareNews: "news", DrawGame: "draw"}
    if type(action) in kinds:
        return {"kind": kinds[type(action)], "seat": seat, "tiles": ""}
    assert isinstance(action, Win)
    return _typed_win(game, seat)


def _typed_win(game: Game, seat: str) -> dict[str, str]:
    out = game.outcome()
    assert out is not None and out.winner is not None
    if out.special:  # three green jokers thrown: the hand does not matter
        return {"kind": "win", "seat": seat, "tiles": "", "hand": ""}
    assert out.hand is not None and out.win_tile is not None
    held = list(out.hand.concealed)
    if out.situation.get("thrown_flower"):
        held.remove(out.win_tile)  # the flower lying there stood for it: the person types what they hold
    form = {"kind": "win", "seat": seat, "hand": format_tiles(held), "how": "self" if out.self_drawn else "discard",
            "tiles": str(out.win_tile) if out.self_drawn else ""}
    if out.discarder is not None:
        form["discarder"] = SEATS[int(out.discarder)]
    return form


def paid(payments: Any) -> dict[int, Fraction]:
    total: Counter[int] = Counter()
    for seat, amount in payments:
        total[int(seat)] += amount
    return {seat: amount for seat, amount in total.items() if amount}


@pytest.mark.parametrize(("variant", "seed"), [
    ("filipino", 6), ("filipino", 2), ("visayan", 10), ("visayan", 20), ("vietnamese", 15), ("vietnamese", 4),
    ("singaporean", 38), ("singaporean", 1),
])
def test_a_hand_typed_into_the_referee_page_pays_as_the_engine_paid(config: dict[str, Any], variant: str,
                                                                    seed: int) -> None:
    game = Game(variant, seed=seed)
    out = play_hand(game, [RandomBot(seed * 4 + i) if seed % 2 else GreedyBot() for i in range(4)])
    app = create_app(config)
    client: FlaskClient = app.test_client()
    token = token_of(client)
    form = {"csrf_token": token, "variant": PAGE_NAME[variant], "dealer": "E", "round": "E"}
    assert client.post("/referee/new", data=form).status_code == 302
    for action in game.history:
        event = typed(game, action)
        if event is not None:
            resp = client.post("/referee/event", data={"csrf_token": token, **event})
            assert resp.status_code == 302, (str(action), event, resp.get_data(as_text=True)[-600:])
    book = app.extensions["mahjongero"].book
    engine_paid = paid((seat, amount) for e in game.events for seat, amount in e.payments.items())
    assert paid((p.seat, p.amount) for p in book.payments()) == engine_paid, str(out)
    app.extensions["mahjongero"].live.stop()
