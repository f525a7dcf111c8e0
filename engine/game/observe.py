"""Feeding an observed game from a camera that misses things.

A camera sees discards, melds and flowers, but rarely the draw itself. ``observe``
accepts what was seen and fills in the draw the rules imply, all or nothing. It also
sees some flowers late: a flower seen just after its own seat's discard was laid before it.

>>> from engine.game import Game, Discard
>>> from engine.seats import Seat
>>> from engine.tiles import Tile
>>> g = Game("visayan", mode="observed")
>>> [e.text for e in observe(g, Discard(Seat.EAST, Tile.RED))][-2:]  # after the deal's ambitions
['North has no flowers — North +$0.75, East -$0.25, South -$0.25, West -$0.25', 'East discards Red dragon']
>>> [e.text for e in observe(g, Discard(Seat.SOUTH, Tile.P5))]
['South draws', 'South discards 5 dots']
>>> [e.text for e in observe(g, DeclareFlower(Seat.SOUTH, Tile.FLOWER2))]  # seen after her discard
['South declares Orchid']
>>> [str(a) for a in g.history][-3:]
['S draw', 'S flower 2f', 'S discard 5p']
"""

from __future__ import annotations

from typing import Protocol

from engine.game.actions import Action, DeclareFlower, Discard, Draw
from engine.game.events import Event
from engine.game.game import Game, IllegalActionError, Phase

__all__ = ["before_discard", "observe", "seen_late"]


class ActionStack(Protocol):
    """What takes actions back: a ``Game``, or the ledger's ``Referee`` that writes each one."""

    def push(self, action: Action) -> list[Event]: ...

    def pop(self) -> Action: ...


def observe(game: Game, action: Action) -> list[Event]:
    """Push ``action``; a discard by the seat due to draw first gets its implied ``Draw``,
    and a flower that came in behind its seat's discard (``seen_late``) goes before it.

    On error nothing is applied (the implied draw is undone too, the discard lies as before).
    """
    try:
        return _with_draw(game, action)
    except IllegalActionError:
        if seen_late(game, action) is None:
            raise
    return before_discard(game, action)


def _with_draw(game: Game, action: Action) -> list[Event]:
    last = game.last_discard
    if (isinstance(action, Discard) and game.phase is Phase.CLAIM and last is not None
            and not game.robbing and action.seat is last[0].next):
        events = game.push(Draw(action.seat))
        if game.is_over():
            return events
        try:
            return events + game.push(action)
        except IllegalActionError:
            game.pop()
            raise
    return game.push(action)


def seen_late(game: Game, action: Action) -> Discard | None:
    """The discard ``action`` was seen behind: where ``action`` is a flower by the seat whose
    discard is the game's last action, nothing since, that discard; else ``None``.

    A flower drawn is shown before the discard, but a camera can see it only after: the hand
    that lays it covers it, and the discard follows at once. Nobody has acted since, so
    putting it back before the discard changes no one's turn.
    """
    last = game.history[-1] if game.history else None
    if (isinstance(action, DeclareFlower) and isinstance(last, Discard) and last.seat is action.seat
            and game.phase is Phase.CLAIM and not game.robbing):
        return last
    return None


def before_discard(stack: ActionStack, action: Action) -> list[Event]:
    """Push ``action`` before the last action, a discard: the discard is taken back, ``action``
    pushed and the discard pushed again. Returns ``action``'s announcements (the discard's
    were made when it was first pushed). All or nothing: on error the discard lies as before.
    """
    discard = stack.pop()
    try:
        events = stack.push(action)
    except IllegalActionError:
        stack.push(discard)
        raise
    try:
        stack.push(discard)
    except IllegalActionError:
        stack.pop()
        stack.push(discard)
        raise
    return events
