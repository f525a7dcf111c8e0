"""Hands played by the bots in full mode, typed into the Referee page as a person at the
table would (the page's game is observed: it sees only what is shown). Used by
``tests/webui/test_referee_differential.py`` and ``benchmarks/bench_referee_page.py``."""

from __future__ import annotations

import random
import tempfile
from collections import Counter
from collections.abc import Iterable
from fractions import Fraction

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
from engine.seats import Seat
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


def paid(payments: Iterable[tuple[Seat, Fraction]]) -> dict[int, Fraction]:
    total: Counter[int] = Counter()
    for seat, amount in payments:
        total[int(seat)] += amount
    return {seat: amount for seat, amount in total.items() if amount}



def played(variant: str, seed: int) -> Game:
    """A hand the bots play to its end (greedy on even seeds, random on odd ones)."""
    game = Game(variant, seed=seed)
    play_hand(game, [RandomBot(seed * 4 + i) if seed % 2 else GreedyBot() for i in range(4)])
    return game


def type_into_page(game: Game, data_dir: str | None = None, *, undo: float = 0.0, restart: float = 0.0,
                   rng: random.Random | None = None) -> tuple[dict[int, Fraction], str]:
    """Type ``game``'s hand into a fresh Referee page; returns what the page's ledger paid and
    the first problem ("" when none). With ``undo``, each event is at that rate undone and typed
    again; with ``restart``, the server restarts on its data at that rate after an event; the
    table must come back the same either way."""
    rng = rng or random.Random(0)
    data_dir = data_dir or tempfile.mkdtemp()
    config = {"TESTING": True, "DATA_DIR": data_dir, "LIVE_AUTOSTART": False, "SECRET_KEY": "t"}
    app = create_app(config)
    client = app.test_client()
    token = token_of(client)
    form = {"csrf_token": token, "variant": PAGE_NAME[game.rules.name], "dealer": "E", "round": "E"}
    assert client.post("/referee/new", data=form).status_code == 302
    problem = ""
    for action in game.history:
        event = typed(game, action)
        if event is None:
            continue
        resp = client.post("/referee/event", data={"csrf_token": token, **event})
        book = app.extensions["mahjongero"].book
        if resp.status_code == 302 and rng.random() < undo:
            before = book.current()
            client.post("/referee/undo", data={"csrf_token": token})
            resp = client.post("/referee/event", data={"csrf_token": token, **event})
            problem = "" if book.current() == before else f"{action}: undone and typed again, the table differs"
        if resp.status_code == 302 and not problem and rng.random() < restart:
            before = book.current()
            app.extensions["mahjongero"].live.stop()
            app = create_app(config)
            client = app.test_client()
            token = token_of(client)
            problem = "" if app.extensions["mahjongero"].book.current() == before else f"{action}: restarted, differs"
        if resp.status_code != 302:
            problem = f"{action} typed as {event}: {resp.status_code} {resp.get_data(as_text=True)[-400:]}"
        if problem:
            break
    page = paid((p.seat, p.amount) for p in app.extensions["mahjongero"].book.payments())
    app.extensions["mahjongero"].live.stop()
    return page, problem


def engine_paid(game: Game) -> dict[int, Fraction]:
    return paid((seat, amount) for e in game.events for seat, amount in e.payments.items())
