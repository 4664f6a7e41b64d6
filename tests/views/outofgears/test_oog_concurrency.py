"""O5 under concurrency, on real PostgreSQL: programs that arrive together resolve the turn once,
and the resolution task is idempotent (it may run twice, or late)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.urls import reverse

from games import tasks
from games.actions import moves
from games.models import Game, Move
from tests.support.games import client_for, seat_of, snapshot, start_oog
from tests.views.outofgears.helpers import form_fields, program, resolve_moves


def _at_once(*calls):
    """Run the calls in threads released together by a barrier; their results (or errors)."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(i, call):
        try:
            barrier.wait(timeout=5)
            results[i] = call()
        except Exception as exc:  # the test looks at what each thread got
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=20)
    assert not any(t.is_alive() for t in threads), "a thread hung"
    return results


def _all_programs_in_unresolved(game, alice, bob, monkeypatch) -> list:
    """Alice's and Bob's programs in, the resolution task held back (committed transactions run
    their on-commit callbacks at once, so the task itself is held); the calls it got."""
    queued: list = []
    monkeypatch.setattr(tasks.resolve_turn, "delay", lambda *args: queued.append(args))
    moves.submit_action(alice, game.pk, game.version, program((1, "harvest", 1)))
    game.refresh_from_db()
    moves.submit_action(bob, game.pk, game.version, program((2, "harvest", 2)))
    game.refresh_from_db()
    assert game.turn == 1 and len(game.state["programs"]) == 2
    monkeypatch.undo()
    return queued


@pytest.mark.django_db(transaction=True)
def test_o5_the_last_two_programs_at_the_same_moment_resolve_the_turn_once(alice, bob, carol):
    game = start_oog([alice, bob, carol], robots=[(1,), (2,), (3,)])
    clients = {"bob": client_for(bob), "carol": client_for(carol)}
    url = reverse("game_move", args=[game.pk])

    for turn in (1, 2, 3):
        game.refresh_from_db()
        moves.submit_action(alice, game.pk, game.version, program((1, "harvest", 1)))
        game.refresh_from_db()
        version = game.version
        responses = _at_once(
            lambda v=version: clients["bob"].post(
                url, form_fields(program((2, "attack", 2)), v), HTTP_HX_REQUEST="true"
            ),
            lambda v=version: clients["carol"].post(
                url, form_fields(program((3, "trap", 1)), v), HTTP_HX_REQUEST="true"
            ),
        )

        assert [r.status_code for r in responses] == [200, 200], responses
        game.refresh_from_db()
        assert game.turn == turn + 1, "the turn advanced by exactly one"
        assert resolve_moves(game) == turn, "exactly one resolution per turn"
        story = game.state["story"]
        assert [s["turn"] for s in story] == list(range(1, turn + 1))
        assert [(e["robot"], e["action"], e["number"]) for e in story[-1]["revealed"]] == [
            (1, "harvest", 1),
            (2, "attack", 2),
            (3, "trap", 1),
        ]
        assert game.state["programs"] == {}
    assert Move.objects.filter(game=game, kind=Move.Kind.ACTION).count() == 9


@pytest.mark.django_db(transaction=True)
def test_two_resolutions_of_one_turn_at_the_same_moment_resolve_it_once(alice, bob, monkeypatch):
    game = start_oog([alice, bob], robots=[(1,), (2,)])
    queued = _all_programs_in_unresolved(game, alice, bob, monkeypatch)
    assert queued == [(game.pk, 1)], "the last program queued the resolution, once"

    results = _at_once(
        lambda: moves.resolve_turn(game.pk, 1), lambda: moves.resolve_turn(game.pk, 1)
    )

    assert sorted(results) == [False, True]
    game.refresh_from_db()
    assert game.turn == 2
    assert resolve_moves(game) == 1
    assert len(game.state["story"]) == 1


@pytest.mark.django_db(transaction=True)
def test_o5_a_change_racing_the_resolution_is_refused_and_changes_nothing(alice, bob, monkeypatch):
    game = start_oog([alice, bob], robots=[(1,), (2,)])
    _all_programs_in_unresolved(game, alice, bob, monkeypatch)
    version = game.version
    client = client_for(alice)

    resolved, change = _at_once(
        lambda: moves.resolve_turn(game.pk, 1),
        lambda: client.post(
            reverse("game_move", args=[game.pk]),
            form_fields(program((1, "trap", 2)), version),
            HTTP_HX_REQUEST="true",
        ),
    )

    assert resolved is True
    assert change.status_code == 409
    game.refresh_from_db()
    assert game.state["story"][-1]["revealed"][0] == {
        "robot": 1,
        "seat": seat_of(game, alice).seat_id,
        "action": "harvest",
        "number": 1,
    }
    assert Move.objects.filter(game=game, kind=Move.Kind.ACTION).count() == 2
    assert resolve_moves(game) == 1


@pytest.mark.django_db
def test_the_resolution_task_run_twice_changes_nothing_the_second_time(
    alice, bob, django_capture_on_commit_callbacks
):
    game = start_oog([alice, bob], robots=[(1,), (2,)])
    with django_capture_on_commit_callbacks(execute=False):
        moves.submit_action(alice, game.pk, game.version, program((1, "harvest", 1)))
        game.refresh_from_db()
        moves.submit_action(bob, game.pk, game.version, program((2, "attack", 1)))

    assert tasks.resolve_turn.apply(args=(game.pk, 1)).get() is True
    after_first = snapshot(game)
    state = Game.objects.get(pk=game.pk).state
    assert game.turn == 2

    assert tasks.resolve_turn.apply(args=(game.pk, 1)).get() is False
    assert moves.resolve_turn(game.pk, 1) is False
    assert snapshot(game) == after_first
    assert Game.objects.get(pk=game.pk).state == state
    assert resolve_moves(game) == 1


@pytest.mark.django_db
def test_a_resolution_for_a_turn_not_complete_yet_does_nothing(alice, bob):
    game = start_oog([alice, bob], robots=[(1,), (2,)])
    moves.submit_action(alice, game.pk, game.version, program((1, "harvest", 1)))
    before = snapshot(game)

    assert tasks.resolve_turn.apply(args=(game.pk, 1)).get() is False
    assert tasks.resolve_turn.apply(args=(game.pk, 2)).get() is False
    assert tasks.resolve_turn.apply(args=(game.pk + 1000, 1)).get() is False
    assert snapshot(game) == before
