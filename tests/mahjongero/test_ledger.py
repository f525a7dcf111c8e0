"""The ledger: atomic action log, payments, totals, CSV, undo, and recovery after SIGKILL."""

from __future__ import annotations

import csv
import io
import os
import signal
import sqlite3
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest

from engine.bots import GreedyBot, play_hand
from engine.game import Discard, IllegalActionError, Win
from engine.seats import Seat
from engine.tiles import Tile
from mahjongero.ledger import Ledger, LedgerError, Referee

PLAYERS = {"E": "Ana", "S": "Ben", "W": "Cris", "N": "Dina"}


def rows(led: Ledger) -> tuple[int, int]:
    a = led.db.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
    p = led.db.execute("SELECT COUNT(*) FROM payments").fetchone()[0]
    return a, p


def test_every_payment_is_in_the_ledger_and_sums_to_zero(tmp_path: Path) -> None:
    led = Ledger(tmp_path / "table.sqlite")
    ref = Referee.create(led, "filipino", PLAYERS, seed=11)
    for _ in range(3):
        play_hand(ref.game, [GreedyBot()] * 4, push=ref.push)
        ref.next_hand()
    pays = led.payments(ref.game_id)
    assert pays, "three hands and no payment at all"
    for key in {(p.hand_no, p.seq) for p in pays}:
        assert sum(p.amount for p in pays if (p.hand_no, p.seq) == key) == 0
    totals = led.totals("game", game_id=ref.game_id)
    assert set(totals) <= set(PLAYERS.values()) and sum(totals.values()) == 0
    assert led.totals("evening") == led.totals("overall") == totals
    assert {p.player for p in pays if p.seat is Seat.SOUTH} <= {"Ben"}
    assert all(p.reason for p in pays)


def test_csv_export_has_exact_amounts(tmp_path: Path) -> None:
    led = Ledger(tmp_path / "t.sqlite")
    ref = Referee.create(led, "visayan", PLAYERS, seed=2)
    play_hand(ref.game, [GreedyBot()] * 4, push=ref.push)
    text = led.export_csv(game_id=ref.game_id)
    table = list(csv.DictReader(io.StringIO(text)))
    assert len(table) == len(led.payments(ref.game_id))
    assert sum(Fraction(r["amount"]) for r in table) == 0
    assert {r["player"] for r in table} <= set(PLAYERS.values())


def test_illegal_actions_write_nothing(tmp_path: Path) -> None:
    led = Ledger(tmp_path / "t.sqlite")
    ref = Referee.create(led, "filipino", PLAYERS, seed=4)
    before, key = rows(led), ref.game.state_key()
    for bad in (Discard(Seat.SOUTH, Tile.M1), Win(Seat.EAST), "N pung", "E discard 1z"):
        with pytest.raises(IllegalActionError):
            ref.push(bad)
    assert rows(led) == before and ref.game.state_key() == key
    with pytest.raises(ValueError, match="unknown seat"):
        ref.push("X discard 1m")
    assert rows(led) == before


def test_undo_erases_the_action_and_its_payments(tmp_path: Path) -> None:
    led = Ledger(tmp_path / "t.sqlite")
    ref = Referee.create(led, "filipino", PLAYERS, seed=5)
    play_hand(ref.game, [GreedyBot()] * 4, push=ref.push)
    a, p = rows(led)
    win_seq = len(ref.game.history)
    paid_at_win = [x for x in led.payments(ref.game_id) if x.seq == win_seq]
    ref.pop()
    assert rows(led) == (a - 1, p - len(paid_at_win))
    assert ref.game.outcome() is None
    again = Referee.restore(led, ref.game_id)
    assert again.game.state_key() == ref.game.state_key()


def test_a_write_that_fails_part_way_keeps_neither_the_action_nor_half_its_rows(tmp_path: Path) -> None:
    """The disk fills after the action's row and before its payments: the transaction is
    rolled back and the game takes the action back, so the two never disagree."""
    led = Ledger(tmp_path / "t.sqlite")
    ref = Referee.create(led, "filipino", PLAYERS, seed=5)

    class Winning(Exception):
        pass

    def push(action: object) -> None:  # played up to the win, which pays: rows after its own row
        if isinstance(action, Win):
            raise Winning(action)
        ref.push(action)  # type: ignore[arg-type]

    with pytest.raises(Winning) as stopped:
        play_hand(ref.game, [GreedyBot()] * 4, push=push)
    win = stopped.value.args[0]
    before, key, history = rows(led), ref.game.state_key(), len(ref.game.history)

    class FullDisk:
        def __init__(self, db: object) -> None:
            self.db = db

        def execute(self, *args: object) -> object:
            return self.db.execute(*args)  # type: ignore[attr-defined]

        def executemany(self, *args: object) -> object:
            raise sqlite3.OperationalError("database or disk is full")

    real = led.db
    led.db = FullDisk(real)  # type: ignore[assignment]
    with pytest.raises(sqlite3.OperationalError, match="disk is full"):
        ref.push(win)
    led.db = real
    assert rows(led) == before  # the action's own row rolled back with the payments
    assert ref.game.state_key() == key and len(ref.game.history) == history and ref.game.outcome() is None
    ref.push(win)  # the disk has room again: the same win is taken and paid
    assert rows(led)[0] == before[0] + 1 and rows(led)[1] > before[1]


def test_undo_with_nothing_to_take_back_is_refused(tmp_path: Path) -> None:
    ref = Referee.create(Ledger(tmp_path / "t.sqlite"), "filipino", PLAYERS, seed=5)
    with pytest.raises(IllegalActionError, match="nothing to undo in this hand"):
        ref.pop()


def test_restore_rebuilds_an_observed_game(tmp_path: Path) -> None:
    path = tmp_path / "obs.sqlite"
    led = Ledger(path)
    ref = Referee.create(led, "singaporean", PLAYERS, mode="observed", seed=None)
    for text in ("N flower 1a", "E discard 9m", "S draw", "S discard 1z", "W pung"):
        ref.push(text)
    led.close()
    back = Referee.restore(Ledger(path), ref.game_id)
    assert back.game.state_key() == ref.game.state_key()
    assert back.players[Seat.WEST] == "Cris"


def test_restore_between_hands_deals_the_next_hand(tmp_path: Path) -> None:
    """A crash right after next_hand(), before the new hand's first action, loses nothing."""
    path = tmp_path / "between.sqlite"
    ref = Referee.create(Ledger(path), "filipino", PLAYERS, seed=21)
    play_hand(ref.game, [GreedyBot()] * 4, push=ref.push)
    ref.next_hand()
    back = Referee.restore(Ledger(path), ref.game_id)
    assert back.game.state_key() == ref.game.state_key()


def test_a_hand_dealt_but_not_played_can_be_taken_back(tmp_path: Path) -> None:
    """The web referee deals the next hand with a person's first move; refused, the table is
    back at the end of the last hand, in the ledger too. A hand played cannot be."""
    path = tmp_path / "back.sqlite"
    ref = Referee.create(Ledger(path), "filipino", PLAYERS, seed=21)
    play_hand(ref.game, [GreedyBot()] * 4, push=ref.push)
    ended, key = ref.game, ref.game.state_key()
    ref.next_hand()
    ref.take_back_hand(ended)
    assert ref.game is ended and ref.game.is_over()
    back = Referee.restore(Ledger(path), ref.game_id)
    assert back.game.hand_number == 1 and back.game.state_key() == key
    ref.next_hand()
    ref.push(ref.game.legal_actions()[0])
    with pytest.raises(IllegalActionError, match="hand 2 has begun: undo its moves first"):
        ref.take_back_hand(ended)
    with pytest.raises(LedgerError, match="hand 2 has been played"):
        ref.ledger.forget_hand(ref.game_id, 2)


def test_jai_alai_markers_build_up_over_the_hands_until_the_pot_is_taken(tmp_path: Path) -> None:
    """000, 001: "the winner gets one marker, two for búnot ... the first player to get five
    markers wins the jai alai". The referee dealt every hand with no marker held, so nobody
    ever reached five; a restart rebuilds the markers from the log."""
    path = tmp_path / "jai.sqlite"
    ref = Referee.create(Ledger(path), "filipino", PLAYERS, seed=3, jai_alai=True)
    held = []
    for _ in range(12):
        play_hand(ref.game, [GreedyBot()] * 4, push=ref.push)
        ref.next_hand()
        held.append(ref.game.jai_alai)
    assert held[:3] == [(2, 0, 0, 0), (2, 0, 0, 1), (2, 0, 1, 1)]
    assert held[10] == (0, 0, 0, 0)  # North's fifth marker took the pot: a new one starts
    pot = [p for p in ref.ledger.payments(ref.game_id) if "jai" in p.reason.lower()]
    assert sum(p.amount for p in pot) == 0 and max(p.amount for p in pot) == 3 and pot[0].hand_no == 11
    assert Referee.restore(Ledger(path), ref.game_id).game.jai_alai == held[-1] == (0, 1, 0, 0)


def test_bad_requests_name_the_problem(tmp_path: Path) -> None:
    led = Ledger(tmp_path / "t.sqlite")
    with pytest.raises(LedgerError, match="no game 99"):
        Referee.restore(led, 99)
    with pytest.raises(LedgerError, match="must name all four seats"):
        Referee.create(led, "filipino", {"E": "Ana"})
    with pytest.raises(LedgerError, match="unknown scope 'week'"):
        led.totals("week")
    with pytest.raises(ValueError, match="unknown variant 'chess'"):
        Referee.create(led, "chess", PLAYERS)


_CHILD = """
import sys
from engine.bots import GreedyBot, play_hand
from mahjongero.ledger import Ledger, Referee
led = Ledger(sys.argv[1])
ref = Referee.create(led, sys.argv[2], {"E": "Ana", "S": "Ben", "W": "Cris", "N": "Dina"}, seed=int(sys.argv[3]))
print(ref.game_id, flush=True)
while True:
    play_hand(ref.game, [GreedyBot()] * 4, push=ref.push)
    ref.next_hand()
"""


def _reference(variant: str, seed: int, hands: int) -> dict[tuple[int, int], tuple[str, list]]:
    """The same bots in-process: every (hand, seq) -> (action, payment rows)."""
    led = Ledger(":memory:")
    ref = Referee.create(led, variant, PLAYERS, seed=seed)
    for _ in range(hands):
        play_hand(ref.game, [GreedyBot()] * 4, push=ref.push)
        ref.next_hand()
    out = {}
    for h in led.hands(ref.game_id):
        for seq, text in enumerate(led.actions(ref.game_id, h["hand_no"]), start=1):
            pays = sorted((p.seat, p.amount, p.reason) for p in led.payments(ref.game_id)
                          if p.hand_no == h["hand_no"] and p.seq == seq)
            out[(h["hand_no"], seq)] = (text, pays)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("variant,seed,stop_after", [("filipino", 21, 120), ("visayan", 8, 45)])
def test_sigkill_mid_game_restores_exactly(tmp_path: Path, variant: str, seed: int, stop_after: int) -> None:
    path = tmp_path / "crash.sqlite"
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    child = subprocess.Popen([sys.executable, "-c", _CHILD, str(path), variant, str(seed)],
                             stdout=subprocess.PIPE, env=env)
    try:
        assert child.stdout is not None
        game_id = int(child.stdout.readline())
        deadline = time.time() + 60
        led = Ledger(path)
        while rows(led)[0] < stop_after and time.time() < deadline:
            time.sleep(0.01)
        child.send_signal(signal.SIGKILL)
        child.wait(10)
    finally:
        if child.poll() is None:
            child.kill()
    led = Ledger(path)
    logged = {(h["hand_no"], seq): (text, sorted((p.seat, p.amount, p.reason) for p in led.payments(game_id)
                                                  if p.hand_no == h["hand_no"] and p.seq == seq))
              for h in led.hands(game_id)
              for seq, text in enumerate(led.actions(game_id, h["hand_no"]), start=1)}
    assert len(logged) >= stop_after
    hands = max(h for h, _ in logged)
    expected = _reference(variant, seed, hands)
    for key, entry in logged.items():
        assert entry == expected[key], f"hand {key[0]} action {key[1]} differs after the crash"
    orphans = led.db.execute(
        "SELECT COUNT(*) FROM payments p LEFT JOIN actions a USING (game_id, hand_no, seq)"
        " WHERE a.action IS NULL").fetchone()[0]
    assert orphans == 0
    restored = Referee.restore(led, game_id)
    # the same game, replayed here from the reference log prefix, has the same state
    # the kill may land between next_hand() opening a hand row and its first action
    last_hand = max(h["hand_no"] for h in led.hands(game_id))
    n = max((seq for h, seq in logged if h == last_hand), default=0)
    shadow = Referee.create(Ledger(":memory:"), variant, PLAYERS, seed=seed)
    for _ in range(1, last_hand):
        play_hand(shadow.game, [GreedyBot()] * 4, push=shadow.push)
        shadow.next_hand()
    for seq in range(1, n + 1):
        shadow.push(expected[(last_hand, seq)][0])
    assert restored.game.state_key() == shadow.game.state_key()
    # and play goes on from there
    if not restored.game.is_over():
        play_hand(restored.game, [GreedyBot()] * 4, push=restored.push)
    assert restored.game.outcome() is not None
