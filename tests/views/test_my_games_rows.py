"""Issue 14, point 4: a row of "my games" names the game, says whose turn it is by name, shows
the scores, and for a finished game my place ("2nd of 3 · 14 pts"), not just "Lost"."""

from __future__ import annotations

import html
import re

import pytest
from django.contrib.humanize.templatetags.humanize import ordinal
from django.urls import reverse

from games import engines
from games.models import Status
from tests.support.games import advance, client_for, seat_to_act, start_geared, start_oog
from tests.support.pages import text

pytestmark = pytest.mark.django_db


def row_of(page: str, game) -> str:
    """The text of the game's row, tags stripped."""
    row = rf'<a class="row-link" href="{game.get_absolute_url()}">(.*?)</div>'  # issue 27.1's card
    found = re.search(row, page, re.S)
    assert found, f"no row for game {game.pk}"
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", found.group(1))).split())


def test_a_geared_row_names_the_game_whose_turn_and_the_scores(alice, bob):
    game = advance(start_geared([alice, bob], target=1000), 8)
    to_play = seat_to_act(game).user
    scores = game.state["scores"]
    mine = game.seats.get(user=alice).seat_id
    theirs = game.seats.get(user=bob).seat_id
    row = row_of(text(client_for(alice).get(reverse("my_games"))), game)

    assert f"Geared: Build Your Bike #{game.pk}" in row
    assert ("Your turn" if to_play == alice else "Waiting for Bob") in row
    # Best first; equal scores in seat order, as the page lists them.
    rows = [("You", scores[mine], int(mine)), ("Bob", scores[theirs], int(theirs))]
    order = sorted(rows, key=lambda x: (-x[1], x[2]))
    assert " · ".join(f"{n} {p}" for n, p, _ in order) + " (to 1000)" in row


def test_an_out_of_gears_row_names_who_has_not_programmed_and_the_scores(alice, bob, carol):
    game = start_oog([alice, bob, carol])
    scores = engines.scores_now(
        "outofgears", {k: game.state[k] for k in engines.SCORE_KEYS["outofgears"]}
    )
    row = row_of(text(client_for(alice).get(reverse("my_games"))), game)
    assert f"Out of Gears #{game.pk}" in row
    assert "Your turn" in row
    me = game.seats.get(user=alice).seat_id
    assert f"You {scores[me]}" in row
    bob_row = row_of(text(client_for(bob).get(reverse("my_games"))), game)
    assert "Your turn" in bob_row


def test_a_finished_row_gives_my_place_and_points(alice, bob, carol):
    game = advance(start_geared([alice, bob, carol], target=300), 2000)
    assert game.status == Status.FINISHED
    scores = game.result["scores"]
    for user in (alice, bob, carol):
        sid = game.seats.get(user=user).seat_id
        place = 1 + sum(scores[o] > scores[sid] for o in scores)
        row = row_of(text(client_for(user).get(reverse("my_games"))), game)
        assert f"{ordinal(place)} of 3 · {scores[sid]} pts" in row
        assert f"#{game.pk}" in row
