"""Issue 34.1 with the real parts: a worker process (its own settings, loopback pushes allowed as
in every test) that must push to a device whose endpoint was stored before the outbound push
URL right existed (or edited in the database since) makes no connection to where that endpoint
leads, and does not try again; the player's other device gets its push as usual."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from accounts.models import PushSubscription
from games.models import Notification, Push
from tests.notifications.helpers import end_turn_choice
from tests.notifications.push.helpers import subscribe
from tests.notifications.push.service import Device, PushService, Trap
from tests.support.games import client_for, seat_to_act, start_geared
from tests.support.push import VAPID_PRIVATE, VAPID_PUBLIC
from tests.support.waiting import wait_for

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

VAPID = {
    "VAPID_PUBLIC_KEY": VAPID_PUBLIC,
    "VAPID_PRIVATE_KEY": VAPID_PRIVATE,
    "VAPID_SUBJECT": "mailto:admin@geartable.test",
}


@pytest.fixture
def service():
    service = PushService(VAPID_PUBLIC)
    service.start()
    yield service
    service.stop()


@pytest.fixture
def trap():
    trap = Trap()
    yield trap
    trap.close()


@pytest.mark.parametrize("broker", ["redis"], indirect=True)
def test_a_worker_makes_no_connection_to_an_endpoint_stored_before_the_check(
    stack, broker, settings, service, trap, alice, bob
):
    for name, value in VAPID.items():  # this process writes the Push rows at the move
        setattr(settings, name, value)
    stack.worker(**VAPID)
    game = start_geared([alice, bob], target=2000)
    mover = seat_to_act(game)
    waiting = bob if mover.user == alice else alice
    phone = subscribe(waiting, service.device("phone"))
    # urllib3 reads this host as 127.0.0.1 (it decodes "%2e"), a strict reading does not: the
    # worker's requests would connect to the trap.
    endpoint = f"http://127%2e0.0.1:{trap.port}/push/trap"
    keys = Device(endpoint).subscription()["keys"]
    PushSubscription.objects.create(user=waiting, endpoint=endpoint, **keys)

    answer = client_for(mover.user).post(
        reverse("game_move", args=[game.pk]),
        {"action": json.dumps(end_turn_choice(game, mover)), "version": str(game.version)},
    )
    assert answer.status_code == 302

    wait_for(
        lambda: service.accepted("phone"),
        seconds=30,
        what=lambda: f"the push to the good device\n{stack.logs()}",
    )
    refused = wait_for(
        lambda: (
            Push.objects.exclude(subscription_id=phone.pk)
            .filter(attempts__gte=1)
            .exclude(state=Notification.State.SENDING)
            .first()
        ),
        seconds=30,
        what=lambda: f"the worker's attempt at the stored endpoint\n{stack.logs()}",
    )
    assert trap.connected() == 0
    assert refused.state == Notification.State.FAILED and refused.next_attempt is None
    assert "the device's endpoint is refused" in refused.error
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [phone.endpoint]
