"""When mail fails: the SMTP server refuses the message (550) or is down. The move is kept, the
task retries, and after its last retry the Notification row is FAILED and the failure logged.

Two ways of running the task, both with the real SMTP client talking to a real socket:
- eagerly (tasks run in the test's thread): with `task_eager_propagates` off, Celery's eager
  `apply` re-runs a task that raised Retry at once with `request.retries` counted up, so the
  whole retry path (max_retries=5: six attempts) runs in milliseconds, countdown untouched.
  (With it on, as in config/test_settings.py, the first Retry is raised to the caller: that is
  the on-commit hook of the request, which must not fail because of an e-mail);
- on a real worker on Redis, where a retry is a new message with a countdown: there the
  countdown is patched to 0 and max_retries to 2, so the broker round trips are real but quick.
"""

from __future__ import annotations

import json
import logging
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from config.celery import app as celery_app
from games import tasks
from games.models import Game, Move, Notification
from tests.notify.helpers import (
    end_turn_choice,
    notes,
    play_turn,
    seat_to_act,
    start_geared,
    wait_for,
)

pytestmark = pytest.mark.django_db(transaction=True)

REFUSAL = "550 5.7.1 Message rejected by policy"


def your_turn_row(game: Game) -> Notification:
    return notes(game, Notification.Kind.YOUR_TURN, turn=game.turn).get()


@pytest.fixture
def eager_retries():
    """Eager tasks run their retries (see the module's docstring)."""
    propagates = celery_app.conf.task_eager_propagates
    celery_app.conf.task_eager_propagates = False
    yield
    celery_app.conf.task_eager_propagates = propagates


def test_a_move_by_the_view_stands_when_its_email_is_refused(smtp_mail, alice, bob):
    # Default test settings: eager tasks that propagate. The refusal must not reach the player.
    smtp_mail.refuse = REFUSAL
    game = start_geared([alice, bob])
    seat = seat_to_act(game)
    action = end_turn_choice(game, seat)
    client = Client()
    client.force_login(seat.user)
    response = client.post(
        reverse("game_move", args=[game.pk]),
        {"action": json.dumps(action), "version": str(game.version)},
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.turn == 2
    assert Move.objects.filter(game=game, seat=seat).count() == 1
    note = your_turn_row(game)
    assert note.state == Notification.State.PENDING, "left for a retry"
    assert note.attempts == 1
    assert "550" in note.error


def test_a_refused_message_is_retried_then_failed_and_the_move_is_kept(
    eager_retries, smtp_mail, alice, bob, caplog
):
    smtp_mail.refuse = REFUSAL
    game = start_geared([alice, bob])
    version, moves = game.version, Move.objects.filter(game=game).count()
    with caplog.at_level(logging.ERROR, logger="games.notifications"):
        mover = play_turn(game)

    game.refresh_from_db()
    assert game.version > version
    assert game.turn == 2
    assert Move.objects.filter(game=game).count() > moves
    assert seat_to_act(game).user != mover.user, "the move stands"

    note = your_turn_row(game)
    retries = tasks.send_notification.max_retries
    assert note.state == Notification.State.FAILED
    assert note.attempts == retries + 1, "one attempt, then each retry"
    assert "550" in note.error and "rejected by policy" in note.error
    assert note.sent is None
    assert smtp_mail.refused >= retries + 1
    assert smtp_mail.messages == []
    assert any(
        r.levelno == logging.ERROR and str(note.pk) in r.getMessage() for r in caplog.records
    ), "the final failure is logged"


def test_a_server_that_is_down_fails_the_email_but_not_the_game_and_the_beat_goes_on(
    eager_retries, closed_port_mail, alice, bob
):
    game = start_geared([alice, bob], turn_seconds=86400)
    first = seat_to_act(game)
    play_turn(game)
    note = your_turn_row(game)
    assert note.state == Notification.State.FAILED
    assert note.attempts == tasks.send_notification.max_retries + 1
    assert "Connection refused" in note.error or "ConnectionRefused" in note.error

    # The beat still runs: an expired deadline is acted on though no e-mail can go out.
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert tasks.expire_deadlines.delay().get() == {"expired": 1, "reminders": 0}
    game.refresh_from_db()
    assert game.turn == 3
    assert seat_to_act(game).pk == first.pk
    assert your_turn_row(game).state == Notification.State.FAILED


def test_a_failure_then_a_success_sends_the_message_once(
    eager_retries, smtp_mail, alice, bob, monkeypatch
):
    # The server refuses the first two attempts, then accepts: one message, row SENT.
    calls = {"n": 0}
    original = smtp_mail.handle_DATA

    async def flaky(server, session, envelope):
        calls["n"] += 1
        if calls["n"] <= 2:
            return "451 4.3.0 Try again later"
        return await original(server, session, envelope)

    monkeypatch.setattr(smtp_mail, "handle_DATA", flaky)
    game = start_geared([alice, bob])
    smtp_mail.messages.clear()
    calls["n"] = 0
    play_turn(game)
    note = your_turn_row(game)
    assert note.state == Notification.State.SENT
    assert note.attempts == 3
    assert note.error == ""
    assert len(smtp_mail.messages) == 1


@pytest.mark.worker
def test_on_a_real_worker_a_refused_message_is_retried_then_failed(
    celery_worker, smtp_mail, alice, bob, monkeypatch
):
    task = tasks.send_notification
    monkeypatch.setattr(task, "max_retries", 2)
    retry = task.retry

    def retry_now(*args, **kwargs):
        kwargs["countdown"] = 0  # the real countdown (5 s, 10 s, ...) is the only change
        return retry(*args, **kwargs)

    monkeypatch.setattr(task, "retry", retry_now)
    game = start_geared([alice, bob])
    wait_for(
        lambda: not notes(game, state=Notification.State.PENDING).exists(),
        what="the start's e-mails",
    )
    smtp_mail.refuse = REFUSAL
    smtp_mail.refused = 0
    received = len(smtp_mail.messages)
    version = game.version
    play_turn(game)
    assert game.version > version and game.turn == 2

    note = wait_for(
        lambda: notes(
            game, Notification.Kind.YOUR_TURN, turn=2, state=Notification.State.FAILED
        ).first(),
        what="the e-mail to fail after its retries",
    )
    assert note.attempts == 3
    assert "550" in note.error
    assert smtp_mail.refused == 3
    assert len(smtp_mail.messages) == received
