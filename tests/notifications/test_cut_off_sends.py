"""A send cut off in the middle (config/mail.py's deadline, a task's time limit) has an unknown
outcome: it is retried with the same Message-ID, never failed for good, even when it is then not
needed any more (at least once: the server may not have it), and counted as a possible double;
only the player's own choices stop it, and then it counts as sent (the server may have it). The
real SMTP client against a real aiosmtpd server that has the message and answers DATA too
late."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from config.mail import SendDeadlineExceeded
from games.models import Notification
from games.notifications import email, outbox
from tests.notifications.helpers import play_turn
from tests.smtp import mailers_for
from tests.support.games import start_geared

pytestmark = pytest.mark.django_db(transaction=True)
State = Notification.State


def reminder(game, user) -> Notification:
    return Notification.objects.create(
        kind=Notification.Kind.REMINDER,
        user=user,
        game=game,
        turn=game.turn,
        next_attempt=timezone.now(),
    )


@pytest.fixture
def late_answer(settings, smtp_server):
    """The server takes the message at DATA and answers after the send's 1 s deadline."""
    settings.MAILERS = mailers_for(smtp_server.port, timeout=1, deadline=1)
    smtp_server.slow_data = 1.5
    return smtp_server


def cut_off(row) -> Notification:
    with pytest.raises(SendDeadlineExceeded):
        email.deliver(row.pk)
    row.refresh_from_db()
    return row


def test_a_send_cut_off_after_the_server_took_the_message_is_sent_again_with_its_message_id(
    late_answer, alice, bob
):
    game = start_geared([alice, bob], target=2000)
    late_answer.messages.clear()
    row = cut_off(reminder(game, alice))
    assert row.state == State.PENDING and row.maybe_sent and "may have arrived" in row.error
    assert len(late_answer.messages) == 1, "the server has it"

    late_answer.slow_data = 0
    Notification.objects.filter(pk=row.pk).update(next_attempt=timezone.now())
    assert outbox.sweep()["emails"] == 1
    row.refresh_from_db()
    assert row.state == State.SENT
    ids = [str(m["Message-ID"]) for m in late_answer.messages]
    assert ids == [f"<notification-{row.pk}@testserver>"] * 2, "the documented double"


def test_a_cut_off_send_no_longer_needed_is_sent_again_all_the_same(late_answer, alice, bob):
    """Issue 34.11: the server may not have it; the player must not lose the e-mail."""
    game = start_geared([alice, bob], target=2000)
    late_answer.messages.clear()
    row = cut_off(reminder(game, alice))
    play_turn(game)  # the turn it reminded of is over
    play_turn(game)
    late_answer.slow_data = 0
    Notification.objects.filter(pk=row.pk).update(next_attempt=timezone.now())
    outbox.sweep()
    row.refresh_from_db()
    assert row.state == State.SENT and row.sent, row.error
    ids = [str(m["Message-ID"]) for m in late_answer.messages]
    assert ids.count(f"<notification-{row.pk}@testserver>") == 2, "the documented double"
    assert list(Notification.objects.filter(outbox.MAYBE_DOUBLED)) == [row]


def test_a_cut_off_send_the_player_then_turned_off_counts_as_sent_not_skipped(
    late_answer, alice, bob
):
    game = start_geared([alice, bob], target=2000)
    late_answer.messages.clear()
    row = cut_off(reminder(game, alice))
    alice.notify_reminder = False
    alice.save(update_fields=["notify_reminder"])
    Notification.objects.filter(pk=row.pk).update(next_attempt=timezone.now())
    outbox.sweep()
    row.refresh_from_db()
    assert row.state == State.SENT and row.sent is None, row.error
    assert "may have arrived; not sent again" in row.error and "turned it off" in row.error
    ids = [str(m["Message-ID"]) for m in late_answer.messages]
    assert ids.count(f"<notification-{row.pk}@testserver>") == 1, "not sent again"
    assert not Notification.objects.filter(outbox.MAYBE_DOUBLED).exists()


def lose_claim(row, *, transmitting: bool) -> Notification:
    """The row as a worker killed while holding it leaves it: SENDING, claimed long ago, and
    past the start of its SMTP conversation or not."""
    long_ago = timezone.now() - timedelta(hours=1)
    assert outbox.claim(Notification.objects, row.pk) is not None
    Notification.objects.filter(pk=row.pk).update(
        claimed=long_ago, transmitting=long_ago if transmitting else None
    )
    assert outbox.return_lost_claims(Notification) == 1
    row.refresh_from_db()
    return row


@pytest.mark.parametrize("transmitting", [False, True], ids=["before-smtp", "during-smtp"])
def test_a_lost_claim_may_have_arrived_only_if_its_worker_had_begun_sending(
    smtp_server, settings, alice, bob, transmitting
):
    """Issue 23.6: "sent" must be true. A worker killed before it talked to SMTP sent nothing:
    if the e-mail is then no longer needed it is skipped, not counted as sent. One killed
    during its SMTP conversation may not have sent it either: it is sent again, needed or not
    (issue 34.11)."""
    settings.MAILERS = mailers_for(smtp_server.port)
    game = start_geared([alice, bob], target=2000)  # two turns never end it
    row = lose_claim(reminder(game, alice), transmitting=transmitting)
    assert row.state == State.PENDING and row.maybe_sent is transmitting
    play_turn(game)  # the turn it reminded of is over
    play_turn(game)
    smtp_server.messages.clear()
    Notification.objects.filter(pk=row.pk).update(next_attempt=timezone.now())
    outbox.sweep()
    row.refresh_from_db()
    copies = [m for m in smtp_server.messages if f"notification-{row.pk}@" in m["Message-ID"]]
    if transmitting:
        assert row.state == State.SENT and row.sent, row.error
        assert len(copies) == 1
        assert list(Notification.objects.filter(outbox.MAYBE_DOUBLED)) == [row]
    else:
        assert row.state == State.SKIPPED and "turn it announced" in row.error
        assert not copies
