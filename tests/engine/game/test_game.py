"""The referee's rules on staged tables (full mode): turns, claims, kangs, flowers, wins."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.game import (
    AddedKang,
    Chow,
    ConcealedKang,
    DeclareFlower,
    Discard,
    Draw,
    Game,
    IllegalActionError,
    Kang,
    Phase,
    Pung,
    Win,
    resolve_claims,
)
from engine.game.game import Outcome
from engine.ruleset import find_ruleset
from engine.seats import Seat
from engine.tiles import Tile, parse_tiles
from tests.engine.game.helpers import staged_game

E, S, W, N = Seat.EAST, Seat.SOUTH, Seat.WEST, Seat.NORTH
HANDS = {
    E: "111m234m567m99m123p45p",
    S: "22p345p678s78s345m789p",  # ready: waits on 6s / 9s
    W: "111s222s333s444s67p88p",
    N: "99m666m888m1234567s4p",
}


def staged(**kw: object) -> Game:
    args: dict[str, object] = {"first": "9s", "draws": "5m7m2m8p", "back": "3m4m"}
    args.update(kw)
    return staged_game("filipino", HANDS, **args)  # type: ignore[arg-type]


def test_deal_gives_sixteen_and_the_dealer_seventeen() -> None:
    g = staged()
    assert [len(g.concealed(s)) for s in Seat] == [17, 16, 16, 16]
    assert g.phase is Phase.TURN and g.actor() is E
    assert g.wall_remaining == 144 - 65


def test_win_on_a_discard_is_priced_by_the_ruleset_and_the_discarder_pays_double() -> None:
    g = staged()
    g.push(Discard(E, Tile.S9))
    events = g.push(Win(S))
    out = g.outcome()
    assert out is not None and out.kind == "win" and out.winner is S and out.discarder is E
    assert not out.self_drawn and out.win_tile is Tile.S9
    score = find_ruleset("filipino").score(out.hand, win_tile=Tile.S9, winner=S, discarder=E,
                                          **out.situation)
    assert out.payments == score.payments
    assert out.payments[E] == 2 * out.payments[W] == 2 * out.payments[N] < 0
    assert sum(out.payments.values()) == 0
    wins = [e for e in events if e.kind == "win"]
    assert len(wins) == 1 and wins[0].text.startswith("South wins by tódas (on East's 9 bamboo)")
    assert wins[0].payments == out.payments
    with pytest.raises(IllegalActionError, match="the hand is over"):
        g.push(Draw(S))


def test_pung_jumps_the_turn_and_chow_is_only_for_the_next_seat() -> None:
    g = staged()
    g.push(Discard(E, Tile.S9))
    g.push(Draw(S))
    g.push(Discard(S, Tile.P8))
    with pytest.raises(IllegalActionError, match="cannot claim their own discard"):
        g.push(Chow(S, Tile.P7))
    with pytest.raises(IllegalActionError, match="only West may chow"):
        g.push(Chow(N, Tile.P7))
    with pytest.raises(IllegalActionError, match="needs two 8p"):
        g.push(Pung(N))
    events = g.push(Pung(W))
    assert [e.text for e in events] == ["West: pung of 8 dots"]
    assert g.phase is Phase.TURN and g.actor() is W
    with pytest.raises(IllegalActionError, match="West must discard|claim"):
        g.push(Draw(N))


def test_chow_from_the_previous_player() -> None:
    g = staged()
    g.push(Discard(E, Tile.P5))
    with pytest.raises(IllegalActionError, match="chow only from the previous player"):
        g.push(Chow(W, Tile.P5))
    with pytest.raises(IllegalActionError, match="does not hold 6p"):
        g.push(Chow(S, Tile.P5))
    g.push(Chow(S, Tile.P3))
    assert str(g.melds(S)[0]) == "[345p]" and g.melds(S)[0].called is Tile.P5


def test_exposed_kang_takes_a_gift_from_the_back_and_pays_at_once() -> None:
    g = staged()
    g.push(Discard(E, Tile.S9))
    g.push(Draw(S))
    g.push(Discard(S, Tile.M5))
    g.push(Draw(W))
    g.push(Discard(W, Tile.P6))
    g.push(Draw(N))
    g.push(Discard(N, Tile.S1))
    back_before = g.wall_remaining
    events = g.push(Kang(W))
    assert g.wall_remaining == back_before - 1
    assert g.counts(W)[Tile.M3] == 1  # the gift is the first tile at the back
    paid = [e for e in events if e.payments]
    assert paid and paid[0].payments[W] == Fraction(3, 4)
    assert all(paid[0].payments[s] == Fraction(-1, 4) for s in (E, S, N))
    assert g.actor() is W and g.phase is Phase.TURN


def test_secret_and_sagasa_need_the_right_moment() -> None:
    g = staged(first="1m", draws="2m7m1p3p8p")
    assert g.counts(E)[Tile.M1] == 4
    # East holds four 1m: a secret, paid ½ by each
    events = g.push(ConcealedKang(E, Tile.M1))
    assert events[-1].payments[E] == Fraction(3, 2)
    assert str(g.melds(E)[0]) == "(1111m)"
    g.push(Discard(E, Tile.M9))  # the gift (3m) stays
    g.push(Draw(S))
    g.push(Discard(S, Tile.P8))
    g.push(Pung(W))
    with pytest.raises(IllegalActionError, match="sagása needs the fourth tile drawn"):
        g.push(AddedKang(W, Tile.P8))
    g.push(Discard(W, Tile.P6))
    g.push(Draw(N))
    g.push(Discard(N, Tile.P4))
    g.push(Draw(E))
    g.push(Discard(E, Tile.M9))
    g.push(Draw(S))  # 3p
    with pytest.raises(IllegalActionError, match=r"only with the tile just drawn \(3p\)"):
        g.push(AddedKang(S, Tile.P8))
    g.push(Discard(S, Tile.P3))
    with pytest.raises(IllegalActionError, match="claim it or let West draw"):
        g.push(AddedKang(N, Tile.P8))
    g.push(Draw(W))  # the fourth 8p
    events = g.push(AddedKang(W, Tile.P8))
    assert str(g.melds(W)[0]) == "<8888p>"
    assert [e.payments[W] for e in events if e.payments] == [Fraction(3, 2)]
    assert g.actor() is W and g.phase is Phase.TURN


def test_flowers_are_replaced_in_seat_order_from_the_dealer() -> None:
    hands = dict(HANDS)
    hands[S] = "22p345p678s78s345m78p2f"
    g = staged_game("filipino", hands, first="3z", back="3m4m")
    assert g.actor() is E
    with pytest.raises(IllegalActionError, match="seat order from the dealer: East first"):
        g.push(DeclareFlower(S, Tile.FLOWER2))
    with pytest.raises(IllegalActionError, match="must first"):
        g.push(Discard(E, Tile.M1))
    with pytest.raises(IllegalActionError, match="West wind is a bonus tile"):
        g.push(Discard(E, Tile.WEST))
    g.push(DeclareFlower(E, Tile.WEST))
    assert g.counts(E)[Tile.M4] == 1 and g.bonus(E) == (Tile.WEST,)
    assert g.actor() is S
    g.push(DeclareFlower(S, Tile.FLOWER2))
    assert g.counts(S)[Tile.M3] == 1
    events = g.push(Discard(E, Tile.M4))
    no_flowers = [e for e in events if "no flowers" in e.text]
    assert [e.seat for e in no_flowers] == [W, N]  # East and South declared flowers
    assert all(sum(e.payments.values()) == 0 for e in no_flowers)


def test_bad_input_is_refused_and_leaves_the_game_untouched() -> None:
    g = staged()
    key = g.state_key()
    bad = [
        (Discard(S, Tile.P2), "East's turn, not South's"),
        (Discard(E, Tile.S5), "does not hold 5s"),
        (Pung(S), "no discard to claim"),
        (Win(E), "not a winning hand"),
        (Draw(S), "must discard before anyone draws"),
        (AddedKang(E, Tile.S9), "no exposed pung"),
    ]
    for action, why in bad:
        with pytest.raises(IllegalActionError, match=why):
            g.push(action)
        assert g.state_key() == key, action
    with pytest.raises(IllegalActionError, match="unknown seat"):
        g.push(Discard(7, Tile.P2))  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        g.pop()
    assert g.state_key() == key



def test_each_refusal_names_the_offending_action_and_value() -> None:
    """Refusals at a turn, after a discard and after a claim: each message quotes the action
    and what is wrong with it, and the game is as it was."""
    g = staged()
    with pytest.raises(IllegalActionError, match="^'E discard 1m' is not an action$"):
        g.push("E discard 1m")  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="the hand is not over yet"):
        g.next_deal()
    staged_refusals = [
        ([], DeclareFlower(E, Tile.M1), "^E flower 1m: 1m is not a bonus tile in filipino mahjong$"),
        ([], ConcealedKang(E, Tile.RED), "^E secret 7z: 7z cannot form a kang$"),
        ([Discard(E, Tile.P1)], Draw(W), "^W draw: after East's discard it is South who draws$"),
        ([Discard(E, Tile.P1)], Draw(S, Tile.M1), "^S draw 1m: the wall's next tile is not 1m$"),
        ([Discard(E, Tile.P1)], Chow(S, Tile.P5), "^S chow 5p: 567p with 1p is not a chow$"),
        ([Discard(E, Tile.P1)], Win(E), "^E win: East cannot win on their own discard$"),
        ([Discard(E, Tile.P1), Chow(S, Tile.P1)], ConcealedKang(S, Tile.P2),
         "^S secret 2p: after claiming a discard you must discard, not declare a secret$"),
    ]
    for before, action, why in staged_refusals:
        g = staged()
        for done in before:
            g.push(done)
        key, moves = g.state_key(), len(g.history)
        with pytest.raises(IllegalActionError, match=why):
            g.push(action)
        assert g.state_key() == key and len(g.history) == moves, action


def test_legal_actions_are_exactly_the_pushable_ones() -> None:
    g = staged()
    g.push(Discard(E, Tile.P5))
    legal = set(g.legal_actions())
    assert {Draw(S), Chow(S, Tile.P3)} <= legal
    assert not {Chow(W, Tile.P5), Pung(W), Win(S), Chow(S, Tile.P4)} & legal
    for a in legal:
        assert g.is_legal(a)


def test_claim_priority() -> None:
    assert resolve_claims([Chow(S, Tile.M1), Pung(N)], E) == Pung(N)
    assert resolve_claims([Pung(N), Win(W)], E) == Win(W)
    assert resolve_claims([Win(N), Win(W), Win(S)], E) == Win(S)  # nearest after the discarder
    assert resolve_claims([Win(E), Win(N)], W) == Win(N)
    assert resolve_claims([], E) is None


def test_self_drawn_win_is_bunot_and_all_pay_double() -> None:
    g = staged(draws="6s")
    g.push(Discard(E, Tile.P1))
    assert not g.is_legal(Win(S))  # 1p does not complete South's hand
    g.push(Draw(S))
    events = g.push(Win(S))
    out = g.outcome()
    assert out is not None and out.self_drawn and out.win_tile is Tile.S6
    assert out.payments[E] == out.payments[W] == out.payments[N] < 0
    assert any(e.text.startswith("South wins by búnot (self-drawn)") for e in events)
    assert out.situation["turn"] == 1 and out.situation["discards_before_win"] == 0


def test_exhaustive_draw_and_the_next_dealer() -> None:
    # Play to the end by always drawing and throwing the drawn tile: nobody claims.
    g = Game("singaporean", seed=3)
    while not g.is_over():
        if g.phase is Phase.CLAIM:
            last = g.last_discard
            assert last is not None
            g.push(Draw(g.actor()))
        else:
            seat = g.actor()
            counts = g.counts(seat)
            bonus = [t for t in range(64) if counts[t] and g.rules.must_declare(Tile(t))]
            if bonus:
                g.push(DeclareFlower(seat, Tile(bonus[0])))
            else:
                t = next(t for t in reversed(range(64)) if counts[t])
                g.push(Discard(seat, Tile(t)))
    out = g.outcome()
    assert out is not None and out.kind == "draw"
    # the last 15 tiles are never drawn in turn (replacements may still dip into them)
    assert g.live_remaining == 0 and g.wall_remaining <= g.rules.dead_wall == 15
    assert g.next_deal() == (S, E, 2)


def test_mano_keeps_the_deal_while_winning_and_the_wind_turns() -> None:
    g = Game("filipino", seed=1, dealer=N, starting_dealer=E)
    g._s.outcome = Outcome("win", winner=N)
    assert g.next_deal() == (N, E, 2)  # máno keeps it
    g._s.outcome = Outcome("win", winner=S)
    assert g.next_deal() == (E, S, 2)  # back to the first dealer: South round
    sg = Game("singaporean", seed=1, dealer=W)
    sg._s.outcome = Outcome("win", winner=W)
    assert sg.next_deal() == (N, E, 2)  # Singapore rotates even when the dealer wins


def test_heavenly_hand_is_a_self_drawn_win_on_the_deal() -> None:
    ready = "123m456m789m123p456p7p"  # 16 tiles, waiting on 7p for the eye
    g = staged_game("filipino", {E: ready, S: HANDS[S], W: HANDS[W], N: HANDS[N]}, first="7p")
    g.push(Win(E))
    out = g.outcome()
    assert out is not None and out.self_drawn and out.winner is E and out.win_tile is Tile.P7
    assert all(out.payments[s] == out.payments[S] for s in (W, N))


def test_parse_tiles_helper_keeps_copies_honest() -> None:
    with pytest.raises(AssertionError, match="more copies"):
        staged_game("filipino", {E: "1111m1m" + "2m" * 11}, first="1s")
    assert len(parse_tiles("1111m")) == 4


def test_ready_announcement_names_the_waits() -> None:
    g = staged(announce_waits=True)
    g.push(Discard(E, Tile.P1))
    g.push(Draw(S))  # 5m: useless to South, who throws it and stays ready
    events = g.push(Discard(S, Tile.M5))
    assert [e.text for e in events if e.kind == "ready"] == ["South is ready — waits on 6s, 9s"]


def test_to_json_shows_the_table() -> None:
    g = staged()
    g.push(Discard(E, Tile.S9))
    data = g.to_json()
    assert data["phase"] == "claim" and data["last_discard"] == {"seat": "East", "tile": "9s"}
    assert data["seats"][0]["discards"] == "9s" and data["history"] == ["E discard 9s"]
    g.push(Win(S))
    assert g.to_json()["outcome"]["winner"] == "South"
