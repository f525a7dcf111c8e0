"""The bots: the greedy one plays sensibly, both only ever play legal actions."""

from __future__ import annotations

from engine.bots import GreedyBot, RandomBot, play_hand, run_games
from engine.game import Chow, Discard, Draw, Game, Pung, Win
from engine.game.shape import counts_of, shanten
from engine.seats import Seat
from engine.tiles import Tile, parse_tiles
from tests.engine.game.helpers import staged_game

E, S, W, N = Seat.EAST, Seat.SOUTH, Seat.WEST, Seat.NORTH
HANDS = {
    E: "111m234m567m99m123p45p",
    S: "22p345p678s78s345m789p",
    W: "111s222s333s444s67p88p",
    N: "99m666m888m1234567s4p",
}


def test_greedy_discard_never_raises_shanten_needlessly() -> None:
    g = staged_game("filipino", HANDS, first="9s")
    action = GreedyBot().act(g, E)
    assert isinstance(action, Discard)
    c = counts_of(g.concealed(E))
    c[action.tile] -= 1
    best = min(
        shanten([n - (t == x) for t, n in enumerate(counts_of(g.concealed(E)))], 5)
        for x in set(g.concealed(E))
    )
    assert shanten(c, 5) == best


def test_greedy_claims_a_win_and_a_useful_pung() -> None:
    g = staged_game("filipino", HANDS, first="9s")
    g.push(Discard(E, Tile.S9))
    assert GreedyBot().claim(g, S) == Win(S)
    g.pop()
    g.push(Discard(E, Tile.M9))
    c = counts_of(g.concealed(N))
    now = shanten(c, 5)
    c[Tile.M9] -= 2
    expected = Pung(N) if shanten(c, 4) < now else None
    assert GreedyBot().claim(g, N) == expected
    assert GreedyBot().claim(g, W) is None  # nothing to do with 9m


def test_greedy_chows_only_as_the_next_seat() -> None:
    g = staged_game("filipino", HANDS, first="9s")
    g.push(Discard(E, Tile.P5))
    for seat in (W, N):
        c = GreedyBot().claim(g, seat)
        assert not isinstance(c, Chow)


def test_random_bots_finish_every_variant() -> None:
    for variant in ("filipino", "visayan", "singaporean", "vietnamese"):
        g = Game(variant, seed=9)
        out = play_hand(g, [RandomBot(seed=s) for s in range(4)])
        assert out.kind in ("win", "draw")
        assert all(isinstance(a, type(a)) for a in g.history)


def test_run_games_counts_outcomes() -> None:
    stats = run_games("filipino", 5, 100)
    assert stats.games == 5 and stats.draws + sum(stats.wins.values()) == 5
    assert sum(stats.totals.values()) == 0
    assert len(parse_tiles("1m")) == 1 and Draw(E) != Draw(S)
