"""Referee page (the real referee, observed mode): set up, record events, refusals, undo, log, restart."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from engine.seats import Seat
from tests.webui.conftest import token_of
from webui import create_app
from webui.adapters.tablebook import TableEventError

# Doc 002's example shape, all concealed: 17 tiles, complete with 9s.
SOUTH_WINS = "11m345p678s789s234m789p"


def setup_table(client: FlaskClient, token: str, **names: str) -> None:
    form = {"csrf_token": token, "variant": "filipino", "dealer": "E", "round": "E"}
    form.update({f"name_{k}": v for k, v in names.items()})
    assert client.post("/referee/new", data=form).status_code == 302


def record(client: FlaskClient, token: str, kind: str, seat: str, tiles: str = "", **extra: str) -> Any:
    resp = client.post("/referee/event", data={"csrf_token": token, "kind": kind, "seat": seat, "tiles": tiles,
                                               **extra}, follow_redirects=True)
    assert resp.status_code == 200, resp.get_data(as_text=True)[-800:]
    return resp


def log_lines(client: FlaskClient) -> list[str]:
    page = client.get("/referee/").get_data(as_text=True)
    block = page.split('class="event-log"', 1)[1].split("</ol>", 1)[0]
    return [re.sub(r"<[^>]+>|\s+", " ", li).strip() for li in re.findall(r"<li>(.*?)</li>", block, re.S)]


def test_first_visit_shows_the_setup_form(client: FlaskClient) -> None:
    page = client.get("/referee/").get_data(as_text=True)
    assert "Set up the table" in page and 'name="name_east"' in page
    assert "doubles" in page  # the table rules the referee plays with are offered


def test_events_are_announced_and_logged_newest_first(client: FlaskClient, token: str) -> None:
    setup_table(client, token, east="Lola", south="Tito")
    page = record(client, token, "discard", "E", "9s").get_data(as_text=True)
    assert "Lola (East) discards 9 bamboo" in page
    page = record(client, token, "pung", "S", "9s").get_data(as_text=True)
    assert "Tito (South): pung of 9 bamboo" in page
    assert log_lines(client)[0].endswith("Tito (South): pung of 9 bamboo")
    panel = client.get("/live/panel").get_data(as_text=True)
    assert panel.count('data-code="9s"') == 3  # the called discard now sits in South's meld


def test_kang_pays_at_once_and_the_win_pays_everyone(client: FlaskClient, token: str) -> None:
    setup_table(client, token, east="Ana", south="Ben", west="Cris", north="Dina")
    record(client, token, "discard", "E", "5m")
    page = record(client, token, "kang", "N", "5555m").get_data(as_text=True)
    assert "Dina (North)" in page and "+$0.75" in page  # an open kang: $0.25 from each
    record(client, token, "discard", "N", "9s")
    page = record(client, token, "win", "S", "", hand=SOUTH_WINS, how="discard").get_data(as_text=True)
    assert "Ben (South) wins" in page
    ledger = client.get("/ledger/").get_data(as_text=True)
    assert "winning, all chows" in ledger


def test_refused_event_says_why_and_changes_nothing(client: FlaskClient, token: str) -> None:
    setup_table(client, token)
    record(client, token, "discard", "E", "5p")
    record(client, token, "pung", "W", "5p")
    before = log_lines(client)
    for bad, message in [({"kind": "discard", "seat": "N", "tiles": "1m"}, "N discard 1m"),
                         ({"kind": "sagasa", "seat": "E", "tiles": "5p"}, "E "),
                         ({"kind": "discard", "seat": "Q", "tiles": "5p"}, "unknown seat"),
                         ({"kind": "juggle", "seat": "E", "tiles": "5p"}, "unknown event"),
                         ({"kind": "discard", "seat": "W", "tiles": "5q"}, "5q"),
                         ({"kind": "win", "seat": "E", "hand": "123m"}, "E win"),
                         ({"kind": "discard", "seat": "W", "tiles": ""}, "a discard needs a tile, e.g. 5p"),
                         ({"kind": "chow", "seat": "N", "tiles": "56p"}, "a chow needs 3 tiles, got &#39;56p&#39;"),
                         ({"kind": "win", "seat": "N", "hand": ""}, "type the winner&#39;s whole hand")]:
        resp = client.post("/referee/event", data={"csrf_token": token, **bad})
        assert resp.status_code == 400 and message in resp.get_data(as_text=True), bad
        assert "Traceback" not in resp.get_data(as_text=True)
    assert log_lines(client) == before


def test_undo_takes_back_the_last_event_and_its_payments(client: FlaskClient, token: str) -> None:
    setup_table(client, token)
    record(client, token, "discard", "E", "1m")
    record(client, token, "secret", "S", "2222p")  # South's draw is implied
    assert "+$1.50" in client.get("/ledger/").get_data(as_text=True)
    page = client.post("/referee/undo", data={"csrf_token": token}, follow_redirects=True).get_data(as_text=True)
    assert "Undone" in page and len(log_lines(client)) == 1
    assert "+$1.50" not in client.get("/ledger/").get_data(as_text=True)
    client.post("/referee/undo", data={"csrf_token": token})
    page = client.post("/referee/undo", data={"csrf_token": token}, follow_redirects=True).get_data(as_text=True)
    assert "Nothing to undo" in page


def test_player_names_are_escaped(client: FlaskClient, token: str) -> None:
    setup_table(client, token, east='<img src=x onerror="alert(1)">')
    page = client.get("/referee/").get_data(as_text=True)
    assert "<img src=x" not in page and "&lt;img src=x" in page


def test_restart_resumes_the_game(config: dict[str, Any]) -> None:
    first = create_app(config)
    c1 = first.test_client()
    token = token_of(c1)
    setup_table(c1, token, east="Ana", south="Ben", west="Cris", north="Dina")
    record(c1, token, "flower", "E", "1f")
    record(c1, token, "discard", "E", "3m")
    record(c1, token, "kang", "W", "3333m")
    before = log_lines(c1)
    second = create_app(config)  # a new process on the same game file
    c2 = second.test_client()
    assert log_lines(c2) == before
    page = c2.get("/referee/").get_data(as_text=True)
    assert "Ana" in page and "Dina" in page
    record(c2, token_of(c2), "discard", "W", "5s")
    assert len(log_lines(c2)) == len(before) + 1


def test_a_flower_the_camera_saw_after_its_seats_discard_is_written_before_it(config: dict[str, Any]) -> None:
    """The hand that lays a flower hides it, and the discard follows at once: the camera sees
    the flower after the discard. Nobody has played since, so it goes before the discard, in
    the game and in the file; a person typing it after the discard is told it is not their turn."""
    app = create_app(config)
    client = app.test_client()
    token = token_of(client)
    setup_table(client, token)
    book = app.extensions["mahjongero"].book
    book.apply("discard", "E", "9s", source="camera")
    book.apply("discard", "S", "1m")
    assert book.apply("flower", "S", "5z", source="camera") == ["South declares White dragon"]
    assert [str(a) for a in book._ref.game.history][-3:] == ["S draw", "S flower 5z", "S discard 1m"]
    assert [(e.kind, e.source) for e in book.current().events][-2:] == [("flower", "camera"), ("discard", "hand")]
    before = log_lines(client)
    with pytest.raises(TableEventError, match="South just discarded 1m"):
        book.apply("flower", "S", "6z")  # typed: in the order it is entered
    with pytest.raises(TableEventError, match="South just discarded 1m"):
        book.apply("flower", "N", "6z", source="camera")  # not North's discard, nor North's turn
    assert log_lines(client) == before
    assert log_lines(create_app(config).test_client()) == before  # as written to the file


def test_fallback_table_book_when_asked(config: dict[str, Any]) -> None:
    app = create_app({**config, "REFEREE_BACKEND": "tablebook"})
    client = app.test_client()
    token = token_of(client)
    setup_table(client, token)
    page = record(client, token, "kang", "N", "7777s").get_data(as_text=True)  # no turn order kept
    assert "North: kang of 7 bamboo" in page


def test_setup_offers_the_scoring_rules_the_referee_plays_and_refuses_bad_values(
        client: FlaskClient, token: str) -> None:
    page = client.get("/referee/").get_data(as_text=True)
    assert 'name="rule_doubles"' in page and 'name="rule_seven_pairs"' in page
    resp = client.post("/referee/new", data={"csrf_token": token, "variant": "filipino",
                                             "rule_seven_pairs": "pair_plus_any_set"})
    assert resp.status_code == 302
    resp = client.post("/referee/new", data={"csrf_token": token, "variant": "filipino",
                                             "rule_seven_pairs": "maybe"})
    text = resp.get_data(as_text=True)
    assert resp.status_code == 400 and "maybe" in text and "Traceback" not in text


def table_line(client: FlaskClient) -> str:
    """The panel's "hand 1 · round wind South · dealer ..." line, tags removed."""
    panel = client.get("/live/panel").get_data(as_text=True)
    found = re.search(r'class="hand-line">(.*?)</p>', panel, re.S)
    assert found, panel[:500]
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split())


def test_setup_chooses_round_wind_and_dealer_and_the_referee_plays_them(
        app: Flask, client: FlaskClient, token: str) -> None:
    page = client.get("/referee/").get_data(as_text=True)
    assert 'name="round"' in page and 'name="dealer"' in page and 'name="first_dealer"' in page
    resp = client.post("/referee/new", data={"csrf_token": token, "variant": "filipino", "name_west": "Cris",
                                             "round": "S", "dealer": "W", "first_dealer": "E"})
    assert resp.status_code == 302
    assert "round wind South" in table_line(client) and "dealer Cris (West)" in table_line(client)
    hand = app.extensions["mahjongero"].book.ledger.hands(1)[0]
    assert (hand["round_wind"], hand["dealer"], hand["starting_dealer"]) == (Seat.SOUTH, Seat.WEST, Seat.EAST)
    refused = client.post("/referee/event", data={"csrf_token": token, "kind": "discard", "seat": "E", "tiles": "1m"})
    assert refused.status_code == 400 and "West" in refused.get_data(as_text=True)  # the dealer opens
    assert "Cris (West) discards 1 characters" in record(client, token, "discard", "W", "1m").get_data(as_text=True)


@pytest.mark.parametrize(("field", "value"), [("round", "Q"), ("dealer", "Up"), ("first_dealer", "7")])
def test_setup_refuses_a_bad_seat_and_sets_up_nothing(app: Flask, client: FlaskClient, token: str,
                                                       field: str, value: str) -> None:
    resp = client.post("/referee/new", data={"csrf_token": token, "variant": "filipino", field: value})
    text = resp.get_data(as_text=True)
    assert resp.status_code == 400 and f"&#39;{value}&#39;" in text and "Traceback" not in text
    assert app.extensions["mahjongero"].book.current() is None


def play_until_the_wall_is_nearly_empty(app: Flask) -> Seat:
    """Discards round the table (each with its implied draw) until the referee counts at
    most ``draw_game_slack`` tiles to draw; returns the seat that discarded last."""
    book = app.extensions["mahjongero"].book
    game = book._ref.game
    codes = [f"{n}{suit}" for suit in "mps" for n in range(1, 10)]  # Filipino honours are bonus tiles
    seat, turn = Seat.EAST, 0
    book.apply("discard", seat, codes[0])
    while game.live_remaining > game.rules.draw_game_slack:
        turn += 1
        seat = seat.next
        book.apply("discard", seat, codes[turn % len(codes)])
    return seat


def test_draw_game_is_refused_until_the_wall_is_nearly_empty(app: Flask, client: FlaskClient, token: str) -> None:
    setup_table(client, token, east="Ana", south="Ben")
    record(client, token, "discard", "E", "9s")
    before = log_lines(client)
    resp = client.post("/referee/event", data={"csrf_token": token, "kind": "draw", "seat": "S"})
    text = resp.get_data(as_text=True)
    game = app.extensions["mahjongero"].book._ref.game
    assert resp.status_code == 400 and "Traceback" not in text
    assert f"the referee counts {game.live_remaining} tiles still to draw" in text
    assert log_lines(client) == before and not game.is_over()


def test_draw_game_ends_the_hand_when_the_wall_is_empty(app: Flask, client: FlaskClient, token: str) -> None:
    setup_table(client, token, east="Ana", south="Ben", west="Cris", north="Dina")
    last = play_until_the_wall_is_nearly_empty(app)
    # The draw game is the table's: the referee names the seat due to draw, whoever is picked.
    page = record(client, token, "draw", "E").get_data(as_text=True)
    assert f"Exhaustive draw: {last.next} cannot draw, the wall is empty" in page
    game = app.extensions["mahjongero"].book._ref.game
    assert game.is_over() and game.outcome().kind == "draw"
    assert "Exhaustive draw" in log_lines(client)[0] and "hand 1" in table_line(client)
    again = client.post("/referee/event", data={"csrf_token": token, "kind": "draw", "seat": "E"})
    assert again.status_code == 400 and "already over" in again.get_data(as_text=True)
    assert app.extensions["mahjongero"].book._ref.game is game  # refusing it dealt no new hand
    client.post("/referee/undo", data={"csrf_token": token})
    assert not app.extensions["mahjongero"].book._ref.game.is_over()


@pytest.mark.parametrize("backend", ["referee", "tablebook"])
def test_a_visayan_beauty_and_news_are_recorded_and_paid(config: dict[str, Any], backend: str) -> None:
    """000: Beauty (one of each dragon) and NEWS (one of each wind) are declared melds paid at
    once ($.25 each way). South lays a Beauty with East's red dragon; West a NEWS from the hand."""
    app = create_app({**config, "REFEREE_BACKEND": backend})
    client = app.test_client()
    token = token_of(client)
    form = {"csrf_token": token, "variant": "visayan", "dealer": "E", "round": "E"}
    assert client.post("/referee/new", data=form).status_code == 302
    page = client.get("/referee/").get_data(as_text=True)
    assert '<option value="beauty">' in page and '<option value="news">' in page
    record(client, token, "discard", "E", "7z")
    record(client, token, "beauty", "S")  # the tiles are the set's own: none need typing
    record(client, token, "discard", "S", "9m")
    page = record(client, token, "news", "W", "1234z").get_data(as_text=True)
    lines = log_lines(client)
    assert any("South" in line and "Beauty" in line for line in lines), lines
    assert any("West" in line and "NEWS" in line for line in lines), lines
    melds = {}  # each meld the table panel draws: its kind and its tiles' codes
    for chunk in page.split('<span class="meld" title="')[1:]:
        kind, body = chunk.split('"', 1)
        melds[kind] = re.findall(r'data-code="(\w+)"', body.split("</div>", 1)[0])
    assert melds == {"beauty": ["5z", "6z", "7z"], "news": ["1z", "2z", "3z", "4z"]}
    east = page.split('<section class="seat seat-0', 1)[1].split("</section>", 1)[0]
    assert 'data-code="7z"' not in east  # the red dragon went into the Beauty
    paid = {(p.reason, p.seat): p.amount for p in app.extensions["mahjongero"].book.payments()
            if p.reason in ("Beauty", "NEWS")}  # each ambition: $.25 from each other player
    assert paid == {**{("Beauty", s): Fraction(3, 4) if s is Seat.SOUTH else Fraction(-1, 4) for s in Seat},
                    **{("NEWS", s): Fraction(3, 4) if s is Seat.WEST else Fraction(-1, 4) for s in Seat}}
    resp = client.post("/referee/event", data={"csrf_token": token, "kind": "beauty", "seat": "N", "tiles": "123z"})
    assert resp.status_code == 400 and "a beauty is 567z" in resp.get_data(as_text=True)
    app.extensions["mahjongero"].live.stop()


def test_beauty_is_offered_and_taken_only_where_it_is_played(client: FlaskClient, token: str) -> None:
    setup_table(client, token)  # a Filipino table: all honours are flowers
    assert '<option value="beauty">' not in client.get("/referee/").get_data(as_text=True)
    resp = client.post("/referee/event", data={"csrf_token": token, "kind": "beauty", "seat": "S"})
    assert resp.status_code == 400


def test_three_green_jokers_thrown_win_is_declared_without_typing_a_hand(client: FlaskClient, token: str) -> None:
    """003: "Upon discarding the 3rd Green Joker and no claims the discarded Joker, the player
    can declare a win ... regardless of whether the hand contain wind or dragon tiles, or even
    jokers": the thrower's hand does not matter, so the page does not ask for it."""
    form = {"csrf_token": token, "variant": "vietnamese", "dealer": "E", "round": "E"}
    assert client.post("/referee/new", data=form).status_code == 302
    assert "three green jokers thrown" in client.get("/referee/").get_data(as_text=True)  # the form says so
    for seat, tile in (("E", "1j"), ("S", "9m"), ("W", "9m"), ("N", "9p"), ("E", "2j")):
        record(client, token, "discard", seat, tile)
    resp = client.post("/referee/event", data={"csrf_token": token, "kind": "win", "seat": "E", "hand": ""})
    assert resp.status_code == 400 and "has thrown 2 green joker(s): going out needs 3" in resp.get_data(as_text=True)
    for seat, tile in (("S", "9s"), ("W", "9s"), ("N", "9p"), ("E", "3j")):
        record(client, token, "discard", seat, tile)
    record(client, token, "win", "E", hand="")
    assert log_lines(client)[0].endswith("East +192 points, South -64 points, West -64 points, North -64 points")


def test_a_refused_first_move_of_the_next_hand_leaves_the_table_where_it_was(config: dict[str, Any]) -> None:
    """South wins on its eighth flower (004): the next move deals the next hand, South's. East
    reporting a discard is refused, and the table stays at the end of hand 1 (it had dealt
    hand 2 anyway), also for a restart; South's discard then opens hand 2."""
    app = create_app(config)
    client = app.test_client()
    token = token_of(client)
    form = {"csrf_token": token, "variant": "singapore", "dealer": "E", "round": "E"}
    assert client.post("/referee/new", data=form).status_code == 302
    for n in range(1, 9):
        record(client, token, "flower", "S", f"{n}f")
    book = app.extensions["mahjongero"].book
    ended = book.current()
    assert ended is not None and ended.hand_no == 1 and "Eight Flowers" in (ended.last_result or "")
    resp = client.post("/referee/event", data={"csrf_token": token, "kind": "discard", "seat": "E", "tiles": "1m"})
    assert resp.status_code == 400 and "it is South&#39;s turn" in resp.get_data(as_text=True)
    assert book.current() == ended
    restarted = create_app(config).extensions["mahjongero"].book.current()
    assert restarted is not None and restarted.hand_no == 1
    record(client, token, "discard", "S", "1m")
    now = book.current()
    assert now is not None and now.hand_no == 2 and now.dealer is Seat.SOUTH


def _win_line(client: FlaskClient, token: str, hand: str, tiles: str = "", **form: str) -> tuple[int, str]:
    resp = client.post("/referee/event", data={"csrf_token": token, "kind": "win", "seat": "S", "tiles": tiles,
                                               "hand": hand, **form})
    return resp.status_code, (log_lines(client)[0] if resp.status_code == 302 else resp.get_data(as_text=True))


@pytest.mark.parametrize(("tiles", "paningit"), [("8s", True), ("", False), ("9p", False)])
def test_the_winning_tile_named_in_tiles_decides_the_wait_paid(client: FlaskClient, token: str, tiles: str,
                                                               paningit: bool) -> None:
    """South draws 8s into 7_9s: paníngit (001, the middle wait). The referee had read the
    hand's last typed tile as the tile drawn, whatever Tiles said; with none named it still does."""
    setup_table(client, token)
    record(client, token, "discard", "E", "9m")
    status, line = _win_line(client, token, SOUTH_WINS, tiles, how="self")
    assert status == 302 and ("paníngit" in line) is paningit, line


def test_a_winning_tile_that_is_not_in_the_hand_or_not_the_discard_is_refused(client: FlaskClient,
                                                                              token: str) -> None:
    setup_table(client, token)
    record(client, token, "discard", "E", "9s")
    status, page = _win_line(client, token, SOUTH_WINS, "1z", how="self")
    assert status == 400 and "the winning tile 1z is not in the hand" in page
    status, page = _win_line(client, token, SOUTH_WINS, "8s", how="discard")
    assert status == 400 and "the winning tile 8s is not East&#39;s discard 9s" in page
    assert _win_line(client, token, SOUTH_WINS, "9s", how="discard")[0] == 302


def test_a_thrown_flower_won_on_is_not_typed_among_the_hand(client: FlaskClient, token: str) -> None:
    """003: a discarded flower counts as Tổng for a ready hand, and its thrower pays for all.
    The winner types the hand they hold; the flower lying there is the tile claimed."""
    form = {"csrf_token": token, "variant": "vietnamese", "dealer": "E", "round": "E"}
    assert client.post("/referee/new", data=form).status_code == 302
    record(client, token, "discard", "E", "3f")
    status, line = _win_line(client, token, "123m456m789m123p5s", how="discard")
    assert status == 302 and "Thrown Flower" in line and line.endswith("(East pays for all)"), line


def test_after_a_pung_grown_to_a_kang_nobody_robbed_its_seat_plays_on(client: FlaskClient, token: str) -> None:
    """Singapore lets others rob an added kang; when nobody does, the kang's seat takes its
    gift and plays on: its next move implies that draw (it was refused: "claim it or let
    South draw")."""
    form = {"csrf_token": token, "variant": "singapore", "dealer": "E", "round": "E"}
    assert client.post("/referee/new", data=form).status_code == 302
    for seat, kind, tile in (("E", "discard", "5p"), ("S", "pung", ""), ("S", "discard", "1m"),
                             ("W", "discard", "2m"), ("N", "discard", "3m"), ("E", "discard", "4m"),
                             ("S", "sagasa", "5p"), ("S", "discard", "9s")):
        record(client, token, kind, seat, tile)
    assert log_lines(client)[0].endswith("South discards 9 bamboo")


def test_a_pung_typed_with_another_tile_than_the_discard_is_refused(client: FlaskClient, token: str) -> None:
    """East throws 7 dots; "pung 7s" is a slip of the finger, not a pung of 7p."""
    setup_table(client, token)
    record(client, token, "discard", "E", "7p")
    before = log_lines(client)
    for kind, tiles in (("pung", "7s"), ("kang", "7777s")):
        resp = client.post("/referee/event", data={"csrf_token": token, "kind": kind, "seat": "W", "tiles": tiles})
        assert resp.status_code == 400 and "is not of East&#39;s discard 7p" in resp.get_data(as_text=True)
    assert log_lines(client) == before
    record(client, token, "pung", "W", "777p")
    assert log_lines(client)[0].endswith("West: pung of 7 dots")


def test_the_table_shows_the_jai_alai_markers_each_seat_holds(client: FlaskClient, token: str) -> None:
    """000, 001: the winner takes a marker (two for búnot); the page says who holds how many,
    across hands, where the table plays the pot."""
    form = {"csrf_token": token, "variant": "filipino", "dealer": "E", "round": "E", "rule_jai_alai": "1"}
    assert client.post("/referee/new", data=form).status_code == 302
    record(client, token, "discard", "E", "9s")
    page = record(client, token, "win", "S", "", hand=SOUTH_WINS, how="discard").get_data(as_text=True)
    south = page.split('<section class="seat seat-1', 1)[1].split("</section>", 1)[0]
    assert "jai alái 1" in south and page.count('class="badge markers"') == 1
    # the hand's result is the win, not the marker sentence after it; the 9s won on left East's pile
    assert re.search(r'class="last-result">South wins by tódas', page)
    assert 'data-code="9s"' not in page.split('<section class="seat seat-0', 1)[1].split("</section>", 1)[0]
    page = record(client, token, "discard", "S", "1m").get_data(as_text=True)  # hand 2, South deals
    assert "jai alái 1" in page.split('<section class="seat seat-1', 1)[1].split("</section>", 1)[0]
    setup_table(client, token)  # a table without the pot shows no markers
    record(client, token, "discard", "E", "9s")
    page = record(client, token, "win", "S", "", hand=SOUTH_WINS, how="discard").get_data(as_text=True)
    assert 'class="badge markers"' not in page
