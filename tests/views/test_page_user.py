"""A game page takes the logged-in player from the row read with its seats (no query of its
own), with django.contrib.auth's checks: a session dropped anywhere is dropped here too."""

from __future__ import annotations

import pytest
from django.contrib.auth import SESSION_KEY
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import User
from tests.support.games import client_for, start_geared
from tests.support.pages import text

pytestmark = pytest.mark.django_db

USER_TABLE = User._meta.db_table


def pages(game) -> list[str]:
    return [game.get_absolute_url(), reverse("game_fragment", args=[game.pk])]


def user_queries(client, url: str) -> list[str]:
    """The queries of one GET that read users (and nothing else)."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, url
    return [
        q["sql"]
        for q in queries.captured_queries
        if f'FROM "{USER_TABLE}"' in q["sql"] and "games_" not in q["sql"]
    ]


def test_a_player_s_page_reads_no_user_row_of_its_own(alice, bob):
    game = start_geared([alice, bob])
    client = client_for(alice)
    for url in pages(game):
        client.get(url)
        assert user_queries(client, url) == []
        assert client.get(url).wsgi_request.user == alice


def test_a_player_who_resigned_is_known_from_the_seat_the_bot_took(alice, bob, carol):
    game = start_geared([alice, bob, carol], target=1000)
    client = client_for(alice)
    assert client.post(reverse("game_resign", args=[game.pk])).status_code == 302
    page = client.get(game.get_absolute_url())
    assert "You left this game" in text(page)
    assert user_queries(client, game.get_absolute_url()) == []


def test_a_spectator_s_user_is_read_as_usual(alice, bob, carol):
    game = start_geared([alice, bob], public=True)
    client = client_for(carol)
    response = client.get(game.get_absolute_url())
    assert response.wsgi_request.user == carol
    assert "You are watching this game" in text(response)
    assert len(user_queries(client, game.get_absolute_url())) == 1


@pytest.mark.parametrize(
    "change",
    ["password", "deactivated", "no hash", "another user's id"],
)
def test_a_dropped_session_sees_a_private_game_as_a_stranger(alice, bob, carol, change):
    game = start_geared([alice, bob])
    for url in pages(game):
        client = client_for(alice)
        if change == "password":
            alice.set_password("a-new-and-different-passphrase")
            alice.save()
        elif change == "deactivated":
            User.objects.filter(pk=alice.pk).update(is_active=False)
        else:
            session = client.session
            if change == "no hash":
                del session["_auth_user_hash"]
            else:  # bob's id with alice's hash: bob is seated, the hash is not his
                session[SESSION_KEY] = str(bob.pk)
            session.save()
        assert client.get(url).status_code == 404
        if change != "deactivated":  # get_user() flushes a session whose hash fails
            assert SESSION_KEY not in client.session
        User.objects.filter(pk=alice.pk).update(is_active=True)


def test_a_dropped_session_watches_a_public_game_logged_out(alice, bob):
    game = start_geared([alice, bob], public=True)
    client = client_for(alice)
    alice.set_password("a-new-and-different-passphrase")
    alice.save()
    response = client.get(game.get_absolute_url())
    assert response.status_code == 200
    assert not response.wsgi_request.user.is_authenticated
    assert "log in to read its chat" in text(response)
