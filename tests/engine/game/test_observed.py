"""Observed mode: the referee sees only the table, as the camera and the web page do."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.game import (
    Chow,
    DeclareBeauty,
    DeclareFlower,
    DeclareNews,
    Discard,
    Draw,
    DrawGame,
    Game,
    IllegalActionError,
    Pung,
    Win,
    observe,
    parse_action,
    rules_for,
)
from engine.seats import Seat
from engine.tiles import Tile, parse_tiles

E, S, W, N = Seat.EAST, Seat.SOUTH, Seat.WEST, Seat.NORTH


def play(game: Game, script: str) -> list[str]:
    """Push one action per line (the log notation); return the announcements."""
    said: list[str] = []
    for line in script.strip().splitlines():
        said += [e.text for e in observe(game, parse_action(line))]
    return said


def test_document_002_worked_example_all_chows_east_pays_double() -> None:
    """002: East round, South wins on East's discard with $1.00 + All Chows $0.25:
    the discarder pays $2.50, the others $1.25, South collects $5.00."""
    g = Game("filipino", mode="observed")
    play(g, """
        S flower 3f
        S flower 4f
        S flower 1z
        S flower 2z
        S flower 4z
        E discard 3m
        S chow 2m
        S discard 1p
        W discard 2p
        N discard 3p
        E discard 5s
        S discard 9m
        W discard 1s
        N discard 2s
        E discard 8p
        S chow 7p
        S discard 5m
        W discard 3s
        N discard 4s
        E discard 6m
        S discard 1m
        W discard 9p
        N discard 2m
        E discard 1s
        S discard 2p
        W discard 3p
        N discard 9m
        E discard 7s
        S discard 6p
        W discard 4p
        N discard 8m
        E discard 9s
    """)
    events = g.push(Win(S, tuple(parse_tiles("11m345p678s789s"))))
    win = next(e for e in events if e.kind == "win")
    assert win.payments == {E: Fraction(-5, 2), S: Fraction(5), W: Fraction(-5, 4), N: Fraction(-5, 4)}
    out = g.outcome()
    assert out is not None and out.result is not None
    assert [name for name, _ in out.result.patterns] == ["winning", "all chows"]
    assert str(out.hand) == "11m345p677889s [234m] [789p] / 124z34f"


def test_observed_hands_are_counts_until_revealed() -> None:
    g = Game("visayan", mode="observed")
    assert [g.hidden(s) for s in Seat] == [17, 16, 16, 16]
    observe(g, Discard(E, Tile.RED))
    observe(g, Discard(S, Tile.P5))  # implied draw
    assert g.hidden(S) == 16 and g.discards(S) == (Tile.P5,)
    g.push(Pung(N))  # North shows two 5p from its unseen tiles
    assert g.hidden(N) == 14 and str(g.melds(N)[0]) == "[555p]"
    assert g.actor() is N


def test_a_fifth_copy_on_the_table_is_refused() -> None:
    g = Game("visayan", mode="observed")
    play(g, """
        E discard 5p
        S discard 5p
        W discard 5p
        N discard 5p
    """)
    key = g.state_key()
    with pytest.raises(IllegalActionError, match="has 4 × 5p, the table would show 5"):
        observe(g, Discard(E, Tile.P5))
    assert g.state_key() == key


def test_a_win_must_show_the_hand_and_the_hand_must_be_complete() -> None:
    g = Game("singaporean", mode="observed")
    observe(g, Discard(E, Tile.M9))
    with pytest.raises(IllegalActionError, match="show South's concealed tiles"):
        g.push(Win(S))
    with pytest.raises(IllegalActionError, match=r"holds 13 concealed tiles \+ the claimed 9m, 3 shown"):
        g.push(Win(S, tuple(parse_tiles("999m"))))
    with pytest.raises(IllegalActionError, match="not a winning hand"):
        g.push(Win(S, tuple(parse_tiles("1234567m123p4599m"))))
    assert g.outcome() is None and g.hidden(S) == 13


def test_singapore_locked_discard() -> None:
    g = Game("singaporean", mode="observed")
    play(g, """
        E discard 1z
        S discard 5p
        W discard 1z
        N discard 2z
        E discard 3z
        S discard 9s
        W discard 5p
    """)
    hand = tuple(parse_tiles("123m456m789m2p34p55p"))  # ready on 2p/5p: threw 5p before
    with pytest.raises(IllegalActionError, match="locked discard"):
        g.push(Win(S, hand[:-1] + (Tile.P5,)))


def test_visayan_beauty_and_news_only_in_the_first_round() -> None:
    g = Game("visayan", mode="observed")
    events = g.push(DeclareBeauty(E))
    assert [e.payments.get(E) for e in events if e.payments][-1] == Fraction(3, 4)
    assert g.hidden(E) == 14 and str(g.melds(E)[0]) == "[567z]"
    play(g, """
        E discard 1m
        S discard 2m
        W discard 3m
        N discard 4m
    """)
    observe(g, Draw(E))
    with pytest.raises(IllegalActionError, match="only be declared in the first round"):
        g.push(DeclareNews(E))
    g2 = Game("filipino", mode="observed")
    with pytest.raises(IllegalActionError, match="Visayan ambition"):
        g2.push(DeclareBeauty(E))


def test_news_takes_a_gift() -> None:
    g = Game("visayan", mode="observed")
    before = g.wall_remaining
    g.push(DeclareNews(E))
    assert g.wall_remaining == before - 1 and g.hidden(E) == 17 - 4 + 1


def test_deal_flowers_in_any_order_then_turn_rules() -> None:
    g = Game("singaporean", mode="observed")
    g.push(DeclareFlower(N, Tile.CAT))
    g.push(DeclareFlower(W, Tile.FLOWER3))
    g.push(Discard(E, Tile.M1))
    with pytest.raises(IllegalActionError, match="South's turn|claim it"):
        g.push(DeclareFlower(N, Tile.RAT))
    with pytest.raises(IllegalActionError, match="only South may chow"):
        g.push(Chow(W, Tile.M1))


def test_a_flower_seen_just_after_its_seats_discard_goes_before_it() -> None:
    g = Game("singaporean", mode="observed")
    play(g, """
        E discard 1m
        S discard 2m
    """)
    said = [e.text for e in observe(g, DeclareFlower(S, Tile.FLOWER2))]
    assert said == ["South declares Orchid"]
    assert [str(a) for a in g.history][-3:] == ["S draw", "S flower 2f", "S discard 2m"]
    assert g.bonus(S) == (Tile.FLOWER2,) and g.last_discard == (S, Tile.M2)
    assert g.hidden(S) == 13  # the replacement was drawn before the discard
    observe(g, Discard(W, Tile.M3))  # and West plays on, drawing first


def test_a_flower_seen_late_goes_back_only_behind_its_own_seats_last_discard() -> None:
    g = Game("singaporean", mode="observed")
    play(g, """
        E discard 1m
        S discard 2m
    """)
    key = g.state_key()
    with pytest.raises(IllegalActionError, match="South just discarded 2m"):
        observe(g, DeclareFlower(E, Tile.FLOWER1))  # not East's discard: East is not due
    assert g.state_key() == key
    observe(g, Discard(W, Tile.M3))
    with pytest.raises(IllegalActionError, match="West just discarded 3m"):
        observe(g, DeclareFlower(S, Tile.FLOWER1))  # West has played since South's discard
    assert [str(a) for a in g.history][-2:] == ["W draw", "W discard 3m"]


def test_a_late_flower_the_table_cannot_hold_is_refused_and_the_discard_lies_as_before() -> None:
    g = Game("singaporean", mode="observed")
    g.push(DeclareFlower(N, Tile.CAT))
    play(g, "E discard 1m")
    key, history = g.state_key(), [str(a) for a in g.history]
    with pytest.raises(IllegalActionError, match="has 1 × 1a, the table would show 2"):
        observe(g, DeclareFlower(E, Tile.CAT))  # the set's one cat lies with North
    assert g.state_key() == key and [str(a) for a in g.history] == history


def test_vietnamese_discarded_flower_wins_for_a_ready_hand_and_the_thrower_pays_all() -> None:
    g = Game("vietnamese", mode="observed")
    play(g, """
        E discard 9m
        S discard 1f
    """)
    with pytest.raises(IllegalActionError, match="not ready"):
        g.push(Win(W, tuple(parse_tiles("1357m2468p1357s1z1f"))))
    g.push(Win(W, tuple(parse_tiles("123m456m789m123p5p1f"))))
    out = g.outcome()
    assert out is not None and out.winner is W and out.discarder is S
    if out.payments.get(W):
        assert all(out.payments[s] == 0 for s in (E, N))


def test_singapore_robbing_the_kong() -> None:
    g = Game("singaporean", mode="observed")
    play(g, """
        E discard 5p
        S pung
        S discard 1m
        W discard 2m
        N discard 3m
        E discard 4m
    """)
    observe(g, Draw(S))
    events = g.push(parse_action("S sagasa 5p"))
    assert g.robbing and g.actor() is S and "a win may rob it" in events[-1].text
    assert g.legal_actions() == [Draw(S)]  # no pung or chow of it; a win shows its unseen hand
    with pytest.raises(IllegalActionError, match="only a win may rob it"):
        g.push(Pung(W))
    with pytest.raises(IllegalActionError, match="South takes the gift"):
        g.push(Draw(W))
    before = g.state_key()
    g.push(Win(N, tuple(parse_tiles("123m456m789s34p11z5p"))))
    out = g.outcome()
    assert out is not None and out.winner is N and out.discarder is S
    assert out.situation["robbing_kang"] is True
    assert str(g.melds(S)[0]) == "[555p]"  # the kang is a pung again
    g.pop()
    assert g.state_key() == before
    g.push(Draw(S))  # nobody robs: the kang stands and South takes the gift
    assert str(g.melds(S)[0]) == "<5555p>" and g.actor() is S and not g.robbing


def _play_down(g: Game, left: int) -> Seat:
    """Observed play with nobody claiming until the referee counts ``left`` tiles to draw;
    returns the seat due to draw."""
    suited = [Tile(t) for t in range(27)]
    seat, i = g.actor(), 0
    while g.live_remaining > left:
        observe(g, Discard(seat, suited[i % 27]))
        seat, i = seat.next, i + 1
    return seat


def test_a_person_may_declare_the_draw_game_only_when_the_wall_is_empty() -> None:
    g = Game("singaporean", mode="observed")
    observe(g, Discard(E, Tile.M1))
    key = g.state_key()
    with pytest.raises(IllegalActionError, match=r"counts \d+ tiles still to draw.*draw_game_slack"):
        g.push(DrawGame(S))
    assert g.state_key() == key and DrawGame(S) not in g.legal_actions()
    due = _play_down(g, g.rules.draw_game_slack)
    with pytest.raises(IllegalActionError, match=f"it is {due} who would draw"):
        g.push(DrawGame(due.next))
    assert DrawGame(due) in g.legal_actions()
    before = g.state_key()
    events = g.push(parse_action(f"{due.name[0]} drawgame"))
    out = g.outcome()
    assert out is not None and out.kind == "draw" and g.is_over()
    assert [e.kind for e in events] == ["draw_game"] and not any(e.payments for e in events)
    with pytest.raises(IllegalActionError, match="the hand is over"):
        g.push(Draw(due))
    assert g.pop() == DrawGame(due) and g.state_key() == before and g.outcome() is None


def test_the_draw_game_waits_for_the_discard_and_is_refused_in_full_mode() -> None:
    g = Game(rules_for("filipino", draw_game_slack=200), mode="observed")
    with pytest.raises(IllegalActionError, match="East must discard first"):
        g.push(DrawGame(E))
    observe(g, Discard(E, Tile.M1))
    g.push(DrawGame(S))  # a generous table: the referee's count does not stand in the way
    assert g.outcome() is not None and g.next_deal()[0] is S  # the deal passes after a draw
    with pytest.raises(IllegalActionError, match="holds the wall"):
        Game("filipino", seed=1).push(DrawGame(E))


def test_singapore_bao_a_fresh_tile_fed_to_a_kang_late_pays_the_kang_for_all() -> None:
    from engine.ruleset import find_ruleset

    rs = find_ruleset("singapore")
    suited = [Tile(t) for t in range(27) if t != Tile.P5]

    def kang_payments(left: int) -> tuple[Seat, dict[Seat, Fraction]]:
        g = Game("singaporean", mode="observed")
        seat, i = g.actor(), 0
        while g.live_remaining > left:
            observe(g, Discard(seat, suited[i % len(suited)]))
            seat, i = seat.next, i + 1
        observe(g, Discard(seat, Tile.P5))  # 5p never seen before: a fresh tile
        events = g.push(parse_action(f"{seat.next.name[0]} kang"))
        paid = [e for e in events if e.kind == "instant"]
        assert len(paid) == 1
        return seat, dict(paid[0].payments)

    thrower, late = kang_payments(8)  # the throw leaves 7: bao
    claimer = thrower.next
    assert late == rs.instant("open kang", claimer, tiles="5555p", liable=thrower).payments
    assert all(late[s] == 0 for s in Seat if s not in (thrower, claimer))
    thrower, early = kang_payments(30)  # plenty left: everyone pays their share
    assert early == rs.instant("open kang", thrower.next, tiles="5555p").payments
    assert all(early[s] < 0 for s in Seat if s is not thrower.next)


def _singapore_win_after(script: str, shown: str, **options: object) -> dict[Seat, Fraction]:
    """South's payments for winning on West's last discard after ``script``, showing ``shown``."""
    g = Game(rules_for("singaporean", **options), mode="observed")
    play(g, script)
    events = g.push(Win(S, tuple(parse_tiles(shown))))
    return next(e for e in events if e.kind == "win").payments


def _south_pungs_off_east(tiles: list[str], then: str) -> str:
    """A script: South pungs each of ``tiles`` as East throws it, the others throwing plain
    tiles between, and then ``then``."""
    throws = [("9m", "2m", "3m"), ("8m", "2s", "3s"), ("9s", "4s", "5s")]
    lines: list[str] = []
    for k, tile in enumerate(tiles):
        south, west, north = throws[k]
        lines += [f"E discard {tile}", "S pung", f"S discard {south}"]
        if k < len(tiles) - 1:
            lines += [f"W discard {west}", f"N discard {north}"]
    return "\n".join(lines + [line.strip() for line in then.strip().splitlines()])


# South pungs three dots sets off East, then West throws the dots tile that completes a full flush
_THREE_DOTS_MELDS = _south_pungs_off_east(["1p", "4p", "7p"], "W discard 9p")


def test_singapore_bao_the_tile_that_feeds_three_melds_of_a_suit_a_full_flush_pays_for_all() -> None:
    """004, Bao: "Potential winner has 3 or more melds in the same suit | A tile of the same
    suit | Potential winner claims the discard to win on Full Flush"."""
    paid = _singapore_win_after(_THREE_DOTS_MELDS, "5p6p7p9p9p")  # Full Color, 4 tai: the winner gains 32
    assert paid == {E: 0, S: 32, W: -32, N: 0}
    shared = _singapore_win_after(_THREE_DOTS_MELDS, "5p6p7p9p9p", bao=False)  # the table rule off
    assert shared == {E: -8, S: 32, W: -16, N: -8}  # 004's table: the discarder twice the base


def test_singapore_bao_east_feeding_the_full_flush_pays_for_all() -> None:
    """The same bao with East the thrower: East is seat 0, and a check of the thrower's truth
    (not ``is not None``) let everyone share the win, East paying only the discarder's double."""
    g = Game(rules_for("singaporean"), mode="observed")
    play(g, """E discard 5s
               S discard 6s
               W discard 1p
               N pung
               N discard 9m
               E discard 2m
               S discard 3m
               W discard 4p
               N pung
               N discard 8m
               E discard 2s
               S discard 3s
               W discard 7p
               N pung
               N discard 9s
               E discard 9p""")
    events = g.push(Win(N, tuple(parse_tiles("5p6p7p9p9p"))))
    assert next(e for e in events if e.kind == "win").payments == {E: -32, S: 0, W: 0, N: 32}


def test_singapore_bao_the_last_dragon_to_two_dragon_pungs_and_the_last_wind_to_three() -> None:
    """004, Bao: two dragon pungs melded, the remaining dragon; three wind pungs melded, the
    remaining wind: the thrower pays for all."""
    paid = _singapore_win_after(_south_pungs_off_east(["5z", "6z"], "W discard 7z"), "1p2p3p4s4s7z7z7z")
    assert paid[W] == -paid[S] and paid[E] == paid[N] == 0
    paid = _singapore_win_after(_south_pungs_off_east(["1z", "2z", "3z"], "W discard 4z"), "5p5p4z4z4z")
    assert paid[W] == -paid[S] and paid[E] == paid[N] == 0


def test_singapore_no_bao_for_an_ordinary_discard_early_in_the_hand() -> None:
    """Two melds of dots are not three: the win is paid by everyone (the discarder double)."""
    paid = _singapore_win_after(_south_pungs_off_east(["1p", "4p"], "W discard 9p"), "5p6p7p7p8p9p9p9p")
    assert paid[S] > 0 and all(paid[s] < 0 for s in (E, W, N))


def test_singapore_a_table_without_bao_shares_a_late_kang_too() -> None:
    suited = [Tile(t) for t in range(27) if t != Tile.P5]
    g = Game(rules_for("singaporean", bao=False), mode="observed")
    seat, i = g.actor(), 0
    while g.live_remaining > 8:
        observe(g, Discard(seat, suited[i % len(suited)]))
        seat, i = seat.next, i + 1
    observe(g, Discard(seat, Tile.P5))  # fresh, with 7 left: bao, were the table playing it
    paid = next(e for e in g.push(parse_action(f"{seat.next.name[0]} kang")) if e.kind == "instant").payments
    assert all(paid[s] < 0 for s in Seat if s is not seat.next)


def test_singapore_bao_the_honour_that_feeds_three_honour_pungs_all_honours() -> None:
    """004, Bao: "Potential winner has 3 or more honour pungs melded | Any of remaining
    honours | Potential winner claims the discard to win on All Honours"."""
    honours = _south_pungs_off_east(["1z", "2z", "5z"], "W discard 6z")
    paid = _singapore_win_after(honours, "6z6z7z7z7z")  # two winds and a dragon shown, all honours
    assert paid[W] == -paid[S] and paid[E] == paid[N] == 0
    mixed = _south_pungs_off_east(["1z", "2z", "5z"], "W discard 5p")
    paid = _singapore_win_after(mixed, "5p5p7z7z7z")  # the same pungs, a suit pair: no All Honours
    assert paid[S] > 0 and all(paid[s] < 0 for s in (E, W, N))


def test_singapore_bao_the_discard_that_made_a_fourth_meld_of_the_suit_pays_a_later_full_flush() -> None:
    """004, Bao: three melds of a suit, a tile of that suit: "... or claims the discard to make
    a meld, and wins on Full Flush later". North's 9p becomes South's fourth dots pung; South
    then draws the pair's second 5p: North pays the self-drawn Full Flush for all."""
    g = Game("singaporean", mode="observed")
    play(g, _south_pungs_off_east(["1p", "4p", "7p"], """
        W discard 4s
        N discard 9p
        S pung
        S discard 1s
        W discard 5m
        N discard 6m
        E discard 7m
        S draw"""))
    events = g.push(Win(S, tuple(parse_tiles("5p5p"))))
    paid = next(e for e in events if e.kind == "win").payments
    assert paid[N] == -paid[S] and paid[E] == paid[W] == 0 and paid[S] > 0


# South shows the prevailing wind (East), its seat wind and the white dragon, a tai each
_THREE_HONOUR_TAI = ["1z", "2z", "5z"]


def test_singapore_bao_a_dragon_thrown_to_a_hand_showing_four_tai_pays_a_win_of_five() -> None:
    """004, Bao: "Potential winner has 4 or more tai visible in melded animals/flowers/seasons
    or honor pungs | A dragon, prevailing wind, or seat wind of the potential winner |
    Potential winner claims the discard to win with 5 or more tai". Three honour pungs worth a
    tai each and the cat: West's green dragon wins 5 tai (the limit), and West pays it all."""
    win = _south_pungs_off_east(_THREE_HONOUR_TAI, "W discard 6z")
    paid = _singapore_win_after("S flower 1a\n" + win, "5p5p6z6z6z")
    assert paid == {E: 0, S: 64, W: -64, N: 0}  # 5 tai: the base S$16, the discarder twice
    shared = _singapore_win_after(win, "5p5p6z6z6z")  # 3 tai shown without the cat: no bao
    assert shared == {E: -16, S: 64, W: -32, N: -16}
    unplayed = _singapore_win_after("S flower 1a\n" + win, "5p5p6z6z6z", bao=False)
    assert unplayed == shared


def test_singapore_bao_for_shown_tai_counts_flowers_as_the_table_scores_them() -> None:
    """A flower counts a tai when it bears the winner's number (South: 2), or every flower at
    a table that scores them all (table rule ``flowers="every"``)."""
    win = _south_pungs_off_east(_THREE_HONOUR_TAI, "W discard 6z")
    assert _singapore_win_after("S flower 2f\n" + win, "5p5p6z6z6z")[E] == 0  # South's own flower
    assert _singapore_win_after("S flower 1f\n" + win, "5p5p6z6z6z")[E] < 0  # East's: 3 tai shown
    assert _singapore_win_after("S flower 1f\n" + win, "5p5p6z6z6z", flowers="every")[E] == 0


def test_singapore_no_bao_for_shown_tai_when_the_win_is_under_five_tai() -> None:
    """Four tai shown (two honour pungs, two animals), won on the green dragon as the pair:
    4 tai in all, so everyone pays their share."""
    script = "S flower 1a\nS flower 3a\n" + _south_pungs_off_east(["1z", "5z"], "W discard 6z")
    paid = _singapore_win_after(script, "1p2p3p4s5s6s6z6z")
    assert paid[S] > 0 and all(paid[s] < 0 for s in (E, W, N))


def test_singapore_bao_an_honour_claimed_for_a_meld_by_a_hand_showing_four_tai_pays_later() -> None:
    """The row's second half: "or claims the discard to make a meld, and wins with 5 or more
    tai later". North's green dragon made South's fourth honour pung with four tai shown; South
    then draws its pair: North pays the self-drawn win for all. Without the cat South showed 3
    tai when it claimed, and everyone pays."""
    rest = """
        W discard 4s
        N discard 6z
        S pung
        S discard 1s
        W discard 5m
        N discard 6m
        E discard 7m
        S draw"""
    for bonus, liable in (("S flower 1a\n", True), ("", False)):
        g = Game("singaporean", mode="observed")
        play(g, bonus + _south_pungs_off_east(_THREE_HONOUR_TAI, rest))
        win = next(e for e in g.push(Win(S, tuple(parse_tiles("5p5p")))) if e.kind == "win")
        assert win.payments == ({E: 0, S: 96, W: 0, N: -96} if liable else {E: -32, S: 96, W: -32, N: -32})
        assert win.text.endswith("South +S$96.00, North -S$96.00 (North pays for all)") is liable


def test_filipino_joker_tile_completes_a_hand_only_at_a_table_that_plays_it() -> None:
    """000/001: "This tile is now the joker and can represent any other suited tile" (table
    rule ``joker``). South's 78p waits on 6p or 9p; the 5p drawn stands for either."""
    hand = tuple(parse_tiles("123m456m789m123s99s78p5p"))
    for rules, wins in ((rules_for("filipino", joker="5p"), True), (rules_for("filipino"), False)):
        g = Game(rules, mode="observed")
        play(g, "E discard 9m\nS draw")
        before = g.state_key()
        if not wins:
            with pytest.raises(IllegalActionError, match="is not a winning hand"):
                g.push(Win(S, hand))
            assert g.state_key() == before
            continue
        g.push(Win(S, hand))
        out = g.outcome()
        assert out is not None and out.winner is S and out.discarder is None
        assert [name for name, _ in out.result.patterns][:3] == ["winning", "pure straight", "all chows"]
