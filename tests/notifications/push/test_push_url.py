"""The outbound push URL right (issue 34.1): `games.notifications.devices.push_url`, the one
function the subscribe door and the sender call. An endpoint is read as the sender reads it
(requests prepares the URL, urllib3 takes the host and port from it) and must mean the same in a
strict reading; only a push service's host on https and port 443 passes (http on loopback only with
PUSH_ALLOW_LOOPBACK), and what is stored is the URL as it will be sent."""

from __future__ import annotations

import json

import pytest
from requests.models import PreparedRequest
from urllib3.util import parse_url

from accounts.models import PushSubscription
from games.models import Notification, Push
from games.notifications.devices import PushError, push_url
from tests.notifications.helpers import play_turn
from tests.notifications.push.helpers import subscribe
from tests.notifications.push.service import Device, Trap
from tests.support.games import seat_to_act, start_geared

pytestmark = pytest.mark.django_db

SUBSCRIBE = "/accounts/push/subscribe/"

# Each refused with a sentence, whatever PUSH_ALLOW_LOOPBACK says.
HOSTILE = [
    # The two: urlsplit reads a known host, urllib3 ends the host at the backslash.
    "https://127.0.0.1\\.fcm.googleapis.com/x",
    "https://evil.example\\.push.apple.com/x",
    "http://127.0.0.1:9\\@127.0.0.1:8000/push/x",  # loopback: urlsplit 8000, urllib3 9
    # Ports other than https's own.
    "https://fcm.googleapis.com:22/x",
    "https://fcm.googleapis.com:0/x",
    "https://fcm.googleapis.com:444/x",
    "https://fcm.googleapis.com:80/x",
    "https://fcm.googleapis.com:/x",
    "https://fcm.googleapis.com:99999/x",
    # Userinfo: the host is what follows the "@".
    "https://fcm.googleapis.com@evil.example/x",
    "https://user:pw@fcm.googleapis.com/x",
    "https://fcm.googleapis.com:443@127.0.0.1/x",
    # Percent-encoded hosts (urllib3 decodes them, a strict reading does not).
    "https://fcm%2egoogleapis.com/x",
    "https://evil%2e.fcm.googleapis.com/x",
    "https://%66cm.googleapis.com/x",
    "https://fcm.googleapis.com/a/%2e%2e/b",  # the sender would send another path
    # Spaces, tabs, newlines, controls anywhere.
    "https://fcm.googleapis.com\t/x",
    "https://fcm.google\napis.com/x",
    "https://fcm.googleapis.com/x\r\nHost: evil.example",
    " https://fcm.googleapis.com/x",
    "https://fcm.googleapis.com/x\x00",
    "https://fcm.googleapis.com/x y",
    # IDNA and look-alikes: non-ASCII is refused before anything maps it onto a known host.
    "https://fcm\uff0egoogleapis\uff0ecom/x",
    "https://fcm.googleapis.c\u043em/x",
    "https://fcm.googleapis.com\u3002/x",
    "https://xn--fcm-xyz.googleapis.xn--com-abc/x",
    # Hosts near a known one, trailing dots, empty labels, IP literals.
    "https://fcm.googleapis.com./x",
    "https://fcm..googleapis.com/x",
    "https://.fcm.googleapis.com/x",
    "https://-x.fcm.googleapis.com/x",
    "https://fcm.googleapis.com.evil.example/x",
    "https://evilfcm.googleapis.co/x",
    "https://googleapis.com/x",
    "https://[::1]/x",
    "https://[::ffff:127.0.0.1]/x",
    "https://127.0.0.1/x",
    "https://0x7f000001/x",
    "https://2130706433/x",
    # Not https, no host, no path, a fragment.
    "http://fcm.googleapis.com/x",
    "ftp://fcm.googleapis.com/x",
    "https:/fcm.googleapis.com/x",
    "https:fcm.googleapis.com/x",
    "https:///fcm.googleapis.com/x",
    "https://fcm.googleapis.com",
    "https://fcm.googleapis.com?x",
    "https://fcm.googleapis.com/x#y",
    "//fcm.googleapis.com/x",
    "fcm.googleapis.com/x",
    # http elsewhere than loopback, and loopback without its port or on https.
    "http://127.0.0.2:8000/x",
    "http://10.0.0.7:8000/x",
    "http://127.0.0.1/x",
    "http://127.0.0.1:0/x",
    "https://localhost/x",
    "https://fcm.googleapis.com/" + "x" * 1000,
]


@pytest.mark.parametrize("loopback", [True, False], ids=["loopback-on", "loopback-off"])
@pytest.mark.parametrize("endpoint", HOSTILE)
def test_a_hostile_endpoint_is_refused_with_a_sentence(settings, endpoint, loopback):
    settings.PUSH_ALLOW_LOOPBACK = loopback
    with pytest.raises(PushError) as refused:
        push_url(endpoint)
    assert refused.value.status == 400
    assert refused.value.message.startswith("The endpoint")


@pytest.mark.parametrize("endpoint", [None, "", 42, ["https://fcm.googleapis.com/x"]])
def test_no_endpoint_is_refused(endpoint):
    with pytest.raises(PushError, match="no endpoint"):
        push_url(endpoint)


# (what a browser may send, what is stored and sent)
GOOD = [
    ("https://fcm.googleapis.com/fcm/send/cX:APA91b-_x", None),
    ("https://updates.push.services.mozilla.com/wpush/v2/gAAAAABl-x_y", None),
    ("https://web.push.apple.com/QGx-yz_0", None),
    ("https://db5.notify.windows.com/w/?token=BQYAAAB%2Bab%3D", None),
    ("https://android.googleapis.com/gcm/send/abc", None),
    # Normalised: scheme and host in lower case, https's own port left out.
    ("HTTPS://FCM.GoogleAPIs.com/fcm/send/X", "https://fcm.googleapis.com/fcm/send/X"),
    ("https://fcm.googleapis.com:443/fcm/send/x", "https://fcm.googleapis.com/fcm/send/x"),
    ("https://fcm.googleapis.com:0443/fcm/send/x", "https://fcm.googleapis.com/fcm/send/x"),
    (
        "https://db5.notify.windows.com/w/?token=a%2bb",
        "https://db5.notify.windows.com/w/?token=a%2Bb",
    ),
]


@pytest.mark.parametrize(("endpoint", "normal"), GOOD)
def test_a_push_services_url_passes_as_the_sender_will_send_it(settings, endpoint, normal):
    settings.PUSH_ALLOW_LOOPBACK = False
    checked = push_url(endpoint)
    assert checked.url == (normal or endpoint)
    # It is what requests sends, urllib3 connects to its host on 443, and it checks again as
    # itself: the sender's check of a stored row gives the same URL.
    prepared = PreparedRequest()
    prepared.prepare_url(checked.url, None)
    assert prepared.url == checked.url
    sent = parse_url(checked.url)
    assert (sent.scheme, sent.auth, sent.port) == ("https", None, None)
    assert checked.origin == f"https://{sent.host}"
    assert push_url(checked.url) == checked


def test_http_on_loopback_only_when_allowed(settings):
    settings.PUSH_ALLOW_LOOPBACK = True
    assert push_url("http://127.0.0.1:8123/push/a").origin == "http://127.0.0.1:8123"
    assert push_url("http://LOCALHOST:8123/push/a").url == "http://localhost:8123/push/a"
    settings.PUSH_ALLOW_LOOPBACK = False
    with pytest.raises(PushError, match="https"):
        push_url("http://127.0.0.1:8123/push/a")


def _subscription(endpoint: str) -> dict:
    return Device(endpoint).subscription()


@pytest.mark.parametrize(
    "endpoint",
    [
        "https://127.0.0.1\\.fcm.googleapis.com/x",
        "https://evil.example\\.push.apple.com/x",
        "http://127.0.0.1:9\\@127.0.0.1:8000/push/x",
        "https://fcm.googleapis.com:22/x",
        "https://fcm.googleapis.com:0/x",
        "https://fcm.googleapis.com@evil.example/x",
        "https://fcm%2egoogleapis.com/x",
    ],
)
def test_the_subscribe_door_answers_400_with_a_sentence_and_stores_nothing(
    push_on, alice_client, endpoint
):
    answer = alice_client.post(
        SUBSCRIBE, json.dumps(_subscription(endpoint)), content_type="application/json"
    )
    assert answer.status_code == 400
    assert answer.json()["error"].startswith("The endpoint")
    assert not PushSubscription.objects.exists()


def test_the_url_stored_is_the_one_the_sender_will_use(push_on, alice_client):
    device = _subscription("HTTPS://FCM.googleapis.com:443/fcm/send/abc")
    answer = alice_client.post(SUBSCRIBE, json.dumps(device), content_type="application/json")
    assert answer.status_code == 201
    assert PushSubscription.objects.get().endpoint == "https://fcm.googleapis.com/fcm/send/abc"
    # The switch turned off with the browser's spelling finds the row.
    gone = alice_client.post(
        "/accounts/push/unsubscribe/",
        json.dumps({"endpoint": device["endpoint"]}),
        content_type="application/json",
    )
    assert gone.json() == {"removed": 1}


# --- the sender checks again, on the request it makes --------------------------------------


def _waiting_player(commit, alice, bob):
    game = commit(start_geared, [alice, bob], target=2000)
    mover = seat_to_act(game)
    return game, (bob if mover.user == alice else alice)


def _stored_before_the_check(user, endpoint: str) -> PushSubscription:
    """A row as the subscribe door stored it before issue 34 (or as edited in the database)."""
    keys = Device(endpoint).subscription()["keys"]
    return PushSubscription.objects.create(user=user, endpoint=endpoint, **keys)


# Rows the sender's urllib3 connects to the trap by (127.0.0.1, its port), and that the right
# refuses: each reads differently strictly and as urllib3 reads it.
STORED_BEFORE = [
    "http://127%2e0.0.1:{port}/push/trap",  # urllib3 decodes the host, urlsplit does not
    "http://fcm.googleapis.com@127.0.0.1:{port}/push/trap",  # userinfo
    "http://localhost.:{port}/push/trap",  # a trailing dot
]


@pytest.mark.parametrize("endpoint", STORED_BEFORE)
def test_a_row_stored_before_the_check_is_refused_by_the_sender_and_dropped(
    commit, push_on, trap, mailoutbox, alice, bob, endpoint
):
    """A row stored before issue 34 (or edited in the database) that the sender would connect
    to the trap by: the sender's own check refuses it: no connection, the push FAILED at once
    (no day of retries), the device dropped, the e-mail sent at once."""
    game, waiting = _waiting_player(commit, alice, bob)
    _stored_before_the_check(waiting, endpoint.format(port=trap.port))
    commit(play_turn, game)

    assert trap.connected() == 0
    row = Push.objects.get()
    assert row.state == Notification.State.FAILED and row.next_attempt is None
    assert "the device's endpoint is refused" in row.error
    assert row.subscription is None and not PushSubscription.objects.exists()
    assert len([m for m in mailoutbox if m.to == [waiting.email]]) == 1


def test_a_redirect_to_a_host_the_right_refuses_is_not_followed(commit, push_service, alice, bob):
    """The check is on the request itself (games/notifications/push.py: CheckedAdapter), so a
    redirect from the push service is held to the same right: 127.0.0.2 is loopback, but not a push
    service's host."""
    trap = Trap("127.0.0.2")
    try:
        game, waiting = _waiting_player(commit, alice, bob)
        subscribe(waiting, push_service.device("moved"))
        push_service.redirects["/push/moved"] = f"http://127.0.0.2:{trap.port}/push/x"
        commit(play_turn, game)
        assert trap.connected() == 0
    finally:
        trap.close()
    assert [p.status for p in push_service.received] == [307]
    row = Push.objects.get()
    assert row.state == Notification.State.FAILED and "not one a push may go to" in row.error
