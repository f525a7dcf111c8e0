"""The referee: one hand of any variant, from the deal to the payout, with exact undo.

Entry points (everything here is pure: no files, no clock, no network)::

    from engine.game import Game, Mode, parse_action, Discard, Pung, Win, ...

    game = Game("filipino", seed=42)                    # full mode: engine holds the wall
    game = Game("visayan", mode="observed",             # observed mode: what the table shows
                dealer=Seat.SOUTH, round_wind=Seat.EAST, hand_number=3)

    game.actor()            # who must act now (deal flower round, turn, next drawer)
    game.phase              # Phase.TURN (to_act holds a tile), Phase.CLAIM (a discard lies), Phase.OVER
    game.legal_actions()    # full mode: every legal action; observed: those with known tiles
    events = game.push(action)   # apply, or IllegalActionError(ValueError) naming the rule;
                                 # the game is unchanged after an error
    game.pop()              # undo the last action exactly
    game.outcome()          # None, or Outcome(kind="win"/"draw", winner, discarder, result, payments)
    game.next_deal()        # (dealer, round wind, hand number) for the next Game
    game.next_jai_alai()    # Filipino jai alái markers (E, S, W, N): the next Game's jai_alai=
    game.events             # every Event so far: .kind, .seat, .text (a sentence), .payments, .reason
    game.to_json()          # the table for a web page: seats, melds, flowers, discards, outcome...
    game.hand(seat), game.hidden(seat), game.melds(seat), game.bonus(seat), game.discards(seat),
    game.pool(), game.wall_remaining, game.last_discard, game.last_drawn, game.waits(seat)

Actions (frozen dataclasses; ``str`` is the log notation, ``parse_action`` reads it back):
``Draw(seat[, tile])``, ``Discard(seat, tile)``, ``Chow(seat, low)``, ``Pung(seat)``,
``Kang(seat)``, ``ConcealedKang(seat, tile)`` (secret), ``AddedKang(seat, tile)`` (sagása),
``DeclareFlower(seat, tile)``, ``DeclareBeauty(seat[, called])``, ``DeclareNews(seat[, called])``,
``Win(seat[, revealed])``, ``DrawGame(seat)`` (observed mode: the wall is empty).

Observed mode, for the camera and the web page: every seat starts with its dealt
number of unseen tiles. Push what the table shows — ``DeclareFlower`` during the deal
(any seat order), ``Draw(seat)`` (tile unseen), ``Discard(seat, tile)``, claims of the
last discard, kangs (the gift is an unseen tile), and at the end ``Win(seat,
revealed=tiles)`` with the winner's concealed tiles (winning tile included; for a
self-drawn win whose draw was unseen, the winning tile written last). The
referee checks turn order, claim rules, tile counts (no fifth copy on the table)
and the winning shape, and the ruleset prices the win. When the camera misses the
draw, ``observe(game, Discard(...))`` inserts the implied ``Draw`` first.

Claims are decided by the table: ``resolve_claims(claims, discarder)`` picks the
one that takes a discard (win > pung/kang > chow; nearest seat after the discarder).
Bots and self-play: ``engine.bots`` (``RandomBot``, ``GreedyBot``, ``play_hand``).
The ledger and crash recovery: ``mahjongero.ledger`` (``Ledger(path)``,
``Referee.create(ledger, variant, players, mode=..., seed=..., dealer=..., round_wind=...)``,
``Referee.restore(ledger, game_id)``, ``referee.push(action_or_text)`` (validated, written, then acknowledged),
``referee.pop()``, ``referee.next_hand()``, ``ledger.totals("evening"|"game"|"overall")``,
``ledger.export_csv()``).

Readings of the documents and the table options (``rules_for(variant, **options)``,
``Referee.create(..., **options)``): ``docs/rules/referee.md``.
"""

from engine.game.actions import (
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
    InvalidActionTextError,
    Kang,
    Pung,
    Win,
    parse_action,
)
from engine.game.events import Event
from engine.game.game import Game, IllegalActionError, Mode, Outcome, Phase, resolve_claims
from engine.game.observe import before_discard, observe, seen_late
from engine.game.rules import VARIANTS, GameRules, UnknownVariantError, rules_for

__all__ = [
    "Action", "AddedKang", "Chow", "ConcealedKang", "DeclareBeauty", "DeclareFlower",
    "DeclareNews", "Discard", "Draw", "DrawGame", "InvalidActionTextError", "Kang", "Pung", "Win",
    "parse_action", "Event", "Game", "IllegalActionError", "Mode", "Outcome", "Phase",
    "resolve_claims", "observe", "seen_late", "before_discard", "VARIANTS", "GameRules", "UnknownVariantError", "rules_for",
]
