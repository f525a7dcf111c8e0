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
    game.events             # every Event so far: .kind, .seat, .text (a sentence), .payments, .reason
    game.to_json()          # the table for a web page: seats, melds, flowers, discards, outcome...
    game.hand(seat), game.hidden(seat), game.melds(seat), game.bonus(seat), game.discards(seat),
    game.pool(), game.wall_remaining, game.last_discard, game.last_drawn, game.waits(seat)

Actions (frozen dataclasses; ``str`` is the log notation, ``parse_action`` reads it back):
``Draw(seat[, tile])``, ``Discard(seat, tile)``, ``Chow(seat, low)``, ``Pung(seat)``,
``Kang(seat)``, ``ConcealedKang(seat, tile)`` (secret), ``AddedKang(seat, tile)`` (sagása),
``DeclareFlower(seat, tile)``, ``DeclareBeauty(seat[, called])``, ``DeclareNews(seat[, called])``,
``Win(seat[, revealed])``.

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
``Referee.create(ledger, variant, players, mode=..., seed=...)``, ``Referee.restore(ledger,
game_id)``, ``referee.push(action_or_text)`` (validated, written, then acknowledged),
``referee.pop()``, ``referee.next_hand()``, ``ledger.totals("evening"|"game"|"overall")``,
``ledger.export_csv()``).

Readings of the documents the referee had to choose (see each variant class in
``engine/game/rules.py``):

* Dice: counted on from the dealer's own wall, counter-clockwise, so "a seven points
  at the wall on the dealer's left" and "a multiple of 4 lands on your own wall"
  (001) both hold; the Filipino taboo then moves on to the next wall. The break is
  ``dice`` stacks in; replacements and gifts come from the other end (the flower
  wall / dead wall).
* Walls: Filipino and Visayan play until the wall is empty (the flower wall is just
  its back end); Singapore leaves a dead wall of 15 (004) that replacements may still
  use; Vietnam (003 gives no size) plays to the end.
* Flowers at the deal: the dealer replaces until clean, then South, West, North (000,
  004); observed mode accepts them in any order. Vietnamese jokers may be laid aside by
  choice in one's own turn; Vietnamese flowers may be thrown.
* First round (Beauty/NEWS): declared from the hand before the declarer's first
  discard; completed with a discard only from the previous seat, among the first four
  discards (000: "taken in turn like a chow").
* Sagása / added kang only with the tile just drawn (000, 001, 003, 004). Singapore
  alone lets others rob it (its "Robbing the Kong" point): the kang is paid and the
  gift drawn only once nobody robs it.
* A hand completed by claiming a discard wins by ``Win`` on that discard; chow and
  pung are for sets only (pair only to win).
* Vietnamese discarded flowers and jokers count as Tổng for any ready hand (003); the
  flower thrower pays for all. Singapore bao (004): a fresh tile with five or fewer
  left, feeding a full flush to three same-suit melds, the last dragon to two dragon
  pungs, the last wind to three wind pungs.
* The dealer keeps the deal after an exhaustive draw only with ``dealer_keeps_on_draw``.

Table options (``rules_for(variant, **options)`` / ``Referee.create(..., **options)``):
``doubles``, ``dealer_keeps_on_draw``, ``instant_payouts``, ``announce_waits`` and
``table_rules`` (the ruleset's own, e.g. ``{"quick_win": "before_5th"}``).
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
    InvalidActionTextError,
    Kang,
    Pung,
    Win,
    parse_action,
)
from engine.game.events import Event
from engine.game.game import Game, IllegalActionError, Mode, Outcome, Phase, resolve_claims
from engine.game.observe import observe
from engine.game.rules import VARIANTS, GameRules, UnknownVariantError, rules_for

__all__ = [
    "Action", "AddedKang", "Chow", "ConcealedKang", "DeclareBeauty", "DeclareFlower",
    "DeclareNews", "Discard", "Draw", "InvalidActionTextError", "Kang", "Pung", "Win",
    "parse_action", "Event", "Game", "IllegalActionError", "Mode", "Outcome", "Phase",
    "resolve_claims", "observe", "VARIANTS", "GameRules", "UnknownVariantError", "rules_for",
]
