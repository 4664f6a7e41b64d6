"""The rules for the names players see: display names and usernames alike."""

from __future__ import annotations

import re
import unicodedata

from django.core.exceptions import ValidationError

from accounts.models import User
from games.models import BotKind

NAME_MAX_LENGTH = 30
# Words the pages and e-mails use for someone else: a player called so would pass for them.
RESERVED = {"you", "empty seat"}


def tidy(name: str) -> str:
    """Trimmed, with each run of spaces made one."""
    return " ".join(name.split())


def _key(name: str) -> str:
    # NFKC: "ａｌｉｃｅ" (full-width) is "alice" to a reader.
    return unicodedata.normalize("NFKC", tidy(name)).casefold()


def _is_bot_name(key: str) -> bool:

    labels = "|".join(re.escape(label.casefold()) for label in BotKind.labels)
    return re.fullmatch(rf"(?:{labels})(?: ?\d+)?|bot(?: ?\d+)?", key) is not None


def check_name(name: str, *, user=None, field: str = "display name") -> str:
    """The tidied name, or ValidationError with a sentence. `user`: the owner (may be unsaved)."""

    name = tidy(name)
    if len(name) > NAME_MAX_LENGTH:
        raise ValidationError(
            f"A {field} can be at most {NAME_MAX_LENGTH} characters ({len(name)} now)."
        )
    if any(unicodedata.category(ch) in ("Cc", "Cf") for ch in name):
        raise ValidationError(f"A {field} cannot contain control or invisible characters.")
    key = _key(name)
    if key in RESERVED or _is_bot_name(key):
        raise ValidationError(f"“{name}” would pass for someone else: choose another {field}.")
    others = User.objects.exclude(pk=user.pk) if user is not None and user.pk else User.objects
    normal = unicodedata.normalize("NFKC", name)
    if others.filter(username__iexact=normal).exists():
        raise ValidationError(f"“{name}” is another player's username: choose another {field}.")
    if field == "username" and others.filter(display_name__iexact=normal).exists():
        raise ValidationError(f"“{name}” is another player's name: choose another username.")
    return name
