"""Issue 16: the live-update check answered by the page's signed poll key (games/live.py),
without the session, and from the cache where the cache is shared (Redis). What players depend
on: every change still shows within one check, a key opens nothing it was not issued for, and
a bad or expired key is just ignored (the session decides, as before)."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import live, moderation, services
from games.models import Seat
from tests.web.helpers import advance, client_for, greedy_choice, seat_to_act, start_geared, text


def page_key(client, game) -> str:
    found = re.search(r'data-poll-key="([^"]+)"', text(client.get(game.get_absolute_url())))
    assert found, "the game page carries no poll key"
    return found.group(1)


def poll(client, game, v, key, **extra):
    return client.get(reverse("game_poll", args=[game.pk]), {"v": v, "k": key, **extra})


# --- the key: what it opens, and what it does not ------------------------------------------------


@pytest.mark.django_db
def test_a_players_key_answers_without_the_session(alice, bob):
    game = start_geared([alice, bob], target=1000)
    key = page_key(client_for(alice), game)
    anonymous = Client()  # no session at all: the key alone
    assert poll(anonymous, game, game.version, key).status_code == 204
    game = advance(game, 1)
    response = poll(anonymous, game, game.version - 1, key)
    assert response.status_code == 200
    assert response["X-Refresh"] == "game"
    assert response["X-Game-Version"] == str(game.version)
    # The nav's count comes along, for the user the key was issued to.
    assert response["X-Your-Turn"] == str(1 if seat_to_act(game).user_id == alice.pk else 0)


@pytest.mark.django_db
def test_a_tampered_or_foreign_key_is_ignored_and_the_session_decides(alice, bob, carol):
    game = start_geared([alice, bob])
    other = start_geared([alice, carol])
    key = page_key(client_for(alice), game)
    outsider = Client()
    tampered = key[:-2] + ("AA" if not key.endswith("AA") else "BB")
    for bad in (tampered, "nonsense", "", page_key(client_for(alice), other)):
        # Without a session that may see it, a private game does not exist (404) ...
        assert poll(outsider, game, game.version, bad).status_code == 404
    # ... and with one, the check answers as it always did.
    assert poll(client_for(bob), game, game.version, tampered).status_code == 204


@pytest.mark.django_db
def test_an_expired_key_falls_back_to_the_session(alice, bob, monkeypatch):
    game = start_geared([alice, bob])
    key = page_key(client_for(alice), game)
    monkeypatch.setattr(live, "KEY_MAX_AGE", -1)  # every key is now too old
    assert poll(Client(), game, game.version, key).status_code == 404
    assert poll(client_for(alice), game, game.version, key).status_code == 204


@pytest.mark.django_db
def test_a_visitors_key_carries_no_count_and_marks_no_seat(alice, bob, carol):
    game = start_geared([alice, bob], public=True)
    key = page_key(Client(), game)
    assert live.read(key, game.pk) == (0, 0)
    response = poll(Client(), game, game.version, key)
    assert response.status_code == 204
    assert "X-Your-Turn" not in response
    spectator_key = page_key(client_for(carol), game)
    assert live.read(spectator_key, game.pk) == (carol.pk, 0)  # her count, nobody's seat


@pytest.mark.django_db
@pytest.mark.parametrize("shared_cache", [False, True], ids=["no cache", "redis"])
def test_the_key_keeps_the_players_watching_mark_but_not_from_a_hidden_tab(
    request, alice, bob, shared_cache
):
    if shared_cache:
        request.getfixturevalue("redis_cache")
    game = start_geared([alice, bob])
    seat = game.seats.get(user=alice)
    key = page_key(client_for(alice), game)
    assert live.read(key, game.pk) == (alice.pk, seat.pk)
    poll(Client(), game, game.version, key, h="1")
    seat.refresh_from_db()
    assert seat.watched is None
    poll(Client(), game, game.version, key)
    seat.refresh_from_db()
    assert seat.watched is not None


@pytest.mark.django_db
def test_the_key_reveals_nothing_of_the_game(alice, bob):
    """The key is readable (signed, not encrypted): it holds ids only, never the seed."""
    game = start_geared([alice, bob])
    key = page_key(client_for(alice), game)
    assert str(game.seed) not in key
    from django.core import signing

    assert signing.loads(key, salt=live.KEY_SALT) == [
        game.pk,
        alice.pk,
        game.seats.get(user=alice).pk,
    ]


@pytest.mark.django_db
def test_a_bad_version_with_a_key_is_still_refused(alice, bob):
    game = start_geared([alice, bob])
    key = page_key(client_for(alice), game)
    assert poll(Client(), game, "seven", key).status_code == 400


# --- the cache (Redis, as in production): every change shows at the next check --------------------


@pytest.mark.django_db(transaction=True)
def test_with_the_cache_a_steady_check_reads_no_database_and_a_move_shows_at_once(
    redis_cache, alice, bob
):
    game = start_geared([alice, bob], target=1000)
    key = page_key(client_for(alice), game)
    client = Client()
    assert poll(client, game, game.version, key).status_code == 204  # fills the cache
    with CaptureQueriesContext(connection) as queries:
        assert poll(client, game, game.version, key).status_code == 204
    assert len(queries) == 0, [q["sql"] for q in queries]
    # A move commits: the cached version is forgotten, and the next check sees the new one.
    seat = seat_to_act(game)
    services.submit_action(seat.user, game.pk, game.version, greedy_choice(game, seat))
    game.refresh_from_db()
    response = poll(client, game, game.version - 1, key)
    assert response.status_code == 200
    assert response["X-Game-Version"] == str(game.version)
    # The count follows the turn: it is alice's turn exactly when the engine says so.
    expected = 1 if seat_to_act(game).user_id == alice.pk else 0
    assert response["X-Your-Turn"] == str(expected)


@pytest.mark.django_db(transaction=True)
def test_with_the_cache_a_chat_message_shows_at_once(redis_cache, alice, bob):
    game = start_geared([alice, bob])
    key = page_key(client_for(alice), game)
    client = Client()
    assert poll(client, game, game.version, key, c=0).status_code == 204
    moderation.post_chat(bob, game.pk, "good luck")
    response = poll(client, game, game.version, key, c=0)
    assert response.status_code == 200 and response["X-Refresh"] == "chat"
    assert poll(client, game, game.version, key, c=1).status_code == 204


@pytest.mark.django_db(transaction=True)
def test_with_the_cache_resigning_changes_both_counts_and_the_version(redis_cache, alice, bob):
    game = start_geared([alice, bob], target=1000)
    while seat_to_act(game).user_id != alice.pk:
        game = advance(game, 1)
    key = page_key(client_for(alice), game)
    assert poll(Client(), game, game.version, key)["X-Your-Turn"] == "1"
    services.resign(alice, game.pk)
    game.refresh_from_db()
    response = poll(Client(), game, game.version - 1, key)
    assert response.status_code == 200
    assert response["X-Your-Turn"] == "0"  # a bot holds her seat now
    assert Seat.objects.get(game=game, replaced_user=alice).user_id is None


@pytest.mark.django_db(transaction=True)
def test_a_check_that_read_the_old_row_cannot_put_it_back_after_the_commit(redis_cache, alice, bob):
    """The race that kept pages behind until the copy expired: a check reads the row just
    before a commit and adds what it read just after. The commit sets the new state, so that
    late add finds the key taken."""
    from django.core.cache import cache

    game = start_geared([alice, bob], target=1000)
    key = page_key(client_for(alice), game)
    read_before_commit = [game.version, game.status, game.chat_seq]
    game = advance(game, 1)  # the move commits
    assert not cache.add(live._state_key(game.pk), read_before_commit, 10)  # the check, late
    response = poll(Client(), game, read_before_commit[0], key)
    assert response.status_code == 200
    assert response["X-Game-Version"] == str(game.version)


@pytest.mark.django_db(transaction=True)
def test_a_cache_that_cannot_be_reached_never_fails_or_undoes_a_change(settings, alice, bob):
    """The cache is a copy: with Redis unreachable, a public table still fills and starts and a
    move still commits (the copies are forgotten or set after the commit, failures logged)."""
    settings.CACHES = {
        "default": {"BACKEND": "config.cache.RedisCache", "LOCATION": "redis://127.0.0.1:1/0"}
    }
    settings.GEARTABLE_LIVE_CACHE = True
    game = start_geared([alice, bob], target=1000, public=True)
    seat = seat_to_act(game)
    services.submit_action(seat.user, game.pk, game.version, greedy_choice(game, seat))
    before = game.version
    game.refresh_from_db()
    assert game.is_active and game.version == before + 1
