"""The referee's memory: an SQLite file (WAL) holding every accepted action and every payment.

Nothing is lost: ``Referee.push`` checks an action against the rules, then writes the
action and the payments it caused in one transaction, and only then returns the
announcements. After a crash, ``Referee.restore`` replays the log and gets the
exact game back; a transaction either happened whole or not at all, so the ledger
has no partial or doubled entries.

>>> led = Ledger(":memory:")
>>> ref = Referee.create(led, "filipino", {"E": "Ana", "S": "Ben", "W": "Cris", "N": "Dina"}, seed=5)
>>> from engine.bots import GreedyBot, play_hand
>>> _ = play_hand(ref.game, [GreedyBot()] * 4, push=ref.push)
>>> sum(led.totals("game", game_id=ref.game_id).values())
Fraction(0, 1)
>>> again = Referee.restore(led, ref.game_id)
>>> again.game.state_key() == ref.game.state_key()
True
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import sqlite3
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, TextIO

from engine.game import Action, Event, Game, IllegalActionError, Mode, parse_action, rules_for
from engine.game.rules import GameRules
from engine.seats import Seat

__all__ = ["Ledger", "Referee", "Payment", "LedgerError"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    variant TEXT NOT NULL,
    options TEXT NOT NULL,
    players TEXT NOT NULL,
    mode TEXT NOT NULL,
    seed INTEGER,
    created TEXT NOT NULL,
    evening TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS hands (
    game_id INTEGER NOT NULL REFERENCES games(id),
    hand_no INTEGER NOT NULL,
    seed INTEGER,
    dealer INTEGER NOT NULL,
    round_wind INTEGER NOT NULL,
    starting_dealer INTEGER NOT NULL,
    dice TEXT,
    created TEXT NOT NULL,
    PRIMARY KEY (game_id, hand_no)
);
CREATE TABLE IF NOT EXISTS actions (
    game_id INTEGER NOT NULL,
    hand_no INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    created TEXT NOT NULL,
    PRIMARY KEY (game_id, hand_no, seq),
    FOREIGN KEY (game_id, hand_no) REFERENCES hands(game_id, hand_no)
);
CREATE TABLE IF NOT EXISTS payments (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL,
    hand_no INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    player TEXT NOT NULL,
    amount TEXT NOT NULL,
    reason TEXT NOT NULL,
    created TEXT NOT NULL,
    evening TEXT NOT NULL,
    FOREIGN KEY (game_id, hand_no, seq) REFERENCES actions(game_id, hand_no, seq)
);
CREATE INDEX IF NOT EXISTS payments_game ON payments(game_id, hand_no, seq);
"""


class LedgerError(ValueError):
    """A ledger request that names no game, hand or scope. The message quotes it."""


@dataclass(frozen=True)
class Payment:
    game_id: int
    hand_no: int
    seq: int
    seat: Seat
    player: str
    amount: Fraction
    reason: str
    created: str


def _now() -> dt.datetime:
    return dt.datetime.now().astimezone()


def _evening(when: dt.datetime) -> str:
    """The evening a moment belongs to: play after midnight counts for the day before (until 6:00)."""
    return (when - dt.timedelta(hours=6)).date().isoformat()


class Ledger:
    """The SQLite file. ``path`` may be ``":memory:"`` for tests."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._lock = threading.RLock()  # one connection shared by a web server's threads
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self.db.executescript(_SCHEMA)

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """One atomic transaction: all of it is written, or none of it."""
        with self._lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")

    # -- writing --------------------------------------------------------------------
    def new_game(self, variant: str, players: Mapping[Seat, str], *, options: Mapping[str, Any],
                 mode: str, seed: int | None) -> int:
        when = _now()
        names = {str(int(s)): n for s, n in players.items()}
        with self._tx() as db:
            cur = db.execute(
                "INSERT INTO games (variant, options, players, mode, seed, created, evening)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (variant, json.dumps(dict(options), sort_keys=True, default=str), json.dumps(names), mode, seed,
                 when.isoformat(), _evening(when)))
            assert cur.lastrowid is not None
            return cur.lastrowid

    def start_hand(self, game_id: int, hand_no: int, *, seed: int | None, dealer: Seat,
                   round_wind: Seat, starting_dealer: Seat, dice: tuple[int, int]) -> None:
        with self._tx() as db:
            db.execute(
                "INSERT INTO hands VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, hand_no, seed, int(dealer), int(round_wind), int(starting_dealer),
                 json.dumps(list(dice)), _now().isoformat()))

    def record(self, game_id: int, hand_no: int, seq: int, action: str,
               payments: list[tuple[Seat, str, Fraction, str]]) -> None:
        """Write one action and its payments atomically."""
        when = _now()
        with self._tx() as db:
            db.execute("INSERT INTO actions VALUES (?, ?, ?, ?, ?)",
                       (game_id, hand_no, seq, action, when.isoformat()))
            db.executemany(
                "INSERT INTO payments (game_id, hand_no, seq, seat, player, amount, reason, created,"
                " evening) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(game_id, hand_no, seq, int(seat), player, str(amount), reason, when.isoformat(),
                  _evening(when)) for seat, player, amount, reason in payments])

    def erase(self, game_id: int, hand_no: int, seq: int) -> None:
        """Undo: remove one action and its payments atomically."""
        with self._tx() as db:
            db.execute("DELETE FROM payments WHERE game_id=? AND hand_no=? AND seq=?", (game_id, hand_no, seq))
            db.execute("DELETE FROM actions WHERE game_id=? AND hand_no=? AND seq=?", (game_id, hand_no, seq))

    def forget_hand(self, game_id: int, hand_no: int) -> None:
        """Take back a hand dealt but never played (its first action was refused)."""
        with self._tx() as db:
            if db.execute("SELECT 1 FROM actions WHERE game_id=? AND hand_no=?", (game_id, hand_no)).fetchone():
                raise LedgerError(f"game {game_id} hand {hand_no} has been played: undo its actions first")
            db.execute("DELETE FROM hands WHERE game_id=? AND hand_no=?", (game_id, hand_no))

    # -- reading ----------------------------------------------------------------------
    def game(self, game_id: int) -> dict[str, Any]:
        row = self.db.execute(
            "SELECT variant, options, players, mode, seed, created, evening FROM games WHERE id=?",
            (game_id,)).fetchone()
        if row is None:
            raise LedgerError(f"no game {game_id!r} in {self.path}")
        variant, options, players, mode, seed, created, evening = row
        return {"variant": variant, "options": json.loads(options),
                "players": {Seat(int(k)): v for k, v in json.loads(players).items()},
                "mode": mode, "seed": seed, "created": created, "evening": evening}

    def games(self) -> list[int]:
        return [r[0] for r in self.db.execute("SELECT id FROM games ORDER BY id")]

    def hands(self, game_id: int) -> list[dict[str, Any]]:
        rows = self.db.execute(
            "SELECT hand_no, seed, dealer, round_wind, starting_dealer, dice FROM hands"
            " WHERE game_id=? ORDER BY hand_no", (game_id,)).fetchall()
        return [{"hand_no": h, "seed": s, "dealer": Seat(d), "round_wind": Seat(w),
                 "starting_dealer": Seat(f), "dice": tuple(json.loads(dice))}
                for h, s, d, w, f, dice in rows]

    def actions(self, game_id: int, hand_no: int) -> list[str]:
        return [r[0] for r in self.db.execute(
            "SELECT action FROM actions WHERE game_id=? AND hand_no=? ORDER BY seq", (game_id, hand_no))]

    def payments(self, game_id: int | None = None) -> list[Payment]:
        sql = "SELECT game_id, hand_no, seq, seat, player, amount, reason, created FROM payments"
        args: tuple[Any, ...] = ()
        if game_id is not None:
            sql += " WHERE game_id=?"
            args = (game_id,)
        rows = self.db.execute(sql + " ORDER BY id", args).fetchall()
        return [Payment(g, h, q, Seat(s), p, Fraction(a), r, c) for g, h, q, s, p, a, r, c in rows]

    def totals(self, scope: str = "overall", *, game_id: int | None = None,
               evening: str | None = None) -> dict[str, Fraction]:
        """Running totals per player: ``"game"`` (needs game_id), ``"evening"`` (today's
        evening unless ``evening="YYYY-MM-DD"``) or ``"overall"``.

        Amounts are summed exactly (fractions), never as floats.
        """
        args: tuple[object, ...]
        if scope == "game":
            if game_id is None:
                raise LedgerError("totals('game') needs game_id")
            where, args = "WHERE game_id=?", (game_id,)
        elif scope == "evening":
            where, args = "WHERE evening=?", (evening or _evening(_now()),)
        elif scope == "overall":
            where, args = "", ()
        else:
            raise LedgerError(f"unknown scope {scope!r}: use game, evening or overall")
        out: dict[str, Fraction] = {}
        for player, amount in self.db.execute(f"SELECT player, amount FROM payments {where}", args):
            out[player] = out.get(player, Fraction(0)) + Fraction(amount)
        return out

    def export_csv(self, out: TextIO | None = None, *, game_id: int | None = None) -> str:
        """Every payment as CSV (amounts as exact fractions and as decimals)."""
        buf = out or io.StringIO()
        w = csv.writer(buf)
        w.writerow(["game", "hand", "seq", "seat", "player", "amount", "amount_decimal", "reason", "time"])
        for p in self.payments(game_id):
            w.writerow([p.game_id, p.hand_no, p.seq, str(p.seat), p.player, str(p.amount),
                        f"{float(p.amount):.4f}", p.reason, p.created])
        return buf.getvalue() if isinstance(buf, io.StringIO) else ""


class Referee:
    """A table session: the current ``Game`` bound to the ledger.

    Every ``push`` is written before it is acknowledged; ``pop`` erases it; a new
    process gets the same table back with ``Referee.restore(ledger, game_id)``.
    """

    def __init__(self, ledger: Ledger, game_id: int, game: Game, players: Mapping[Seat, str],
                 seed: int | None) -> None:
        self.ledger = ledger
        self.game_id = game_id
        self.game = game
        self.players = dict(players)
        self.seed = seed

    @staticmethod
    def _hand_seed(seed: int | None, hand_no: int) -> int | None:
        return None if seed is None else seed * 1000 + hand_no

    @classmethod
    def create(cls, ledger: Ledger, variant: str, players: Mapping[Seat | str, str], *,
               mode: Mode | str = Mode.FULL, seed: int | None = 0, dealer: Seat | str = Seat.EAST,
               round_wind: Seat | str = Seat.EAST, starting_dealer: Seat | str | None = None,
               **options: Any) -> Referee:
        """Open a new table: writes the game and its first hand.

        ``dealer`` and ``round_wind`` say where the evening stands (a table that joins in
        the South round); ``starting_dealer`` (default: ``dealer``) is the seat whose
        next deal turns the round wind. ``options`` are the table options and table
        rules of ``rules_for`` (``seven_pairs="pair_plus_any_set"``, ``min_tai=2``...)."""
        rules = rules_for(variant, **options)
        seats = {Seat.parse(k): str(v) for k, v in players.items()}
        if set(seats) != set(Seat):
            raise LedgerError(f"players {dict(players)!r} must name all four seats")
        mode = Mode(mode)
        if mode is Mode.FULL and seed is None:
            raise LedgerError("a full game needs a seed so that it can be replayed")
        first, wind = Seat.parse(dealer), Seat.parse(round_wind)
        start = first if starting_dealer is None else Seat.parse(starting_dealer)
        game_id = ledger.new_game(rules.name, seats, options=options, mode=mode.value, seed=seed)
        game = cls._new_game(rules, mode, cls._hand_seed(seed, 1), first, wind, 1, start, None)
        ledger.start_hand(game_id, 1, seed=cls._hand_seed(seed, 1), dealer=first, round_wind=wind,
                          starting_dealer=start, dice=game.dice)
        return cls(ledger, game_id, game, seats, seed)

    @staticmethod
    def _new_game(rules: GameRules, mode: Mode, seed: int | None, dealer: Seat, wind: Seat,
                  hand_no: int, starting: Seat, dice: tuple[int, int] | None,
                  before: Game | None = None) -> Game:
        """Hand ``hand_no``; after ``before``, with the jai alái markers it left (000, 001:
        they build up over the hands until a seat takes the pot)."""
        markers = before.next_jai_alai() if before is not None else None
        return Game(rules, seed=seed, mode=mode, dealer=dealer, round_wind=wind, hand_number=hand_no,
                    starting_dealer=starting, dice=dice, jai_alai=markers)

    @classmethod
    def restore(cls, ledger: Ledger, game_id: int) -> Referee:
        """Rebuild the table exactly from the log (after a crash or a restart)."""
        info = ledger.game(game_id)
        rules = rules_for(info["variant"], **info["options"])
        mode = Mode(info["mode"])
        hands = ledger.hands(game_id)
        if not hands:
            raise LedgerError(f"game {game_id} has no hand in {ledger.path}")
        game: Game | None = None
        for h in hands:
            game = cls._new_game(rules, mode, h["seed"], h["dealer"], h["round_wind"], h["hand_no"],
                                 h["starting_dealer"], h["dice"], game)
            for text in ledger.actions(game_id, h["hand_no"]):
                game.push(parse_action(text))
        assert game is not None
        return cls(ledger, game_id, game, info["players"], info["seed"])

    # -- play ------------------------------------------------------------------------
    def push(self, action: Action | str) -> list[Event]:
        """Check, write, then acknowledge. An illegal action writes nothing."""
        if isinstance(action, str):
            action = parse_action(action)
        events = self.game.push(action)  # raises IllegalActionError, game unchanged
        seq = len(self.game.history)
        rows = [(seat, self.players[seat], amount, e.reason or e.kind)
                for e in events for seat, amount in sorted(e.payments.items()) if amount]
        try:
            self.ledger.record(self.game_id, self.game.hand_number, seq, str(action), rows)
        except BaseException:
            self.game.pop()  # not written: not accepted
            raise
        return events

    def pop(self) -> Action:
        """Undo the last action: in the game and in the ledger."""
        seq = len(self.game.history)
        if seq == 0:
            raise IllegalActionError("nothing to undo in this hand")
        self.ledger.erase(self.game_id, self.game.hand_number, seq)
        return self.game.pop()

    def next_hand(self) -> Game:
        """Deal the next hand (dealer and round wind as the rules say)."""
        dealer, wind, hand_no = self.game.next_deal()
        seed = self._hand_seed(self.seed, hand_no)
        game = self._new_game(self.game.rules, self.game.mode, seed, dealer, wind, hand_no,
                              self.game.starting_dealer, None, self.game)
        self.ledger.start_hand(self.game_id, hand_no, seed=seed, dealer=dealer, round_wind=wind,
                               starting_dealer=self.game.starting_dealer, dice=game.dice)
        self.game = game
        return game

    def take_back_hand(self, ended: Game) -> None:
        """Back to ``ended``, the hand before this one, while nothing has been played in this
        one: a person's first move of a new hand was refused, and the table stays as it was."""
        if self.game.history:
            raise IllegalActionError(f"hand {self.game.hand_number} has begun: undo its moves first")
        self.ledger.forget_hand(self.game_id, self.game.hand_number)
        self.game = ended
