"""The installable app in Chromium (issue 26): the manifest is valid, the service worker
registers for the whole site and serves the offline page when the server cannot be reached, and
a real push, as the site sent it to a push service on loopback, handed to the service worker by
the DevTools protocol (`ServiceWorker.deliverPushMessage`) shows its notification; the offer
to be notified comes after the player's first move, never on page load."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from accounts.models import PushSubscription
from tests.e2e.helpers import PHONE, WAIT_MS, log_in, program_by_tapping
from tests.notifications.helpers import play_turn
from tests.notifications.push.service import PushService, b64url, vapid_pair
from tests.support.games import seat_to_act, start_geared, start_oog
from tests.support.users import PASSWORD
from tests.support.waiting import wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PUBLIC, PRIVATE = vapid_pair()
NOTIFICATIONS = """navigator.serviceWorker.ready
  .then((reg) => reg.getNotifications())
  .then((shown) => shown.map((n) => ({title: n.title, body: n.body, tag: n.tag,
                                      url: n.data.url})))"""


@pytest.fixture
def push_on(settings):
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = PUBLIC, PRIVATE
    settings.VAPID_SUBJECT = "mailto:admin@geartable.test"
    service = PushService(PUBLIC)
    service.start()
    yield service
    service.stop()


def controlled_page(new_page, live_server, user, **context_args):
    page = new_page(user.username, viewport=PHONE, **context_args)
    log_in(page, live_server, user.username, PASSWORD)
    page.goto(f"{live_server.url}/games/")
    state = page.evaluate("navigator.serviceWorker.ready.then((reg) => reg.active.state)")
    assert state in ("activating", "activated")
    page.reload()  # now the service worker controls the page
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    return page


def test_manifest_service_worker_and_offline_page(live_server, new_page, problems, alice):
    page = controlled_page(new_page, live_server, alice)
    manifest = page.evaluate(
        "fetch(document.querySelector('link[rel=manifest]').href).then((r) => r.json())"
    )
    assert manifest["start_url"] == "/games/" and manifest["display"] == "standalone"
    assert {i["sizes"] for i in manifest["icons"]} == {"192x192", "512x512"}
    for icon in manifest["icons"]:
        size = page.evaluate(
            """(src) => new Promise((ok) => { const i = new Image();
                 i.onload = () => ok(i.naturalWidth + 'x' + i.naturalHeight); i.src = src; })""",
            icon["src"],
        )
        assert size == icon["sizes"]
    scope = page.evaluate("navigator.serviceWorker.ready.then((reg) => reg.scope)")
    assert scope == f"{live_server.url}/"

    # The server cannot be reached: the app shows its offline page, with the site's style.
    page.context.set_offline(True)
    page.goto(f"{live_server.url}/games/")
    expect(page.locator("#offline-title")).to_have_text("You are offline")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") != "rgba(0, 0, 0, 0)"
    page.context.set_offline(False)
    # Nothing of a player was put in a cache: only the shell and the offline page.
    cached = page.evaluate(
        """caches.keys().then((names) => Promise.all(names.map((n) => caches.open(n)
             .then((c) => c.keys()).then((reqs) => reqs.map((r) => new URL(r.url).pathname)))))
             .then((lists) => lists.flat())"""
    )
    assert "/offline/" in cached
    assert all(p.startswith("/static/") or p == "/offline/" for p in cached), cached
    problems.expected.append("ERR_INTERNET_DISCONNECTED")
    problems.assert_none()


def test_a_real_push_handed_to_the_service_worker_shows_the_notification(
    live_server, new_page, problems, push_on, alice, bob
):
    page = controlled_page(
        new_page, live_server, alice, permissions=["notifications"], base_url=live_server.url
    )
    # Alice's phone as the push service on loopback knows it; Bob plays; the site pushes.
    phone = push_on.device("alice")
    PushSubscription.objects.create(
        user=alice, endpoint=phone.endpoint, p256dh=b64url(phone.public), auth=b64url(phone.auth)
    )
    game = start_geared([alice, bob], target=2000)
    if seat_to_act(game).user == alice:
        play_turn(game)  # Alice's move first (Bob has no device): then Bob's, which she is told of
    play_turn(game)
    [push] = wait_for(lambda: push_on.accepted("alice"), what="the site's push")
    shown = phone.decrypt(push.body)

    cdp = page.context.new_cdp_session(page)
    registrations = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: registrations.extend(event["registrations"]),
    )
    cdp.send("ServiceWorker.enable")
    wait_for(
        # Playwright hands the session's events over only while it waits on the browser.
        lambda: page.wait_for_timeout(50) or registrations,
        what="the service worker's registration",
        seconds=WAIT_MS / 1000,
    )
    registration = next(r for r in registrations if r["scopeURL"] == f"{live_server.url}/")
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {
            "origin": live_server.url,
            "registrationId": registration["registrationId"],
            "data": json.dumps(shown),
        },
    )
    notes = wait_for(lambda: page.evaluate(NOTIFICATIONS), what="the notification")
    assert notes == [
        {
            "title": shown["title"],
            "body": shown["body"],
            "tag": f"game-{game.pk}",
            "url": shown["url"],
        }
    ]
    assert shown["title"] == f"Your turn in Geared: Build Your Bike #{game.pk}"
    problems.assert_none()


def test_the_offer_to_notify_comes_after_the_first_move_never_on_load(
    live_server, new_page, problems, push_on, alice, bob, carol
):
    game = start_oog([alice, bob, carol], robots=[(1,), (4,), (7,)])
    page = new_page(alice.username, viewport=PHONE)
    log_in(page, live_server, alice.username, PASSWORD)
    page.goto(f"{live_server.url}{game.get_absolute_url()}")
    expect(page.locator("#game form.program-form")).to_be_visible()
    assert page.evaluate("Notification.permission") == "default"
    expect(page.locator("#push-offer")).to_have_count(0)

    program_by_tapping(page, "attack", lambda robot, values: robot)
    offer = page.locator("#push-offer")
    expect(offer).to_contain_text("Get a notification on this device when it is your turn?")
    offer.get_by_role("button", name="Not now").click()
    expect(offer).to_have_count(0)
    # Answered: this device is not asked again (app.js reads the answer before offering).
    assert page.evaluate("localStorage.getItem('geartable-push-asked')") == "no"
    page.reload()
    expect(page.locator("#game form.program-form, #game .current-program").first).to_be_visible()
    expect(page.locator("#push-offer")).to_have_count(0)
    problems.assert_none()


def test_the_profile_switch_says_why_when_the_browser_cannot_subscribe(
    live_server, new_page, problems, push_on, alice
):
    """Chromium cannot subscribe here (a Playwright context is incognito, which has no Push API,
    and the machine cannot reach Google's push service): the switch is offered, the subscription
    tried only on the tap, and the failure said, with the switch back off and nothing stored."""
    # Chromium says so in the console when the page asks its push service.
    problems.expected.append("does not support the Push API")
    page = controlled_page(new_page, live_server, alice, permissions=["notifications"])
    page.goto(f"{live_server.url}/accounts/profile/")
    switch = page.get_by_label("Notify me on this device")
    expect(switch).to_be_visible()
    expect(page.locator("#push-unsupported")).to_be_hidden()
    expect(switch).not_to_be_checked()
    switch.click()
    expect(page.locator("#push-status")).not_to_have_text(re.compile(r"^(Asking the browser…)?$"))
    expect(switch).not_to_be_checked()
    expect(switch).to_be_enabled()
    expect(page.locator("#push-status")).to_contain_text(
        "Notifications could not be turned on here: "
    )
    assert not PushSubscription.objects.exists()
    problems.assert_none()
