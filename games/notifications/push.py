"""Web Push: the outbox rows of a notification's pushes, and one push's trip to a push service.

A notification due to a player with devices subscribed (accounts.PushSubscription) gets one
`Push` row per device, written in the game's transaction next to the e-mail's row; the e-mail
then waits PUSH_EMAIL_FALLBACK for a push to reach the player (docs/notifications.md). Sending
is VAPID-signed (RFC 8292) and encrypted for the device (RFC 8291, aes128gcm) by pywebpush,
with the headers of RFC 8030: `TTL`, `Urgency`, and a `Topic` per game, so that a newer push of
a game replaces an older one still waiting on the push service. What to send, and whether, is
games/notifications/queueing.py's (`deliver_push`).
"""

from __future__ import annotations

import functools
import json
import time
from datetime import timedelta

import requests
from django.conf import settings
from django.utils import timezone
from py_vapid import Vapid
from pywebpush import WebPushException, webpush
from requests.adapters import HTTPAdapter

from accounts.models import PushSubscription
from games import effects
from games.models import Invitation, Notification, Push
from games.notifications import outbox
from games.notifications.devices import PushError, PushURL, enabled, push_url

TASK = "games.tasks.send_push"
# Pushes that wake the phone at once; the others may wait for its next wake-up (RFC 8030 5.3).
URGENT = (Notification.Kind.YOUR_TURN, Notification.Kind.REMINDER)
GONE = (404, 410)  # the device unsubscribed: the subscription is deleted


class Gone(Exception):
    """The push service says this subscription no longer exists (404 or 410)."""


class Refused(Exception):
    """The endpoint is not one the server may POST to (`games.notifications.devices.push_url`, the
    outbound push URL right): nothing was sent, and nothing will be (not retried)."""


def target(endpoint: str) -> PushURL:
    """The URL to send to, by the outbound push URL right; Refused if there is none."""
    try:
        return push_url(endpoint)
    except PushError as exc:
        raise Refused(f"Not sent: the device's endpoint is refused. {exc.message}") from None


class CheckedAdapter(HTTPAdapter):
    """requests' transport, checking the request it is about to send: its URL (the one urllib3
    connects by) must be exactly what the outbound push URL right allows, a redirect's too."""

    def send(self, request, *args, **kwargs):
        try:
            allowed = push_url(request.url).url == request.url
        except PushError:
            allowed = False
        if not allowed:  # a redirect elsewhere, or the URL changed on its way to urllib3
            url = request.url[:200]
            raise Refused(f"Not sent: the request's URL is not one a push may go to: {url}")
        return super().send(request, *args, **kwargs)


# The profile's grid cell that governs each kind on devices (absent: the device's own switch
# only, e.g. "you were replaced by a bot"). The e-mail's cells are
# games/notifications/queueing.py's.
PREFERENCE = {
    Notification.Kind.YOUR_TURN: "push_turn",
    Notification.Kind.TURN_RESOLVED: "push_turn",
    Notification.Kind.GAME_OVER: "push_game_over",
    Notification.Kind.REMINDER: "push_reminder",
    "invitation": "push_invitation",
}


def may_push(user, kind: str) -> bool:
    """Never a bot (nor a bot account), an inactive or suspended player, or a kind they turned
    off."""
    if not enabled() or user is None or user.is_bot or not user.is_active or user.is_suspended:
        return False
    preference = PREFERENCE.get(kind)
    return preference is None or getattr(user, preference)


def has_devices(user) -> bool:
    return PushSubscription.objects.filter(user=user).exists()


def queue(notes: list[Notification]) -> list[int]:
    """One Push row per device of each note's player, written in the caller's transaction and
    sent on commit; a note with pushes has its e-mail wait PUSH_EMAIL_FALLBACK (it is queued
    by the sweep then, or at once when every push failed), unless the player asked for both
    (`email_with_push`). Returns the ids of the notes whose e-mail waits."""
    if not enabled() or not notes:
        return []
    devices: dict[int, list[int]] = {}
    for user_id, pk in PushSubscription.objects.filter(
        user_id__in={n.user_id for n in notes}
    ).values_list("user_id", "pk"):
        devices.setdefault(user_id, []).append(pk)
    created = []
    waiting = []
    for note in notes:
        if not may_push(note.user, note.kind):
            continue
        for subscription_id in devices.get(note.user_id, []):
            push = Push.objects.create(
                notification=note,
                subscription_id=subscription_id,
                next_attempt=outbox.first_attempt(),
            )
            created.append(push.pk)
        if note.user_id in devices and not note.user.email_with_push:
            waiting.append(note.pk)
    Notification.objects.filter(pk__in=waiting).update(next_attempt=fallback_at())
    for pk in created:
        effects.after_commit(TASK, pk)
    return waiting


def fallback_at(start=None):
    return (start or timezone.now()) + timedelta(seconds=settings.PUSH_EMAIL_FALLBACK)


def has_pushes(note: Notification) -> bool:
    return Push.objects.filter(notification_id=note.pk).exists()


def reached(note_id: int) -> bool:
    """Did a push of this notification reach a device?"""
    return Push.objects.filter(notification_id=note_id, state=outbox.State.SENT).exists()


def email_now_if_unreached(note_id: int) -> bool:
    """After a push failed (an attempt, or the device gone): if no push of the notification
    reached the player and none is still on its first try, its e-mail goes now instead of at
    the end of PUSH_EMAIL_FALLBACK (the e-mail's own checks run then). True if queued."""
    pushes = Push.objects.filter(notification_id=note_id)
    if pushes.filter(state=outbox.State.SENT).exists():
        return False
    first_try = pushes.filter(state=outbox.State.SENDING) | pushes.filter(
        state=outbox.State.PENDING, attempts=0
    )
    if first_try.exists():
        return False
    return effects.enqueue("games.tasks.send_notification", note_id)


@functools.cache
def _vapid(private_key: str) -> Vapid:
    return Vapid.from_string(private_key)


def topic(game_id: int) -> str:
    """RFC 8030 5.4: at most 32 URL-safe base64 characters. One per game: a newer push of the
    game replaces an older one the push service still holds for a phone that is off."""
    return f"game-{game_id}"


def queue_invitation(invitation: Invitation) -> list[int]:
    """A push to each device of a player invited by username (or offered a rematch), beside
    the invitation's e-mail, written in the caller's transaction and sent on commit."""
    user = invitation.user
    if user is None or not may_push(user, "invitation"):
        return []
    created = [
        Push.objects.create(
            invitation=invitation, subscription_id=pk, next_attempt=outbox.first_attempt()
        ).pk
        for pk in PushSubscription.objects.filter(user=user).values_list("pk", flat=True)
    ]
    for pk in created:
        effects.after_commit(TASK, pk)
    return created


def transmit(subscription: PushSubscription, payload: dict, *, topic: str, urgent: bool) -> None:
    """Send one push; raises Refused (the endpoint may not be sent to: a row stored before the
    check, or edited since), Gone (404/410), or any other error for a retry."""
    url = target(subscription.endpoint)
    claims = {
        "sub": settings.VAPID_SUBJECT,
        "aud": url.origin,
        "exp": int(time.time()) + 12 * 3600,  # at most 24 h (RFC 8292 2)
    }
    with requests.Session() as session:
        session.mount("https://", CheckedAdapter())
        session.mount("http://", CheckedAdapter())
        try:
            webpush(
                subscription_info={
                    "endpoint": url.url,
                    "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
                },
                data=json.dumps(payload, separators=(",", ":")),
                vapid_private_key=_vapid(settings.VAPID_PRIVATE_KEY),
                vapid_claims=claims,
                ttl=settings.PUSH_TTL,
                timeout=settings.PUSH_TIMEOUT,
                headers={
                    "Urgency": "high" if urgent else "normal",
                    "Topic": topic,
                },
                requests_session=session,
            )
        except WebPushException as exc:
            status = getattr(exc.response, "status_code", None)
            if status in GONE:
                raise Gone(f"The push service answered {status}: the device unsubscribed") from exc
            raise RuntimeError(f"The push service answered {status}: {exc.message[:300]}") from exc
