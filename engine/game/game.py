"""One hand of mahjong refereed from the deal to the payout, with exact undo.

``Game`` holds the table: each seat's concealed tiles as a count array (plus a
number of unseen tiles in observed mode), declared melds, bonus tiles, the
discards and the wall as two ends of a list. ``push`` checks an action against
the rules, applies it and returns the announcements; ``pop`` restores the state
before the last action exactly (a snapshot per action: cheap, and it cannot drift).

>>> g = Game("filipino", seed=7)
>>> g
Game('filipino', seed=7, dice=(3, 2))
>>> g.phase, g.to_act, g.wall_remaining
(<Phase.TURN: 'turn'>, Seat.EAST, 79)
>>> a = g.legal_actions()[0]
>>> before = g.state_key()
>>> events = g.push(a)
>>> _ = g.pop()
>>> g.state_key() == before
True
>>> g.push(Discard(Seat.SOUTH, Tile.M1))
Traceback (most recent call last):
...
engine.game.game.IllegalActionError: S discard 1m: it is East's turn, not South's
"""

from __future__ import annotations

import pickle
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from typing import Any

from engine.game.actions import (
    CLAIM_PRIORITY,
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
    Kang,
    Pung,
    Win,
)
from engine.game.events import Event, payments_text, tile_name
from engine.game.payout import InstantResult, Scorer, WinResult, scorer_for
from engine.game.rules import GameRules, rules_for
from engine.game.shape import is_complete, is_seven_pairs_plus_set, waits
from engine.hand import Hand, Meld, MeldKind
from engine.scoring.singapore import honours_worth_tai, shown_tai
from engine.seats import Seat
from engine.tiles import NUM_PLAYABLE, Tile, format_tiles

__all__ = ["Game", "Phase", "Outcome", "IllegalActionError", "resolve_claims", "Mode"]

Money = Fraction
_DRAGONS = (Tile.WHITE, Tile.GREEN, Tile.RED)
_WINDS = (Tile.EAST, Tile.SOUTH, Tile.WEST, Tile.NORTH)
_ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
# 003's "Green Joker Set" (the red set is Hoa, Hỷ, Nguyên, Hợp): three thrown win NFNL at once.
_GREEN_SET = frozenset({Tile.THUNG, Tile.SOOC, Tile.THAY, Tile.TONG})
_GREEN_JOKERS = {Tile.THUNG: range(9, 18), Tile.SOOC: range(18, 27), Tile.THAY: range(0, 9),
                 Tile.TONG: range(0, 34), Tile.HOA: range(0, 0), Tile.HY: range(27, 31),
                 Tile.NGUYEN: range(31, 34), Tile.HOP: range(0, 27)}


class IllegalActionError(ValueError):
    """An action the rules forbid now. The message quotes the action and names the rule."""


class Phase(Enum):
    TURN = "turn"  # ``to_act`` holds a drawn (or claimed) tile and must discard or declare
    CLAIM = "claim"  # a discard lies on the table: others may claim it, else the next seat draws
    OVER = "over"


class Mode(Enum):
    FULL = "full"  # the engine holds the wall and every hand (simulation, tests)
    OBSERVED = "observed"  # only what the table shows; concealed hands are unknown counts


@dataclass(frozen=True)
class Outcome:
    """How the hand ended: a win (with its score) or an exhaustive draw."""

    kind: str  # "win" or "draw"
    winner: Seat | None = None
    discarder: Seat | None = None
    self_drawn: bool = False
    win_tile: Tile | None = None
    result: WinResult | None = None
    payments: dict[Seat, Money] = field(default_factory=dict)
    hand: Hand | None = None
    situation: dict[str, Any] = field(default_factory=dict)  # what the scorer was told
    # a win that is not a hand, priced as the ruleset's instant payout ``situation["ambition"]``
    # for ``situation["tiles"]``: "thrown green jokers" (Vietnam, 003), "eight flowers" (Singapore, 004)
    special: str = ""

    def __str__(self) -> str:
        if self.kind == "draw" or self.winner is None:
            return "exhaustive draw"
        if self.special:
            return f"{self.winner} wins by {self.special}"
        how = "self-drawn" if self.self_drawn else f"on {self.discarder}'s discard"
        return f"{self.winner} wins {how}"


class _State:
    """Everything that changes during a hand; copied whole for undo."""

    __slots__ = ("hands", "hidden", "melds", "bonus", "discards", "pool", "head", "tail", "phase",
                 "to_act", "last_discard", "last_drawn", "source", "deal_open", "draws",
                 "claims", "outcome", "events", "used_instants", "rob", "nfnl", "nfnl_pure", "tai_fed", "at_deal")

    def __init__(self) -> None:
        self.hands: list[list[int]] = [[0] * 64 for _ in range(4)]
        self.hidden = [0, 0, 0, 0]
        self.melds: list[list[Meld]] = [[], [], [], []]
        self.bonus: list[list[Tile]] = [[], [], [], []]
        self.discards: list[list[Tile]] = [[], [], [], []]  # every discard each seat made
        self.pool: list[tuple[Seat, Tile]] = []  # discards still on the table (not claimed)
        self.head = 0
        self.tail = 0
        self.phase = Phase.TURN
        self.to_act = Seat.EAST
        self.last_discard: tuple[Seat, Tile] | None = None
        self.last_drawn: Tile | None = None
        self.source = "deal"  # how to_act got its tile: deal, draw, replacement, claim
        self.deal_open = True  # the deal's flower replacement round is still going
        self.draws = [0, 0, 0, 0]
        self.claims = 0
        self.outcome: Outcome | None = None
        self.events: list[Event] = []
        self.used_instants: set[tuple[int, str]] = set()
        self.rob = False  # the pending "discard" is a tile just added to a pung (robbable)
        # Vietnam (003): each seat may still form No-Flowers-No-Leaves (no flower dealt, no
        # flower or joker laid aside); "pure" if it was also dealt no joker
        self.nfnl = [False] * 4
        self.nfnl_pure = [False] * 4
        # Singapore (004): the seat whose honour made a meld for a hand already showing 4 tai
        self.tai_fed: list[Seat | None] = [None] * 4
        self.at_deal = [0, 0, 0, 0]  # how many of each seat's bonus tiles were laid out during the deal

    def copy(self) -> _State:
        s = _State.__new__(_State)
        s.hands = [h[:] for h in self.hands]
        s.hidden = self.hidden[:]
        s.melds = [m[:] for m in self.melds]
        s.bonus = [b[:] for b in self.bonus]
        s.discards = [d[:] for d in self.discards]
        s.pool = self.pool[:]
        s.head, s.tail, s.phase, s.to_act = self.head, self.tail, self.phase, self.to_act
        s.last_discard, s.last_drawn, s.source = self.last_discard, self.last_drawn, self.source
        s.deal_open, s.draws, s.claims = self.deal_open, self.draws[:], self.claims
        s.outcome, s.events, s.used_instants = self.outcome, self.events[:], set(self.used_instants)
        s.rob = self.rob
        s.nfnl, s.nfnl_pure = self.nfnl[:], self.nfnl_pure[:]
        s.tai_fed = self.tai_fed[:]
        s.at_deal = self.at_deal[:]
        return s


def _markers(jai_alai: Sequence[int] | None) -> tuple[int, int, int, int]:
    """The jai alái markers each seat holds (E, S, W, N), checked; none: (0, 0, 0, 0).

    >>> _markers([1, 0, 2, 0])
    (1, 0, 2, 0)
    >>> _markers([1, 2])
    Traceback (most recent call last):
    ValueError: jai_alai=[1, 2]: give four whole numbers of markers (E, S, W, N)
    """
    markers = tuple(jai_alai) if jai_alai is not None else (0, 0, 0, 0)
    if len(markers) != 4 or any(isinstance(m, bool) or not isinstance(m, int) or m < 0 for m in markers):
        raise ValueError(f"jai_alai={jai_alai!r}: give four whole numbers of markers (E, S, W, N)")
    return (markers[0], markers[1], markers[2], markers[3])


def _fed_a_meld(seat: Seat, melds: Sequence[Meld], full_flush: bool, all_honours: bool) -> Seat | None:
    """004's bao for a meld: the seat whose discard made a meld for a hand already showing three
    melds of its suit (the win a Full Flush) or three honour pungs (the win All Honours).

    >>> p = lambda t, frm=None: Meld(MeldKind.PUNG, (Tile.parse(t),) * 3, Tile.parse(t), frm)
    >>> four = [p("1p", 0), p("4p", 0), p("7p", 0), p("9p", 3)]
    >>> _fed_a_meld(Seat.SOUTH, four, True, False), _fed_a_meld(Seat.SOUTH, four, False, False)
    (Seat.NORTH, None)
    """
    for i, meld in enumerate(melds):
        tile, frm = meld.called, meld.from_seat
        if tile is None or frm is None or frm == seat:
            continue
        before = melds[:i]
        same_suit = sum(1 for m in before if m.base.is_suited and tile.is_suited and m.base.suit == tile.suit)
        honour_pungs = sum(1 for m in before if m.base.is_honor and m.kind is not MeldKind.CHOW)
        if full_flush and same_suit >= 3 or all_honours and tile.is_honor and honour_pungs >= 3:
            return Seat(frm)
    return None


def _fail(action: Action, why: str) -> IllegalActionError:
    return IllegalActionError(f"{action}: {why}")


def _liable_pays(result: WinResult, winner: Seat, liable: Seat | None) -> dict[Seat, Money]:
    """The win's payments, with a ``liable`` seat other than the ``winner`` paying all the
    winner gets (pay-for-all) where the scorer did not already charge it so.

    >>> shared = WinResult(Money(6), "$", (), {Seat.EAST: Money(6), Seat.SOUTH: Money(-2),
    ...                                        Seat.WEST: Money(-2), Seat.NORTH: Money(-2)})
    >>> {seat.name: int(paid) for seat, paid in _liable_pays(shared, Seat.EAST, Seat.NORTH).items()}
    {'EAST': 6, 'SOUTH': 0, 'WEST': 0, 'NORTH': -6}
    >>> _liable_pays(shared, Seat.EAST, None) == shared.payments
    True
    """
    payments = dict(result.payments)
    won = payments.get(winner, Money(0))
    if liable is not None and liable is not winner and won and payments.get(liable, 0) != -won:
        payments = {p: Money(0) for p in Seat}
        payments[liable] = -result.payments[winner]
        payments[winner] = result.payments[winner]
    return payments


class Game:
    """One hand of a variant. Build with a variant name or ``GameRules``.

    Full mode (default) shuffles the set with ``seed``, rolls the dice, builds the
    wall as the documents do and deals. Observed mode (``mode="observed"``) knows
    nothing concealed: the camera or a person pushes what the table shows.
    """

    def __init__(self, rules: GameRules | str, *, seed: int | None = 0,
                 mode: Mode | str = Mode.FULL, dealer: Seat = Seat.EAST,
                 round_wind: Seat = Seat.EAST, hand_number: int = 1,
                 starting_dealer: Seat | None = None, dice: tuple[int, int] | None = None,
                 scorer: Scorer | None = None, wall: Sequence[Tile] | None = None,
                 jai_alai: Sequence[int] | None = None) -> None:
        self.rules = rules_for(rules) if isinstance(rules, str) else rules
        self.mode = Mode(mode)
        self.dealer = Seat(dealer)
        self.round_wind = Seat(round_wind)
        self.hand_number = hand_number
        self.starting_dealer = Seat(starting_dealer if starting_dealer is not None else dealer)
        self.seed = seed
        # Filipino jai alái: the markers each seat (in Seat order) held when this hand was
        # dealt; the pot runs across hands, so the next hand is built with next_jai_alai().
        self.jai_alai = _markers(jai_alai)
        self.scorer: Scorer = scorer or scorer_for(self.rules.ruleset_name, self.rules.unit,
                                                   self.rules.table_rules)
        self._set = self.rules.tile_set()
        self._copies = Counter(self._set)
        self._sets = self.rules.sets
        self._must = tuple(t for t in range(64) if self.rules.must_declare(Tile(t)))
        rng = random.Random(seed)
        rolled = (rng.randint(1, 6), rng.randint(1, 6))  # always rolled: the shuffle follows
        self.dice: tuple[int, int] = (dice[0], dice[1]) if dice is not None else rolled
        self.break_wall = self._break_wall()
        self._history: list[tuple[Action, _State]] = []
        self._s = _State()
        self._s.to_act = self.dealer
        self.wall: list[Tile] = []
        if self.mode is Mode.FULL:
            self._deal_wall(list(wall) if wall is not None else self._build_wall(rng))
        else:
            self._deal_unseen()

    def _deal_wall(self, tiles: list[Tile]) -> None:
        """Full mode: ``tiles`` become the wall, and the hands are dealt from it."""
        if Counter(tiles) != self._copies:
            raise ValueError(f"wall {format_tiles(tiles)!r} is not the {self.rules.name} set")
        s = self._s
        self.wall = tiles
        s.tail = len(tiles)
        self._deal()
        if self.rules.plays("nfnl"):
            # 003: "The initial hand must not have flowers but can contain jokers";
            # "If the player also started with no jokers, this is considered a pure NFNL hand."
            for seat in Seat:
                first_hand = self.concealed(seat)
                s.nfnl[seat] = not any(t.is_flower or t.is_royalty for t in first_hand)
                s.nfnl_pure[seat] = s.nfnl[seat] and not any(t.is_vn_joker for t in first_hand)

    def _deal_unseen(self) -> None:
        """Observed mode: each seat holds its dealt count of tiles nobody has seen."""
        s = self._s
        s.tail = len(self._set)
        dealt = sum(self.rules.deal_chunks)
        for seat in Seat:
            s.hidden[seat] = dealt + (1 if seat is self.dealer else 0)
        s.head = 4 * dealt + 1
        # the dealt hands are unseen: a seat loses NFNL when it lays a flower or joker aside,
        # and purity when it throws a joker (an NFNL hand holds none at the win, so a dealt
        # joker must be thrown: no joker thrown means none dealt)
        s.nfnl = [self.rules.plays("nfnl")] * 4
        s.nfnl_pure = s.nfnl[:]

    def __repr__(self) -> str:
        """The constructor call that deals this hand again (actions are in ``history``)."""
        args = [repr(self.rules.name)]
        if self.mode is Mode.OBSERVED:
            args.append("mode='observed'")
        else:
            args.append(f"seed={self.seed!r}")
        for name, value, default in (("dealer", self.dealer, Seat.EAST),
                                     ("round_wind", self.round_wind, Seat.EAST),
                                     ("hand_number", self.hand_number, 1),
                                     ("starting_dealer", self.starting_dealer, self.dealer)):
            if value != default:
                args.append(f"{name}={value!r}")
        if any(self.jai_alai):
            args.append(f"jai_alai={self.jai_alai!r}")
        args.append(f"dice={self.dice!r}")
        return f"Game({', '.join(args)})"

    # -- setting up -------------------------------------------------------------------
    def _break_wall(self) -> Seat:
        """Whose wall the dice break: counted on from the dealer's own, counter-clockwise;
        the Filipino taboo (001) moves on from the dealer's own wall to the next.

        >>> Game("filipino", dice=(2, 2), mode="observed").break_wall, Game("visayan", dice=(2, 2), mode="observed").break_wall
        (Seat.SOUTH, Seat.EAST)
        """
        # 001: a seven points at the wall on the dealer's left; multiples of 4 at their own.
        start = Seat((self.dealer + sum(self.dice)) % 4)
        if self.rules.taboo_own_wall and start is self.dealer:
            start = start.next
        return start

    def _build_wall(self, rng: random.Random) -> list[Tile]:
        """Shuffle, stack four walls, break them where the dice say; draw order returned.

        The segment in front of each seat counts from the dealer counter-clockwise;
        the break is ``dice`` stacks in. Filipino taboo (001): never the dealer's own wall.
        """
        tiles = self._set[:]
        rng.shuffle(tiles)
        total = sum(self.dice)
        stacks = self.rules.wall_stacks
        offsets = [2 * sum(stacks[:i]) for i in range(4)]
        start = self.break_wall
        cut = (offsets[start] + 2 * min(total, stacks[start])) % len(tiles)
        return tiles[cut:] + tiles[:cut]

    def _deal(self) -> None:
        s = self._s
        order = [Seat((self.dealer + i) % 4) for i in range(4)]
        for chunk in self.rules.deal_chunks:
            for seat in order:
                for _ in range(chunk):
                    s.hands[seat][self.wall[s.head]] += 1
                    s.head += 1
        first = self.wall[s.head]
        s.hands[self.dealer][first] += 1
        s.head += 1
        s.last_drawn = first
        s.draws[self.dealer] = 1

    # -- reading the state ---------------------------------------------------------
    @property
    def phase(self) -> Phase:
        return self._s.phase

    @property
    def to_act(self) -> Seat:
        """The seat whose turn it is (after a discard: the discarder, until someone acts)."""
        return self._s.to_act

    def actor(self) -> Seat:
        """Who must act now: during the deal's flower round, the first seat still holding
        a bonus tile; after a discard, the seat that draws next unless someone claims."""
        s = self._s
        if s.phase is Phase.CLAIM and s.last_discard is not None:
            return s.last_discard[0] if s.rob else s.last_discard[0].next
        if s.deal_open and s.source == "deal" and self.mode is Mode.FULL:
            first = self._deal_actor()
            if first is not None:
                return first
        return s.to_act

    @property
    def wall_remaining(self) -> int:
        """Tiles left in the wall, dead wall included."""
        return self._s.tail - self._s.head

    @property
    def live_remaining(self) -> int:
        """Tiles that may still be drawn in turn before the hand is an exhaustive draw."""
        return max(0, self.wall_remaining - self.rules.dead_wall)

    @property
    def last_drawn(self) -> Tile | None:
        """The tile the seat to act drew last (None if unseen or after a claim)."""
        return self._s.last_drawn

    @property
    def last_discard(self) -> tuple[Seat, Tile] | None:
        return self._s.last_discard if self._s.phase is Phase.CLAIM else None

    @property
    def robbing(self) -> bool:
        """A tile was just added to a pung: others may rob it to win, else its owner takes the gift."""
        return self._s.rob and self._s.phase is Phase.CLAIM

    @property
    def deal_open(self) -> bool:
        return self._s.deal_open

    @property
    def events(self) -> list[Event]:
        """Every announcement so far, oldest first."""
        return list(self._s.events)

    @property
    def history(self) -> list[Action]:
        return [a for a, _ in self._history]

    def outcome(self) -> Outcome | None:
        """How the hand ended, or None while it goes on."""
        return self._s.outcome

    def is_over(self) -> bool:
        return self._s.phase is Phase.OVER

    def counts(self, seat: Seat) -> list[int]:
        """The seat's known concealed tiles as a 64-long count array (a copy)."""
        return self._s.hands[seat][:]

    def concealed(self, seat: Seat) -> list[Tile]:
        h = self._s.hands[seat]
        return [Tile(t) for t in range(64) for _ in range(h[t])]

    def hidden(self, seat: Seat) -> int:
        """Concealed tiles nobody has seen (observed mode)."""
        return self._s.hidden[seat]

    def melds(self, seat: Seat) -> tuple[Meld, ...]:
        return tuple(self._s.melds[seat])

    def bonus(self, seat: Seat) -> tuple[Tile, ...]:
        return tuple(self._s.bonus[seat])

    def discards(self, seat: Seat) -> tuple[Tile, ...]:
        return tuple(self._s.discards[seat])

    def pool(self) -> tuple[tuple[Seat, Tile], ...]:
        """Discards on the table, oldest first (claimed ones have left it)."""
        return tuple(self._s.pool)

    def hand(self, seat: Seat) -> Hand:
        """The seat's hand in the engine's notation (concealed part as far as known)."""
        return Hand(tuple(self.concealed(seat)), tuple(self._s.melds[seat]), tuple(self._s.bonus[seat]))

    def sets_to_make(self, seat: Seat) -> int:
        return self._sets - len(self._s.melds[seat])

    def wall_tiles(self) -> list[Tile]:
        """Tiles still in the wall, draw end first (full mode)."""
        return self.wall[self._s.head:self._s.tail]

    def census(self) -> Counter[Tile]:
        """Every physical tile accounted for: hands, melds, bonus, discards on the table, wall."""
        s = self._s
        c: Counter[Tile] = Counter()
        for seat in Seat:
            c.update(self.concealed(seat))
            for m in s.melds[seat]:
                c.update(m.tiles)
            c.update(s.bonus[seat])
        c.update(t for _, t in s.pool)
        c.update(self.wall_tiles())
        return c

    def state_key(self) -> bytes:
        """The whole state as bytes: equal keys mean identical games (undo tests)."""
        s = self._s
        return pickle.dumps((
            s.hands, s.hidden, [[str(m) for m in ms] for ms in s.melds],
            [[(m.called, m.from_seat) for m in ms] for ms in s.melds], s.bonus, s.discards,
            s.pool, s.head, s.tail, s.phase.value, int(s.to_act), s.last_discard, s.last_drawn,
            s.source, s.deal_open, s.draws, s.claims, str(s.outcome),
            [(e.kind, e.text, sorted(e.payments.items())) for e in s.events],
            sorted(s.used_instants), s.rob, s.nfnl, s.nfnl_pure,
        ))

    def waits(self, seat: Seat) -> list[Tile]:
        """Tiles that would complete the seat's hand (full mode, or once revealed)."""
        h = self._s.hands[seat]
        return waits(h[:NUM_PLAYABLE], self.sets_to_make(seat),
                     seven_pairs=self.rules.seven_pairs and not self._s.melds[seat])

    def to_json(self) -> dict[str, Any]:
        """What the table shows (and, in full mode, every hand), for the web page."""
        s = self._s
        seats = []
        for seat in Seat:
            seats.append({
                "seat": str(seat), "concealed": format_tiles(self.concealed(seat)),
                "hidden": s.hidden[seat], "melds": [str(m) for m in s.melds[seat]],
                "bonus": format_tiles(s.bonus[seat], sort=False),
                "discards": format_tiles(s.discards[seat], sort=False),
            })
        out = s.outcome
        return {
            "variant": self.rules.name, "mode": self.mode.value, "hand_number": self.hand_number,
            "dealer": str(self.dealer), "round_wind": str(self.round_wind), "dice": list(self.dice),
            "phase": s.phase.value, "to_act": str(s.to_act), "actor": str(self.actor()),
            "deal_open": s.deal_open, "wall_remaining": self.wall_remaining,
            "last_discard": None if self.last_discard is None else
            {"seat": str(self.last_discard[0]), "tile": str(self.last_discard[1])},
            "seats": seats,
            "outcome": None if out is None else {
                "kind": out.kind, "text": str(out), "winner": None if out.winner is None else str(out.winner),
                "payments": {str(k): str(v) for k, v in sorted(out.payments.items())},
                "hand": None if out.hand is None else str(out.hand),
                "score": None if out.result is None or out.result.score is None else out.result.score.to_json(),
            },
            "events": [e.text for e in s.events],
            "history": [str(a) for a in self.history],
            "jai_alai": None if not self.rules.plays("jai_alai") else {
                "held": {str(seat): self.jai_alai[seat] for seat in Seat},
                "next": None if s.outcome is None else
                {str(seat): n for seat, n in zip(Seat, self.next_jai_alai(), strict=True)},
            },
        }

    # -- undo -------------------------------------------------------------------------
    def pop(self) -> Action:
        """Undo the last accepted action exactly; returns it."""
        if not self._history:
            raise IllegalActionError("nothing to undo: no action has been played")
        action, before = self._history.pop()
        self._s = before
        return action

    # -- the rules ----------------------------------------------------------------------
    def push(self, action: Action) -> list[Event]:
        """Apply ``action`` or raise ``IllegalActionError`` (the game is then unchanged).

        Returns the announcements the action caused.
        """
        if not isinstance(action, Action):
            raise IllegalActionError(f"{action!r} is not an action")
        try:
            seat = Seat(action.seat)
        except ValueError:
            raise IllegalActionError(f"{action!r}: unknown seat {action.seat!r}") from None
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise IllegalActionError(f"{action!r}: unknown action")
        before = self._s
        work = before.copy()
        self._s = work
        mark = len(work.events)
        try:
            if work.phase is Phase.OVER:
                raise _fail(action, f"the hand is over ({work.outcome})")
            handler(self, action, seat)
            if self.mode is Mode.OBSERVED:
                self._check_table(action)
        except BaseException:
            self._s = before
            raise
        self._history.append((action, before))
        return work.events[mark:]

    def is_legal(self, action: Action) -> bool:
        try:
            self.push(action)
        except IllegalActionError:
            return False
        self.pop()
        return True

    # helpers --------------------------------------------------------------------------
    def _say(self, kind: str, seat: Seat | None, text: str,
             payments: dict[Seat, Money] | None = None, reason: str = "") -> None:
        self._s.events.append(Event(kind, seat, text, payments or {}, reason))

    def _take(self, action: Action, seat: Seat, tile: Tile, n: int = 1) -> None:
        """Remove ``n`` copies of ``tile`` from the seat's concealed tiles (or unseen ones)."""
        s = self._s
        h = s.hands[seat]
        have = h[tile]
        if have >= n:
            h[tile] = have - n
            return
        if have + s.hidden[seat] < n:
            what = f"{n} × {tile}" if n > 1 else str(tile)
            raise _fail(action, f"{seat} does not hold {what} (holds {format_tiles(self.concealed(seat))})")
        h[tile] = 0
        s.hidden[seat] -= n - have
        self._check_copies(action, tile)

    def _holds(self, seat: Seat, tile: Tile, n: int = 1) -> bool:
        s = self._s
        return s.hands[seat][tile] + s.hidden[seat] >= n

    def _check_table(self, action: Action) -> None:
        """Observed mode: the table cannot show more copies of a tile than the set has."""
        for tile, seen in self.census().items():
            if seen > self._copies.get(tile, 0):
                raise _fail(action, f"the {self.rules.name} set has {self._copies.get(tile, 0)} × {tile},"
                                    f" the table would show {seen}")

    def _check_copies(self, action: Action, tile: Tile) -> None:
        """Observed mode: the table cannot show more copies of a tile than the set has."""
        if self.mode is Mode.FULL:
            return
        seen = self.census()[tile]
        if tile in self._copies and seen > self._copies[tile] or tile not in self._copies:
            raise _fail(action, f"the {self.rules.name} set has {self._copies.get(tile, 0)} × {tile}, "
                                f"the table would show {seen}")

    def _turn_check(self, action: Action, seat: Seat) -> None:
        s = self._s
        if s.phase is not Phase.TURN:
            d = s.last_discard
            raise _fail(action, f"{d[0]} just discarded {d[1]}: claim it or let {d[0].next} draw"
                        if d else "it is not a turn")
        if seat is not s.to_act:
            raise _fail(action, f"it is {s.to_act}'s turn, not {seat}'s")

    def _close_deal(self, action: Action, *, everyone_replaced: bool = True) -> None:
        """The deal's flower round is over: pay the ambitions counted at the deal (full mode:
        once every seat has replaced its flowers, unless the hand ends before they could)."""
        s = self._s
        if not s.deal_open:
            return
        waiting = self._deal_actor() if self.mode is Mode.FULL and everyone_replaced else None
        if waiting is not None:
            raise _fail(action, f"{waiting} must first replace their flowers (deal in seat order)")
        s.deal_open = False
        for kind in self.rules.instant_on_deal:
            for seat in self._order():
                if kind == "no flowers" and not s.bonus[seat]:
                    self._instant(kind, seat, (), f"{seat} has no flowers")
        for seat in self._order():
            self._bonus_instants(seat, on_open=True)

    def _order(self) -> list[Seat]:
        return [Seat((self.dealer + i) % 4) for i in range(4)]

    def _instant(self, kind: str, seat: Seat, tiles: tuple[Tile, ...], text: str,
                 **situation: Any) -> None:
        """Announce an ambition and, when the table pays them, its instant payout."""
        s = self._s
        if not self.rules.instant_payouts:
            self._say("ambition", seat, text)
            return
        if self.rules.doubles and self.dice[0] == self.dice[1]:
            situation["dice_doubles"] = 1
        try:
            paid: InstantResult | None = self.scorer.instant(
                kind, seat, dealer=self.dealer, tiles=tiles, **situation)
        except ValueError:
            paid = None  # the ruleset does not pay this one here: announce only
        if paid is None or not any(paid.payments.values()):
            self._say("ambition", seat, text)
            return
        s.used_instants.add((int(seat), kind))
        self._say("instant", seat, f"{text} — {payments_text(paid.payments, self.scorer.currency)}",
                  dict(paid.payments), f"{paid.name}")

    def _bonus_instants(self, seat: Seat, *, on_open: bool) -> None:
        """Ambitions of shown bonus tiles (Singapore: bitten, flower bitten, four flowers of a
        colour, all animals), as the ruleset defines and prices them; each paid once."""
        used = self._s.used_instants
        suffix = " on open" if on_open else ""
        for kind, tiles in self.scorer.bonus_instants(tuple(self._s.bonus[seat]), seat, self.dealer):
            key = f"{kind} {format_tiles(tiles)}"
            if (int(seat), key) in used:
                continue
            used.add((int(seat), key))
            situation = {"at_deal": True} if on_open else {}
            self._instant(kind, seat, tiles, f"{seat}: {kind}{suffix} ({format_tiles(tiles)})", **situation)

    def _draw_back(self, action: Action, seat: Seat, why: str) -> bool:
        """Give ``seat`` a replacement (gift) from the back of the wall; False if none left."""
        s = self._s
        if s.tail <= s.head:
            self._end_draw(f"no tile left for {seat}'s {why}")
            return False
        s.tail -= 1
        if self.mode is Mode.FULL:
            tile = self.wall[s.tail]
            s.hands[seat][tile] += 1
            s.last_drawn = tile
        else:
            s.hidden[seat] += 1
            s.last_drawn = None
        s.source = "replacement"
        s.draws[seat] += 1
        return True

    def _end_draw(self, why: str) -> None:
        s = self._s
        s.phase = Phase.OVER
        s.outcome = Outcome("draw")
        self._say("draw_game", None, f"Exhaustive draw: {why}")

    # -- actions in turn ------------------------------------------------------------------
    def _do_draw(self, action: Draw, seat: Seat) -> None:
        s = self._s
        if s.phase is not Phase.CLAIM or s.last_discard is None:
            raise _fail(action, f"{s.to_act} must discard before anyone draws")
        if s.rob:
            self._close_rob(action, seat)
            return
        nxt = s.last_discard[0].next
        if seat is not nxt:
            raise _fail(action, f"after {s.last_discard[0]}'s discard it is {nxt} who draws")
        s.phase = Phase.TURN
        s.to_act = seat
        s.last_discard = None
        if s.tail - s.head <= self.rules.dead_wall:
            self._end_draw("the wall is exhausted")
            return
        if self.mode is Mode.FULL:
            tile = self.wall[s.head]
            if action.tile is not None and action.tile != tile:
                raise _fail(action, f"the wall's next tile is not {action.tile}")
            s.hands[seat][tile] += 1
            s.last_drawn = tile
        elif action.tile is not None:
            s.hands[seat][action.tile] += 1
            s.last_drawn = action.tile
            self._check_copies(action, action.tile)
        else:
            s.hidden[seat] += 1
            s.last_drawn = None
        s.head += 1
        s.source = "draw"
        s.draws[seat] += 1
        self._say("draw", seat, f"{seat} draws")

    def _do_draw_game(self, action: DrawGame, seat: Seat) -> None:
        """Observed mode: the table says the wall is empty and nobody claims the last
        discard; ``seat`` is the one due to draw. Refused while the referee still counts
        more than ``draw_game_slack`` tiles to draw (docs/rules/referee.md)."""
        s = self._s
        if self.mode is Mode.FULL:
            raise _fail(action, "the referee holds the wall: the hand is drawn when the wall runs out")
        d = s.last_discard
        if s.phase is not Phase.CLAIM or d is None:
            raise _fail(action, f"{s.to_act} must discard first: a hand is drawn when nobody can draw "
                                "after the last discard")
        if s.rob:
            raise _fail(action, f"{d[0]} added {d[1]} to a pung: {d[0]} takes the gift, unless someone robs it")
        if seat is not d[0].next:
            raise _fail(action, f"after {d[0]}'s discard it is {d[0].next} who would draw, not {seat}")
        left, slack = self.live_remaining, self.rules.draw_game_slack
        if left > slack:
            raise _fail(action, f"the referee counts {left} tiles still to draw (a draw game needs "
                                f"{slack} or fewer, table option draw_game_slack)")
        s.last_discard = None
        self._end_draw(f"{seat} cannot draw, the wall is empty ({left} left by the referee's count)")

    def _do_discard(self, action: Discard, seat: Seat) -> None:
        s = self._s
        self._turn_check(action, seat)
        tile = Tile(action.tile)
        if not self.rules.may_discard(tile):
            raise _fail(action, f"{tile_name(tile)} is a bonus tile: declare it, it cannot be discarded")
        if self.mode is Mode.FULL:
            held = [Tile(t) for t in self._must if s.hands[seat][t]]
            if held:
                raise _fail(action, f"{seat} must first declare {format_tiles(held)} and take replacements")
        self._close_deal(action)
        self._take(action, seat, tile)
        if tile.is_vn_joker and self.mode is Mode.OBSERVED:
            s.nfnl_pure[seat] = False  # dealt or drawn, the referee cannot tell: never overpay
        s.discards[seat].append(tile)
        s.pool.append((seat, tile))
        s.last_discard = (seat, tile)
        s.phase = Phase.CLAIM
        s.last_drawn = None
        self._say("discard", seat, f"{seat} discards {tile_name(tile)}")
        if self.rules.announce_waits and self.mode is Mode.FULL:
            ready = self.waits(seat)
            if ready:
                self._say("ready", seat, f"{seat} is ready — waits on {', '.join(map(str, ready))}")

    def _do_flower(self, action: DeclareFlower, seat: Seat) -> None:
        s = self._s
        tile = Tile(action.tile)
        if not self.rules.may_declare(tile):
            raise _fail(action, f"{tile} is not a bonus tile in {self.rules.name} mahjong")
        if s.deal_open and s.phase is Phase.TURN and s.source == "deal":
            first = self._deal_actor()
            if self.mode is Mode.FULL and first is not None and seat is not first:
                raise _fail(action, f"flowers are replaced in seat order from the dealer: {first} first")
        else:
            self._turn_check(action, seat)
        self._take(action, seat, tile)
        s.bonus[seat].append(tile)
        self._check_copies(action, tile)
        s.nfnl[seat] = False  # 003: NFNL has no flower and no joker "outside the hand (put down for points)"
        self._say("flower", seat, f"{seat} declares {tile_name(tile)}")
        if self._eight_flowers_win(action, seat, tile):
            return
        in_deal = s.deal_open and s.source == "deal"
        if in_deal:
            s.at_deal[seat] += 1
        dealer_drawn = s.last_drawn
        if not self._draw_back(action, seat, "flower replacement"):
            return
        if in_deal:
            s.source = "deal"  # replacements during the deal are not a turn's draw
            if seat is not self.dealer:
                s.draws[seat] -= 1
                s.last_drawn = dealer_drawn
        if self.rules.name == "filipino" and len(s.bonus[seat]) == 13:
            self._instant("thirteen flowers", seat, tuple(s.bonus[seat]), f"{seat}: thirteen flowers")
        if not s.deal_open:
            self._bonus_instants(seat, on_open=False)

    def _deal_actor(self) -> Seat | None:
        """During the deal: the first seat (from the dealer) still holding a bonus tile."""
        s = self._s
        for seat in self._order():
            h = s.hands[seat]
            if any(h[t] for t in self._must):
                return seat
        return None

    def _do_concealed_kang(self, action: ConcealedKang, seat: Seat) -> None:
        s = self._s
        self._turn_check(action, seat)
        if s.source == "claim":
            raise _fail(action, "after claiming a discard you must discard, not declare a secret")
        tile = Tile(action.tile)
        if not tile.is_playable or self.rules.is_bonus(tile):
            raise _fail(action, f"{tile} cannot form a kang")
        self._close_deal(action)
        self._take(action, seat, tile, 4)
        s.melds[seat].append(Meld(MeldKind.CONCEALED_KANG, (tile,) * 4))
        self._check_copies(action, tile)
        self._instant("concealed kang", seat, (tile,) * 4, f"{seat} declares a secret (concealed kang)")
        self._draw_back(action, seat, "gift")

    def _do_added_kang(self, action: AddedKang, seat: Seat) -> None:
        s = self._s
        self._turn_check(action, seat)
        tile = Tile(action.tile)
        if s.source not in ("draw", "replacement", "deal"):
            raise _fail(action, "sagása needs the fourth tile drawn from the wall this turn")
        if self.mode is Mode.FULL and s.last_drawn != tile:
            raise _fail(action, f"sagása only with the tile just drawn ({s.last_drawn}), not {tile}")
        melds = s.melds[seat]
        idx = next((i for i, m in enumerate(melds) if m.kind is MeldKind.PUNG and m.base == tile), None)
        if idx is None:
            raise _fail(action, f"{seat} has no exposed pung of {tile} to extend")
        self._close_deal(action)
        self._take(action, seat, tile)
        old = melds[idx]
        melds[idx] = Meld(MeldKind.ADDED_KANG, (tile,) * 4, old.called, old.from_seat)
        self._check_copies(action, tile)
        if self.rules.robbing_kang:
            s.phase = Phase.CLAIM
            s.last_discard = (seat, tile)
            s.rob = True
            self._say("added_kang", seat, f"{seat} adds {tile_name(tile)} to their pung — a win may rob it")
            return
        self._instant("added kang", seat, (tile,) * 4, f"{seat} declares sagása (added kang) of {tile_name(tile)}")
        self._draw_back(action, seat, "gift")

    def _close_rob(self, action: Draw, seat: Seat) -> None:
        """Nobody robbed the added kang: it stands, is paid, and its owner takes the gift."""
        s = self._s
        assert s.last_discard is not None
        owner, tile = s.last_discard
        if seat is not owner:
            raise _fail(action, f"{owner} added {tile} to a pung: {owner} takes the gift, unless someone robs it")
        s.phase = Phase.TURN
        s.to_act = owner
        s.last_discard = None
        s.rob = False
        self._instant("added kang", seat, (tile,) * 4, f"{seat} declares an added kang of {tile_name(tile)}")
        self._draw_back(action, seat, "gift")

    def _special_set(self, action: DeclareBeauty | DeclareNews, seat: Seat) -> None:
        s = self._s
        beauty = isinstance(action, DeclareBeauty)
        name = "Beauty" if beauty else "NEWS"
        tiles = _DRAGONS if beauty else _WINDS
        if not self.rules.special_sets:
            raise _fail(action, f"{name} is a Visayan ambition, not played in {self.rules.name} mahjong")
        called: tuple[Tile, int] | tuple[()] = ()  # the meld keeps the discard it took, as a chow does
        if action.called:
            d = s.last_discard
            if s.phase is not Phase.CLAIM or d is None or s.rob:
                raise _fail(action, f"no discard to complete {name} with")
            if seat is not d[0].next:
                raise _fail(action, f"{name} is taken in turn like a chow: only {d[0].next} may")
            if d[1] not in tiles:
                raise _fail(action, f"{d[1]} is not part of {name}")
            if sum(len(x) for x in s.discards) > 4:
                raise _fail(action, f"{name} may only be formed in the first round")
            need = [t for t in tiles if t != d[1]]
            for t in need:
                if not self._holds(seat, t):
                    raise _fail(action, f"{seat} lacks {t} for {name}")
            for t in need:
                self._take(action, seat, t)
            called = (d[1], int(d[0]))
            s.pool.pop()
            s.claims += 1
            s.phase = Phase.TURN
            s.to_act = seat
            s.last_discard = None
            s.source = "claim"
        else:
            self._turn_check(action, seat)
            if s.discards[seat]:
                raise _fail(action, f"{name} may only be declared in the first round")
            for t in tiles:
                if not self._holds(seat, t):
                    raise _fail(action, f"{seat} lacks {t} for {name}")
            self._close_deal(action)
            for t in tiles:
                self._take(action, seat, t)
        s.melds[seat].append(Meld(MeldKind.BEAUTY if beauty else MeldKind.NEWS, tiles, *called))
        self._instant(name.lower(), seat, tiles, f"{seat} declares {name}", first_round=True)
        if not beauty:
            self._draw_back(action, seat, "gift")

    # -- claims ------------------------------------------------------------------------
    def _claim_check(self, action: Action, seat: Seat) -> tuple[Seat, Tile]:
        s = self._s
        d = s.last_discard
        if s.phase is not Phase.CLAIM or d is None:
            raise _fail(action, "there is no discard to claim")
        if seat is d[0]:
            raise _fail(action, f"{seat} cannot claim their own discard")
        if s.rob:
            raise _fail(action, f"{d[1]} was added to {d[0]}'s pung: only a win may rob it")
        if not d[1].is_playable or self.rules.is_bonus(d[1]):
            raise _fail(action, f"{d[1]} cannot be claimed into a set")
        return d

    def _after_claim(self, seat: Seat, from_seat: Seat) -> None:
        s = self._s
        meld = s.melds[seat][-1]
        if s.tai_fed[seat] is None and meld.called is not None and self._shows_four_tai(seat, meld.called, s.melds[seat][:-1]):
            s.tai_fed[seat] = from_seat  # 004: "claims the discard to make a meld, and wins with 5 or more tai later"
        s.pool.pop()
        s.claims += 1
        s.phase = Phase.TURN
        s.to_act = seat
        s.last_discard = None
        s.source = "claim"
        s.last_drawn = None

    def _do_chow(self, action: Chow, seat: Seat) -> None:
        frm, tile = self._claim_check(action, seat)
        if seat is not frm.next:
            raise _fail(action, f"chow only from the previous player: only {frm.next} may chow {frm}'s discard"
                        " (a chow that wins is a win)")
        low = Tile(action.low)
        if not (low.is_suited and low.number <= 7 and low <= tile <= low + 2):
            raise _fail(action, f"{format_tiles([low, Tile(low + 1), Tile(low + 2)])} with {tile} is not a chow")
        own = [Tile(t) for t in (low, low + 1, low + 2) if t != tile]
        for t in own:
            if not self._holds(seat, t):
                raise _fail(action, f"{seat} does not hold {t} for the chow")
        for t in own:
            self._take(action, seat, t)
        self._s.melds[seat].append(Meld(MeldKind.CHOW, (low, Tile(low + 1), Tile(low + 2)), tile, int(frm)))
        self._after_claim(seat, frm)
        self._say("chow", seat, f"{seat}: chow {format_tiles(self._s.melds[seat][-1].tiles)} ({tile_name(tile)} from {frm})")

    def _do_pung(self, action: Pung, seat: Seat) -> None:
        frm, tile = self._claim_check(action, seat)
        if not self._holds(seat, tile, 2):
            raise _fail(action, f"{seat} needs two {tile} to pung")
        self._take(action, seat, tile, 2)
        self._s.melds[seat].append(Meld(MeldKind.PUNG, (tile,) * 3, tile, int(frm)))
        self._after_claim(seat, frm)
        self._say("pung", seat, f"{seat}: pung of {tile_name(tile)}")

    def _do_kang(self, action: Kang, seat: Seat) -> None:
        frm, tile = self._claim_check(action, seat)
        if not self._holds(seat, tile, 3):
            raise _fail(action, f"{seat} needs three {tile} to kang")
        liable = self._kang_liable(frm, tile)
        self._take(action, seat, tile, 3)
        self._s.melds[seat].append(Meld(MeldKind.KANG, (tile,) * 4, tile, int(frm)))
        self._after_claim(seat, frm)
        self._say("kang", seat, f"{seat}: kang of {tile_name(tile)}")
        self._instant("open kang", seat, (tile,) * 4, f"{seat} declares a kang",
                      **({"liable": liable} if liable is not None else {}))
        self._draw_back(action, seat, "gift")

    # -- winning -------------------------------------------------------------------------
    def _do_win(self, action: Win, seat: Seat) -> None:
        s = self._s
        if s.phase is Phase.CLAIM:
            frm, tile = s.last_discard or (seat, Tile.BACK)
            if seat is frm:
                if self.rules.plays("nfnl") and not s.rob:
                    self._green_joker_win(action, seat)
                    return
                raise _fail(action, f"{seat} cannot win on their own discard")
            self._win(action, seat, tile, frm)
        else:
            self._turn_check(action, seat)
            if s.source == "claim":
                raise _fail(action, "a hand completed by a claim wins by claiming the discard, not after it")
            drawn = s.last_drawn
            if drawn is None and action.revealed:
                drawn = action.revealed[-1]  # observed: the unseen draw is shown last
            self._win(action, seat, drawn, None)

    def _win(self, action: Win, seat: Seat, tile: Tile | None, frm: Seat | None) -> None:
        tong, scoped, nfnl_thrower = self._thrown_bonus(tile, frm)
        thrown = tong and not scoped
        s = self._s
        if frm is not None and tile is not None and not tong and (not tile.is_playable or self.rules.is_bonus(tile)):
            raise _fail(action, f"nobody wins on {tile_name(tile)}")
        if self.rules.locked_discard and frm is not None and tile in s.discards[seat]:
            raise _fail(action, f"locked discard: {seat} discarded {tile} before and may only win on it self-drawn")
        self._reveal(action, seat, tile, frm)
        counts, win_tile = self._winning_counts(action, seat, tile, frm, tong, scoped)
        nfnl = not tong and self._nfnl_hand(seat, counts, win_tile)
        complete = self._complete(seat, counts)
        if not complete and not nfnl:
            raise _fail(action, f"{format_tiles(Tile(t) for t in range(64) for _ in range(counts[t]))}"
                        f" with {len(s.melds[seat])} meld(s) is not a winning hand")
        self._close_deal(action)
        hand = Hand(tuple(Tile(t) for t in range(64) for _ in range(counts[t])), tuple(s.melds[seat]),
                    tuple(s.bonus[seat]))
        liable = frm if thrown else self._liable(seat, win_tile, frm, hand)
        situation = self._win_situation(seat, frm, liable, thrown, nfnl_thrower)
        readings = [situation] if complete else []
        if nfnl:  # 003: "The hand does not have to be valid"; a valid one is scored both ways
            readings.append({**situation, "nfnl": True, "nfnl_pure": s.nfnl_pure[seat]})
        result, situation = self._best_reading(action, hand, win_tile, seat, frm, readings)
        if liable is None and result.value >= 5 and (liable := self._fed_shown_tai(seat, frm)) is not None:
            readings = [{**r, "liable": liable} for r in readings]  # the thrower pays the scorer's way
            result, situation = self._best_reading(action, hand, win_tile, seat, frm, readings)
        payments = _liable_pays(result, seat, liable)
        if frm is not None and tile is not None:
            self._take_claimed(seat, tile, frm)
        s.phase = Phase.OVER
        s.last_discard = None
        s.outcome = Outcome("win", seat, frm, frm is None, win_tile, result, payments, hand, situation)
        self._announce_win(seat, tile, frm, result, payments, liable)
        self._jai_alai(seat, result)

    def _thrown_bonus(self, tile: Tile | None, frm: Seat | None) -> tuple[bool, bool, bool]:
        """Whether a claimed ``tile`` is a thrown bonus tile won on as Tổng; whether it counts
        only within its joker's scope; and whether its thrower plays No Flowers, No Leaves."""
        tong = frm is not None and tile is not None and self.rules.discard_bonus_as_tong and (
            tile.is_flower or tile.is_vn_joker or tile.is_royalty)
        # 003: a thrown flower is a Tổng for any ready hand and its thrower pays for everyone; a
        # thrown joker is one "ONLY if the discarder is forming a No Flowers, No Leaves (NFNL)
        # hand" — otherwise it "can be called ... if it matches the suit": only within its scope.
        nfnl_thrower = bool(tong and frm is not None and tile is not None and tile.is_vn_joker
                            and self._s.nfnl[frm])
        scoped = bool(tong and tile is not None and tile.is_vn_joker and not nfnl_thrower)
        return bool(tong), scoped, nfnl_thrower

    def _reveal(self, action: Win, seat: Seat, tile: Tile | None, frm: Seat | None) -> None:
        """Check the concealed tiles ``action`` shows at the win against what ``seat`` is known
        to hold (plus a claimed ``tile``); observed, the unseen ones become known."""
        s = self._s
        h = s.hands[seat]
        if action.revealed is None:
            if s.hidden[seat]:
                raise _fail(action, f"show {seat}'s concealed tiles: the referee has not seen them")
            return
        shown = Counter(action.revealed)
        known = Counter({Tile(t): n for t, n in enumerate(h) if n})
        if frm is not None and tile is not None:
            known[tile] += 1
        extra = shown - known
        if any(n for n in (known - shown).values()):
            raise _fail(action, f"{format_tiles(action.revealed)} leaves out tiles {seat} is known to hold")
        if sum(extra.values()) != s.hidden[seat] or len(action.revealed) != sum(known.values()) + s.hidden[seat]:
            held = sum(h) + s.hidden[seat]
            plus = f" + the claimed {tile}" if frm is not None else ""
            raise _fail(action, f"{seat} holds {held} concealed tiles{plus}, {len(action.revealed)} shown")
        if self.mode is Mode.OBSERVED:
            for t, n in extra.items():
                h[t] += n
            s.hidden[seat] = 0
            for t in extra:
                self._check_copies(action, t)

    def _winning_counts(self, action: Win, seat: Seat, tile: Tile | None, frm: Seat | None,
                        tong: bool, scoped: bool) -> tuple[list[int], Tile]:
        """``seat``'s concealed counts with the winning tile, and that tile: a thrown bonus
        tile won on as Tổng stands for the first tile the hand waits on (within its scope)."""
        s = self._s
        counts = s.hands[seat][:]
        if tile is not None and frm is not None and not tong:
            counts[tile] += 1
        win_tile = tile
        if tong:
            choices = waits(counts[:NUM_PLAYABLE], self.sets_to_make(seat),
                            seven_pairs=self.rules.seven_pairs and not s.melds[seat])
            if scoped:
                assert tile is not None
                choices = [c for c in choices if int(c) in _GREEN_JOKERS[tile]]
                if not choices:
                    raise _fail(action, f"{seat} is not ready for what a discarded {tile_name(tile)} may stand"
                                        " for (it counts as Tổng only when thrown by a No-Flowers-No-Leaves player)")
            if not choices:
                raise _fail(action, f"{seat} is not ready: a discarded {tile_name(tile)} counts as Tổng only for a ready hand")  # type: ignore[arg-type]
            win_tile = choices[0]
            counts[win_tile] += 1
        if win_tile is None:
            raise _fail(action, "the winning tile is unknown: show it in the revealed tiles")
        return counts, win_tile

    def _win_situation(self, seat: Seat, frm: Seat | None, liable: Seat | None, thrown: bool,
                       nfnl_thrower: bool) -> dict[str, Any]:
        """What the scorer is told about how ``seat`` won (beside the hand itself)."""
        s = self._s
        situation: dict[str, Any] = {
            "turn": s.draws[seat], "discards_before_win": len(s.discards[seat]),
            "kang_replacement": frm is None and s.source == "replacement",
            "last_tile": self.live_remaining == 0, "first_round": s.claims == 0 and sum(map(len, s.discards)) < 4,
            "dice_doubles": 1 if self.rules.doubles and self.dice[0] == self.dice[1] else 0,
            "liable": liable, "robbing_kang": s.rob and frm is not None,
        }
        early = tuple(t for t in s.bonus[seat][:s.at_deal[seat]] if t.is_vn_joker)
        if early:  # 003: a joker laid out "before the game starts" is worth more than one laid out later
            situation["exposed_at_deal"] = early
        if thrown:  # the scorer adds 003's Thrown Flower Mủn and has the thrower pay it all
            situation["thrown_flower"] = True
            if nfnl_thrower:
                situation["discarder_nfnl"] = True
        if self.rules.plays("jai_alai"):
            situation["jai_alai"] = self.jai_alai[seat]  # markers held before this win
        return situation

    def _best_reading(self, action: Win, hand: Hand, win_tile: Tile, seat: Seat, frm: Seat | None,
                      readings: list[dict[str, Any]]) -> tuple[WinResult, dict[str, Any]]:
        """The score of the reading of the win (``readings``) that pays ``seat`` most, and
        that reading; a win no reading scores is refused with the scorer's reason."""
        best: tuple[WinResult, dict[str, Any]] | None = None
        problem: ValueError | None = None
        for reading in readings:
            try:
                scored = self.scorer.score(hand, win_tile=win_tile, winner=seat, self_drawn=frm is None,
                                           discarder=frm, round_wind=self.round_wind, dealer=self.dealer,
                                           **reading)
            except ValueError as exc:
                problem = exc
                continue
            # the winner names the reading that pays most (as every ruleset's scorer does)
            if best is None or scored.payments.get(seat, Money(0)) > best[0].payments.get(seat, Money(0)):
                best = (scored, reading)
        if best is None:
            raise _fail(action, f"not a valid win: {problem}") from None
        return best

    def _take_claimed(self, seat: Seat, tile: Tile, frm: Seat) -> None:
        """The claimed discard (or the added tile robbed from ``frm``'s kang) joins ``seat``'s
        shown hand."""
        s = self._s
        if s.rob:  # robbing the kong: the added tile leaves the kang, which is a pung again
            melds = s.melds[frm]
            i = next(i for i, m in enumerate(melds) if m.kind is MeldKind.ADDED_KANG and m.base == tile)
            melds[i] = Meld(MeldKind.PUNG, (tile,) * 3, melds[i].called, melds[i].from_seat)
            s.rob = False
        else:
            s.pool.pop()
        s.hands[seat][tile] += 1

    def _announce_win(self, seat: Seat, tile: Tile | None, frm: Seat | None, result: WinResult,
                      payments: dict[Seat, Money], liable: Seat | None = None) -> None:
        how = "self-drawn" if frm is None else f"on {frm}'s {tile_name(tile)}"  # type: ignore[arg-type]
        word = (" by búnot" if frm is None else " by tódas") if self.rules.dealer_keeps_when_winning else ""
        pats = ", ".join(n for n, _ in result.patterns)
        # say why one seat pays it all, or the table will ask
        alone = f" ({liable} pays for all)" if liable is not None and liable is not seat else ""
        self._say("win", seat, f"{seat} wins{word} ({how}): {pats} — payments: "
                  f"{payments_text(payments, result.currency)}{alone}", payments, f"win: {pats}")
        for inst in result.instants:
            self._say("instant", seat, f"{inst.name} — {payments_text(inst.payments, result.currency)}",
                      dict(inst.payments), inst.name)

    def _nfnl_hand(self, seat: Seat, counts: list[int], win_tile: Tile) -> bool:
        """003's No-Flowers-No-Leaves: a seat dealt no flower, that laid no flower or joker
        aside, whose hand (sets included) holds only suit tiles — "must not contain any winds
        or dragons, does not contain any jokers ... and does not have any flowers" — goes out
        "on the next non-wind, non-dragon, non-flower, non-joker tile", valid hand or not."""
        s = self._s
        if not s.nfnl[seat] or s.bonus[seat] or not win_tile.is_suited:
            return False
        if any(counts[t] for t in range(Tile.EAST, 64)):
            return False
        return all(t.is_suited for m in s.melds[seat] for t in m.tiles)

    def _green_joker_win(self, action: Win, seat: Seat) -> None:
        """003, "Automatic Win Conditions for NFNL Hands": "Upon discarding the 3rd Green
        Joker and no claims the discarded Joker, the player can declare a win" (also after
        the 4th, 5th...), "regardless of whether the hand contain wind or dragon tiles, or
        even jokers"; a thrown red joker voids it. Declared by the thrower, with ``Win``,
        while the joker lies unclaimed; priced by the ruleset's ``green jokers`` payout."""
        s = self._s
        assert s.last_discard is not None
        joker = s.last_discard[1]
        own = f"{seat} cannot win on their own discard"
        if not s.nfnl[seat]:
            raise _fail(action, f"{own}: {seat} is not going for No-Flowers-No-Leaves (a flower was dealt,"
                                " or a flower or joker was laid aside)")
        if joker not in _GREEN_SET:
            raise _fail(action, f"{own}: a No-Flowers-No-Leaves player goes out on their own discard only "
                                "right after throwing a green joker (Thùng, Soọc, Thay, Tổng)")
        red = [t for t in s.discards[seat] if t.is_vn_joker and t not in _GREEN_SET]
        if red:
            raise _fail(action, f"{seat} threw {format_tiles(red)} of the red joker set: the green-joker win is "
                                "void, wait for a suit tile (003)")
        green = tuple(t for t in s.discards[seat] if t in _GREEN_SET)
        if len(green) < 3:
            raise _fail(action, f"{seat} has thrown {len(green)} green joker(s): going out needs 3 (003)")
        paid = self.scorer.instant("green jokers", seat, dealer=self.dealer, tiles=green)
        if paid is None:
            raise _fail(action, "the green-jokers win is not priced at this table (no Vietnamese ruleset)")
        payments = dict(paid.payments)
        # 003 counts the 64 each of three players as "a total of 3 Mủn (192)": 64 points a Mủn
        value = Money(payments.get(seat, Money(0))) / 64 * 6
        result = WinResult(value, self.scorer.unit, ((paid.name, value),), payments, None, (),
                           self.scorer.currency)
        s.phase = Phase.OVER
        s.last_discard = None
        s.outcome = Outcome("win", seat, None, False, joker, result, payments, None,
                            {"ambition": "green jokers", "tiles": green}, special="thrown green jokers")
        self._say("win", seat, f"{seat} wins: {paid.name} ({format_tiles(green, sort=False)}, No Flowers No "
                  f"Leaves) — payments: {payments_text(payments, self.scorer.currency)}", payments,
                  f"win: {paid.name}")

    def _eight_flowers_win(self, action: DeclareFlower, seat: Seat, tile: Tile) -> bool:
        """004: "Winning automatically with all eight flower tiles": laying the eighth aside
        ends the hand, no replacement drawn, priced by the ruleset's ``eight flowers`` (each
        other player pays a 5-tai self-pick). False where the table has no such win."""
        s = self._s
        eight = tuple(Tile(t) for t in range(Tile.FLOWER1, Tile.SEASON4 + 1))
        if not tile.is_flower or not set(eight) <= set(s.bonus[seat]):
            return False
        paid = self.scorer.instant("eight flowers", seat, dealer=self.dealer, tiles=eight)
        if paid is None:
            return False
        if s.deal_open:  # the ambitions of the tiles shown so far are paid first, as they would be
            self._close_deal(action, everyone_replaced=False)
        else:
            self._bonus_instants(seat, on_open=False)
        payments = dict(paid.payments)
        result = WinResult(payments[seat], self.scorer.currency, ((paid.name, payments[seat]),), payments, None, (),
                           self.scorer.currency)
        s.phase = Phase.OVER
        s.outcome = Outcome("win", seat, None, True, tile, result, payments, None,
                            {"ambition": "eight flowers", "tiles": eight}, special="eight flowers")
        self._say("win", seat, f"{seat} wins: {paid.name} ({format_tiles(eight)}) — payments: "
                  f"{payments_text(payments, self.scorer.currency)}", payments, f"win: {paid.name}")
        return True

    def _table_rule(self, name: str, default: Any) -> Any:
        ruleset = getattr(self.scorer, "ruleset", None)
        return default if ruleset is None else ruleset.rule(name)

    def _jai_alai(self, seat: Seat, result: WinResult) -> None:
        """000, 001: "At the end of each game, the winner gets one marker, two for búnot. The
        first player to get five markers wins the jai alai." The ruleset counts the markers;
        the pot ("Players put a share, typically $1") is paid here: 4 shares to the taker."""
        markers = int(getattr(result.score, "markers", 0) or 0)
        if not markers or not self.rules.plays("jai_alai"):
            return
        held = self.jai_alai[seat] + markers
        text = f"{seat} takes {markers} jai alái marker{'s' if markers > 1 else ''} ({held} of " \
               f"{self._table_rule('jai_alai_markers', 5)})"
        if not getattr(result.score, "jai_alai_won", False):
            self._say("jai_alai", seat, text)
            return
        share = self.rules.jai_alai_share
        pot = {p: (3 * share if p is seat else -share) for p in Seat} if share else {}
        paid = f" — {payments_text(pot, self.scorer.currency)}" if pot else ""
        self._say("jai_alai", seat, f"{text} and wins the jai alái pot{paid}", pot, "jai alái pot")

    def next_jai_alai(self) -> tuple[int, int, int, int]:
        """The jai alái markers each seat (E, S, W, N) holds after this hand: the ``jai_alai=``
        of the next ``Game``. A win adds the winner's markers; taking the pot starts a new one
        (every count back to 0); a draw, or a table not playing jai alái, changes nothing."""
        out = self._s.outcome
        if out is None:
            raise IllegalActionError("the hand is not over yet")
        score = None if out.result is None else out.result.score
        markers = int(getattr(score, "markers", 0) or 0)
        if out.winner is None or not markers or not self.rules.plays("jai_alai"):
            return self.jai_alai
        if getattr(score, "jai_alai_won", False):
            return (0, 0, 0, 0)
        held = list(self.jai_alai)
        held[out.winner] += markers
        return (held[0], held[1], held[2], held[3])

    def _complete(self, seat: Seat, counts: list[int]) -> bool:
        sets = self.sets_to_make(seat)
        jokers = [Tile(t) for t in range(Tile.THUNG, Tile.HOP + 1) if counts[t] for _ in range(counts[t])]
        if any(counts[t] for t in range(NUM_PLAYABLE, 64) if not Tile(t).is_vn_joker):
            return False
        playable = counts[:NUM_PLAYABLE]
        if jokers:
            return self._complete_with_jokers(playable, jokers, sets, seat)
        if self.rules.table_rules.get("joker"):  # a Filipino joker tile: the ruleset knows
            hand = Hand(tuple(Tile(t) for t in range(64) for _ in range(counts[t])), tuple(self._s.melds[seat]))
            return bool(self.scorer.can_win(hand))
        return self._shape_ok(playable, sets, seat)

    def _shape_ok(self, playable: list[int], sets: int, seat: Seat) -> bool:
        if is_complete(playable, sets):
            return True
        if self.rules.seven_pairs and not self._s.melds[seat] and is_seven_pairs_plus_set(playable):
            return True
        if self.rules.thirteen_orphans and not self._s.melds[seat] and sum(playable) == 14:
            return all(playable[t] for t in _ORPHANS) and sum(playable[t] for t in _ORPHANS) == 14
        return False

    def _complete_with_jokers(self, playable: list[int], jokers: list[Tile], sets: int, seat: Seat) -> bool:
        """Vietnamese jokers in a hand: try what each can stand for (two at most, by brute force)."""
        if len(jokers) > 2:
            return bool(self.scorer.can_win(self.hand(seat)))
        first, rest = jokers[0], jokers[1:]
        for t in _GREEN_JOKERS[first]:
            if playable[t] >= 4:
                continue
            playable[t] += 1
            ok = (self._complete_with_jokers(playable, rest, sets, seat) if rest
                  else self._shape_ok(playable, sets, seat))
            playable[t] -= 1
            if ok:
                return True
        return False

    def _kang_liable(self, frm: Seat, tile: Tile) -> Seat | None:
        """Singapore bao on a kang (004): "7 or less playable tiles remaining", a fresh tile
        (not yet among discards and melds) claimed "to declare a kong": its thrower pays the
        kang for all ("pay-for-all for this kong only; does not affect payments on winning")."""
        if not self.rules.plays("bao") or self.live_remaining > 7:
            return None
        return frm if self._fresh(tile) else None

    def _fresh(self, tile: Tile) -> bool:
        """Whether the ``tile`` just thrown is 004's "fresh tile that has not yet appeared among
        discards and melds" (its own throw aside)."""
        s = self._s
        return sum(d.count(tile) for d in s.discards) - 1 + sum(m.tiles.count(tile) for ms in s.melds for m in ms) == 0

    def _liable(self, seat: Seat, tile: Tile, frm: Seat | None, hand: Hand) -> Seat | None:
        """Who pays for all: Singapore bao (document 004). (Vietnam's flower thrower: ``_win``.)
        The discard that wins, when it is dangerous; else the dangerous discard claimed for a
        meld before the win (the rows' "or claims the discard to make a meld, and wins ... later")."""
        if not self.rules.plays("bao"):  # a table that plays without bao: the scorer ignores it too
            return None
        melds = self._s.melds[seat]
        tiles = [t for m in melds for t in m.tiles] + list(hand.concealed)
        full_flush = tiles[0].is_suited and len({t.suit for t in tiles}) == 1
        all_honours = all(t.is_honor for t in tiles)
        if frm is not None and (fed := self._fed_the_win(seat, tile, frm, full_flush, all_honours)) is not None:
            return fed  # ``is not None``: East is seat 0, and falsy
        return _fed_a_meld(seat, melds, full_flush, all_honours)

    def _shows_four_tai(self, seat: Seat, tile: Tile, melds: Sequence[Meld]) -> bool:
        """004's bao row for shown tai: ``tile`` is a dragon, the prevailing wind or ``seat``'s
        wind, and ``seat`` shows 4 or more tai in ``melds`` and its bonus tiles."""
        if not self.rules.plays("bao") or tile not in honours_worth_tai(seat, self.dealer, self.round_wind):
            return False
        flowers = self._table_rule("flowers", "seat")
        return shown_tai(melds, self._s.bonus[seat], seat, self.dealer, self.round_wind, flowers) >= 4

    def _fed_shown_tai(self, seat: Seat, frm: Seat | None) -> Seat | None:
        """Who pays for all a win of 5 or more tai (004) by a hand that showed 4 tai: the
        winning discard's thrower when it was such an honour, else the thrower of the first
        such honour the hand claimed for a meld."""
        s = self._s
        if frm is not None and s.last_discard is not None and self._shows_four_tai(seat, s.last_discard[1], s.melds[seat]):
            return frm
        return s.tai_fed[seat]

    def _fed_the_win(self, seat: Seat, tile: Tile, frm: Seat, full_flush: bool, all_honours: bool) -> Seat | None:
        """``frm`` when the discard that wins is one 004's bao table names."""
        s = self._s
        discarded = s.last_discard[1] if s.last_discard else tile
        if self.live_remaining <= 5 and self._fresh(discarded):
            return frm  # a fresh tile thrown with five or fewer tiles left
        melds = s.melds[seat]
        suits = Counter(m.base.suit for m in melds if m.base.is_suited)
        if suits and max(suits.values()) >= 3 and discarded.is_suited and discarded.suit == suits.most_common(1)[0][0]:
            if full_flush:
                return frm  # three melds of a suit, fed the full flush
        dragon_pungs = sum(1 for m in melds if m.base.is_dragon and m.kind is not MeldKind.CHOW)
        wind_pungs = sum(1 for m in melds if m.base.is_wind and m.kind is not MeldKind.CHOW)
        if dragon_pungs >= 2 and discarded.is_dragon or wind_pungs >= 3 and discarded.is_wind:
            return frm
        if dragon_pungs + wind_pungs >= 3 and discarded.is_honor and all_honours:
            return frm  # three honour pungs, fed the win on All Honours
        return None

    # -- enumerating -------------------------------------------------------------------
    def legal_actions(self, seat: Seat | None = None) -> list[Action]:
        """Every action the rules allow now (for ``seat`` only, if given).

        Full mode knows every hand, so the list is exact. Observed mode lists the
        actions whose tiles are known (draws, claims of the last discard); a discard
        from an unseen hand is checked when pushed.
        """
        out: list[Action] = []
        for a in self._candidates():
            if seat is not None and a.seat is not seat:
                continue
            if self.is_legal(a):
                out.append(a)
        return out

    def _candidates(self) -> Iterable[Action]:
        """Every action that might be legal now, to be tried one by one."""
        s = self._s
        if s.phase is Phase.OVER:
            return
        if s.phase is Phase.CLAIM and s.last_discard is not None:
            yield from self._claim_candidates(*s.last_discard)
        else:
            yield from self._turn_candidates(s.to_act)

    def _claim_candidates(self, frm: Seat, tile: Tile) -> Iterable[Action]:
        """What the seats may do with ``frm``'s discard ``tile`` (or a tile added to a pung)."""
        if self._s.rob:
            yield Draw(frm)
            yield from (Win(seat) for seat in Seat if seat is not frm)
            return
        yield Draw(frm.next)
        if self.rules.nfnl:
            yield Win(frm)  # going out after a third green joker (003)
        if self.mode is Mode.OBSERVED:
            yield DrawGame(frm.next)
        for seat in Seat:
            if seat is frm:
                continue
            yield Win(seat)
            if tile.is_playable:
                yield Pung(seat)
                yield Kang(seat)
        if tile.is_suited:
            for low in range(tile - 2, tile + 1):
                if 0 <= low and Tile(low).is_suited and Tile(low).number <= 7 and low // 9 == tile // 9:
                    yield Chow(frm.next, Tile(low))
        if self.rules.special_sets:
            yield DeclareBeauty(frm.next, True)
            yield DeclareNews(frm.next, True)

    def _turn_candidates(self, seat: Seat) -> Iterable[Action]:
        """What ``seat`` may do on its turn, and during the deal every seat's flowers."""
        s = self._s
        if s.deal_open and s.source == "deal":
            for other in self._order():
                for t in self._must:
                    if s.hands[other][t]:
                        yield DeclareFlower(other, Tile(t))
        h = s.hands[seat]
        yield Win(seat)
        for t in range(64):
            if not h[t]:
                continue
            tile = Tile(t)
            if self.rules.may_declare(tile):
                yield DeclareFlower(seat, tile)
            yield Discard(seat, tile)
            if h[t] == 4:
                yield ConcealedKang(seat, tile)
            if any(m.kind is MeldKind.PUNG and m.base == tile for m in s.melds[seat]):
                yield AddedKang(seat, tile)
        if self.rules.special_sets:
            yield DeclareBeauty(seat)
            yield DeclareNews(seat)

    # -- what comes next ------------------------------------------------------------------
    def next_deal(self) -> tuple[Seat, Seat, int]:
        """(dealer, round wind, hand number) of the next hand.

        The Filipino máno keeps the deal while winning; otherwise the deal passes
        to the next seat, and the round wind moves on once every seat has dealt.
        """
        out = self._s.outcome
        if out is None:
            raise IllegalActionError("the hand is not over yet")
        keeps = (out.winner is self.dealer and self.rules.dealer_keeps_when_winning) or (
            out.kind == "draw" and self.rules.dealer_keeps_on_draw)
        if keeps:
            return self.dealer, self.round_wind, self.hand_number + 1
        dealer = self.dealer.next
        wind = self.round_wind.next if dealer is self.starting_dealer else self.round_wind
        return dealer, wind, self.hand_number + 1


def resolve_claims(claims: Sequence[Action], discarder: Seat) -> Action | None:
    """The claim that takes a discard: win over pung/kang over chow; ties go to the
    seat nearest in turn after the discarder (documents 000, 003, 004).

    >>> resolve_claims([Chow(Seat.SOUTH, Tile.M1), Pung(Seat.NORTH)], Seat.EAST)
    Pung(Seat.NORTH)
    >>> resolve_claims([Win(Seat.NORTH), Win(Seat.WEST)], Seat.EAST)
    Win(Seat.WEST)
    """
    if not claims:
        return None
    return max(claims, key=lambda a: (CLAIM_PRIORITY.get(type(a), 0), -((a.seat - discarder) % 4)))


_HANDLERS: dict[type[Action], Any] = {
    Draw: Game._do_draw,
    Discard: Game._do_discard,
    Chow: Game._do_chow,
    Pung: Game._do_pung,
    Kang: Game._do_kang,
    ConcealedKang: Game._do_concealed_kang,
    AddedKang: Game._do_added_kang,
    DeclareFlower: Game._do_flower,
    DeclareBeauty: Game._special_set,
    DeclareNews: Game._special_set,
    Win: Game._do_win,
    DrawGame: Game._do_draw_game,
}
