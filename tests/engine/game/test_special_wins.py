"""Wins outside the ordinary hand, on staged tables built from the documents' text:
South Vietnamese No-Flowers-No-Leaves and its green-joker win (003), and the Filipino
jai alái pot carried from hand to hand (000, 001)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.game import DeclareFlower, Discard, Draw, Game, IllegalActionError, Win, parse_action
from engine.game.observe import observe
from engine.seats import Seat
from engine.tiles import Tile, parse_tiles
from tests.engine.game.helpers import staged_game

E, S, W, N = Seat.EAST, Seat.SOUTH, Seat.WEST, Seat.NORTH
HONOURS = "1112223334445z"  # East holds only winds and dragons: never NFNL, never ready


def vn(south: str, *, draws: str, west: str = "666z777z22s99p158m", **kw: object) -> Game:
    return staged_game("vietnamese", {E: HONOURS, S: south, W: west}, first="5z", draws=draws,
                       **kw)  # type: ignore[arg-type]


def pushed(game: Game, script: str) -> list[str]:
    said: list[str] = []
    for line in script.strip().splitlines():
        said += [e.text for e in game.push(parse_action(line))]
    return said


# -- No Flowers, No Leaves (003) ------------------------------------------------------------
def test_pure_nfnl_self_drawn_everyone_pays_three_mun_doubled() -> None:
    # 003: "The hand does not have to be valid"; "If the player also started with no jokers,
    # this is considered a pure NFNL hand. If the player self-draws, everyone will pay 3 Mủn
    # Doubled (192)."
    g = vn("1357m2468p1357s9s", draws="2m")
    pushed(g, "E discard 5z\nS draw")
    before = g.state_key()
    assert Win(S) in g.legal_actions(S)
    said = [e.text for e in g.push(Win(S))]
    out = g.outcome()
    assert out is not None and out.winner is S and out.self_drawn
    assert out.situation["nfnl"] is True and out.situation["nfnl_pure"] is True
    assert out.payments == {S: 576, E: -192, W: -192, N: -192}
    assert "Pure No Flowers No Leaves" in said[-1]
    g.pop()
    assert g.state_key() == before


def test_nfnl_with_a_dealt_joker_thrown_away_wins_on_a_discard_single_and_doubled() -> None:
    # "The initial hand must not have flowers but can contain jokers"; "If a person discards
    # the winning title, the discarder will pay 1 Mủn Doubled (64) and every other player
    # will pay 1 Mủn Single (32)."
    g = vn("1357m2468p1357s1j", draws="9s8p5m")
    pushed(g, "E discard 5z\nS draw\nS discard 1j\nW draw\nW discard 5m")
    g.push(Win(S))
    out = g.outcome()
    assert out is not None and out.discarder is W and out.situation["nfnl_pure"] is False
    assert out.payments == {S: 128, W: -64, E: -32, N: -32}


def test_no_nfnl_with_a_dealt_flower_or_a_joker_laid_aside() -> None:
    # "If the initial hand has flowers ... the hand is no longer able to form the NFNL hand";
    # no joker "outside the hand (put down for points)".
    g = vn("1357m2468p1357s1f", draws="9s8p")
    pushed(g, "E discard 5z\nS draw\nS discard 1f\nW draw\nW discard 8p")
    with pytest.raises(IllegalActionError, match="not a winning hand"):
        g.push(Win(S))
    g = vn("1357m2468p1357s1j", draws="9s8p", back="2p")
    pushed(g, "E discard 5z\nS draw\nS flower 1j")
    pushed(g, "S discard 9s\nW draw\nW discard 8p")
    with pytest.raises(IllegalActionError, match="not a winning hand"):
        g.push(Win(S))


def test_nfnl_goes_out_only_once_winds_and_dragons_are_gone_and_only_on_a_suit_tile() -> None:
    g = vn("1357m2468p1357s1z", draws="9s")
    pushed(g, "E discard 5z\nS draw")
    with pytest.raises(IllegalActionError, match="not a winning hand"):
        g.push(Win(S))  # still holds East wind
    pushed(g, "S discard 1z")
    with pytest.raises(IllegalActionError, match="own discard"):
        g.push(Win(S))


def test_a_valid_nfnl_hand_is_scored_the_better_way() -> None:
    # "In the event that the NFNL is a valid hand ... One Suit: +5 Mủn" beats the hand table
    g = vn("1112345678999m", draws="5m")
    pushed(g, "E discard 5z\nS draw")
    g.push(Win(S))
    out = g.outcome()
    assert out is not None and out.result is not None
    names = [n for n, _ in out.result.patterns]
    assert names[0] == "Pure No Flowers No Leaves" and "NFNL One Suit" in names


# -- thrown jokers -----------------------------------------------------------------------
def test_a_joker_thrown_by_an_nfnl_player_is_tong_and_the_thrower_pays_for_everyone() -> None:
    # "A discarded Joker will count as a General (Tổng) tile ... and the Joker thrower will pay
    # for everyone ... ONLY if the discarded is forming a No Flowers, No Leaves (NFNL) hand";
    # "he would pay 1 Mủn Doubled (64) and 2 Mủn Single (64) plus any extra Mủn and Phán".
    ready = "123m456p789s6677z"  # West waits on Green or Red dragon
    g = vn("1357m2468p1357s1j", west=ready, draws="9s")
    pushed(g, "E discard 5z\nS draw\nS discard 1j")
    g.push(Win(W))
    out = g.outcome()
    assert out is not None and out.situation.get("discarder_nfnl") is True
    assert out.result is not None and "Thrown Flower" in [n for n, _ in out.result.patterns]
    assert out.payments[S] == -out.payments[W] and out.payments[E] == out.payments[N] == 0
    assert out.payments[W] >= 128


def test_a_joker_thrown_by_anyone_else_stands_only_for_its_own_suit() -> None:
    # "A discarded Joker can be called to complete a sequence or triplet if it matches the suit."
    ready = "123m456p789s6677z"
    g = vn("1357m2468p1357s1f", west=ready, draws="1j")  # South was dealt a flower: no NFNL
    pushed(g, "E discard 5z\nS draw\nS discard 1j")
    with pytest.raises(IllegalActionError, match="may stand for"):
        g.push(Win(W))
    g = vn("1357m2468p1357s1f", west="123m456p789s66z23p", draws="1j")  # waits on 1p / 4p
    pushed(g, "E discard 5z\nS draw\nS discard 1j")
    g.push(Win(W))
    out = g.outcome()
    assert out is not None and out.win_tile in (Tile.P1, Tile.P4) and "discarder_nfnl" not in out.situation


# -- three green jokers (003, "Automatic Win Conditions for NFNL Hands") -----------------------
GREEN = "1j2j3j1z2z3z4z5z6z7z1m1p"  # dealt three green jokers, winds and dragons: no matter


def _throw_three(g: Game, third: str = "3j") -> None:
    pushed(g, f"""
        E discard 5z
        S draw
        S discard 1j
        W draw
        W discard 1s
        N draw
        N discard 2s
        E draw
        E discard 1z
        S draw
        S discard 2j
        W draw
        W discard 3s
        N draw
        N discard 4s
        E draw
        E discard 2z
        S draw
        S discard {third}
    """)


def test_three_green_jokers_thrown_win_at_once_each_player_pays_64() -> None:
    # "Upon discarding the 3rd Green Joker and no claims the discarded Joker, the player can
    # declare a win and will receive 1 Mủn Doubled (64) from each player for a total of 3 Mủn (192)."
    g = vn(GREEN + "9p", draws="5m1s2s5m6m3s4s6m7m")
    before = g.state_key()
    _throw_three(g)
    assert Win(S) in g.legal_actions()
    said = g.push(Win(S))
    out = g.outcome()
    assert out is not None and out.winner is S and out.special and str(out) == "South wins by thrown green jokers"
    assert out.payments == {S: 192, E: -64, W: -64, N: -64}
    assert said[-1].kind == "win" and sum(said[-1].payments.values(), Fraction(0)) == 0
    assert out.result is not None and out.result.value == 18  # 3 Mủn
    while g.history:
        g.pop()
    assert g.state_key() == before


def test_green_joker_win_needs_three_green_and_no_red_joker() -> None:
    g = vn(GREEN + "9p", draws="5m1s2s5m6m3s4s6m7m")
    pushed(g, "E discard 5z\nS draw\nS discard 1j")
    with pytest.raises(IllegalActionError, match="thrown 1 green joker"):
        g.push(Win(S))
    # "If the player discards any jokers from the Red Joker Set, the 'Discard 3 Jokers from the
    # Green Joker Set' is invalid"
    g = vn("1j2j6j1z2z3z4z5z6z7z1m1p9p", draws="5m1s2s5m6m3s4s6m7m")
    _throw_three(g, third="6j")
    with pytest.raises(IllegalActionError, match="own discard"):
        g.push(Win(S))  # the last throw was not green
    g = vn(GREEN + "6j", draws="5m1s2s5m6m3s4s6m7m")
    pushed(g, "E discard 5z\nS draw\nS discard 6j\nW draw\nW discard 1s\nN draw\nN discard 2s\nE draw\n"
              "E discard 1z\nS draw")
    _rest = "S discard 1j\nW draw\nW discard 3s\nN draw\nN discard 4s\nE draw\nE discard 2z\nS draw\nS discard 2j"
    pushed(g, _rest)
    with pytest.raises(IllegalActionError, match="red joker set"):
        g.push(Win(S))
    # a flower dealt: not an NFNL player at all
    g = vn("1j2j3j1z2z3z4z5z6z7z1m1p1f", draws="5m1s2s5m6m3s4s6m7m")
    _throw_three(g)
    with pytest.raises(IllegalActionError, match="not going for No-Flowers-No-Leaves"):
        g.push(Win(S))


def test_observed_table_checks_the_green_joker_win_from_the_discards() -> None:
    g = Game("vietnamese", mode="observed")
    script = """
        E discard 5z
        S discard 1j
        W discard 1s
        N discard 2s
        E discard 1z
        S discard 4j
        W discard 3s
        N discard 4s
        E discard 2z
        S discard 3j
    """
    for line in script.strip().splitlines():
        observe(g, parse_action(line))
    g.push(Win(S))
    out = g.outcome()
    assert out is not None and out.payments[S] == 192
    g.pop()
    # a seat that laid a joker aside is not going for NFNL
    h = Game("vietnamese", mode="observed")
    h.push(DeclareFlower(S, Tile.HOP))
    for line in script.strip().splitlines():
        observe(h, parse_action(line))
    with pytest.raises(IllegalActionError, match="not going for"):
        h.push(Win(S))


def test_observed_nfnl_win_is_shown_and_checked() -> None:
    g = Game("vietnamese", mode="observed")
    for line in ("E discard 5z", "S discard 1z", "W discard 2m"):
        observe(g, parse_action(line))
    with pytest.raises(IllegalActionError, match="not a winning hand"):
        g.push(Win(S, tuple(parse_tiles("1357m2468p1357s1z2m"))))  # a wind still held
    g.push(Win(S, tuple(parse_tiles("1357m2468p13579s2m"))))
    out = g.outcome()
    # no joker thrown and none laid aside: none was dealt, so the hand is pure
    assert out is not None and out.situation["nfnl"] is True and out.situation["nfnl_pure"] is True
    assert out.payments == {S: 384, W: -192, E: -96, N: -96}
    h = Game("vietnamese", mode="observed")
    for line in ("E discard 5z", "S discard 1j", "W discard 2m"):
        observe(h, parse_action(line))
    h.push(Win(S, tuple(parse_tiles("1357m2468p13579s2m"))))
    out = h.outcome()  # a joker thrown: dealt or drawn, the referee cannot tell; never overpay
    assert out is not None and out.situation["nfnl_pure"] is False
    assert out.payments == {S: 128, W: -64, E: -32, N: -32}


def test_table_rule_nfnl_off_turns_both_wins_off() -> None:
    g = vn("1357m2468p1357s9s", draws="2m", nfnl=False)
    pushed(g, "E discard 5z\nS draw")
    with pytest.raises(IllegalActionError, match="not a winning hand"):
        g.push(Win(S))
    assert Draw(S) not in g.legal_actions() and Discard(S, Tile.M2) in g.legal_actions()


# -- jai alái (000, 001) -------------------------------------------------------------------------
PH = {
    E: "111m234m567m99m123p45p",
    S: "22p345p678s78s345m789p",  # ready: waits on 6s / 9s
    W: "111s222s333s444s67p88p",
    N: "99m666m888m1234567s4p",
}


def ph(markers: tuple[int, ...] | None = None, **options: object) -> Game:
    return staged_game("filipino", PH, first="9s", draws="5m7m2m8p", back="3m4m", markers=markers,
                       **options)  # type: ignore[arg-type]


def test_jai_alai_marker_per_win_carried_to_the_next_hand() -> None:
    # "At the end of each game, the winner gets one marker, two for búnot."
    g = ph((1, 2, 0, 0), jai_alai=True)
    g.push(Discard(E, Tile.S9))
    said = [e for e in g.push(Win(S)) if e.kind == "jai_alai"]
    assert [e.text for e in said] == ["South takes 1 jai alái marker (3 of 5)"] and not said[0].payments
    assert g.outcome().situation["jai_alai"] == 2  # type: ignore[union-attr]
    assert g.next_jai_alai() == (1, 3, 0, 0)
    nxt = Game("filipino", jai_alai=g.next_jai_alai())
    assert nxt.jai_alai == (1, 3, 0, 0) and "jai_alai=(1, 3, 0, 0)" in repr(nxt)


def test_fifth_marker_wins_the_pot_of_four_shares_and_a_new_pot_starts() -> None:
    # "Players put a share, typically $1, into the jai alái ... The first player to get five
    # markers wins the jai alai."
    g = ph((0, 4, 3, 0), jai_alai=True)
    g.push(Discard(E, Tile.S9))
    said = [e for e in g.push(Win(S)) if e.kind == "jai_alai"]
    assert said[0].text.startswith("South takes 1 jai alái marker (5 of 5) and wins the jai alái pot")
    assert said[0].payments == {S: 3, E: -1, W: -1, N: -1} and said[0].reason == "jai alái pot"
    assert g.next_jai_alai() == (0, 0, 0, 0)
    assert g.to_json()["jai_alai"] == {"held": {"East": 0, "South": 4, "West": 3, "North": 0},
                                       "next": {"East": 0, "South": 0, "West": 0, "North": 0}}
    g.pop()
    assert g.outcome() is None and g.to_json()["jai_alai"]["next"] is None


def test_jai_alai_share_and_target_are_table_rules_and_off_by_default() -> None:
    g = ph((0, 2, 0, 0), jai_alai=True, jai_alai_markers=3, jai_alai_share="1/2")
    g.push(Discard(E, Tile.S9))
    pot = [e for e in g.push(Win(S)) if e.kind == "jai_alai"]
    assert pot[0].payments == {S: Fraction(3, 2), E: Fraction(-1, 2), W: Fraction(-1, 2), N: Fraction(-1, 2)}
    off = ph((0, 4, 0, 0))
    off.push(Discard(E, Tile.S9))
    assert not [e for e in off.push(Win(S)) if e.kind == "jai_alai"]
    assert off.next_jai_alai() == (0, 4, 0, 0) and off.to_json()["jai_alai"] is None


def test_jai_alai_bad_markers_and_unfinished_hand() -> None:
    with pytest.raises(ValueError, match="four whole numbers"):
        Game("filipino", jai_alai=(1, 2, 3))
    with pytest.raises(IllegalActionError, match="not over"):
        Game("filipino", jai_alai=(0, 0, 0, 1)).next_jai_alai()


# -- eight flowers (004: "Winning automatically with all eight flower tiles") ---------------
def test_the_eighth_flower_drawn_wins_at_once_as_a_five_tai_self_pick() -> None:
    """South was dealt seven flowers and draws the eighth: laid aside, it ends the hand (no
    replacement drawn), each other player paying S$32; the four seasons it completes are
    paid first, as an instant payout is."""
    g = staged_game("singaporean", {S: "1234567f123m456p"}, first="5z", draws="8f", back="7m8m9m1s2s3s4s")
    pushed(g, "\n".join(f"S flower {i}f" for i in range(1, 8)))
    pushed(g, "E discard 5z\nS draw")
    before = g.state_key()
    said = pushed(g, "S flower 8f")
    out = g.outcome()
    assert g.is_over() and out is not None and out.winner is S and out.special == "eight flowers"
    assert out.payments == {S: 96, E: -32, W: -32, N: -32}
    assert said[-2].startswith("South: four blue flowers (5678f) — South +S$12.00")
    assert said[-1] == "South wins: Eight Flowers (12345678f) — payments: South +S$96.00, East -S$32.00, " \
                       "West -S$32.00, North -S$32.00"
    with pytest.raises(IllegalActionError, match="the hand is over"):
        g.push(Discard(S, Tile.M1))
    g.pop()
    assert g.state_key() == before and not g.is_over()


def test_eight_flowers_dealt_win_during_the_deal_and_are_no_win_where_thirteen_count() -> None:
    """Dealt all eight, South wins as it lays the eighth aside, the deal's ambitions paid
    first. A Filipino table counts thirteen flowers (its honours are flowers too): eight
    are no win there, and the hand goes on."""
    g = staged_game("singaporean", {S: "12345678f12345m"}, first="5z", back="6m7m8m9m1s2s3s4s")
    said = pushed(g, "\n".join(f"S flower {i}f" for i in range(1, 9)))
    out = g.outcome()
    assert out is not None and out.winner is S and out.payments[S] == 96
    assert [t.split(" —")[0] for t in said if "on open" in t] == [
        "South: flower bitten on open (26f)", "South: four red flowers on open (1234f)",
        "South: four blue flowers on open (5678f)"]
    g = staged_game("filipino", {S: "12345678f12345678m"}, first="9p", back="1s2s3s4s5s6s7s8s")
    pushed(g, "\n".join(f"S flower {i}f" for i in range(1, 9)))
    assert not g.is_over() and g.outcome() is None


# -- jokers laid out at the deal (003's joker table) ----------------------------------------
@pytest.mark.parametrize(("when", "phan"), [("deal", 3), ("play", 2)])
def test_a_general_joker_laid_out_at_the_deal_is_worth_more_than_one_laid_out_in_play(when: str,
                                                                                    phan: int) -> None:
    """003, "Jokers by seat": South's General (Tổng) is worth 3 Phán "if exposed before the
    game starts" and 2 if exposed during play. The referee now tells the scorer which (it
    had priced every joker as laid out in play)."""
    if when == "deal":
        g = vn("4j123m456p789s99p5s", draws="7s", back="6s")
        script = "S flower 4j\nE discard 5z\nS draw"
    else:
        g = vn("6s123m456p789s99p5s", draws="4j1s2s1z7s", back="2p")
        script = "E discard 5z\nS draw\nS flower 4j\nS discard 2p\nW draw\nW discard 1s\nN draw\nN discard 2s\n" \
                 "E draw\nE discard 1z\nS draw"
    pushed(g, script)
    g.push(Win(S))
    out = g.outcome()
    assert out is not None and out.winner is S and out.result is not None
    assert dict(out.result.patterns)["Jokers Shown"] == phan
