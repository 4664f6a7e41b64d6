"""The Out of Gears page, its fragment and its log cost a fixed number of queries: the same for two
players at turn 1 as for eight players after several turns."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.actions import moves
from games.models import Notification
from tests.support.games import client_for, greedy_program, seat_of, start_oog
from tests.support.statements import as_in_production, split_statements
from tests.support.users import make_user
from tests.views.outofgears.helpers import post_program

pytestmark = pytest.mark.django_db

EXTRA = ("dave", "erin", "frank", "grace", "heidi")


def _queries(client, url: str) -> list[str]:
    client.get(url)  # the first visit records what the player has seen: not what we measure
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    return [q["sql"] for q in ctx.captured_queries]


def _play_turns(game, turns: int):
    seats = list(game.seats.select_related("user"))
    for _ in range(turns):
        for seat in seats:
            game.refresh_from_db()
            moves.submit_action(seat.user, game.pk, game.version, greedy_program(game, seat))
        game.refresh_from_db()
        assert moves.resolve_turn(game.pk, game.turn)
    game.refresh_from_db()
    return game


def _counts(client, game) -> dict[str, int]:
    return {
        name: len(_queries(client, reverse(name, args=[game.pk])))
        for name in ("game", "game_fragment", "game_log")
    }


def test_the_page_costs_the_same_queries_for_2_players_at_turn_1_and_8_after_turn_4(
    alice, bob, carol, django_user_model
):
    small = start_oog([alice, bob])
    others = [make_user(django_user_model, n, display_name=n.title()) for n in EXTRA]
    big = start_oog([alice, bob, carol, *others], public=True)
    big = _play_turns(big, 4)
    # Mid-turn: some programs in, alice's among them, so her page shows it.
    for user in (alice, carol, others[0]):
        big.refresh_from_db()
        seat = seat_of(big, user)
        moves.submit_action(user, big.pk, big.version, greedy_program(big, seat))
    big.refresh_from_db()
    assert big.turn == 5 and len(big.state["story"]) == 4
    assert len(big.state["seats"]) == 8 and len(small.state["seats"]) == 2

    client = client_for(alice)
    small_counts, big_counts = _counts(client, small), _counts(client, big)

    # The page: the game with its seats and players and the player's own note (one query), the
    # nav's count; no chat query, the chat has no message (issue 36.2's second pass: the note
    # went into the game's query, the chat's read went where `chat_seq` is 0); the fragment:
    # the game and the count; the log: the game, its moves, the count.
    assert small_counts == big_counts == {"game": 2, "game_fragment": 2, "game_log": 3}


def test_a_spectators_page_costs_the_same_queries_however_big_the_game(
    alice, bob, carol, django_user_model
):
    small = start_oog([alice, bob], public=True)
    others = [make_user(django_user_model, n, display_name=n.title()) for n in EXTRA]
    big = _play_turns(start_oog([alice, bob, carol, *others], public=True), 3)
    zoe = make_user(django_user_model, "zoe", display_name="Zoe")

    client = client_for(zoe)
    # As a player's, but the spectator's user row (they are not among the seats) and no note.
    expected = {"game": 3, "game_fragment": 3, "game_log": 4}
    assert _counts(client, small) == _counts(client, big) == expected


# What each statement of a write is, by its start.
@pytest.fixture
def streams(settings):
    """As in production: streams on, a shared cache (tests/support/statements.py)."""
    as_in_production(settings)


def test_a_program_posted_by_the_form_costs_five_statements_and_the_user(
    alice, bob, carol, streams
):
    """Issue 36.1: a program that is not the last, posted by the form (parsed without the
    database). The program's transaction: the game locked and read with its seats (one
    statement), the Move row, the game, the seats (to_act and what the player has now seen),
    the notify; no e-mail (nobody's turn begins). Besides it, only the session's user: the
    answer is drawn from the game the program left, and the nav's count comes from the
    cache."""
    game = start_oog([alice, bob, carol])
    seat = seat_of(game, alice)
    client = client_for(alice)
    client.get(game.get_absolute_url())  # what a visit writes once (the session, the seen mark)
    with CaptureQueriesContext(connection) as ctx:
        response = post_program(client, game, greedy_program(game, seat), game.version)
    assert response.status_code == 200
    outside, inside = split_statements(ctx)
    assert inside == ["lock", "move", "game", "seats", "notify"], inside
    assert outside == ["user"], outside
    game.refresh_from_db()
    seat.refresh_from_db()
    assert seat.seat_id in game.state["programs"]
    assert (seat.to_act, seat.seen_version) == (False, game.version)


def test_the_last_program_costs_five_statements_and_leaves_the_resolution_owed(
    alice, bob, carol, streams
):
    """The last program of a turn: the same five statements; the resolution is owed in the
    game's row (`due_since`, written with it) and queued at the commit, not written apart.
    Besides it, the user, and the view's check that the resolution has not been taken since
    the commit (the version last committed: the cache's, set at the commit; here, inside the
    test's transaction, the database's)."""
    game = start_oog([alice, bob, carol])
    for user in (bob, carol):
        game.refresh_from_db()
        moves.submit_action(user, game.pk, game.version, greedy_program(game, seat_of(game, user)))
    game.refresh_from_db()
    seat = seat_of(game, alice)
    client = client_for(alice)
    client.get(game.get_absolute_url())
    with CaptureQueriesContext(connection) as ctx:
        response = post_program(client, game, greedy_program(game, seat), game.version)
    assert response.status_code == 200
    outside, inside = split_statements(ctx)
    assert inside == ["lock", "move", "game", "seats", "notify"], inside
    assert outside == ["user", "committed version"], outside
    game.refresh_from_db()
    assert game.due_since is not None and game.turn == 1
    assert not game.seats.filter(to_act=True).exists()


def test_the_workers_resolution_costs_six_statements(alice, bob, carol, streams):
    """The worker's resolution of a complete turn (`resolve_turn`): the game locked and read
    with its seats, the Move row, the game, the seats (every one to act again), the "turn
    resolved" e-mails of the three players in one INSERT, the notify."""
    game = start_oog([alice, bob, carol])
    for user in (alice, bob, carol):
        game.refresh_from_db()
        moves.submit_action(user, game.pk, game.version, greedy_program(game, seat_of(game, user)))
    game.refresh_from_db()
    with CaptureQueriesContext(connection) as ctx:
        assert moves.resolve_turn(game.pk, game.turn)
    outside, inside = split_statements(ctx)
    assert inside == ["lock", "move", "game", "seats", "outbox", "notify"], inside
    assert outside == [], outside
    assert Notification.objects.filter(game=game, kind="turn_resolved").count() == 3
    assert game.seats.filter(to_act=True).count() == 3


def test_a_refused_program_is_answered_from_the_game_read_under_the_lock(alice, bob, carol):
    game = start_oog([alice, bob, carol])
    seat = seat_of(game, alice)
    client = client_for(alice)
    client.get(game.get_absolute_url())
    with CaptureQueriesContext(connection) as ctx:  # a version from the future: refused
        response = post_program(client, game, greedy_program(game, seat), game.version + 1)
    assert response.status_code == 409
    assert "The game has moved on" in response.content.decode()
    sql = [q["sql"] for q in ctx.captured_queries if "SAVEPOINT" not in q["sql"]]
    # The user, the game locked and read with its seats: the answer is drawn from that game.
    assert len(sql) == 2, sql
    game.refresh_from_db()
    assert game.move_count == 0
