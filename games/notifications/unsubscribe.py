"""The e-mails' unsubscribe links: a signed, dated token per player and switch."""

from __future__ import annotations

from django.conf import settings
from django.core import signing

UNSUBSCRIBE_SALT = "geartable.unsubscribe"


PREFERENCE_CODES = {
    "t": "notify_turn",
    "r": "notify_reminder",
    "i": "notify_invitation",
    "g": "email_game_over",
}


def _unsubscribe_signer(preference: str) -> signing.TimestampSigner:
    # The preference is in the salt: a link for reminders can never turn off anything else.
    return signing.TimestampSigner(salt=f"{UNSUBSCRIBE_SALT}:{preference}")


def unsubscribe_token(user, preference: str) -> str:
    """A signed, dated link token: the user's random mail key (never their id) and one switch."""
    code = next(c for c, p in PREFERENCE_CODES.items() if p == preference)
    return f"{code}.{_unsubscribe_signer(preference).sign(user.mail_key)}"


def read_unsubscribe_token(token: str) -> tuple[str, str]:
    """(mail key, preference) from a token; signing.BadSignature if forged, altered or older
    than GEARTABLE_UNSUBSCRIBE_LINK_DAYS (SignatureExpired is a BadSignature)."""
    code, _, signed = token.partition(".")
    preference = PREFERENCE_CODES.get(code)
    if preference is None:
        raise signing.BadSignature("Not an unsubscribe token")
    max_age = settings.GEARTABLE_UNSUBSCRIBE_LINK_DAYS * 86400
    return _unsubscribe_signer(preference).unsign(signed, max_age=max_age), preference
