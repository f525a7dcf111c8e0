"""The table book: the observed game and its payments, kept in one SQLite file.

This is the web UI's single adapter for the referee. It records what the table
shows (discards, melds, flowers, kangs, the win) as events, asks the rules for
instant and final payouts, and writes every payment with its reason. Every
event is written (in one transaction with its payments) before the page is told
it was accepted, so killing the server loses nothing and a restart resumes the
game by replaying the events. ``undo()`` deletes the last event and its payments
together.

It checks what an observer can check (tile codes, meld shapes, no fifth copy
on the table, sagása only on one's own pung, a win the rules accept); the full
referee (``engine.game``) can replace it behind the same methods.

>>> import tempfile, os
>>> book = TableBook(os.path.join(tempfile.mkdtemp(), "t.sqlite3"), rules=None)
>>> t = book.new_table(TableSetup("filipino", ("Ana", "Ben", "Cris", "Dina")))
>>> book.apply("pung", "S", "555p")
['Ben (South): pung of 5 dots']
>>> book.apply("sagasa", "S", "5p")
['Ben (South): sagása (added kang) of 5 dots']
>>> [str(m) for m in book.current().seats[1].melds]
['<5555p>']
>>> book.apply("sagasa", "W", "5p")
Traceback (most recent call last):
...
webui.adapters.tablebook.TableEventError: West has no pung of 5p to add to
>>> book.undo().kind, [str(m) for m in book.current().seats[1].melds]
('sagasa', ['[555p]'])
"""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from engine.hand import Hand, Meld, MeldKind
from engine.seats import Seat
from engine.tiles import Tile, format_tiles, parse_tiles
from webui.adapters.rules import Rules, Situation

__all__ = [
    "TableBook", "TableSetup", "TableState", "SeatState", "Event", "Payment", "TableEventError", "KINDS", "Deal",
    "kinds_for", "plays_special_sets", "special_set_tiles", "SPECIAL_SETS",
]

# What a person (or the camera) can report, with the label the page shows.
KINDS: dict[str, str] = {
    "discard": "Discard",
    "chow": "Chow (run of three)",
    "pung": "Pung (three alike)",
    "kang": "Kang (four alike, called)",
    "secret": "Secret kang (concealed)",
    "sagasa": "Sagása (add 4th tile to a pung)",
    "flower": "Flower / bonus tile",
    "beauty": "Beauty (the three dragons, Visayan)",
    "news": "NEWS (the four winds, Visayan)",
    "win": "Mahjong! (a win)",
    "draw": "Draw game (wall ran out)",
}
# Visayan's declared melds (000): their tiles are always the same, so the form may leave them out.
SPECIAL_SETS = {"beauty": "567z", "news": "1234z"}


def kinds_for(variant: str) -> dict[str, str]:
    """The events a table of ``variant`` reports: Beauty and NEWS only where they are played.

    >>> "beauty" in kinds_for("visayan"), "beauty" in kinds_for("filipino"), "pung" in kinds_for("martian")
    (True, False, True)
    """
    return {k: label for k, label in KINDS.items() if k not in SPECIAL_SETS or plays_special_sets(variant)}


def plays_special_sets(variant: str) -> bool:
    """Whether ``variant`` plays Beauty and NEWS (the rules engine knows; without it, no)."""
    try:
        from engine.game import rules_for

        return bool(rules_for(variant).special_sets)
    except (ImportError, ValueError):
        return False


# Each event's ambition under the names the variants give it (Singapore's is "open kang").
_INSTANT_KIND = {"kang": ("kang", "open kang"), "secret": ("secret", "concealed kang"),
                 "beauty": ("beauty",), "news": ("news",),
                 "sagasa": ("sagása", "sagasa", "added kang", "open kang")}
_SCHEMA = """
CREATE TABLE IF NOT EXISTS webui_tables (
  id INTEGER PRIMARY KEY, created REAL NOT NULL, variant TEXT NOT NULL, names TEXT NOT NULL,
  dealer INTEGER NOT NULL, round_wind INTEGER NOT NULL, table_rules TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS webui_events (
  id INTEGER PRIMARY KEY, table_id INTEGER NOT NULL REFERENCES webui_tables(id), created REAL NOT NULL,
  kind TEXT NOT NULL, seat INTEGER, tiles TEXT NOT NULL, detail TEXT NOT NULL, source TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS webui_payments (
  id INTEGER PRIMARY KEY, event_id INTEGER NOT NULL REFERENCES webui_events(id) ON DELETE CASCADE,
  table_id INTEGER NOT NULL, hand_no INTEGER NOT NULL, seat INTEGER NOT NULL, player TEXT NOT NULL,
  amount TEXT NOT NULL, unit TEXT NOT NULL, reason TEXT NOT NULL, created REAL NOT NULL);
"""


class TableEventError(ValueError):
    """An event the table cannot have; the message names the seat and tile."""


@dataclass(frozen=True)
class TableSetup:
    variant: str
    names: tuple[str, str, str, str] = ("East", "South", "West", "North")
    dealer: Seat = Seat.EAST
    round_wind: Seat = Seat.EAST
    table_rules: dict[str, Any] = field(default_factory=dict)
    # The first dealer of the evening: the round wind turns when the deal comes back to
    # them (a table joining mid-round); None: the dealer above.
    starting_dealer: Seat | None = None

    def name(self, seat: Seat) -> str:
        return self.names[seat] or str(seat)


@dataclass(frozen=True)
class Event:
    id: int
    kind: str
    seat: Seat | None
    tiles: str
    detail: dict[str, Any]
    source: str
    hand_no: int = 0
    sentences: tuple[str, ...] = ()


@dataclass(frozen=True)
class Payment:
    table_id: int
    hand_no: int
    seat: Seat
    player: str
    amount: Fraction
    unit: str
    reason: str
    created: float


@dataclass
class SeatState:
    melds: list[Meld] = field(default_factory=list)
    flowers: list[Tile] = field(default_factory=list)
    discards: list[Tile] = field(default_factory=list)
    markers: int = 0  # jai alái markers held, where the table plays the pot (000, 001)


@dataclass(frozen=True)
class Deal:
    """Which hand a table is at: what a camera watching needs to know to start the next one."""

    table_id: int
    hand_no: int
    dealer: Seat
    next_dealer: Seat | None  # while one hand is over and the next not begun: who deals it


@dataclass
class TableState:
    table_id: int
    setup: TableSetup
    hand_no: int = 1
    dealer: Seat = Seat.EAST
    round_wind: Seat = Seat.EAST
    seats: dict[int, SeatState] = field(default_factory=lambda: {s: SeatState() for s in Seat})
    events: list[Event] = field(default_factory=list)
    last_result: str = ""
    last_discard: tuple[Seat, Tile] | None = None  # the discard a chow/pung/kang may call
    hand_events: int = 0  # events so far in this hand
    previous: dict[int, SeatState] | None = None  # the table as the last hand ended (shown until play resumes)
    next_dealer: Seat | None = None  # while one hand is over and the next not begun: who deals it

    def visible(self) -> Counter[Tile]:
        """Every face-up tile on the table this hand."""
        seen: Counter[Tile] = Counter()
        for s in self.seats.values():
            for m in s.melds:
                seen.update(m.tiles)
            seen.update(s.flowers)
            seen.update(s.discards)
        return seen

    def name(self, seat: Seat) -> str:
        return f"{self.setup.name(seat)} ({seat})" if self.setup.names[seat] != str(seat) else str(seat)


class TableBook:
    """Events and payments of the tables played at this laptop (see module doc)."""

    def __init__(self, path: str, rules: Rules | None) -> None:
        self.path = path
        self.rules = rules
        self._lock = threading.RLock()  # the camera thread and page requests both write
        with self._db() as db:
            db.executescript(_SCHEMA)

    @contextmanager
    def _db(self) -> Iterator[sqlite3.Connection]:
        db = sqlite3.connect(self.path, timeout=10)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA foreign_keys=ON")
            with db:  # one transaction: committed on success, rolled back on error
                yield db
        finally:
            db.close()

    # -- reading the state ------------------------------------------------------------
    def current(self) -> TableState | None:
        """The latest table, rebuilt from its events (this is also how a restart resumes)."""
        with self._lock, self._db() as db:
            row = db.execute("SELECT id, variant, names, dealer, round_wind, table_rules FROM webui_tables "
                             "ORDER BY id DESC LIMIT 1").fetchone()
            if row is None:
                return None
            events = db.execute("SELECT id, kind, seat, tiles, detail, source FROM webui_events "
                                "WHERE table_id=? ORDER BY id", (row[0],)).fetchall()
        setup = TableSetup(row[1], tuple(json.loads(row[2])), Seat(row[3]), Seat(row[4]), json.loads(row[5]))
        state = TableState(row[0], setup, dealer=setup.dealer, round_wind=setup.round_wind)
        for eid, kind, seat, tiles, detail, source in events:
            ev = Event(eid, kind, None if seat is None else Seat(seat), tiles, json.loads(detail), source,
                       state.hand_no)
            sentences = _replay(state, ev)
            state.events.append(Event(**{**ev.__dict__, "sentences": tuple(sentences)}))
        return state

    def require(self) -> TableState:
        state = self.current()
        if state is None:
            raise TableEventError("no table is set up yet: start one on the Referee page")
        return state

    def deal(self) -> Deal | None:
        """The latest table's hand and dealers (None before any table)."""
        state = self.current()
        return None if state is None else Deal(state.table_id, state.hand_no, state.dealer, state.next_dealer)

    # -- changing it --------------------------------------------------------------------
    def new_table(self, setup: TableSetup) -> TableState:
        if self.rules is not None:
            known = [v for v, _ in self.rules.variants()]
            if setup.variant not in known:
                raise TableEventError(f"unknown variant {setup.variant!r}: choose one of {', '.join(known)}")
        with self._lock, self._db() as db:
            db.execute("INSERT INTO webui_tables (created, variant, names, dealer, round_wind, table_rules) "
                       "VALUES (?,?,?,?,?,?)", (time.time(), setup.variant, json.dumps(list(setup.names)),
                                                int(setup.dealer), int(setup.round_wind),
                                                json.dumps(setup.table_rules)))
        return self.require()

    def apply(self, kind: str, seat: str | int | Seat | None, tiles: str = "", *, source: str = "hand",
              **detail: Any) -> list[str]:
        """Record one event; returns what to announce. Raises ``TableEventError`` (state untouched)."""
        with self._lock:
            state = self.require()
            if kind not in KINDS:
                raise TableEventError(f"unknown event {kind!r}: one of {', '.join(KINDS)}")
            who = None if seat in (None, "") and kind == "draw" else Seat.parse(seat)  # type: ignore[arg-type]
            tiles, detail = _normalise(state, kind, who, tiles, detail)
            ev = Event(0, kind, who, tiles, detail, source, state.hand_no)
            probe = self.current()
            assert probe is not None
            sentences = _replay(probe, ev)  # raises before anything is written
            payments = self._payments(probe, state, ev)
            with self._db() as db:
                cur = db.execute("INSERT INTO webui_events (table_id, created, kind, seat, tiles, detail, source) "
                                 "VALUES (?,?,?,?,?,?,?)", (state.table_id, time.time(), kind,
                                                            None if who is None else int(who), tiles,
                                                            json.dumps(detail), source))
                for p in payments:
                    db.execute("INSERT INTO webui_payments (event_id, table_id, hand_no, seat, player, amount, "
                               "unit, reason, created) VALUES (?,?,?,?,?,?,?,?,?)",
                               (cur.lastrowid, p.table_id, p.hand_no, int(p.seat), p.player, str(p.amount),
                                p.unit, p.reason, p.created))
            return sentences + _payment_sentences(state, payments)

    def undo(self) -> Event | None:
        """Take back the last event of the current table (its payments go with it)."""
        with self._lock:
            state = self.current()
            if state is None or not state.events:
                return None
            last = state.events[-1]
            with self._db() as db:
                db.execute("DELETE FROM webui_payments WHERE event_id=?", (last.id,))
                db.execute("DELETE FROM webui_events WHERE id=?", (last.id,))
            return last

    def _payments(self, after: TableState, before: TableState, ev: Event) -> list[Payment]:
        if self.rules is None or ev.seat is None or ev.kind not in ("win", *_INSTANT_KIND):
            return []
        variant, rules = before.setup.variant, before.setup.table_rules
        now = time.time()
        if ev.kind == "win":
            analysis = self.rules.analyse(variant, ev.detail["hand"], Situation(
                ev.seat, bool(ev.detail.get("self_drawn")),
                None if ev.detail.get("discarder") is None else Seat(ev.detail["discarder"]),
                before.round_wind, before.dealer, Tile.parse(ev.tiles) if ev.tiles else None,
                tuple(ev.detail.get("flags", ()))), rules)
            if analysis.kind != "score" or analysis.score is None:
                raise TableEventError(f"{before.name(ev.seat)} cannot win with {ev.detail['hand']!r}: "
                                      f"{analysis.message}")
            reason = "Mahjong: " + ", ".join(n for n, _ in analysis.score.patterns) if analysis.score.patterns \
                else "Mahjong"
            return [Payment(before.table_id, before.hand_no, s, before.setup.name(s), v, analysis.score.pay_unit,
                            reason, now) for s, v in analysis.score.payments if v]
        tiles = tuple(parse_tiles(ev.tiles))
        if ev.kind == "sagasa":
            tiles *= 4  # the event names the tile added; the ambition checks the kang it makes
        for name in _INSTANT_KIND[ev.kind]:
            paid = self.rules.instant(variant, name, ev.seat, dealer=before.dealer, tiles=tiles, table_rules=rules)
            if paid is not None:
                reason = paid.name + (f" ({paid.local})" if paid.local and paid.local != paid.name else "")
                return [Payment(before.table_id, before.hand_no, s, before.setup.name(s), v, paid.unit, reason, now)
                        for s, v in paid.payments if v]
        return []

    # -- the ledger --------------------------------------------------------------------
    def payments(self, table_id: int | None = None, since: float | None = None) -> list[Payment]:
        query = "SELECT table_id, hand_no, seat, player, amount, unit, reason, created FROM webui_payments"
        where: list[str] = []
        args: list[object] = []
        if table_id is not None:
            where.append("table_id=?")
            args.append(table_id)
        if since is not None:
            where.append("created>=?")
            args.append(since)
        if where:
            query += " WHERE " + " AND ".join(where)
        with self._db() as db:
            rows = db.execute(query + " ORDER BY id", args).fetchall()
        return [Payment(r[0], r[1], Seat(r[2]), r[3], Fraction(r[4]), r[5], r[6], r[7]) for r in rows]

    def tables(self) -> list[tuple[int, float, str, tuple[str, ...]]]:
        with self._db() as db:
            rows = db.execute("SELECT id, created, variant, names FROM webui_tables ORDER BY id DESC").fetchall()
        return [(r[0], r[1], r[2], tuple(json.loads(r[3]))) for r in rows]

    @staticmethod
    def totals(payments: list[Payment]) -> list[tuple[str, str, Fraction]]:
        """(player, unit, total) sorted by total, highest first."""
        sums: dict[tuple[str, str], Fraction] = {}
        for p in payments:
            sums[(p.player, p.unit)] = sums.get((p.player, p.unit), Fraction(0)) + p.amount
        return sorted(((k[0], k[1], v) for k, v in sums.items()), key=lambda r: -r[2])

    def csv(self, table_id: int | None = None) -> str:
        out = io.StringIO()
        w = csv.writer(out)
        w.writerow(["time", "game", "hand", "seat", "player", "amount", "unit", "reason"])
        for p in self.payments(table_id):
            w.writerow([time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(p.created)), p.table_id, p.hand_no,
                        str(p.seat), _csv_safe(p.player), f"{float(p.amount):.2f}", p.unit, _csv_safe(p.reason)])
        return out.getvalue()


def _csv_safe(text: str) -> str:
    """A name typed as ``=cmd()`` must not run as a formula when the CSV opens in a spreadsheet."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _normalise(state: TableState, kind: str, seat: Seat | None, text: str,
               detail: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """Check and canonicalise the tiles of an event (before anything is written)."""
    try:
        tiles = parse_tiles(text or "")
    except ValueError as exc:
        raise TableEventError(str(exc)) from None
    need = {"discard": 1, "flower": 1, "sagasa": 1, "chow": 3, "pung": 3}
    if kind in SPECIAL_SETS:
        if not plays_special_sets(state.setup.variant):
            raise TableEventError(f"a {kind} is a Visayan meld: a {state.setup.variant} table does not play it")
        tiles = special_set_tiles(kind, tiles)
    if kind in ("pung", "kang", "secret") and len(tiles) == 1:
        tiles = tiles * (3 if kind == "pung" else 4)
    if kind in need and len(tiles) != need[kind]:
        raise TableEventError(f"a {kind} needs {need[kind]} tile(s), got {text!r}")
    if kind in ("kang", "secret") and len(tiles) != 4:
        raise TableEventError(f"a {kind} needs 4 tiles (or one tile code), got {text!r}")
    clean: dict[str, Any] = {}
    if kind == "win":
        assert seat is not None
        hand = Hand.parse(str(detail.get("hand", "")))
        clean["hand"] = str(hand)
        self_drawn = bool(detail.get("self_drawn"))
        clean["self_drawn"] = self_drawn
        if not self_drawn:
            given = detail.get("discarder")  # tested for None: East is seat 0, and falsy
            discarder = seat.previous if given in (None, "") else Seat.parse(given)
            if discarder == seat:
                raise TableEventError(f"{seat} cannot win on their own discard: choose who discarded, or self-drawn")
            clean["discarder"] = int(discarder)
        clean["flags"] = list(detail.get("flags", ()))
        if not tiles and hand.concealed:
            tiles = [hand.concealed[-1]]
    return format_tiles(tiles, sort=kind != "discard"), clean


def special_set_tiles(kind: str, tiles: list[Tile]) -> list[Tile]:
    """A Beauty's or NEWS's tiles as typed, checked; none typed: the set's own.

    >>> format_tiles(special_set_tiles("news", []))
    '1234z'
    >>> special_set_tiles("beauty", parse_tiles("123z"))
    Traceback (most recent call last):
    webui.adapters.tablebook.TableEventError: a beauty is 567z, not 123z
    """
    own = parse_tiles(SPECIAL_SETS[kind])
    if tiles and sorted(tiles) != own:
        raise TableEventError(f"a {kind} is {format_tiles(own)}, not {format_tiles(tiles)}")
    return own


def _replay(state: TableState, ev: Event) -> list[str]:
    """Apply one event to the state; returns its sentences. Raises ``TableEventError``."""
    tiles = parse_tiles(ev.tiles)
    seat = ev.seat
    if ev.kind == "draw":
        _end_hand(state, None)
        state.last_result = "Draw game: the wall ran out. Nobody pays."
        return [state.last_result]
    assert seat is not None
    if ev.kind == "win":
        return _replay_win(state, ev, seat, tiles)
    state.hand_events += 1
    state.next_dealer = None  # play has resumed
    if ev.kind == "sagasa" and _pung_of(state.seats[seat], tiles[0]) is None:
        raise TableEventError(f"{seat} has no pung of {tiles[0]} to add to")
    called = _take_called(state, seat, tiles, ev.kind)
    try:
        _check_copies(state, tiles, ev.kind)
    except TableEventError:
        if called is not None:
            state.seats[called[0]].discards.append(called[1])
        raise
    return _lay_down(state, seat, tiles, ev.kind)


def _replay_win(state: TableState, ev: Event, seat: Seat, tiles: list[Tile]) -> list[str]:
    how = "by self-draw (búnot)" if ev.detail.get("self_drawn") else \
        f"on {Seat(ev.detail['discarder'])}'s discard"
    tile = f" with {tiles[0].english}" if tiles else ""
    _end_hand(state, seat)
    state.last_result = f"{state.name(seat)} wins {how}{tile}!"
    return [state.last_result]


def _pung_of(seat_state: SeatState, tile: Tile) -> int | None:
    """Where among the seat's melds its pung of ``tile`` is, if it has one."""
    return next((i for i, m in enumerate(seat_state.melds) if m.kind is MeldKind.PUNG and m.tiles[0] == tile), None)


def _lay_down(state: TableState, seat: Seat, tiles: list[Tile], kind: str) -> list[str]:
    """A discard, flower, added kang or meld put where it goes, the tiles already checked."""
    me, who = state.seats[seat], state.name(seat)
    if kind == "discard":
        me.discards.append(tiles[0])
        state.last_discard = (seat, tiles[0])
        return [f"{who} discards {tiles[0].english}"]
    if kind == "flower":
        if not (tiles[0].is_bonus or tiles[0].is_honor or tiles[0].is_vn_joker):
            raise TableEventError(f"{tiles[0]} ({tiles[0].english}) is not a flower or bonus tile")
        me.flowers.append(tiles[0])
        return [f"{who}: flower {tiles[0].english}"]
    if kind == "sagasa":
        i = _pung_of(me, tiles[0])
        if i is None:
            raise TableEventError(f"{seat} has no pung of {tiles[0]} to add to")
        me.melds[i] = Meld(MeldKind.ADDED_KANG, (tiles[0],) * 4)
        return [f"{who}: sagása (added kang) of {tiles[0].english}"]
    meld_kind = {"chow": MeldKind.CHOW, "pung": MeldKind.PUNG, "kang": MeldKind.KANG,
                 "secret": MeldKind.CONCEALED_KANG, "beauty": MeldKind.BEAUTY, "news": MeldKind.NEWS}[kind]
    try:
        meld = Meld(meld_kind, tuple(tiles))
    except ValueError as exc:
        raise TableEventError(str(exc)) from None
    me.melds.append(meld)
    if kind in SPECIAL_SETS:
        return [f"{who} declares {'Beauty' if kind == 'beauty' else 'NEWS'} ({format_tiles(tiles)})"]
    name = {"chow": "chow", "pung": "pung", "kang": "kang", "secret": "secret (concealed kang)"}[kind]
    what = format_tiles(tiles) if kind == "chow" else tiles[0].english
    return [f"{who}: {name} of {what}"]


def _take_called(state: TableState, seat: Seat, tiles: list[Tile], kind: str) -> tuple[Seat, Tile] | None:
    """A chow, pung or kang called from the last discard moves that tile off the discard pile."""
    last = state.last_discard
    state.last_discard = None
    if kind not in ("chow", "pung", "kang", *SPECIAL_SETS) or last is None or last[0] == seat or last[1] not in tiles:
        return None
    pile = state.seats[last[0]].discards
    if pile and pile[-1] == last[1]:
        pile.pop()
        return last
    return None


def _check_copies(state: TableState, tiles: list[Tile], kind: str) -> None:
    seen = state.visible()
    if kind == "sagasa":
        seen[tiles[0]] += 1
    else:
        seen.update(tiles)
    for t in set(tiles):
        limit = 1 if t.is_bonus else 4
        if seen[t] > limit:
            raise TableEventError(f"there would be {seen[t]} copies of {t} ({t.english}) on the table; "
                                  f"a set has {limit}")


def _end_hand(state: TableState, winner: Seat | None) -> None:
    """Next hand: the dealer keeps the deal on a win or a draw (máno), else it passes on."""
    state.previous = state.seats
    state.hand_events = 0
    if winner is not None and winner != state.dealer:
        state.dealer = state.dealer.next
        if state.dealer == state.setup.dealer:
            state.round_wind = state.round_wind.next
    state.hand_no += 1
    state.seats = {s: SeatState() for s in Seat}
    state.next_dealer = state.dealer


def _payment_sentences(state: TableState, payments: list[Payment]) -> list[str]:
    if not payments:
        return []
    from webui.present import money

    parts = [f"{p.player} {money(p.amount, p.unit) if p.amount < 0 else '+' + money(p.amount, p.unit)}"
             for p in payments]
    return [f"{payments[0].reason} — payments: " + ", ".join(parts)]
