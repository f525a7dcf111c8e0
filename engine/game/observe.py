"""Feeding an observed game from a camera that misses things.

A camera sees discards, melds and flowers, but rarely the draw itself. ``observe``
accepts what was seen and fills in the draw the rules imply, all or nothing.

>>> from engine.game import Game, Discard
>>> from engine.seats import Seat
>>> from engine.tiles import Tile
>>> g = Game("visayan", mode="observed")
>>> [e.text for e in observe(g, Discard(Seat.EAST, Tile.RED))][-2:]  # after the deal's ambitions
['North has no flowers — North +$0.75, East -$0.25, South -$0.25, West -$0.25', 'East discards Red dragon']
>>> [e.text for e in observe(g, Discard(Seat.SOUTH, Tile.P5))]
['South draws', 'South discards 5 dots']
"""

from __future__ import annotations

from engine.game.actions import Action, Discard, Draw
from engine.game.events import Event
from engine.game.game import Game, IllegalActionError, Phase

__all__ = ["observe"]


def observe(game: Game, action: Action) -> list[Event]:
    """Push ``action``; a discard by the seat due to draw first gets its implied ``Draw``.

    On error nothing is applied (the implied draw is undone too).
    """
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
