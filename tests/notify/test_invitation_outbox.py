"""Issue 23, point 1, in-process: every invitation row is due to the sweep from its creation,
and the sweep takes a pending row that has no due time at all (with real processes and a
stopped broker: tests/faults/test_invitation_outage.py)."""

from __future__ import annotations

import pytest
from django.core import mail

from games import outbox, services
from games.models import Invitation

pytestmark = pytest.mark.django_db


def test_invitations_by_address_and_by_username_are_due_to_the_sweep_from_the_start(
    alice, bob, django_capture_on_commit_callbacks
):
    table = services.create_game(alice, services.NewGame("geared", 3))
    with django_capture_on_commit_callbacks(execute=False):  # their own tasks are lost
        services.invite(alice, table.pk, "dora@example.com")
        services.invite(alice, table.pk, "bob")
    assert Invitation.objects.filter(next_attempt__isnull=True).count() == 0
    assert set(outbox.due_rows(Invitation, now=outbox.first_attempt())) == set(
        Invitation.objects.all()
    )


def test_a_pending_invitation_without_a_due_time_is_sent_by_the_next_sweep(alice):
    table = services.create_game(alice, services.NewGame("geared", 3))
    Invitation.objects.create(game=table, inviter=alice, email="dora@example.com", via="email")
    report = outbox.sweep()
    assert report["emails"] == 1
    assert [m.to for m in mail.outbox] == [["dora@example.com"]]
    assert Invitation.objects.get().state == "sent"
