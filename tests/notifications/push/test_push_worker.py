"""A push end to end with the real parts of production: a move commits, a real Celery worker on
Redis takes the push task, signs and encrypts it, and the push service on loopback checks and
keeps it; with the push service down, the retries go through the broker from the sweep, and the
push arrives once when it is back (issue 26)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.urls import reverse

from games.models import Notification, Push
from games.notifications import outbox
from tests.notifications.helpers import end_turn_choice
from tests.notifications.push.helpers import subscribe
from tests.support.games import client_for, seat_to_act, start_geared
from tests.support.waiting import wait_for

# The worker reads committed rows through its own connection: no test-wrapping transaction.
pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

State = Notification.State


def test_a_push_through_the_real_worker_down_then_back_arrives_once(
    celery_worker, push_service, alice, bob
):
    game = start_geared([alice, bob], target=2000)
    mover_seat = seat_to_act(game)
    waiting = bob if mover_seat.user == alice else alice
    phone = push_service.device("phone")
    subscribe(waiting, phone)
    celery_worker.tasks.wait_until_idle()
    push_service.stop()

    answer = client_for(mover_seat.user).post(
        reverse("game_move", args=[game.pk]),
        {"action": json.dumps(end_turn_choice(game, mover_seat)), "version": str(game.version)},
    )
    assert answer.status_code == 302
    row = wait_for(
        lambda: Push.objects.filter(state=State.PENDING, attempts=1).first(),
        what="the worker's failed first attempt",
    )

    push_service.start()
    outbox.sweep(now=row.next_attempt + timedelta(seconds=1))  # the beat's sweep, when due
    wait_for(lambda: Push.objects.get().state == State.SENT, what="the push sent")
    celery_worker.tasks.wait_until_idle()
    [push] = push_service.accepted("phone")
    assert phone.decrypt(push.body)["url"] == f"/games/{game.pk}/"
    outbox.sweep(now=row.next_attempt + timedelta(days=2))
    celery_worker.tasks.wait_until_idle()
    assert len(push_service.accepted("phone")) == 1
