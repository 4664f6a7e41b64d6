"""Alice against two greedy bots whose moves a real Celery worker makes, on the real broker."""

from __future__ import annotations

import threading

import pytest
from celery.signals import task_postrun

from games.engines.geared import engine
from games.models import Game, Move, Status
from tests.support.games import client_for, greedy_choice, seat_to_act, start_geared
from tests.support.pages import page_version, text
from tests.support.waiting import wait_for
from tests.views.helpers import post_move

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

ALICE_TURNS = 6


def wait_for_turn_or_end(game: Game, user, deadline_seconds: float = 10.0) -> Game:
    def turn_or_end():
        game.refresh_from_db()
        return game.status != Status.ACTIVE or seat_to_act(game).user_id == user.pk

    wait_for(turn_or_end, seconds=deadline_seconds, what="the bots to play")
    return game


@pytest.fixture
def worker_runs():
    """(task name, thread) of every task the worker finished."""
    runs: list[tuple[str, threading.Thread]] = []

    def record(sender=None, **_):
        runs.append((sender.name, threading.current_thread()))

    task_postrun.connect(record, weak=False)
    yield runs
    task_postrun.disconnect(record)


def test_bots_moves_are_made_by_the_worker_between_alices_turns(celery_worker, worker_runs, alice):
    game = start_geared([alice], bots=("greedy", "greedy"), target=1000)
    client = client_for(alice)
    bots = {s.pk for s in game.seats.all() if s.is_bot}
    assert len(bots) == 2

    turns = 0
    while turns < ALICE_TURNS:
        game = wait_for_turn_or_end(game, alice)
        if game.status != Status.ACTIVE:
            break
        page = text(client.get(game.get_absolute_url()))
        assert "Your turn" in page
        seat = seat_to_act(game)
        response = post_move(client, game, greedy_choice(game, seat), page_version(page), htmx=True)
        assert response.status_code == 200
        turns += 1
    game = wait_for_turn_or_end(game, alice)
    assert turns == ALICE_TURNS or game.status == Status.FINISHED

    moves = list(Move.objects.filter(game=game).order_by("seq").select_related("seat"))
    assert [m.seq for m in moves] == list(range(1, len(moves) + 1))
    assert sum(1 for m in moves if m.seat.user_id == alice.pk) == turns
    bot_moves = [m for m in moves if m.seat_id in bots]
    assert {m.seat_id for m in bot_moves} == bots
    assert len(bot_moves) >= 2 * (turns - 1)
    played_by_worker = [t for name, t in worker_runs if name == "games.tasks.play_bots"]
    assert played_by_worker
    assert threading.main_thread() not in played_by_worker

    # The worker went through the same write path: the log replays to the stored state.
    names = {s.seat_id: s.name for s in game.seats.all()}
    state = engine.new_game(sorted(names), seed=game.seed, options={"target": 1000, "names": names})
    for m in moves:
        state = engine.apply(state, m.seat.seat_id, m.action)
    assert state == game.state
