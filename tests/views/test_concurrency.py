"""Two clicks at the same moment against PostgreSQL: the locked, version-checked write path
applies one move once and refuses the other with 409."""

from __future__ import annotations

import json
import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from games import errors
from games.actions import moves
from games.models import Move
from tests.support.games import client_for, greedy_choice, seat_to_act, start_geared

pytestmark = pytest.mark.django_db(transaction=True)


def at_the_same_moment(*calls):
    """Run each call in its own thread, released together; their results (or exceptions)."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(i, call):
        try:
            barrier.wait(timeout=10)
            results[i] = call()
        except Exception as exc:  # noqa: BLE001 - the test inspects it
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert not any(t.is_alive() for t in threads)
    return results


def assert_one_move_applied(game, version_before, moves_before) -> None:
    game.refresh_from_db()
    assert game.version == version_before + 1
    assert game.move_count == moves_before + 1
    seqs = list(Move.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, moves_before + 2))


def test_the_same_move_posted_twice_at_once_is_applied_once(alice, bob):
    game = start_geared([alice, bob])
    seat = seat_to_act(game)
    action = greedy_choice(game, seat)
    clients = [client_for(seat.user), client_for(seat.user)]
    data = {"action": json.dumps(action), "version": str(game.version)}
    url = reverse("game_move", args=[game.pk])
    version, played = game.version, game.move_count

    def post(client: Client):
        return lambda: client.post(url, data, HTTP_HX_REQUEST="true")

    responses = at_the_same_moment(post(clients[0]), post(clients[1]))
    assert sorted(r.status_code for r in responses) == [200, 409]
    refused = next(r for r in responses if r.status_code == 409)
    assert "The game has moved on" in refused.content.decode()
    assert_one_move_applied(game, version, played)
    assert Move.objects.get(game=game, seq=played + 1).action == action


def test_the_write_path_serialises_two_submissions_of_one_version(alice, bob):
    game = start_geared([alice, bob])
    seat = seat_to_act(game)
    action = greedy_choice(game, seat)
    version, played = game.version, game.move_count

    def submit():
        return moves.submit_action(seat.user, game.pk, version, action)

    results = at_the_same_moment(submit, submit, submit)
    refused = [r for r in results if isinstance(r, errors.GameError)]
    applied = [r for r in results if not isinstance(r, Exception)]
    assert len(applied) == 1 and len(refused) == 2, results
    assert all(r.status == 409 for r in refused)
    assert_one_move_applied(game, version, played)
