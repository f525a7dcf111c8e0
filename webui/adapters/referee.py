"""The table book backed by the real referee: ``engine.game`` (observed mode) + ``mahjongero.ledger``.

Same methods as :class:`webui.adapters.tablebook.TableBook`, so the pages do not care
which one runs; this one is used whenever the referee is installed. Every event a
person or the camera reports becomes the referee's action (a discard by the seat due
to draw gets its implied draw first), is checked by the rules of the variant, and is
written to the referee's SQLite file before it is acknowledged; a restart rebuilds the
game with ``Referee.restore``. Where each event came from (camera or by hand) is kept
in a small side table of the same file.

>>> import tempfile, os
>>> book = RefereeBook(os.path.join(tempfile.mkdtemp(), "r.sqlite3"), rules=None)
>>> t = book.new_table(TableSetup("filipino", ("Ana", "Ben", "Cris", "Dina")))
>>> book.apply("discard", "E", "9s")[-1]
'Ana (East) discards 9 bamboo'
>>> book.apply("discard", "W", "1m")
Traceback (most recent call last):
...
webui.adapters.tablebook.TableEventError: W discard 1m: East just discarded 9s: claim it or let South draw
>>> book.apply("discard", "S", "1m")  # South's draw is implied
['Ben (South) discards 1 characters']
>>> book.undo().kind, len(book.ledger.actions(1, 1))  # the discard and its implied draw go back
('discard', 1)
"""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from typing import Any

from engine.hand import Hand
from engine.seats import Seat
from engine.tiles import Tile, format_tiles, parse_tiles
from webui.adapters.tablebook import (
    KINDS,
    SPECIAL_SETS,
    Deal,
    Event,
    Payment,
    SeatState,
    TableBook,
    TableEventError,
    TableSetup,
    TableState,
    special_set_tiles,
)

__all__ = ["RefereeBook"]

_SIDE = """CREATE TABLE IF NOT EXISTS webui_sources (
  game_id INTEGER NOT NULL, hand_no INTEGER NOT NULL, seq INTEGER NOT NULL, source TEXT NOT NULL,
  PRIMARY KEY (game_id, hand_no, seq))"""


def _win_tile_last(concealed: tuple[Tile, ...], tiles: list[Tile]) -> tuple[Tile, ...]:
    """The winner's concealed tiles with the winning tile named in the form's Tiles last: the
    referee reads a self-drawn win's last shown tile as the tile drawn (none named: as typed).

    >>> _win_tile_last(tuple(parse_tiles("123m55p")), parse_tiles("2m"))
    (Tile.M1, Tile.M3, Tile.P5, Tile.P5, Tile.M2)
    >>> _win_tile_last(tuple(parse_tiles("123m55p")), parse_tiles("9s"))
    Traceback (most recent call last):
    webui.adapters.tablebook.TableEventError: the winning tile 9s is not in the hand 123m55p
    """
    if not tiles:
        return concealed
    if len(tiles) != 1:
        raise TableEventError(f"name one winning tile, not {format_tiles(tiles)}")
    if tiles[0] not in concealed:
        raise TableEventError(f"the winning tile {tiles[0]} is not in the hand {format_tiles(concealed)}")
    rest = list(concealed)
    rest.remove(tiles[0])
    return (*rest, tiles[0])


def _named(text: str, names: tuple[str, ...]) -> str:
    """"South wins ..." -> "Ben (South) wins ..." when the players gave their names.

    >>> _named("South: pung of 5 dots", ("E", "Ben", "W", "N")), _named("East draws", ("East",) * 4)
    ('Ben (South): pung of 5 dots', 'East draws')
    """
    for seat in Seat:
        word = str(seat)
        if text.startswith(word) and names[seat] and names[seat] != word:
            return f"{names[seat]} ({word}){text[len(word):]}"
    return text


def _epoch(iso: str) -> float:
    return dt.datetime.fromisoformat(iso).timestamp()


class RefereeBook:
    """See the module doc. ``rules`` is the web UI's rules adapter (for the payments' unit)."""

    def __init__(self, path: str, rules: Any) -> None:
        from mahjongero.ledger import Ledger

        self.path = path
        self.rules = rules
        self.ledger = Ledger(path)
        self.ledger.db.execute(_SIDE)
        self._lock = threading.RLock()
        self._ref: Any = None

    # -- the referee -------------------------------------------------------------------
    def _referee(self) -> Any:
        from mahjongero.ledger import Referee

        if self._ref is None:
            games = self.ledger.games()
            if games:
                self._ref = Referee.restore(self.ledger, games[-1])
        return self._ref

    def _require(self) -> Any:
        ref = self._referee()
        if ref is None:
            raise TableEventError("no table is set up yet: start one on the Referee page")
        return ref

    @contextmanager
    def _refused(self) -> Iterator[None]:
        """The referee's IllegalActionError (and the ledger's) become TableEventError."""
        try:
            yield
        except TableEventError:
            raise
        except ValueError as exc:
            raise TableEventError(str(exc)) from None

    def new_table(self, setup: TableSetup) -> TableState:
        from mahjongero.ledger import Referee

        known = [v for v, _ in self.rules.variants()] if self.rules is not None else [setup.variant]
        if setup.variant not in known:
            raise TableEventError(f"unknown variant {setup.variant!r}: choose one of {', '.join(known)}")
        with self._lock, self._refused():
            try:
                self._ref = Referee.create(self.ledger, setup.variant, dict(zip(Seat, setup.names, strict=True)),
                                           mode="observed", seed=None, dealer=setup.dealer,
                                           round_wind=setup.round_wind, starting_dealer=setup.starting_dealer,
                                           **setup.table_rules)
            except TypeError as exc:  # a scoring-only option the referee's game rules do not take
                raise TableEventError(f"the referee cannot play with these table rules "
                                      f"{setup.table_rules!r} yet ({exc})") from None
        return self.require()

    def accepts_rule(self, variant: str, name: str, value: Any) -> bool:
        """Whether the referee's game takes this table rule (scoring-only rules it may not, yet)."""
        from engine.game import rules_for

        try:
            rules_for(variant, **{name: value})
        except (TypeError, ValueError):
            return False
        return True

    # -- events --------------------------------------------------------------------------
    def apply(self, kind: str, seat: str | int | Seat | None, tiles: str = "", *, source: str = "hand",
              **detail: Any) -> list[str]:
        with self._lock:
            ref = self._require()
            if kind not in KINDS:
                raise TableEventError(f"unknown event {kind!r}: one of {', '.join(KINDS)}")
            with self._refused():
                if kind == "draw":
                    return self._push(ref, [self._draw_game(ref.game, seat)], source)
                who = Seat.parse(seat)  # type: ignore[arg-type]
                if not ref.game.is_over():
                    return self._push_seen(ref, self._actions(ref, kind, who, tiles, detail), source)
                ended = ref.game
                ref.next_hand()  # the next hand starts with the next move ...
                try:
                    return self._push(ref, self._actions(ref, kind, who, tiles, detail), source)
                except ValueError:
                    ref.take_back_hand(ended)  # ... unless it is refused: the table stays as it was
                    raise

    def _push(self, ref: Any, actions: list[Any], source: str) -> list[str]:
        """Push ``actions`` in order, each written before the next (the referee's rule); all
        or none: an implied draw goes back with the refused action."""
        from engine.game import IllegalActionError

        pushed: list[Any] = []
        done = 0
        try:
            for action in actions:
                pushed.extend(ref.push(action))
                done += 1
                self._mark(ref, "implied" if action is not actions[-1] else source)
        except (IllegalActionError, ValueError) as exc:
            for _ in range(done):
                ref.pop()
            raise TableEventError(str(exc)) from None
        names = tuple(ref.players[s] for s in Seat)
        return [_named(e.text, names) for e in pushed if e.kind != "draw"]

    def _push_seen(self, ref: Any, actions: list[Any], source: str) -> list[str]:
        """``_push``; but a flower the camera saw just after its own seat's discard, refused
        there, goes before that discard (``engine.game.seen_late``): the hand laying it hid it.
        A flower typed after a discard is refused: a person enters what happened in order."""
        from engine.game import before_discard, seen_late

        try:
            return self._push(ref, actions, source)
        except TableEventError:
            if source != "camera" or len(actions) != 1 or seen_late(ref.game, actions[0]) is None:
                raise
        seq = len(ref.game.history)
        discarded_by = self._source(ref, seq)
        pushed = before_discard(ref, actions[0])
        self._mark(ref, source, seq)
        self._mark(ref, discarded_by, seq + 1)
        names = tuple(ref.players[s] for s in Seat)
        return [_named(e.text, names) for e in pushed if e.kind != "draw"]

    def _mark(self, ref: Any, source: str, seq: int | None = None) -> None:
        with self.ledger._tx() as db:
            db.execute("INSERT OR REPLACE INTO webui_sources VALUES (?,?,?,?)",
                       (ref.game_id, ref.game.hand_number, len(ref.game.history) if seq is None else seq, source))

    def _actions(self, ref: Any, kind: str, seat: Seat, text: str, detail: dict[str, Any]) -> list[Any]:
        from engine.game import Draw, Phase

        game = ref.game
        tiles = parse_tiles(text or "")
        first = tiles[0] if tiles else None
        last = game.last_discard
        # the seat due to draw: after a discard the next one; after a pung grown to a kang that
        # nobody robbed (Singapore), the kang's own seat takes its gift
        due_to_draw = game.phase is Phase.CLAIM and last is not None \
            and seat is (last[0] if game.robbing else last[0].next)
        draw = [Draw(seat)] if due_to_draw else []
        if kind in ("discard", "flower", "secret", "sagasa"):
            if first is None:
                raise TableEventError(f"a {kind} needs a tile, e.g. 5p")
            return self._single(kind, seat, first, draw)
        if kind in SPECIAL_SETS:
            return self._special_set(game, kind, seat, tiles, draw)
        if kind == "win":
            return self._win(game, seat, tiles, detail, draw)
        return self._claim(kind, seat, tiles, text, last)

    @staticmethod
    def _win(game: Any, seat: Seat, tiles: list[Tile], detail: dict[str, Any], draw: list[Any]) -> list[Any]:
        """A win as the form gives it: the whole hand, the winning tile in Tiles (else the
        hand's last), self-drawn or on the discard lying there."""
        from engine.game import Win

        last = game.last_discard
        typed = str(detail.get("hand", "")).strip()
        if not typed and last is not None and last[0] is seat:
            return [Win(seat)]  # 003's green-joker win: declared by the thrower, whatever the hand
        hand = Hand.parse(typed)
        if not hand.concealed:
            raise TableEventError("type the winner's whole hand (its concealed tiles at least)")
        if detail.get("self_drawn"):
            return [*draw, Win(seat, _win_tile_last(hand.concealed, tiles))]
        shown = hand.concealed
        if last is not None and not last[1].is_playable:  # a thrown flower: Tổng for the hand (003)
            return [Win(seat, shown if last[1] in shown else (*shown, last[1]))]
        if last is not None and len(tiles) == 1 and tiles[0] != last[1]:
            raise TableEventError(f"the winning tile {tiles[0]} is not {last[0]}'s discard {last[1]}: "
                                  "choose self-drawn, or name the discard")
        return [Win(seat, shown)]

    @staticmethod
    def _special_set(game: Any, kind: str, seat: Seat, tiles: list[Any], draw: list[Any]) -> list[Any]:
        """Visayan Beauty or NEWS: laid with the discard lying there when it is one of its
        tiles (as a chow takes it), else from the hand on the seat's turn."""
        from engine.game import DeclareBeauty, DeclareNews, Phase

        own = special_set_tiles(kind, tiles)
        declare = DeclareBeauty if kind == "beauty" else DeclareNews
        last = game.last_discard
        if game.phase is Phase.CLAIM and last is not None and last[0] is not seat and last[1] in own:
            return [declare(seat, True)]
        return [*draw, declare(seat)]

    @staticmethod
    def _draw_game(game: Any, seat: str | int | Seat | None) -> Any:
        """A person declares the wall empty (an exhaustive draw). It is the table's event,
        not a player's: after an unclaimed discard the referee names the seat due to draw
        itself, whatever seat the form had picked. The referee refuses it (and says why)
        while it still counts more tiles to draw than the table allows."""
        from engine.game import DrawGame

        if game.is_over():  # checked here so a refusal does not deal the next hand
            raise TableEventError("this hand is already over: the next hand starts with its first move")
        last = game.last_discard
        if last is not None:
            return DrawGame(last[0].next)
        return DrawGame(game.to_act if seat in (None, "") else Seat.parse(seat))

    @staticmethod
    def _single(kind: str, seat: Seat, first: Any, draw: list[Any]) -> list[Any]:
        from engine.game import AddedKang, ConcealedKang, DeclareFlower, Discard

        if kind == "discard":
            return [*draw, Discard(seat, first)]
        if kind == "flower":  # the next player's flower after a discard: it was drawn
            return [*draw, DeclareFlower(seat, first)]
        if kind == "secret":
            return [*draw, ConcealedKang(seat, first)]
        return [*draw, AddedKang(seat, first)]

    @staticmethod
    def _claim(kind: str, seat: Seat, tiles: list[Tile], text: str, last: tuple[Seat, Tile] | None) -> list[Any]:
        """A chow, pung or kang of the discard lying there (a pung or kang typed with another
        tile is a slip of the finger: refused, not played with the discard)."""
        from engine.game import Chow, Kang, Pung

        if kind in ("pung", "kang"):
            if last is not None and tiles and set(tiles) != {last[1]}:
                raise TableEventError(f"a {kind} of {format_tiles(tiles)} is not of {last[0]}'s discard {last[1]}")
            return [Pung(seat) if kind == "pung" else Kang(seat)]
        if len(tiles) != 3:
            raise TableEventError(f"a chow needs 3 tiles, got {text!r}")
        return [Chow(seat, min(tiles))]

    def undo(self) -> Event | None:
        with self._lock:
            ref = self._referee()
            if ref is None or not ref.game.history:
                return None
            state = self.require()
            last = state.events[-1] if state.events else None
            with self._refused():
                ref.pop()
                while ref.game.history and self._source(ref, len(ref.game.history)) == "implied":
                    ref.pop()  # the draw that came with the undone event goes too
            return last

    def _source(self, ref: Any, seq: int) -> str:
        row = self.ledger.db.execute("SELECT source FROM webui_sources WHERE game_id=? AND hand_no=? AND seq=?",
                                     (ref.game_id, ref.game.hand_number, seq)).fetchone()
        return str(row[0]) if row else "hand"

    # -- the view the pages show -----------------------------------------------------------
    def current(self) -> TableState | None:
        with self._lock:
            ref = self._referee()
            if ref is None:
                return None
            return self._state(ref)

    def deal(self) -> Deal | None:
        """The latest table's hand and dealers, without replaying the hand as ``current`` does
        (the camera's thread asks after every event it sends)."""
        with self._lock:
            ref = self._referee()
            if ref is None:
                return None
            game = ref.game
            return Deal(ref.game_id, game.hand_number, game.dealer, game.next_deal()[0] if game.is_over() else None)

    def require(self) -> TableState:
        state = self.current()
        if state is None:
            raise TableEventError("no table is set up yet: start one on the Referee page")
        return state

    def _state(self, ref: Any) -> TableState:
        game = ref.game
        info = self.ledger.game(ref.game_id)
        names = tuple(ref.players[s] for s in Seat)
        setup = TableSetup(info["variant"], names, game.starting_dealer, game.round_wind, info["options"],
                           game.starting_dealer)
        markers = game.next_jai_alai() if game.is_over() else game.jai_alai  # the pot's markers as they stand
        # the discards still lying on the table: one claimed (a meld's, the winning one) has left
        seats: dict[int, SeatState] = {s: SeatState(list(game.melds(s)), list(game.bonus(s)),
                                                    [t for by, t in game.pool() if by is s], markers[s]) for s in Seat}
        sources = dict(self.ledger.db.execute(
            "SELECT seq, source FROM webui_sources WHERE game_id=? AND hand_no=?",
            (ref.game_id, game.hand_number)).fetchall())
        events = []
        for seq, said in enumerate(self._said(ref), start=1):
            said = [e for e in said if e.kind != "draw"]  # draws are quiet: the log shows what matters
            if said:
                events.append(Event(seq, said[0].kind, said[0].seat, "", {}, sources.get(seq, "hand"),
                                    game.hand_number, tuple(_named(e.text, names) for e in said)))
        state = TableState(ref.game_id, setup, game.hand_number, game.dealer, game.round_wind, seats, events)
        outcome = game.outcome()
        if outcome is not None:  # the win or the draw, not what follows it (instants, jai alái markers)
            ending = [e for e in game.events if e.kind in ("win", "draw_game")] or game.events
            state.last_result = _named(ending[-1].text, names) if ending else outcome.kind
            state.next_dealer = game.next_deal()[0]
        return state

    def _said(self, ref: Any) -> list[list[Any]]:
        """The events of each action of this hand, by replaying it on a fresh game."""
        from mahjongero.ledger import Referee

        game = ref.game
        hand = self.ledger.hands(ref.game_id)[-1]
        fresh = Referee._new_game(game.rules, game.mode, hand["seed"], hand["dealer"], hand["round_wind"],
                                  hand["hand_no"], hand["starting_dealer"], hand["dice"])
        return [list(fresh.push(action)) for action in game.history]

    # -- the ledger ---------------------------------------------------------------------
    def _currency(self, variant: str) -> str:
        """The payments' unit (S$ at a Singapore table, whose hands are valued in tai)."""
        return str(self.rules.currency(variant)) if self.rules is not None else "$"

    def payments(self, table_id: int | None = None, since: float | None = None) -> list[Payment]:
        with self._lock:  # one SQLite connection is shared with the camera thread
            return self._payments(table_id, since)

    def _payments(self, table_id: int | None, since: float | None) -> list[Payment]:
        variants = {g: self.ledger.game(g)["variant"] for g in self.ledger.games()}
        out = [Payment(p.game_id, p.hand_no, p.seat, p.player, Fraction(p.amount), self._currency(variants[p.game_id]),
                       p.reason, _epoch(p.created)) for p in self.ledger.payments(table_id)]
        return [p for p in out if since is None or p.created >= since]

    def tables(self) -> list[tuple[int, float, str, tuple[str, ...]]]:
        out = []
        with self._lock:
            for g in reversed(self.ledger.games()):
                info = self.ledger.game(g)
                out.append((g, _epoch(info["created"]), info["variant"], tuple(info["players"][s] for s in Seat)))
        return out

    totals = staticmethod(TableBook.totals)

    def csv(self, table_id: int | None = None) -> str:
        # Same columns as the table book's export, with names defused for spreadsheets.
        book_like = TableBook.__new__(TableBook)
        book_like.payments = self.payments  # type: ignore[method-assign]
        return TableBook.csv(book_like, table_id)

