"""What a Notification row records: skipped when the player no longer wants it, failed (with the
error) when the message cannot even be built."""

import pytest
from django.core import mail

from games import tasks
from games.actions import tables
from games.models import Notification, Seat
from games.notifications import email
from games.notifications import queueing as notifications

pytestmark = pytest.mark.django_db


@pytest.fixture
def queued(alice, bob):
    game = tables.create_game(alice, tables.NewGame(kind="geared", seat_count=2, public=True))
    tables.join_game(bob, game.pk)
    tables.start_game(alice, game.pk)  # e-mails are queued, not sent: on_commit never runs
    game.refresh_from_db()
    seat = Seat.objects.select_related("user").get(game=game, user=bob)
    (note_id,) = notifications.queue(game, Notification.Kind.YOUR_TURN, [seat], turn=99)
    return Notification.objects.get(pk=note_id), bob


def test_an_email_no_longer_wanted_is_skipped_not_sent(queued):
    note, user = queued
    user.notify_turn = False
    user.save(update_fields=["notify_turn"])
    assert email.deliver(note.pk) is False
    note.refresh_from_db()
    assert note.state == Notification.State.SKIPPED and note.sent is None
    assert not mail.outbox


def test_an_email_that_cannot_be_built_is_failed_with_its_error(queued, monkeypatch):
    note, _ = queued

    def broken(note):
        raise KeyError("events")

    monkeypatch.setattr(email, "_context", broken)
    assert tasks.send_notification.apply(args=[note.pk]).get() is False
    note.refresh_from_db()
    assert note.state == Notification.State.FAILED and "KeyError" in note.error
    assert not mail.outbox
