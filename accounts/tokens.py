"""Personal access tokens for the API: made, found, refused, revoked and rate-limited here.

A token reads `gt_<key>_<secret>`: `key` (12 hex digits) finds the row by index; the secret (32
random bytes, base64url) is checked against the SHA-256 kept in the row, in constant time. A
plain hash suffices (no slow password hash): the secret has 256 bits of entropy, nothing to
guess from a dictionary. Only `check` calls `authenticate`, and only the API's doors call
`check`: its calls (games/api/calls.py) and its NDJSON streams (games/api/streams.py), so that both
refuse a token for the same reasons with the same sentences. A token opens no session, no page
and not the admin.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.models import BOT_BY_HAND, ApiToken, User

PREFIX = "gt_"
TOKEN_RE = re.compile(r"gt_([0-9a-f]{12})_([A-Za-z0-9_-]{43})")
MAX_TOKENS = 20  # per user, expired ones included (revoking one frees its place)
# The profile's choices, in days (0: never).
EXPIRY_DAYS = {30: _("30 days"), 90: _("90 days"), 365: _("A year"), 0: _("Never")}
# "Last used" is written at most this often per token: not a write per request.
LAST_USED_EVERY = timedelta(minutes=1)
OFFERED_SCOPES = (ApiToken.Scope.READ, ApiToken.Scope.PLAY)
# A bot account's choices (issue 28.4): `bot` (which reads and plays its games) or `read`.
BOT_SCOPES = (ApiToken.Scope.BOT, ApiToken.Scope.READ)


def offered_scopes(user: User) -> tuple[str, ...]:
    """The scopes the profile's token form offers this user: `bot` to a bot account only."""
    return BOT_SCOPES if user.is_bot else OFFERED_SCOPES


def scopes_of(row: ApiToken) -> frozenset[str]:
    """What a token may do, as the API checks it. A person's token: its `read` and `play`. A bot
    account's: `bot` reads and plays; without it, at most `read`: a bot account plays only with
    a `bot` token (a `play` token made before the account became a bot no longer plays)."""
    scopes = row.scope_set
    if not row.user.is_bot:
        return scopes - {ApiToken.Scope.BOT}
    if ApiToken.Scope.BOT in scopes:
        return frozenset({ApiToken.Scope.READ, ApiToken.Scope.PLAY, ApiToken.Scope.BOT})
    return scopes & {ApiToken.Scope.READ}


MISSING = (
    "This call needs a personal access token: send 'Authorization: Bearer gt_…' "
    "(make one on your profile)."
)
NOT_VALID = "This token is not valid: it was revoked, has expired or is mistyped."
TOO_MANY = "Too many calls with this account's tokens: wait {wait} s."
TOO_MANY_BAD = "Too many calls with tokens that are not valid from here: wait {wait} s."
NEEDS = {
    ApiToken.Scope.READ: "read your games",
    ApiToken.Scope.PLAY: "play or chat",
}


class Refused(Exception):
    """A call refused for its token: a status (401, 429, 403), a sentence, headers."""

    def __init__(self, status: int, detail: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(detail)
        self.status, self.detail, self.headers = status, detail, headers or {}


class TokenError(Exception):
    """A refusal with a sentence for the player."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class NewToken:
    row: ApiToken
    token: str  # the whole token: shown once, never stored


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def create(user: User, name: str, scopes, days: int) -> NewToken:
    """A new token for `user`, or TokenError (nothing stored). Holds the user's row while it
    counts, so two requests at once cannot pass the limit together."""
    name = (name or "").strip()
    if not name:
        raise TokenError(gettext("Give the token a name, to know it again."))
    if len(name) > 60 or any(ord(ch) < 32 for ch in name):
        raise TokenError(
            gettext("A token's name is at most 60 characters, without control characters.")
        )
    scopes = set(scopes)
    if not scopes or not scopes <= set(offered_scopes(user)):
        if user.is_bot:
            raise TokenError(
                gettext("Choose what the token may do: bot (play as this bot), or read.")
            )
        raise TokenError(gettext("Choose what the token may do: read, play, or both."))
    if days not in EXPIRY_DAYS:
        raise TokenError(gettext("Choose when the token expires."))
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()
        if ApiToken.objects.filter(user=user).count() >= MAX_TOKENS:
            message = gettext("You have %(count)s tokens, the most there can be: revoke one first.")
            raise TokenError(message % {"count": MAX_TOKENS})
        key, secret = secrets.token_hex(6), secrets.token_urlsafe(32)
        row = ApiToken.objects.create(
            user=user,
            name=name,
            key=key,
            digest=_digest(secret),
            scopes=" ".join(s for s in ApiToken.Scope.values if s in scopes),
            expires=timezone.now() + timedelta(days=days) if days else None,
        )
    return NewToken(row=row, token=f"{PREFIX}{key}_{secret}")


def authenticate(token: str) -> ApiToken | None:
    """The token's row with its user, if the token is one of ours, unexpired, not revoked, and
    its user active; else None. One query (and a write at most once a minute)."""
    match = TOKEN_RE.fullmatch(token or "")
    if match is None:
        return None
    key, secret = match.groups()
    row = ApiToken.objects.select_related("user").filter(key=key).first()
    if row is None or not hmac.compare_digest(row.digest, _digest(secret)):
        return None
    if row.is_expired or not row.user.is_active:
        return None
    # A bot account acts at a table only by a `bot` token (games.actions.base.check_can_play).
    row.user.plays_by_bot_token = row.user.is_bot and ApiToken.Scope.BOT in row.scope_set
    now = timezone.now()
    if row.last_used is None or now - row.last_used >= LAST_USED_EVERY:
        row.last_used = now
        ApiToken.objects.filter(pk=row.pk).update(last_used=now)
    return row


def check(
    token: str | None, scope: str, *, counted: bool = True, address: str | None = None
) -> ApiToken:
    """The token's row, if it may make a call that needs `scope`; else Refused. In order: a
    token is there and valid (401), within its account's rate (429; `counted`: this call
    counts, a refused one too, so a token without the scope cannot call for free), and has
    the scope (403). A stream counts its opening, not its re-checks (`counted=False`).
    `address`: the client's, for a call that may try a token: one that tries too many tokens
    that are not valid is refused (429) before its next one is even looked up."""
    if not token:
        raise Refused(401, MISSING, {"WWW-Authenticate": "Bearer"})
    if address is not None and (wait := _guessing(address, count=False)):
        raise Refused(429, TOO_MANY_BAD.format(wait=wait), {"Retry-After": str(wait)})
    row = authenticate(token)
    if row is None:
        if address is not None:
            _guessing(address, count=True)
        raise Refused(401, NOT_VALID, {"WWW-Authenticate": 'Bearer error="invalid_token"'})
    wait = wait_for(row) if counted else 0
    if wait:
        raise Refused(429, TOO_MANY.format(wait=wait), {"Retry-After": str(wait)})
    if scope not in scopes_of(row):
        if row.user.is_bot:  # a bot account's token without `bot` (issue 28.4)
            raise Refused(403, BOT_BY_HAND)
        raise Refused(403, missing_scope(scope))
    return row


def missing_scope(scope: str) -> str:
    """The refusal of a token without the scope a call needs."""
    return f"This token may not {NEEDS[scope]}: it needs the scope '{scope}'."


def revoke(user: User, token_id: int) -> bool:
    """Forget one of `user`'s tokens (another's: nothing). True if there was one."""
    deleted, _ = ApiToken.objects.filter(user=user, pk=token_id).delete()
    return bool(deleted)


def tokens_of(user: User) -> list[ApiToken]:
    return list(ApiToken.objects.filter(user=user))


def wait_for(row: ApiToken, *, now: float | None = None) -> int:
    """Count one call of this token's account against its rate (GEARTABLE_API_RATE calls in
    each window of GEARTABLE_API_RATE_SECONDS, counted in the cache as the chat's rate is; all
    of an account's tokens share it, so twenty tokens do not make twenty times the rate). 0 if
    it may go on, else the seconds until its next window (the answer's Retry-After)."""
    return _window(f"api-rate:user:{row.user_id}", settings.GEARTABLE_API_RATE, now=now)


def _guessing(address: str, *, count: bool, now: float | None = None) -> int:
    """The client address's calls with a token that is not valid, in the same windows: 0 while
    under GEARTABLE_API_BAD_TOKEN_RATE, else the seconds to wait. `count`: one more such call."""
    return _window(
        f"api-bad-token:{address}", settings.GEARTABLE_API_BAD_TOKEN_RATE, count=count, now=now
    )


def _window(key: str, limit: int, *, count: bool = True, now: float | None = None) -> int:
    """A fixed-window counter in the cache: `count` adds this call. 0 while the window's calls
    are within `limit`, else the seconds until the next window."""
    seconds = settings.GEARTABLE_API_RATE_SECONDS
    now = timezone.now().timestamp() if now is None else now
    window = int(now // seconds)
    key = f"{key}:{window}"
    if count:
        cache.add(key, 0, seconds + 1)
        try:
            calls = cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, seconds + 1)
            calls = 1
        over = calls > limit
    else:
        over = (cache.get(key) or 0) >= limit
    if not over:
        return 0
    return max(1, int((window + 1) * seconds - now + 0.999))
