"""Invariants over whole simulated hands of every variant.

Sizes are modest so ``make test`` stays fast; ``MAHJONGERO_SIM_GAMES=1000`` runs
the thousands-of-games version of the same checks.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.bots import GreedyBot, RandomBot, play_hand
from engine.game import Action, Draw, Game, Phase, Win, resolve_claims, rules_for
from engine.ruleset import find_ruleset
from engine.seats import Seat

VARIANTS = ["filipino", "visayan", "singaporean", "vietnamese"]
MANY = int(os.environ.get("MAHJONGERO_SIM_GAMES", "0"))


def _step_checked(game: Game, action: Action, full_set: Counter) -> None:
    """Push one action and check the invariants around it."""
    before = game.state_key()
    events = game.push(action)
    assert game.census() == full_set, f"tiles lost or created by {action}"
    for e in events:
        if e.payments:
            assert sum(e.payments.values(), Fraction(0)) == 0, e.text
    undone = game.pop()
    assert undone == action
    assert game.state_key() == before, f"pop() after {action} did not restore the state"
    game.push(action)


def _play_checked(game: Game, bots: list) -> None:
    full = Counter(game.rules.tile_set())
    assert game.census() == full
    for _ in range(3000):
        if game.phase is Phase.OVER:
            return
        if game.phase is Phase.CLAIM:
            last = game.last_discard
            assert last is not None
            claims = [c for s in Seat if s is not last[0] and (c := bots[s].claim(game, s))]
            choice = resolve_claims(claims, last[0]) or Draw(game.actor())
            if not game.is_legal(choice):
                choice = Draw(game.actor())
            _step_checked(game, choice, full)
        else:
            seat = game.actor()
            _step_checked(game, bots[seat].act(game, seat), full)
    pytest.fail("hand did not end")


def _check_win_scored(game: Game) -> None:
    """Every win the referee accepted is priced by the ruleset itself (independently)."""
    out = game.outcome()
    assert out is not None
    if out.kind != "win":
        assert out.winner is None and not out.payments
        return
    rs = find_ruleset(game.rules.ruleset_name, **game.rules.table_rules)
    if out.special:  # green jokers thrown, eight flowers: a win priced as the ruleset's instant payout
        assert out.winner is not None
        paid = rs.instant(out.situation["ambition"], out.winner, dealer=game.dealer, tiles=out.situation["tiles"])
        assert out.payments == dict(paid.payments)
        return
    assert out.hand is not None and out.winner is not None and out.win_tile is not None
    score = rs.score(out.hand, win_tile=out.win_tile, winner=out.winner, self_drawn=out.self_drawn,
                     discarder=out.discarder, round_wind=game.round_wind, dealer=game.dealer,
                     **out.situation)
    assert out.result is not None
    assert tuple(score.patterns) == tuple(out.result.patterns)
    assert sum(out.payments.values(), Fraction(0)) == 0
    assert out.payments[out.winner] == score.payments[out.winner]


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_greedy_hands_keep_every_invariant(variant: str, seed: int) -> None:
    game = Game(variant, seed=seed)
    _play_checked(game, [GreedyBot()] * 4)
    _check_win_scored(game)


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_random_hands_keep_every_invariant(variant: str, seed: int) -> None:
    game = Game(variant, seed=seed)
    _play_checked(game, [RandomBot(seed=seed + s) for s in range(4)])
    _check_win_scored(game)


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_jai_alai_markers_carry_across_hands_and_the_pot_is_zero_sum(seed: int) -> None:
    """An evening of hands: the markers each hand starts with are the last one's
    ``next_jai_alai()``; every marker is a win's (one, two for búnot) until a pot is taken."""
    held = (0, 0, 0, 0)
    dealer, wind, number = Seat.EAST, Seat.EAST, 1
    for i in range(6):
        game = Game(rules_for("filipino", jai_alai=True, jai_alai_markers=3), seed=seed + i,
                    dealer=dealer, round_wind=wind, hand_number=number, jai_alai=held)
        _play_checked(game, [GreedyBot()] * 4)
        _check_win_scored(game)
        out = game.outcome()
        assert out is not None
        after = game.next_jai_alai()
        pots = [e for e in game.events if e.kind == "jai_alai" and e.payments]
        if out.kind == "draw":
            assert after == held and not pots
        elif pots:
            assert after == (0, 0, 0, 0) and pots[0].payments[out.winner] == 3
        else:
            gained = [b - a for a, b in zip(held, after, strict=True)]
            assert gained[out.winner] == (2 if out.self_drawn else 1) and sum(gained) == gained[out.winner]
            assert max(after) < 3
        held = after
        dealer, wind, number = game.next_deal()


@pytest.mark.skipif(not MANY, reason="set MAHJONGERO_SIM_GAMES=N for the long run")
@pytest.mark.parametrize("variant", VARIANTS)
def test_many_games(variant: str) -> None:
    rng = random.Random(variant)
    for _ in range(MANY):
        game = Game(variant, seed=rng.randrange(10**9))
        play_hand(game, [GreedyBot()] * 4)
        assert game.census() == Counter(game.rules.tile_set())
        total = sum((a for e in game.events for a in e.payments.values()), Fraction(0))
        assert total == 0
        _check_win_scored(game)


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_observed_mode_follows_a_full_game_from_what_the_table_shows(variant: str, seed: int) -> None:
    """Differential: the same rules code, fed only the public actions (draws unseen,
    the winner's hand shown at the end), reaches the same outcome and payments."""
    full = Game(variant, seed=seed)
    seen = Game(variant, mode="observed", dice=full.dice)
    bots = [GreedyBot()] * 4
    while not full.is_over():
        if full.phase is Phase.CLAIM:
            last = full.last_discard
            assert last is not None
            claims = [c for s in Seat if s is not last[0] and (c := bots[s].claim(full, s))]
            action = resolve_claims(claims, last[0]) or Draw(full.actor())
            if not full.is_legal(action):
                action = Draw(full.actor())
        else:
            seat = full.actor()
            action = bots[seat].act(full, seat)
        public: Action = action
        if isinstance(action, Win):
            shown = full.concealed(action.seat)
            if full.phase is Phase.CLAIM and full.last_discard is not None:
                shown.append(full.last_discard[1])
            elif full.last_drawn is not None:  # the drawn tile is shown last
                shown.remove(full.last_drawn)
                shown.append(full.last_drawn)
            public = Win(action.seat, tuple(shown))
        full.push(action)
        seen.push(public)
    assert seen.is_over()
    a, b = full.outcome(), seen.outcome()
    assert a is not None and b is not None
    assert (a.kind, a.winner, a.discarder, a.self_drawn, a.payments) == (
        b.kind, b.winner, b.discarder, b.self_drawn, b.payments)
    money = [(e.text, dict(e.payments)) for e in full.events if e.payments]
    assert money == [(e.text, dict(e.payments)) for e in seen.events if e.payments]
    assert full.wall_remaining == seen.wall_remaining
