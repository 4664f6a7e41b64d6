"""Issue 16: "my games" is drawn once per state of the player's games and kept; every change
that the page shows (a move, a new game, a look at a game, an invitation) shows at once, and
one player's list is never another's."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.actions import tables
from games.models import Kind
from tests.support.games import advance, client_for, seat_to_act, start_geared
from tests.support.pages import section, text

pytestmark = pytest.mark.django_db


def my_games(client) -> str:
    return text(client.get(reverse("my_games")))


def test_a_move_by_the_other_player_shows_at_once(alice, bob):
    game = start_geared([alice, bob], target=1000)
    while seat_to_act(game).user_id != bob.pk:
        game = advance(game, 1)
    client = client_for(alice)
    assert game.get_absolute_url() in section(my_games(client), "Waiting for others")
    while seat_to_act(game).user_id != alice.pk:  # bob plays until it is alice's turn
        game = advance(game, 1)
    assert game.get_absolute_url() in section(my_games(client), "Your turn")


def test_looking_at_a_game_clears_its_news_at_once(alice, bob):
    game = start_geared([alice, bob], target=1000)
    client = client_for(alice)
    client.get(game.get_absolute_url())  # seen now
    advance(game, 2)
    assert "new</span>" in my_games(client)
    client.get(game.get_absolute_url())
    assert "new</span>" not in my_games(client)


def test_a_new_table_and_an_invitation_show_at_once(alice, bob):
    client = client_for(alice)
    assert "Invitations" not in my_games(client)
    mine = tables.create_game(alice, tables.NewGame(kind=Kind.GEARED, seat_count=2))
    assert mine.get_absolute_url() in section(my_games(client), "Not started yet")
    theirs = tables.create_game(bob, tables.NewGame(kind=Kind.GEARED, seat_count=2))
    tables.invite(bob, theirs.pk, "alice")
    assert theirs.get_absolute_url() in section(my_games(client), "Invitations")


def test_one_players_kept_list_is_never_anothers(alice, bob, carol):
    game = start_geared([alice, bob])
    alices = client_for(alice)
    assert game.get_absolute_url() in my_games(alices)
    carols = my_games(client_for(carol))
    assert game.get_absolute_url() not in carols
    assert "Nothing waits for you." in carols


def test_a_second_look_reads_one_summary_row_not_the_games(alice, bob):
    for _ in range(3):
        start_geared([alice, bob])
    client = client_for(alice)
    with CaptureQueriesContext(connection) as first:
        client.get(reverse("my_games"))
    with CaptureQueriesContext(connection) as again:
        client.get(reverse("my_games"))

    def seat_lists(queries):  # the list's own reads: seats with their games
        return [q["sql"] for q in queries if q["sql"].startswith('SELECT "games_seat"')]

    assert seat_lists(first)
    assert seat_lists(again) == []
    assert len(again) < len(first)
