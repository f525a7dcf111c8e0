"""The web referee against the engine: hands the bots play in full mode (the engine sees every
tile) are typed into the Referee page as a person at the table would (observed: the page sees
only what is shown), and the page's ledger must come out paying what the engine paid.

Each seed below once found a difference: the winning tile named in Tiles ignored (filipino 6,
visayan 10 and 20: paníngit and singles unpaid), a thrown flower won on (vietnamese 15), a
pung grown to a kang nobody robbed (singaporean 38). ``benchmarks/bench_referee_page.py``
types hundreds."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.webui.referee_forms import engine_paid, played, type_into_page


@pytest.mark.parametrize(("variant", "seed"), [
    ("filipino", 6), ("filipino", 2), ("visayan", 10), ("visayan", 20), ("vietnamese", 15), ("vietnamese", 4),
    ("singaporean", 38), ("singaporean", 1),
])
def test_a_hand_typed_into_the_referee_page_pays_as_the_engine_paid(tmp_path: Path, variant: str, seed: int) -> None:
    games = played(variant, seed)
    page, problem = type_into_page(games, str(tmp_path), render=True)  # the page shown after each event
    assert not problem
    assert page == engine_paid(games), str(games[0].outcome())


@pytest.mark.parametrize("variant", ["visayan", "singaporean"])
def test_undo_and_restart_on_the_way_change_nothing(tmp_path: Path, variant: str) -> None:
    """Each event at random undone and typed again, the server restarted now and then."""
    games = played(variant, 3)
    page, problem = type_into_page(games, str(tmp_path), undo=0.3, restart=0.1, rng=random.Random(3))
    assert not problem
    assert page == engine_paid(games)


def test_a_filipino_evening_with_jai_alai_pays_as_the_engine_paid(tmp_path: Path) -> None:
    """Ten hands of one table, the jai alái pot played: markers carried from hand to hand
    (the page's referee dealt each hand with none), the pot taken in hand 6."""
    games = played("filipino", 0, hands=10, jai_alai=True)
    assert any("wins the jai alái pot" in e.text for g in games for e in g.events)
    page, problem = type_into_page(games, str(tmp_path), rules={"jai_alai": "1"})
    assert not problem
    assert page == engine_paid(games)
