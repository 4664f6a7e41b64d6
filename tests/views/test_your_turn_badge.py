"""Issue 14, point 8: the nav's "Your turn · N" follows the games live. The live-update check
(poll) carries the count in its X-Your-Turn header at no extra query, and so does every htmx
answer that swaps a game page (a move, a fragment), so the badge changes without a reload."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.support.games import advance, client_for, greedy_choice, seat_to_act, start_geared
from tests.support.pages import poll, text
from tests.views.helpers import post_move

pytestmark = pytest.mark.django_db


def two_games_for(alice, bob, carol):
    """Two Geared games of alice's: in the first it is alice's turn, in the second bob's."""
    mine = start_geared([alice, bob], target=1000)
    while seat_to_act(mine).user_id != alice.pk:
        mine = advance(mine, 1)
    other = start_geared([alice, carol], target=1000)
    while seat_to_act(other).user_id == alice.pk:
        other = advance(other, 1)
    return mine, other


def test_the_poll_answer_carries_how_many_games_wait_for_me_at_no_extra_query(alice, bob, carol):
    mine, other = two_games_for(alice, bob, carol)
    client = client_for(alice)
    with CaptureQueriesContext(connection) as queries:
        quiet = poll(client, other, other.version)  # nothing changed there: 204
    assert quiet.status_code == 204
    assert quiet["X-Your-Turn"] == "1"
    # One read (the "watching" mark of issue 14's point 6 is a write, at most every 20 s).
    reads = [q for q in queries.captured_queries if q["sql"].lstrip().startswith("SELECT")]
    assert len([q for q in reads if "games_seat" in q["sql"]]) == 1

    # carol plays: now the other game waits for alice too, and any poll of hers says 2.
    seen = other.version
    while seat_to_act(other).user_id != alice.pk:
        other = advance(other, 1)
    assert poll(client, mine, mine.version)["X-Your-Turn"] == "2"
    changed = poll(client, other, seen)
    assert changed.status_code == 200 and changed["X-Your-Turn"] == "2"
    # The page's badge, rendered from scratch, agrees.
    assert "Your turn · 2" in text(client.get(reverse("my_games")))


def test_a_spectator_gets_their_own_count_and_a_visitor_none(alice, bob, carol):
    game = start_geared([alice, bob], public=True, target=1000)
    assert poll(client_for(carol), game, game.version)["X-Your-Turn"] == "0"
    assert "X-Your-Turn" not in poll(Client(), game, game.version)


def test_a_move_made_by_htmx_answers_with_the_new_count(alice, bob):
    game = start_geared([alice, bob], target=1000)
    seat = seat_to_act(game)
    client = client_for(seat.user)
    assert poll(client, game, game.version)["X-Your-Turn"] == "1"
    # A move that ends the turn: nothing waits for this player any more.
    action = greedy_choice(game, seat)
    while action["type"] == "rearrange":
        advance(game, 1)
        game.refresh_from_db()
        action = greedy_choice(game, seat)
    response = post_move(client, game, action, game.version, htmx=True)
    assert response.status_code == 200
    assert response["X-Your-Turn"] == "0"
    fragment = client.get(reverse("game_fragment", args=[game.pk]), HTTP_HX_REQUEST="true")
    assert fragment["X-Your-Turn"] == "0"


def test_the_nav_badge_is_on_every_page_hidden_while_nothing_waits(alice, bob):
    game = start_geared([alice, bob], target=1000)
    idle = bob if seat_to_act(game).user_id == alice.pk else alice
    page = text(client_for(idle).get(reverse("my_games")))
    assert (
        '<span id="nav-your-turn" class="badge badge-turn" title="Games waiting for you" hidden>'
        in page
    )
