"""Issue 23, point 1, in-process: every invitation row is due to the sweep from its creation,
and the sweep takes a pending row that has no due time at all (with real processes and a
stopped broker: tests/faults/test_invitation_outage.py)."""

from __future__ import annotations

import pytest
from django.core import mail

from games.actions import tables
from games.models import Invitation
from games.notifications import email, outbox

pytestmark = pytest.mark.django_db


def test_invitations_by_address_and_by_username_are_due_to_the_sweep_from_the_start(
    alice, bob, django_capture_on_commit_callbacks
):
    table = tables.create_game(alice, tables.NewGame("geared", 3))
    with django_capture_on_commit_callbacks(execute=False):  # their own tasks are lost
        tables.invite(alice, table.pk, "dora@example.com")
        tables.invite(alice, table.pk, "bob")
    assert Invitation.objects.filter(next_attempt__isnull=True).count() == 0
    assert set(outbox.due_rows(Invitation, now=outbox.first_attempt())) == set(
        Invitation.objects.all()
    )


def test_a_pending_invitation_without_a_due_time_is_sent_by_the_next_sweep(alice):
    table = tables.create_game(alice, tables.NewGame("geared", 3))
    Invitation.objects.create(game=table, inviter=alice, email="dora@example.com", via="email")
    report = outbox.sweep()
    assert report["emails"] == 1
    assert [m.to for m in mail.outbox] == [["dora@example.com"]]
    assert Invitation.objects.get().state == "sent"


def test_an_invitation_e_mail_for_a_table_cancelled_before_it_went_is_not_sent(
    alice, bob, django_capture_on_commit_callbacks
):
    """Issue 34.10: the send re-checks the table (still open) and the invitation (still
    pending); one no longer owed is skipped, not sent."""
    table = tables.create_game(alice, tables.NewGame("geared", 3))
    with django_capture_on_commit_callbacks(execute=False):  # not sent yet
        rows = [tables.invite(alice, table.pk, who) for who in ("dora@example.com", "bob")]
    tables.leave_game(alice, table.pk)  # the host leaves: the table is cancelled
    for row in rows:
        assert email.send_invitation(row.pk) is False
        row.refresh_from_db()
        assert row.state == Invitation.State.SKIPPED, row.error
        assert row.error == "Not needed: the table is cancelled."
    assert mail.outbox == []


def test_an_invitation_taken_up_before_its_e_mail_went_is_not_mailed(
    alice, bob, django_capture_on_commit_callbacks
):
    table = tables.create_game(alice, tables.NewGame("geared", 3))
    with django_capture_on_commit_callbacks(execute=False):
        to_dora, to_bob = (tables.invite(alice, table.pk, w) for w in ("dora@example.com", "bob"))
    tables.join_game(bob, table.pk)  # from the table's page, without the e-mail
    assert email.send_invitation(to_bob.pk) is False
    assert Invitation.objects.get(pk=to_bob.pk).error == "Not needed: the invitation was taken up."
    assert email.send_invitation(to_dora.pk) is True  # still owed: the table is open
    assert [m.to for m in mail.outbox] == [["dora@example.com"]]
