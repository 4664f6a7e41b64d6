"""Issue 16: the live-update check answered by the page's signed poll key (games/live/cache.py),
without the session, and from the cache where the cache is shared (Redis). What players depend
on: every change still shows within one check, a key opens nothing it was not issued for, and
a bad or expired key is just ignored (the session decides, as before)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.actions import deadlines, moderation, moves, tables
from games.live import cache as live
from games.models import Seat
from games.reads import access
from tests.support.games import advance, client_for, greedy_choice, seat_to_act, start_geared
from tests.support.pages import page_key, poll
from tests.support.users import PASSWORD

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
    assert live.read(key, game.pk) == (0, 0, "", 0)  # no ties: the game is public
    response = poll(Client(), game, game.version, key)
    assert response.status_code == 204
    assert "X-Your-Turn" not in response
    spectator_key = page_key(client_for(carol), game)
    assert live.read(spectator_key, game.pk)[:2] == (carol.pk, 0)  # her count, nobody's seat


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
    assert live.read(key, game.pk)[:2] == (alice.pk, seat.pk)
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

    gid, uid, seat, tag, ties = signing.loads(key, salt=live.KEY_SALT)
    assert [gid, uid, seat] == [game.pk, alice.pk, game.seats.get(user=alice).pk]
    assert ties == access.Ties(seated=True).bits()  # what tied her to the game: her seat
    # The tag binds the key to her password; it is a digest, not her session's auth hash.
    assert len(tag) == 16 and tag not in alice.get_session_auth_hash()


@pytest.mark.django_db
def test_a_bad_version_with_a_key_is_still_refused(alice, bob):
    game = start_geared([alice, bob])
    key = page_key(client_for(alice), game)
    assert poll(Client(), game, "seven", key).status_code == 400


# --- issue 22: a key lives minutes, and only while its user and seat are what they were ----------

CACHES = pytest.mark.parametrize("shared_cache", [False, True], ids=["no cache", "redis"])


def _with_cache(request, shared_cache):
    if shared_cache:
        request.getfixturevalue("redis_cache")


def test_a_key_lives_minutes_not_hours():
    assert live.KEY_MAX_AGE <= 15 * 60


@pytest.mark.django_db(transaction=True)
@CACHES
def test_a_key_stops_answering_once_its_player_leaves_the_table(request, alice, bob, shared_cache):
    _with_cache(request, shared_cache)
    game = tables.create_game(alice, tables.NewGame(kind="geared", seat_count=3))
    tables.join_game(bob, game.pk, token=game.join_token)
    game.refresh_from_db()
    key = page_key(client_for(bob), game)
    assert poll(Client(), game, game.version, key).status_code == 204  # (fills the cache)
    tables.leave_game(bob, game.pk)
    game.refresh_from_db()
    assert poll(Client(), game, game.version, key).status_code == 404
    # Nor through his session: a private table he has left is not his to watch.
    assert poll(client_for(bob), game, game.version, key).status_code == 404


@pytest.mark.django_db(transaction=True)
@CACHES
@pytest.mark.parametrize("change", ["password", "deactivated"])
def test_a_key_stops_answering_once_its_user_changes_password_or_is_deactivated(
    request, alice, bob, shared_cache, change
):
    _with_cache(request, shared_cache)
    game = start_geared([alice, bob])
    key = page_key(client_for(alice), game)
    assert poll(Client(), game, game.version, key).status_code == 204  # (fills the cache)
    if change == "password":
        alice.set_password("a-brand-new-passphrase-22")
    else:
        alice.is_active = False
    alice.save()
    response = poll(Client(), game, game.version, key)
    assert response.status_code == 404
    assert "X-Your-Turn" not in response


@pytest.mark.django_db(transaction=True)
@CACHES
def test_a_page_open_longer_than_a_key_lives_keeps_working_with_a_fresh_key(
    request, alice, bob, shared_cache, monkeypatch
):
    _with_cache(request, shared_cache)
    game = start_geared([alice, bob], target=1000)
    alice_client = client_for(alice)
    key = page_key(alice_client, game)
    lifetime = live.KEY_MAX_AGE
    monkeypatch.setattr(live, "KEY_MAX_AGE", -1)  # the page has been open too long
    response = poll(alice_client, game, game.version, key)
    assert response.status_code == 204  # the session answers ...
    fresh = response[live.FRESH_KEY_HEADER]  # ... and hands the page a fresh key
    monkeypatch.setattr(live, "KEY_MAX_AGE", lifetime)
    assert live.read(fresh, game.pk)[:2] == (alice.pk, game.seats.get(user=alice).pk)
    game = advance(game, 1)
    response = poll(Client(), game, game.version - 1, fresh)  # the fresh key alone
    assert response.status_code == 200 and response["X-Game-Version"] == str(game.version)
    assert live.FRESH_KEY_HEADER not in response  # a good key is not reissued


@pytest.mark.django_db(transaction=True)
def test_a_player_who_changes_their_own_password_keeps_a_live_page(alice, bob, redis_cache):
    game = start_geared([alice, bob])
    alice_client = client_for(alice)
    key = page_key(alice_client, game)
    response = alice_client.post(
        reverse("account_change_password"),
        {
            "oldpassword": PASSWORD,
            "password1": "a-brand-new-passphrase-22",
            "password2": "a-brand-new-passphrase-22",
        },
    )
    assert response.status_code == 302
    assert poll(Client(), game, game.version, key).status_code == 404  # the old key: nothing
    response = poll(alice_client, game, game.version, key)  # her page, through her session
    assert response.status_code == 204
    assert poll(Client(), game, game.version, response[live.FRESH_KEY_HEADER]).status_code == 204


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
    moves.submit_action(seat.user, game.pk, game.version, greedy_choice(game, seat))
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
    alice_client = client_for(alice)
    key = page_key(alice_client, game)
    assert poll(Client(), game, game.version, key)["X-Your-Turn"] == "1"
    deadlines.resign(alice, game.pk)
    game.refresh_from_db()
    # Her key named the seat she left: it opens nothing now; her page's session still reads.
    assert poll(Client(), game, game.version - 1, key).status_code == 404
    response = poll(alice_client, game, game.version - 1, key)
    assert response.status_code == 200
    assert response["X-Your-Turn"] == "0"  # a bot holds her seat now
    assert Seat.objects.get(game=game, replaced_user=alice).user_id is None
    # The fresh key her page now keeps reads as a former player's: her count, no seat.
    fresh = response[live.FRESH_KEY_HEADER]
    assert live.read(fresh, game.pk)[:2] == (alice.pk, 0)
    assert poll(Client(), game, game.version, fresh)["X-Your-Turn"] == "0"


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
    moves.submit_action(seat.user, game.pk, game.version, greedy_choice(game, seat))
    before = game.version
    game.refresh_from_db()
    assert game.is_active and game.version == before + 1
