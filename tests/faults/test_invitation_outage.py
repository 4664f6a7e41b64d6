"""Issue 23, point 1: an invitation posted while the broker is down. Its own task is lost at
commit; the sweep must find the row (it has a due time from its creation, and a row without
one is due too), and the e-mail reaches a real SMTP server once, with no manual step."""

from __future__ import annotations

from collections import Counter

import pytest
from django.urls import reverse

from games.actions import tables
from games.models import Invitation
from tests.support.games import client_for
from tests.support.waiting import wait_for

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

BOUND = 30.0


def sweeps_done(stack) -> int:
    """Sweeps the workers have finished, read from their logs."""
    return sum(
        line.count("Task games.tasks.sweep[") and line.count("succeeded")
        for line in stack.logs().splitlines()
    )


@pytest.mark.parametrize("broker", ["redis"], indirect=True)
def test_an_invitation_posted_with_the_broker_down_is_emailed_once_it_is_back(
    stack, broker, alice, bob
):
    table = tables.create_game(alice, tables.NewGame("geared", 3))
    stack.worker()
    stack.beat()
    broker.stop()  # kill -9: nothing reaches it, and nothing queued before survives

    client = client_for(alice)
    for who in ("dora@example.net", "bob"):  # by e-mail address and by username
        response = client.post(reverse("game_invite", args=[table.pk]), {"who": who})
        assert response.status_code == 302, response.content.decode()
    rows = list(Invitation.objects.order_by("pk"))
    assert [r.state for r in rows] == ["pending", "pending"], "owed, in the database"

    broker.start()
    wait_for(
        lambda: not Invitation.objects.exclude(state="sent").exists(),
        seconds=BOUND,
        what=lambda: f"both invitations to be sent after the broker came back\n{stack.logs()}",
    )
    stack.inbox.wait_for(1, to="dora@example.net", seconds=BOUND)
    stack.inbox.wait_for(1, to="bob@example.com", seconds=BOUND)
    # Nothing more: two more sweeps run, and neither sends anything again.
    done = sweeps_done(stack)
    wait_for(lambda: sweeps_done(stack) >= done + 2, seconds=BOUND, what="two more sweeps")
    ids = Counter(str(m["Message-ID"]) for m in stack.inbox.messages)
    assert ids == Counter({f"<invitation-{r.pk}@testserver>": 1 for r in rows})
