"""Two clicks at the same moment against PostgreSQL: the locked, version-checked write path
applies one move once and refuses the other with 409."""

from __future__ import annotations

import json
import re
import threading

import pytest
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse

from games import errors
from games.actions import moves
from games.models import Game, Move, Seat
from tests.support.games import client_for, greedy_choice, seat_to_act, start_geared
from tests.support.waiting import wait_for

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
    game = start_geared([alice, bob], target=1000)  # no deal ends it in one move
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
    assert "The game has moved on" in refused.content.decode(), re.findall(
        r"class=\"error[^<]*<[^<]*", refused.content.decode()
    )
    assert_one_move_applied(game, version, played)
    assert Move.objects.get(game=game, seq=played + 1).action == action


def test_the_write_path_serialises_two_submissions_of_one_version(alice, bob):
    game = start_geared([alice, bob], target=1000)  # no deal ends it in one move
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


def test_a_lock_that_waited_reads_the_seats_as_the_change_it_waited_for_left_them(alice, bob):
    """Issue 36.1: the game is locked and read with its seats in one statement. One that waits
    for the lock is handed the game's row as the other transaction committed it, but would
    see the seats as they were when it began: the version it began with tells, and the seats
    are read again under the lock (games/models/game.py, `locked`)."""
    game = start_geared([alice, bob], target=1000)  # no deal ends it in one move
    holding = threading.Event()

    def someone_waits_for_a_lock() -> bool:
        with connection.cursor() as cursor:  # pg_locks is read live, not a snapshot
            cursor.execute("SELECT count(*) FROM pg_locks WHERE NOT granted")
            return cursor.fetchone()[0] > 0

    def change_the_seats():
        try:
            with transaction.atomic():
                held = Game.objects.locked(game.pk)
                Seat.objects.filter(game=held).update(seen_mark=99)
                held.version += 1
                held.save(update_fields=["version", "updated"])
                holding.set()
                wait_for(someone_waits_for_a_lock, what="the other to wait for the game's lock")
        finally:
            connection.close()

    thread = threading.Thread(target=change_the_seats)
    thread.start()
    assert holding.wait(timeout=10)
    with transaction.atomic():
        locked = Game.objects.locked(game.pk, with_seats=True)  # waits for the commit
        seen = [seat.seen_mark for seat in locked.table]
    thread.join(timeout=10)
    assert locked.version == game.version + 1
    assert seen == [99, 99]
