"""When mail fails: the SMTP server refuses the message (550) or is down. The move is kept; the
failure is recorded on the Notification row with its next attempt (exponential backoff), and the
beat's outbox sweep retries it until OUTBOX_GIVE_UP_AFTER, then FAILED and logged; a moderator
can send it again. All with the real SMTP client talking to a real socket; tasks run eagerly
here (the real worker's side is in tests/faults). Time passes by moving `next_attempt` and
`created` into the past, as the sweep reads them.
"""

from __future__ import annotations

import json
import logging
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import tasks
from games.models import Game, Move, Notification
from games.notifications import outbox
from tests.notifications.helpers import end_turn_choice, notes, play_turn
from tests.support.games import client_for, seat_to_act, start_geared

pytestmark = pytest.mark.django_db(transaction=True)

REFUSAL = "550 5.7.1 Message rejected by policy"
PENDING, SENT, FAILED = (
    Notification.State.PENDING,
    Notification.State.SENT,
    Notification.State.FAILED,
)


def due_now(note: Notification) -> None:
    """Time passes: the row's next attempt has come."""
    Notification.objects.filter(pk=note.pk).update(next_attempt=timezone.now())


def your_turn_row(game: Game) -> Notification:
    return notes(game, Notification.Kind.YOUR_TURN, turn=game.turn).get()


def test_a_move_by_the_view_stands_when_its_email_is_refused(smtp_mail, alice, bob):
    # Default test settings: eager tasks that propagate. The refusal must not reach the player.
    smtp_mail.refuse = REFUSAL
    game = start_geared([alice, bob], target=2000)
    seat = seat_to_act(game)
    action = end_turn_choice(game, seat)
    client = client_for(seat.user)
    response = client.post(
        reverse("game_move", args=[game.pk]),
        {"action": json.dumps(action), "version": str(game.version)},
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.turn == 2
    assert Move.objects.filter(game=game, seat=seat).count() == 1
    note = your_turn_row(game)
    assert note.state == PENDING, "left for a retry"
    assert note.attempts == 1
    assert "550" in note.error
    assert note.next_attempt > timezone.now(), "its next attempt is recorded on the row"


def test_a_refused_message_is_retried_with_backoff_by_the_sweep_then_failed_after_a_day(
    smtp_mail, alice, bob, caplog
):
    game = start_geared([alice, bob], target=2000)
    smtp_mail.refuse = REFUSAL
    smtp_mail.messages.clear()  # the start's e-mail, if any
    version, moves = game.version, Move.objects.filter(game=game).count()
    mover = play_turn(game)
    game.refresh_from_db()
    assert game.version > version and game.turn == 2
    assert Move.objects.filter(game=game).count() > moves
    assert seat_to_act(game).user != mover.user, "the move stands"

    note = your_turn_row(game)
    waits = []
    for attempt in range(1, 6):
        note.refresh_from_db()
        assert note.state == PENDING and note.attempts == attempt and "550" in note.error
        waits.append(round((note.next_attempt - timezone.now()).total_seconds()))
        assert outbox.sweep()["emails"] == 0, "not before its next attempt"
        due_now(note)
        assert outbox.sweep()["emails"] == 1
    assert waits == [60, 120, 240, 480, 960], "exponential backoff from OUTBOX_RETRY_BASE"

    # A day later it is given up: FAILED, logged, shown on the dashboard.
    Notification.objects.filter(pk=note.pk).update(created=timezone.now() - timedelta(days=1))
    due_now(note)
    with caplog.at_level(logging.ERROR, logger="games.notifications.outbox"):
        outbox.sweep()
    note.refresh_from_db()
    assert note.state == FAILED and note.attempts == 7 and note.sent is None
    assert smtp_mail.refused == 7 and smtp_mail.messages == []
    assert any(
        r.levelno == logging.ERROR and "failed for good" in r.getMessage() for r in caplog.records
    )
    assert outbox.sweep()["emails"] == 0, "a given-up e-mail is not retried by the sweep"


def test_the_backoff_is_capped_at_an_hour(settings):
    assert [outbox.backoff(n).total_seconds() for n in (1, 2, 6, 7, 30)] == [
        60,
        120,
        1920,
        3600,
        3600,
    ]


def test_a_server_that_is_down_leaves_the_email_pending_but_not_the_game_and_the_beat_goes_on(
    closed_port_mail, alice, bob
):
    game = start_geared([alice, bob], turn_seconds=86400, target=2000)
    first = seat_to_act(game)
    play_turn(game)
    note = your_turn_row(game)
    assert note.state == PENDING and note.attempts == 1
    assert "Connection refused" in note.error or "ConnectionRefused" in note.error

    # The beat still runs: an expired deadline is acted on though no e-mail can go out.
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert tasks.expire_deadlines.delay().get() == {"expired": 1, "reminders": 0}
    game.refresh_from_db()
    assert game.turn == 3
    assert seat_to_act(game).pk == first.pk


def test_a_failure_then_a_success_sends_the_message_once(smtp_mail, alice, bob, monkeypatch):
    # The server refuses the first two attempts, then accepts: one message, row SENT.
    calls = {"n": 0}
    original = smtp_mail.handle_DATA

    async def flaky(server, session, envelope):
        calls["n"] += 1
        if calls["n"] <= 2:
            return "451 4.3.0 Try again later"
        return await original(server, session, envelope)

    monkeypatch.setattr(smtp_mail, "handle_DATA", flaky)
    game = start_geared([alice, bob], target=2000)
    smtp_mail.messages.clear()
    calls["n"] = 0
    play_turn(game)
    note = your_turn_row(game)
    for _ in range(4):  # more sweeps than needed: a sent row is never sent again
        due_now(note)
        outbox.sweep()
    note.refresh_from_db()
    assert note.state == SENT and note.attempts == 3
    assert "451" in note.error, "the last problem it got over is kept"
    assert len(smtp_mail.messages) == 1
    assert smtp_mail.messages[0]["Message-ID"] == f"<notification-{note.pk}@testserver>"


def test_a_retried_turn_email_whose_turn_is_over_is_skipped_not_sent(smtp_mail, alice, bob):
    # After an outage, "your turn" for a turn the player has already played is not worth it.
    smtp_mail.refuse = REFUSAL
    game = start_geared([alice, bob], target=2000)
    play_turn(game)
    note = your_turn_row(game)
    play_turn(game)  # the player came back by themselves and played turn 2
    smtp_mail.refuse = ""
    due_now(note)
    outbox.sweep()
    note.refresh_from_db()
    assert note.state == Notification.State.SKIPPED and "turn it announced is over" in note.error
    assert not [m for m in smtp_mail.messages if "turn 2" in str(m["Subject"])]


def test_an_email_given_up_on_is_sent_once_when_a_moderator_requeues_it(
    smtp_mail, alice, bob, django_user_model
):
    from games.actions import moderation

    smtp_mail.refuse = REFUSAL
    game = start_geared([alice, bob], target=2000)
    play_turn(game)
    note = your_turn_row(game)
    Notification.objects.filter(pk=note.pk).update(created=timezone.now() - timedelta(days=2))
    due_now(note)
    outbox.sweep()
    note.refresh_from_db()
    assert note.state == FAILED
    smtp_mail.refuse = ""
    moderator = django_user_model.objects.create_user("mod", "mod@example.com", "pw", is_staff=True)
    assert moderation.requeue_emails(moderator, "SMTP is back") == 1
    note.refresh_from_db()
    assert note.state == SENT
    assert len(smtp_mail.to(note.user.email)) == 1
    assert (
        moderation.ModerationAction.objects.get(action="re-queue e-mails").reason == "SMTP is back"
    )
