"""A player's devices for Web Push: checking what a browser sends, and keeping one row a device.

A browser's `PushSubscription.toJSON()` is `{"endpoint": ..., "keys": {"p256dh": ..., "auth":
...}}`. Everything in it is the browser's word, so it is checked before it is stored: the
endpoint is an https URL of a known push service (the server will POST to it: never to an
address of the site's own network), the keys are base64url of the right sizes and the public
key is a point on P-256. The sending is games/push.py's.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.db import transaction

from accounts.models import PushSubscription, User

ENDPOINT_MAX = 1000
# The push services of the browsers people use (Chrome and Edge: FCM; Firefox: Mozilla's;
# Safari: Apple's; old Edge: WNS). An endpoint elsewhere is refused: the server would POST to it.
PUSH_SERVICE_HOSTS = (
    "fcm.googleapis.com",
    "android.googleapis.com",
    "push.services.mozilla.com",
    "notify.windows.com",
    "push.apple.com",
)
LOOPBACK_HOSTS = ("127.0.0.1", "localhost")


class PushError(Exception):
    """A refusal with a sentence for the player (the views answer 400 with it)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Keys:
    endpoint: str
    p256dh: str
    auth: str


def b64url_bytes(value: object, name: str, size: int) -> bytes:
    """The bytes of a base64url value (padded or not) of exactly `size` bytes, else PushError."""
    if not isinstance(value, str) or not value or len(value) > 4 * size:
        raise PushError(f"The subscription's {name} key is missing or too long.")
    if value.rstrip("=").strip("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"):
        raise PushError(f"The subscription's {name} key is not base64url.")
    try:
        raw = base64.urlsafe_b64decode(value.rstrip("=") + "=" * (-len(value.rstrip("=")) % 4))
    except (binascii.Error, ValueError):
        raise PushError(f"The subscription's {name} key is not base64url.") from None
    if len(raw) != size:
        raise PushError(f"The subscription's {name} key must be {size} bytes, not {len(raw)}.")
    return raw


def check_endpoint(endpoint: object) -> str:
    if not isinstance(endpoint, str) or not endpoint:
        raise PushError("The subscription has no endpoint.")
    if len(endpoint) > ENDPOINT_MAX:
        raise PushError(f"The endpoint is longer than {ENDPOINT_MAX} characters.")
    if not endpoint.isascii() or any(ch.isspace() for ch in endpoint):
        raise PushError("The endpoint is not a URL.")
    try:
        parts = urlsplit(endpoint)
        host = (parts.hostname or "").lower()
        parts.port  # noqa: B018 (raises ValueError on a bad port)
    except ValueError:
        raise PushError("The endpoint is not a URL.") from None
    if parts.username or parts.password:
        raise PushError("The endpoint is not a push service's URL.")
    if parts.scheme == "http" and host in LOOPBACK_HOSTS and settings.PUSH_ALLOW_LOOPBACK:
        return endpoint  # a push service on this machine: DEBUG and the tests only
    if parts.scheme != "https":
        raise PushError("The endpoint must be an https URL.")
    if not any(host == known or host.endswith(f".{known}") for known in PUSH_SERVICE_HOSTS):
        raise PushError("The endpoint is not a known push service.")
    return endpoint


def parse(data: object) -> Keys:
    """A browser's subscription (decoded JSON) checked, else PushError with why."""
    if not isinstance(data, dict):
        raise PushError("Send the subscription as a JSON object.")
    endpoint = check_endpoint(data.get("endpoint"))
    keys = data.get("keys")
    if not isinstance(keys, dict):
        raise PushError("The subscription has no keys.")
    p256dh, auth = keys.get("p256dh"), keys.get("auth")
    point = b64url_bytes(p256dh, "p256dh", 65)
    b64url_bytes(auth, "auth", 16)
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise PushError("The subscription's p256dh key is not a P-256 public key.") from None
    return Keys(endpoint=endpoint, p256dh=p256dh.rstrip("="), auth=auth.rstrip("="))


def subscribe(user: User, keys: Keys, user_agent: str = "") -> PushSubscription:
    """Store this device for `user` (one row per endpoint: a device that subscribes again, or
    passes to another account on the same browser, keeps its one row). PushError when the
    player already has PUSH_DEVICES_PER_USER other devices."""
    with transaction.atomic():
        # The player's rows locked: two requests at once cannot both pass the limit.
        mine = list(
            PushSubscription.objects.select_for_update()
            .filter(user=user)
            .values_list("endpoint", flat=True)
        )
        if keys.endpoint not in mine and len(mine) >= settings.PUSH_DEVICES_PER_USER:
            raise PushError(
                f"You already have {len(mine)} devices for notifications: remove one on your "
                "profile first."
            )
        row, _ = PushSubscription.objects.update_or_create(
            endpoint=keys.endpoint,
            defaults={
                "user": user,
                "p256dh": keys.p256dh,
                "auth": keys.auth,
                "user_agent": user_agent[:300],
            },
        )
    return row


def unsubscribe(user: User, *, endpoint: str | None = None, pk: int | None = None) -> int:
    """Remove one of the player's devices (by its endpoint, or its id from the profile)."""
    rows = PushSubscription.objects.filter(user=user)
    if endpoint is not None:
        rows = rows.filter(endpoint=endpoint)
    if pk is not None:
        rows = rows.filter(pk=pk)
    return rows.delete()[0]


def enabled() -> bool:
    """Push is on when the site has its VAPID keys."""
    return bool(settings.VAPID_PUBLIC_KEY)
