"""Devices for Web Push (issue 26): subscribing, the checks on what a browser sends, the limit
per player, removing a device, and push off when the site has no VAPID keys."""

from __future__ import annotations

import base64
import json

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from py_vapid import Vapid

from accounts.models import PushSubscription
from tests.notifications.push.service import Device, b64url

pytestmark = pytest.mark.django_db

SUBSCRIBE = "/accounts/push/subscribe/"
UNSUBSCRIBE = "/accounts/push/unsubscribe/"
CHROME = "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/140.0 Mobile Safari/537.36"


def post_json(client, url, data, **extra):
    body = data if isinstance(data, (bytes, str)) else json.dumps(data)
    return client.post(url, body, content_type="application/json", **extra)


def fcm(name: str = "abc") -> Device:
    return Device(f"https://fcm.googleapis.com/fcm/send/{name}")


def test_a_device_subscribes_once_and_is_listed_on_the_profile(push_on, alice_client, alice):
    device = fcm()
    answer = post_json(alice_client, SUBSCRIBE, device.subscription(), HTTP_USER_AGENT=CHROME)
    assert answer.status_code == 201, answer.content
    assert answer.json()["device"] == "Chrome on Android"
    row = PushSubscription.objects.get()
    assert (row.user, row.endpoint, row.user_agent) == (alice, device.endpoint, CHROME)
    assert row.p256dh == b64url(device.public) and row.auth == b64url(device.auth)
    # The same device again (the page subscribes on each visit): still one row, keys renewed.
    renewed = Device(device.endpoint)
    again = post_json(alice_client, SUBSCRIBE, renewed.subscription(), HTTP_USER_AGENT=CHROME)
    assert again.status_code == 201
    assert PushSubscription.objects.get().p256dh == b64url(renewed.public)
    page = alice_client.get(reverse("profile")).content.decode()
    assert "Notify me on this device" in page and "Chrome on Android" in page


def test_a_device_passed_to_another_account_moves_with_it(push_on, alice_client, bob):
    """Bob logs in on Alice's browser: its page gets the same subscription back from the
    browser (`getSubscription()`: the same endpoint, the same keys), which proves the device is
    in Bob's hands, and the device moves to him."""
    device = fcm()
    post_json(alice_client, SUBSCRIBE, device.subscription())
    bob_client = Client()
    bob_client.force_login(bob)
    assert post_json(bob_client, SUBSCRIBE, device.subscription()).status_code == 201
    assert list(PushSubscription.objects.values_list("user", flat=True)) == [bob.pk]
    # Now it is Bob's to remove, and no longer Alice's.
    alice_off = post_json(alice_client, UNSUBSCRIBE, {"endpoint": device.endpoint})
    assert alice_off.json() == {"removed": 0}
    assert post_json(bob_client, UNSUBSCRIBE, {"endpoint": device.endpoint}).json() == {
        "removed": 1
    }


def test_knowing_a_devices_endpoint_does_not_take_it_over(push_on, alice_client, alice, bob):
    """Issue 34.5: Mallory (bob) knows Alice's endpoint, not her device's keys. Subscribing it
    with keys of his own is refused (409, a sentence), changes nothing, and he cannot remove
    it either: her pushes still go to her, encrypted for her device."""
    device = fcm()
    post_json(alice_client, SUBSCRIBE, device.subscription(), HTTP_USER_AGENT=CHROME)
    before = PushSubscription.objects.values().get()
    bob_client = Client()
    bob_client.force_login(bob)
    for keys in (
        Device(device.endpoint).subscription()["keys"],  # keys of his own
        {**device.subscription()["keys"], "auth": b64url(b"g" * 16)},  # her public key, a guess
    ):
        answer = post_json(bob_client, SUBSCRIBE, {"endpoint": device.endpoint, "keys": keys})
        assert answer.status_code == 409
        assert "belong to another account" in answer.json()["error"]
        assert PushSubscription.objects.values().get() == before
    assert post_json(bob_client, UNSUBSCRIBE, {"endpoint": device.endpoint}).json() == {
        "removed": 0
    }
    assert PushSubscription.objects.values().get() == before
    assert before["user_id"] == alice.pk


def _with(**changes) -> dict:
    data = fcm().subscription()
    for key, value in changes.items():
        if key in ("p256dh", "auth"):
            data["keys"][key] = value
        else:
            data[key] = value
    return data


NOT_ON_CURVE = b64url(b"\x04" + b"\x01" * 64)


@pytest.mark.parametrize(
    ("body", "says"),
    [
        (b"{not json", "JSON"),
        (b"[1, 2]", "JSON object"),
        (_with(endpoint=None), "no endpoint"),
        (_with(endpoint="http://fcm.googleapis.com/fcm/send/x"), "https"),
        (_with(endpoint="https://10.0.0.7/push"), "known push service"),
        (_with(endpoint="https://evil.example/fcm.googleapis.com"), "known push service"),
        (_with(endpoint="https://fcm.googleapis.com.evil.example/x"), "known push service"),
        (_with(endpoint="https://fcm.googleapis.com/" + "x" * 1000), "longer than"),
        (_with(endpoint="https://user:pw@fcm.googleapis.com/x"), "known push service"),
        (_with(keys=None), "no keys"),
        (_with(p256dh=b64url(b"\x04" + b"\x01" * 30)), "65 bytes"),
        (_with(p256dh="not base64!"), "base64url"),
        (_with(p256dh=NOT_ON_CURVE), "P-256"),
        (_with(auth=b64url(b"x" * 15)), "16 bytes"),
        (_with(auth=12345), "auth key"),
        (b"x" * 5000, "too long"),
    ],
)
def test_bad_input_is_refused_with_a_reason_and_nothing_stored(push_on, alice_client, body, says):
    answer = post_json(alice_client, SUBSCRIBE, body)
    assert answer.status_code == 400
    assert says in answer.json()["error"]
    assert not PushSubscription.objects.exists()


def test_a_form_body_is_refused_not_a_server_error(push_on, alice):
    """Found by the fuzz test: a form's body, already read by the CSRF check, raised a 500."""
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(alice)
    browser.get(reverse("profile"))
    token = browser.cookies["csrftoken"].value
    form = {"endpoint": "https://fcm.googleapis.com/x", "csrfmiddlewaretoken": token}
    answer = browser.post(SUBSCRIBE, form)
    assert answer.status_code == 400 and "application/json" in answer.json()["error"]
    assert not PushSubscription.objects.exists()


def test_http_loopback_only_when_allowed(push_on, alice_client):
    device = Device("http://127.0.0.1:9/push/x")
    push_on.PUSH_ALLOW_LOOPBACK = False
    assert post_json(alice_client, SUBSCRIBE, device.subscription()).status_code == 400
    push_on.PUSH_ALLOW_LOOPBACK = True
    assert post_json(alice_client, SUBSCRIBE, device.subscription()).status_code == 201


def test_a_player_cannot_register_endless_devices(push_on, alice_client):
    push_on.PUSH_DEVICES_PER_USER = 3
    for n in range(3):
        assert post_json(alice_client, SUBSCRIBE, fcm(f"d{n}").subscription()).status_code == 201
    answer = post_json(alice_client, SUBSCRIBE, fcm("one-more").subscription())
    assert answer.status_code == 400 and "remove one" in answer.json()["error"]
    assert PushSubscription.objects.count() == 3
    # A device already counted may subscribe again.
    assert post_json(alice_client, SUBSCRIBE, fcm("d1").subscription()).status_code == 201


def test_login_and_csrf_are_required(push_on, alice):
    anonymous = post_json(Client(), SUBSCRIBE, fcm().subscription())
    assert anonymous.status_code == 302
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(alice)
    assert post_json(strict, SUBSCRIBE, fcm().subscription()).status_code == 403
    assert Client().get(SUBSCRIBE).status_code in (302, 405)
    assert not PushSubscription.objects.exists()


def test_unsubscribe_and_remove_touch_only_the_players_own(push_on, alice_client, alice, bob):
    mine, other, theirs = fcm("mine"), fcm("other"), fcm("theirs")
    post_json(alice_client, SUBSCRIBE, mine.subscription())
    post_json(alice_client, SUBSCRIBE, other.subscription())
    bob_client = Client()
    bob_client.force_login(bob)
    post_json(bob_client, SUBSCRIBE, theirs.subscription())
    # The switch turned off on this device.
    answer = post_json(alice_client, "/accounts/push/unsubscribe/", {"endpoint": mine.endpoint})
    assert answer.json() == {"removed": 1}
    # Bob cannot remove Alice's device by its id; Alice removes it from her profile.
    alices = PushSubscription.objects.get(user=alice)
    bob_client.post(reverse("push_remove", args=[alices.pk]))
    assert PushSubscription.objects.filter(pk=alices.pk).exists()
    alice_client.post(reverse("push_remove", args=[alices.pk]))
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [theirs.endpoint]


def test_push_off_without_keys_the_site_works_as_before(settings, alice_client):
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    assert post_json(alice_client, SUBSCRIBE, fcm().subscription()).status_code == 404
    page = alice_client.get(reverse("profile"))
    assert page.status_code == 200 and b"Notify me on this device" not in page.content
    assert not PushSubscription.objects.exists()


def test_make_vapid_keys_prints_a_pair_that_signs(capsys):
    call_command("make_vapid_keys")
    lines = dict(line.split("=", 1) for line in capsys.readouterr().out.split())
    vapid = Vapid.from_string(lines["VAPID_PRIVATE_KEY"])
    public = base64.urlsafe_b64decode(lines["VAPID_PUBLIC_KEY"] + "==")
    assert len(public) == 65 and public[0] == 4
    assert vapid.public_key.public_numbers().x == int.from_bytes(public[1:33])


def test_the_email_too_choice_is_on_the_profile_only_with_push_on(push_on, alice_client, alice):
    assert b'name="email_with_push"' in alice_client.get(reverse("profile")).content
    push_on.VAPID_PUBLIC_KEY = push_on.VAPID_PRIVATE_KEY = ""
    assert b'name="email_with_push"' not in alice_client.get(reverse("profile")).content
