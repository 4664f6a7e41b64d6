"""One reminder per turn, when about 80% of the time is gone, to those who have not played.
Time is moved by passing `now=` or by moving the deadline in the database; nothing sleeps."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import tasks
from games.actions import deadlines
from games.models import Game
from games.reads import due
from tests.notifications.helpers import Note, notes, play_turn, recipients, submit_program
from tests.support.games import seat_to_act, start_geared, start_oog

pytestmark = pytest.mark.django_db(transaction=True)

DAY = 86400


def at(game: Game, fraction: float):
    """The moment when `fraction` of the turn's time is gone."""
    return game.deadline - timedelta(seconds=DAY * (1 - fraction))


def reminders(mailoutbox) -> list:
    return [m for m in mailoutbox if m.subject.startswith("Reminder")]


def test_geared_no_reminder_at_70_percent_one_at_81_and_none_after(mailoutbox, alice, bob):
    game = start_geared([alice, bob], turn_seconds=DAY, target=2000)
    waiting = seat_to_act(game).user

    assert due.due_deadlines(at(game, 0.70)) == ([], [])
    assert deadlines.remind(game.pk, game.turn, now=at(game, 0.70)) == 0
    assert reminders(mailoutbox) == []

    assert due.due_deadlines(at(game, 0.81)) == ([], [(game.pk, game.turn)])
    assert deadlines.remind(game.pk, game.turn, now=at(game, 0.81)) == 1
    (message,) = reminders(mailoutbox)
    assert message.to == [waiting.email]
    assert f"#{game.pk}" in message.subject
    assert "a bot plays for you" in message.body

    # A second run (the beat runs every minute) sends nothing more.
    assert due.due_deadlines(at(game, 0.85)) == ([], [])
    assert deadlines.remind(game.pk, game.turn, now=at(game, 0.90)) == 0
    assert len(reminders(mailoutbox)) == 1
    assert notes(game, Note.REMINDER).count() == 1


def test_a_reminder_for_a_turn_that_is_over_is_not_sent(mailoutbox, alice, bob):
    game = start_geared([alice, bob], turn_seconds=DAY, target=2000)
    turn = game.turn
    play_turn(game)
    assert deadlines.remind(game.pk, turn, now=at(game, 0.95)) == 0
    assert reminders(mailoutbox) == []


def test_out_of_gears_the_beat_reminds_only_those_who_have_not_programmed(
    mailoutbox, alice, bob, carol
):
    game = start_oog([alice, bob, carol], turn_seconds=DAY)
    submit_program(game, alice)

    # 70% of the time gone: the beat task finds nothing to do.
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() + timedelta(seconds=DAY * 0.3))
    assert tasks.expire_deadlines.delay().get() == {"expired": 0, "reminders": 0}
    assert reminders(mailoutbox) == []

    # 81%: one reminder each to bob and carol, none to alice whose program is in.
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() + timedelta(seconds=DAY * 0.19))
    assert tasks.expire_deadlines.delay().get() == {"expired": 0, "reminders": 1}
    assert recipients(game, Note.REMINDER) == ["bob", "carol"]
    assert sorted(m.to[0] for m in reminders(mailoutbox)) == [bob.email, carol.email]
    assert all("your robot defends" in m.body for m in reminders(mailoutbox))

    # The next run of the beat sends nothing more.
    assert tasks.expire_deadlines.delay().get() == {"expired": 0, "reminders": 0}
    assert deadlines.remind(game.pk, game.turn) == 0
    assert len(reminders(mailoutbox)) == 2
