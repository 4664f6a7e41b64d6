"""A player's devices for Web Push: checking what a browser sends, and keeping one row a device.

A browser's `PushSubscription.toJSON()` is `{"endpoint": ..., "keys": {"p256dh": ..., "auth":
...}}`. Everything in it is the browser's word, so it is checked before it is stored: the
endpoint is an https URL of a known push service on port 443 (the server will POST to it: never
to an address of the site's own network), read as the sender reads it and stored as it will be
sent (`push_url`, which the sender calls again: games/notifications/push.py); the keys are base64url
of the right sizes and the public key is a point on P-256. An endpoint registered by another account
moves only with its own keys (`subscribe`).
"""

from __future__ import annotations

import base64
import binascii
import hmac
import re
from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.translation import gettext, gettext_noop
from requests.exceptions import RequestException
from requests.models import PreparedRequest
from urllib3.util import parse_url

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
    """A refusal with a sentence for the player and its status (400 unless said)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


# The refusal a player may meet (the others are a broken browser's), translated when said.
TAKEN = gettext_noop(
    "This device's notifications belong to another account. Turn them off there, or subscribe "
    "from the device itself."
)


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


# The characters a push service's URL is made of (RFC 3986's unreserved and reserved, and "%"):
# no space or control character, no backslash (urllib3 ends a host there, urlsplit does not), no
# quote, no non-ASCII (IDNA would map look-alikes onto a known host).
URL_CHARACTERS = re.compile(r"[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]+")
# The strict reading: scheme, a host of letters, digits, dots and hyphens only (no userinfo, no
# "%", no IPv6 literal), an optional port, then a path (with its query); no fragment.
STRICT_URL = re.compile(
    r"(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*)://(?P<host>[A-Za-z0-9.-]+)(?::(?P<port>[0-9]{1,5}))?"
    r"(?P<path>/[^#]*)"
)
LABEL = re.compile(r"[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?")
NOT_A_PUSH_SERVICE = "The endpoint is not a known push service's https URL."


@dataclass(frozen=True)
class PushURL:
    """An endpoint the server may POST to: `url` exactly as the sender will send it (stored so),
    `origin` the VAPID JWT's `aud` (RFC 8292 2)."""

    url: str
    origin: str


def push_url(endpoint: object) -> PushURL:
    """**The outbound push URL right**: the one function that says whether the server may POST
    to an endpoint, and what URL it then uses. The subscribe and unsubscribe doors call it
    before storing or matching, the sender (games/notifications/push.py) before each request and on
    the request itself, so a row stored before this check, or edited since, is refused too.

    The URL is read twice and both readings must agree: a strict one (a character set, then
    `STRICT_URL`, then the host's labels) and the sender's own (requests prepares the URL it
    sends, urllib3's `parse_url` reads from it the host and port it connects to). Only a push
    service's host (`PUSH_SERVICE_HOSTS`, or a name under one) on https and port 443 passes;
    an http URL on loopback only with PUSH_ALLOW_LOOPBACK (DEBUG, the tests' push service). The
    URL returned is the prepared one, and preparing it again changes nothing."""
    if not isinstance(endpoint, str) or not endpoint:
        raise PushError("The subscription has no endpoint.")
    if len(endpoint) > ENDPOINT_MAX:
        raise PushError(f"The endpoint is longer than {ENDPOINT_MAX} characters.")
    if not URL_CHARACTERS.fullmatch(endpoint):
        raise PushError(
            "The endpoint is not a URL: it has a space, a control character, a backslash or a "
            "character outside plain ASCII."
        )
    strict = STRICT_URL.fullmatch(endpoint)
    if strict is None:
        raise PushError(NOT_A_PUSH_SERVICE)
    scheme, host = strict["scheme"].lower(), strict["host"].lower()
    port = int(strict["port"]) if strict["port"] is not None else None
    _same_reading(endpoint, scheme, host, port)  # what the browser sent, as the sender reads it
    labels = host.split(".")
    if not all(LABEL.fullmatch(label) for label in labels):
        raise PushError(NOT_A_PUSH_SERVICE)  # an empty label, a trailing dot, "-x", ...
    if scheme == "http" and host in LOOPBACK_HOSTS and settings.PUSH_ALLOW_LOOPBACK:
        if port is None or not 0 < port < 65536:
            raise PushError("The endpoint of a push service on loopback needs its port.")
    elif scheme != "https":
        raise PushError("The endpoint must be an https URL.")
    elif not any(host == known or host.endswith(f".{known}") for known in PUSH_SERVICE_HOSTS):
        raise PushError(NOT_A_PUSH_SERVICE)
    elif port not in (None, 443):
        raise PushError("The endpoint must use the push service's port, 443.")
    else:
        port = None  # https's own
    origin = f"{scheme}://{host}" + (f":{port}" if port is not None else "")
    url = _as_sent(origin + strict["path"])
    if _as_sent(url) != url:  # sent again, it would go elsewhere: not the URL it will use
        raise PushError(TWO_READINGS)
    _same_reading(url, scheme, host, port)  # the URL kept, as the sender will read it
    return PushURL(url=url, origin=origin)


TWO_READINGS = "The endpoint is not a URL the server reads one way only."


def _same_reading(url: str, scheme: str, host: str, port: int | None) -> None:
    """urllib3's reading of `url` (the scheme, host and port it connects to, no userinfo) must
    be the strict one, else PushError."""
    try:
        sent = parse_url(url)
    except ValueError:  # urllib3's LocationParseError
        raise PushError(TWO_READINGS) from None
    if (sent.scheme, sent.auth, sent.host, sent.port, sent.fragment) != (
        scheme,
        None,
        host,
        port,
        None,
    ):
        raise PushError(TWO_READINGS)


def _as_sent(url: str) -> str:
    """The URL requests sends for `url` (requests.Session prepares every request so)."""
    prepared = PreparedRequest()
    try:
        prepared.prepare_url(url, None)
    except RequestException:
        raise PushError(TWO_READINGS) from None
    return prepared.url


def parse(data: object) -> Keys:
    """A browser's subscription (decoded JSON) checked, else PushError with why."""
    if not isinstance(data, dict):
        raise PushError("Send the subscription as a JSON object.")
    endpoint = push_url(data.get("endpoint")).url
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
    """Store this device for `user`: one row per endpoint. A device that subscribes again keeps
    its row (its keys renewed). An endpoint another account registered passes to `user` only
    with the same keys: the browser's own subscription, which a second account on the same
    browser gets back from `getSubscription()`; the keys' auth secret never leaves the device
    and the server, so knowing the endpoint alone is not enough (409, nothing changed:
    docs/notifications.md, "Whose device"). PushError when the player already has
    PUSH_DEVICES_PER_USER other devices."""
    fields = {
        "user": user,
        "p256dh": keys.p256dh,
        "auth": keys.auth,
        "user_agent": user_agent[:300],
    }
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
        row = PushSubscription.objects.select_for_update().filter(endpoint=keys.endpoint).first()
        if row is None:
            try:
                with transaction.atomic():
                    return PushSubscription.objects.create(endpoint=keys.endpoint, **fields)
            except IntegrityError:  # another request stored it first: its row decides
                row = PushSubscription.objects.select_for_update().get(endpoint=keys.endpoint)
        if row.user_id != user.pk and not same_keys(row, keys):
            raise PushError(gettext(TAKEN), 409)
        for name, value in fields.items():
            setattr(row, name, value)
        row.save(update_fields=list(fields))
    return row


def same_keys(row: PushSubscription, keys: Keys) -> bool:
    """Are these the keys stored for the row's device (its public key and auth secret)?"""
    return hmac.compare_digest(f"{row.p256dh}.{row.auth}", f"{keys.p256dh}.{keys.auth}")


def of(user: User) -> list[PushSubscription]:
    """The player's devices, newest first (the profile's list)."""
    return list(PushSubscription.objects.filter(user=user))


def unsubscribe(user: User, *, endpoint: str | None = None, pk: int | None = None) -> int:
    """Remove one of the player's devices (by its endpoint, or its id from the profile)."""
    rows = PushSubscription.objects.filter(user=user)
    if endpoint is not None:
        rows = rows.filter(endpoint=endpoint)
    if pk is not None:
        rows = rows.filter(pk=pk)
    return rows.delete()[0]


def enabled() -> bool:
    """Push is on when the site has its VAPID key pair (settings refuses one key alone): the
    one answer of the profile, the subscribe door and the sender (games/notifications/push.py)."""
    return bool(settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY)
