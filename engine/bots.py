"""Simple players for self-play: a random one and a greedy one.

A bot answers two questions: ``act(game, seat)`` when the seat must play (declare,
discard, win), and ``claim(game, seat)`` when another seat's discard lies on the
table (None = pass). ``play_hand`` runs a whole hand with one bot per seat,
resolving simultaneous claims by priority (win, then pung/kang, then chow).

>>> from engine.game import Game
>>> g = Game("filipino", seed=3)
>>> out = play_hand(g, [GreedyBot()] * 4)
>>> out.kind in ("win", "draw") and g.is_over()
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Protocol

from engine.game.actions import (
    Action,
    AddedKang,
    Chow,
    ConcealedKang,
    DeclareFlower,
    Discard,
    Draw,
    Kang,
    Pung,
    Win,
)
from engine.game.game import Game, IllegalActionError, Outcome, Phase, resolve_claims
from engine.game.rules import GameRules
from engine.game.shape import (
    is_complete,
    is_seven_pairs_plus_set,
    shanten,
    shanten_after_each_discard,
)
from engine.seats import Seat
from engine.tiles import NUM_PLAYABLE, Tile

__all__ = ["Bot", "RandomBot", "GreedyBot", "play_hand", "run_games", "SimulationStats"]


class Bot(Protocol):
    def act(self, game: Game, seat: Seat) -> Action: ...

    def claim(self, game: Game, seat: Seat) -> Action | None: ...


class RandomBot:
    """Plays a uniformly random legal action; claims a discard with probability ``claim_rate``."""

    def __init__(self, seed: int | None = None, claim_rate: float = 0.5) -> None:
        self.rng = random.Random(seed)
        self.claim_rate = claim_rate

    def act(self, game: Game, seat: Seat) -> Action:
        options = game.legal_actions(seat)
        wins = [a for a in options if isinstance(a, Win)]
        return wins[0] if wins else self.rng.choice(options)

    def claim(self, game: Game, seat: Seat) -> Action | None:
        options = [a for a in game.legal_actions(seat) if not isinstance(a, Draw)]
        wins = [a for a in options if isinstance(a, Win)]
        if wins:
            return wins[0]
        if options and self.rng.random() < self.claim_rate:
            return self.rng.choice(options)
        return None


class GreedyBot:
    """Wins when it can, declares what it must, discards to the lowest shanten and
    claims a discard when that lowers its shanten."""

    def act(self, game: Game, seat: Seat) -> Action:
        counts = game.counts(seat)
        rules = game.rules
        for t in _declarable(rules):  # bonus tiles (and Vietnamese jokers) go down first
            if counts[t]:
                return DeclareFlower(seat, Tile(t))
        if game.actor() is not seat:  # pragma: no cover - the driver asks the actor only
            raise IllegalActionError(f"{seat} is not to act")
        sets = game.sets_to_make(seat)
        playable = counts[:NUM_PLAYABLE]
        if self._complete(game, seat, playable, sets) and game.is_legal(Win(seat)):
            return Win(seat)
        for t in range(NUM_PLAYABLE):
            if counts[t] == 4 and game.is_legal(ConcealedKang(seat, Tile(t))):
                return ConcealedKang(seat, Tile(t))
        drawn = _last_drawn(game)
        if drawn is not None and drawn < NUM_PLAYABLE and game.is_legal(AddedKang(seat, drawn)):
            return AddedKang(seat, drawn)
        scores = shanten_after_each_discard(playable, sets)
        if not scores:  # only non-playable tiles in hand (Vietnam: a kept flower)
            t = next(t for t in range(64) if counts[t] and rules.may_discard(Tile(t)))
            return Discard(seat, Tile(t))
        best = min(scores.values())
        choices = [t for t, v in scores.items() if v == best]
        # Among equals, throw the loneliest tile (honours and terminals first).
        return Discard(seat, Tile(min(choices, key=lambda t: (_neighbours(playable, t), -t))))

    def claim(self, game: Game, seat: Seat) -> Action | None:
        last = game.last_discard
        if last is None:
            return None
        frm, tile = last
        if game.robbing:  # only a win may take a tile added to a pung
            return Win(seat) if game.is_legal(Win(seat)) else None
        counts = game.counts(seat)
        playable = counts[:NUM_PLAYABLE]
        sets = game.sets_to_make(seat)
        if tile < NUM_PLAYABLE and not game.rules.is_bonus(tile):
            playable[tile] += 1
            done = self._complete(game, seat, playable, sets)
            playable[tile] -= 1
            if done and game.is_legal(Win(seat)):
                return Win(seat)
        elif game.rules.discard_bonus_as_tong:
            if game.is_legal(Win(seat)):
                return Win(seat)
            return None
        else:
            return None
        n = playable[tile]
        if n < 2 and not (seat is frm.next and tile.is_suited):
            return None
        now = shanten(playable, sets)
        best: tuple[int, Action] | None = None
        if n >= 2:
            playable[tile] -= 2
            after = shanten(playable, sets - 1)
            playable[tile] += 2
            if after < now:
                best = (after, Pung(seat))
        if n >= 3:
            playable[tile] -= 3
            after = shanten(playable, sets - 1)
            playable[tile] += 3
            if after <= now and (best is None or after <= best[0]):
                best = (after, Kang(seat))
        if seat is frm.next and tile.is_suited:
            for low in range(max(tile - 2, tile - tile % 9), min(tile, tile - tile % 9 + 6) + 1):
                own = [t for t in (low, low + 1, low + 2) if t != tile]
                if all(playable[t] for t in own):
                    for t in own:
                        playable[t] -= 1
                    after = shanten(playable, sets - 1)
                    for t in own:
                        playable[t] += 1
                    if after < now and (best is None or after < best[0]):
                        best = (after, Chow(seat, Tile(low)))
        return best[1] if best else None

    @staticmethod
    def _complete(game: Game, seat: Seat, playable: list[int], sets: int) -> bool:
        if is_complete(playable, sets):
            return True
        return bool(game.rules.seven_pairs and not game.melds(seat) and is_seven_pairs_plus_set(playable))


_DECLARABLE: dict[str, tuple[int, ...]] = {}


def _declarable(rules: GameRules) -> tuple[int, ...]:
    key = rules.name
    hit = _DECLARABLE.get(key)
    if hit is None:
        hit = _DECLARABLE[key] = tuple(t for t in range(64) if rules.may_declare(Tile(t)))
    return hit


def _neighbours(counts: list[int], t: int) -> int:
    if t >= 27:
        return 2 * (counts[t] - 1)
    lo = t - t % 9
    return 2 * (counts[t] - 1) + sum(counts[x] for x in (t - 2, t - 1, t + 1, t + 2) if lo <= x < lo + 9)


def _last_drawn(game: Game) -> Tile | None:
    return game._s.last_drawn  # the referee's own record of the drawn tile


def play_hand(game: Game, bots: Sequence[Bot], *, max_actions: int = 2000,
              push: Callable[[Action], object] | None = None) -> Outcome:
    """Play ``game`` to its end with one bot per seat (index = seat). Returns the outcome.

    ``push`` replaces ``game.push`` (e.g. a ledger-backed referee's, which writes each action).
    """
    do = push or game.push
    for _ in range(max_actions):
        if game.phase is Phase.OVER:
            break
        if game.phase is Phase.CLAIM:
            last = game.last_discard
            assert last is not None
            frm = last[0]
            claims = [c for s in Seat if s is not frm and (c := bots[s].claim(game, s)) is not None]
            choice = resolve_claims(claims, frm) or Draw(game.actor())
            try:
                do(choice)
            except IllegalActionError:
                do(Draw(game.actor()))
            continue
        seat = game.actor()
        do(bots[seat].act(game, seat))
    out = game.outcome()
    if out is None:
        raise RuntimeError(f"hand did not finish in {max_actions} actions")
    return out


@dataclass
class SimulationStats:
    """What ``mahjongero simulate`` reports: outcomes by kind and mean money per seat."""

    variant: str
    games: int = 0
    draws: int = 0
    wins: Counter[str] = field(default_factory=Counter)  # "self-drawn" / "on a discard"
    patterns: Counter[str] = field(default_factory=Counter)
    totals: dict[Seat, Fraction] = field(default_factory=lambda: {s: Fraction(0) for s in Seat})
    actions: int = 0
    unit: str = "$"

    def add(self, game: Game) -> None:
        out = game.outcome()
        assert out is not None
        self.games += 1
        self.actions += len(game.history)
        if out.kind == "draw":
            self.draws += 1
        else:
            self.wins["self-drawn" if out.self_drawn else "on a discard"] += 1
            if out.result is not None:
                self.unit = out.result.currency  # the payments' unit
                self.patterns.update(name for name, _ in out.result.patterns)
        for e in game.events:
            for seat, amount in e.payments.items():
                self.totals[seat] += amount

    def to_json(self) -> dict[str, object]:
        n = max(self.games, 1)
        return {
            "variant": self.variant, "games": self.games, "draws": self.draws,
            "wins": dict(self.wins), "patterns": dict(self.patterns.most_common()),
            "mean_payout": {str(s): float(v / n) for s, v in self.totals.items()},
            "mean_actions": self.actions / n, "unit": self.unit,
        }


def run_games(variant: str, games: int, seed: int, *, bot: str = "greedy",
              **options: object) -> SimulationStats:
    """Play ``games`` independent hands (seeds ``seed``, ``seed + 1``...) with four bots.

    >>> s = run_games("visayan", 2, 1)
    >>> s.games, s.draws + sum(s.wins.values())
    (2, 2)
    """
    from engine.game.rules import rules_for

    rules = rules_for(variant, **options)
    stats = SimulationStats(rules.name)
    for i in range(games):
        game = Game(rules, seed=seed + i)
        bots: list[Bot] = ([GreedyBot()] * 4 if bot == "greedy"
                           else [RandomBot(seed=(seed + i) * 4 + s) for s in range(4)])
        play_hand(game, bots)
        stats.add(game)
    return stats
