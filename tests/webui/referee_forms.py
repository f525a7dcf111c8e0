"""Hands played by the bots in full mode, typed into the Referee page as a person at the
table would (the page's game is observed: it sees only what is shown). Used by
``tests/webui/test_referee_differential.py`` and ``benchmarks/bench_referee_page.py``."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

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
    rules_for,
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


def _bots(seed: int) -> list[Any]:
    return [RandomBot(seed * 4 + i) if seed % 2 else GreedyBot() for i in range(4)]


def played(variant: str, seed: int, hands: int = 1, **options: Any) -> list[Game]:
    """``hands`` hands of one table the bots play to their ends (greedy on even seeds, random
    on odd ones), each dealt as the last one leaves the table: dealer, round wind, markers."""
    rules = rules_for(variant, **options)
    games = [Game(rules, seed=seed)]
    play_hand(games[0], _bots(seed))
    while len(games) < hands:
        last = games[-1]
        dealer, wind, number = last.next_deal()
        game = Game(rules, seed=seed * 1000 + number, dealer=dealer, round_wind=wind, hand_number=number,
                    starting_dealer=last.starting_dealer, jai_alai=last.next_jai_alai())
        play_hand(game, _bots(seed + number))
        games.append(game)
    return games


class PageTable:
    """One table on a Referee page served from ``data_dir``: events typed, undone, restarted."""

    def __init__(self, data_dir: str, variant: str, rules: dict[str, str], *, render: bool = False) -> None:
        self.config = {"TESTING": True, "DATA_DIR": data_dir, "LIVE_AUTOSTART": False, "SECRET_KEY": "t"}
        self.render = render
        self.start()
        form = {"variant": PAGE_NAME[variant], "dealer": "E", "round": "E",
                **{f"rule_{name}": value for name, value in rules.items()}}
        assert self.ok(self.post("/referee/new", form))

    def start(self) -> None:
        self.app = create_app(self.config)
        self.client = self.app.test_client()
        self.token = token_of(self.client)

    def stop(self) -> None:
        self.app.extensions["mahjongero"].live.stop()

    def post(self, path: str, form: dict[str, str]) -> Any:
        """Post as a browser does: ``render``, it follows the redirect to the page, which shows
        (and so clears) the flashed sentences; else they are cleared unread, as they would
        otherwise outgrow the session cookie."""
        resp = self.client.post(path, data={"csrf_token": self.token, **form}, follow_redirects=self.render)
        if not self.render:
            with self.client.session_transaction() as session:
                session.pop("_flashes", None)
        return resp

    def ok(self, resp: Any) -> bool:
        return bool(resp.status_code == (200 if self.render else 302))

    @property
    def book(self) -> Any:
        return self.app.extensions["mahjongero"].book

    def retyped(self, event: dict[str, str]) -> str:
        """Undo the last event and type ``event`` again: "" when the table is as it was."""
        before = self.book.current()
        self.post("/referee/undo", {})
        resp = self.post("/referee/event", event)
        return "" if self.ok(resp) and self.book.current() == before else "undone and typed again, differs"

    def restarted(self) -> str:
        """Restart the server on its data: "" when the table comes back as it was."""
        before = self.book.current()
        self.stop()
        self.start()
        return "" if self.book.current() == before else "restarted, the table differs"


def type_into_page(games: list[Game], data_dir: str, *, rules: dict[str, str] | None = None, render: bool = False,
                   undo: float = 0.0, restart: float = 0.0,
                   rng: random.Random | None = None) -> tuple[dict[int, Fraction], str]:
    """Type the hands of ``games`` (one table, in order) into a fresh Referee page; returns what
    the page's ledger paid and the first problem ("" when none). ``render``: the page is shown
    after each event, as a browser shows it. With ``undo``, each event is at that rate undone
    and typed again; with ``restart``, the server restarts on its data at that rate after an
    event; the table must come back the same either way."""
    rng = rng or random.Random(0)
    table = PageTable(data_dir, games[0].rules.name, rules or {}, render=render)
    problem = ""
    for game, action in ((g, a) for g in games for a in [*g.history, None]):
        event = typed(game, action) if action is not None else _wall_ran_out(game)
        if event is None:
            continue
        resp = table.post("/referee/event", event)
        if not table.ok(resp) and action is None and "already over" in resp.get_data(as_text=True):
            continue  # the page counted the wall out itself
        if not table.ok(resp):
            problem = f"{action} typed as {event}: {resp.status_code} {resp.get_data(as_text=True)[-400:]}"
        elif rng.random() < undo:
            problem = table.retyped(event)
        if not problem and rng.random() < restart:
            problem = table.restarted()
        if problem:
            problem = f"hand {game.hand_number}, {action}: {problem}"
            break
    page = paid((p.seat, p.amount) for p in table.book.payments())
    table.stop()
    return page, problem


def _wall_ran_out(game: Game) -> dict[str, str] | None:
    """The draw game a person declares when the engine ended the hand with the wall empty."""
    out = game.outcome()
    return {"kind": "draw", "seat": "", "tiles": ""} if out is not None and out.kind == "draw" else None


def engine_paid(games: list[Game]) -> dict[int, Fraction]:
    return paid((seat, amount) for g in games for e in g.events for seat, amount in e.payments.items())
