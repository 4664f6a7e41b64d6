"""The rules for the names players see: display names and usernames alike."""

from __future__ import annotations

import re
import unicodedata

from django.core.exceptions import ValidationError
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from accounts.game_side import game_side
from accounts.models import User

NAME_MAX_LENGTH = 30
# Words the pages and e-mails use for someone else: a player called so would pass for them.
RESERVED = {"you", "empty seat"}


def tidy(name: str) -> str:
    """Trimmed, with each run of spaces made one."""
    return " ".join(name.split())


# Letters of other scripts that a reader takes for Latin ones: the common part of Unicode's
# confusables (UTS #39) for Cyrillic and Greek. Capitals first, before casefolding (Greek "Η"
# reads as H, its small "η" as n), then small letters.
_LOOKALIKE_CAPITALS = str.maketrans(
    {
        **dict.fromkeys("АΑ", "a"),
        **dict.fromkeys("ВΒ", "b"),
        **dict.fromkeys("ЕΕ", "e"),
        **dict.fromkeys("НΗ", "h"),
        **dict.fromkeys("ІΙӀ", "i"),
        **dict.fromkeys("Ј", "j"),
        **dict.fromkeys("КΚ", "k"),
        **dict.fromkeys("МΜ", "m"),
        **dict.fromkeys("Ν", "n"),
        **dict.fromkeys("ОΟ", "o"),
        **dict.fromkeys("РΡ", "p"),
        **dict.fromkeys("Ԛ", "q"),
        **dict.fromkeys("Ѕ", "s"),
        **dict.fromkeys("ТΤ", "t"),
        **dict.fromkeys("Ԝ", "w"),
        **dict.fromkeys("ХΧ", "x"),
        **dict.fromkeys("УҮΥ", "y"),
        **dict.fromkeys("Ζ", "z"),
    }
)
_LOOKALIKE_SMALL = str.maketrans(
    {
        **dict.fromkeys("аα", "a"),
        **dict.fromkeys("в", "b"),
        **dict.fromkeys("ϲс", "c"),
        **dict.fromkeys("ԁ", "d"),
        **dict.fromkeys("еε", "e"),
        **dict.fromkeys("һн", "h"),
        **dict.fromkeys("іι", "i"),
        **dict.fromkeys("јϳ", "j"),
        **dict.fromkeys("кκ", "k"),
        **dict.fromkeys("ӏ", "l"),
        **dict.fromkeys("м", "m"),
        **dict.fromkeys("η", "n"),
        **dict.fromkeys("оο", "o"),
        **dict.fromkeys("рρ", "p"),
        **dict.fromkeys("ԛ", "q"),
        **dict.fromkeys("ѕ", "s"),
        **dict.fromkeys("тτ", "t"),
        **dict.fromkeys("υ", "u"),
        **dict.fromkeys("ν", "v"),
        **dict.fromkeys("ԝ", "w"),
        **dict.fromkeys("хχ", "x"),
        **dict.fromkeys("уүγ", "y"),
        **dict.fromkeys("ζ", "z"),
    }
)


def skeleton(name: str) -> str:
    """What a reader takes the name for: NFKC ("ａｌｉｃｅ", full-width, is "alice"), look-alike
    letters of other scripts made Latin ("аlice" with a Cyrillic а is "alice"), casefolded.
    Two names with one skeleton pass for each other."""
    name = unicodedata.normalize("NFKC", tidy(name)).translate(_LOOKALIKE_CAPITALS)
    return name.casefold().translate(_LOOKALIKE_SMALL)


def keep_skeletons(sender, instance, **kwargs) -> None:
    """After a user's save (post_save, connected in accounts/apps.py): their names' skeletons,
    which check_name looks up by index, follow their names (one UPDATE, only when one changed)."""
    fresh = {
        "username_key": skeleton(instance.username),
        "display_key": skeleton(instance.display_name),
    }
    stale = {field: value for field, value in fresh.items() if getattr(instance, field) != value}
    if stale:
        sender.objects.filter(pk=instance.pk).update(**stale)
        for field, value in stale.items():
            setattr(instance, field, value)


def _is_bot_name(key: str) -> bool:
    """Does the name pass for one of the site's bots ("Random bot 2", or "bot 3")?"""
    labels = "|".join(re.escape(label.casefold()) for label in game_side().bot_names)
    return re.fullmatch(rf"(?:{labels})(?: ?\d+)?|bot(?: ?\d+)?", key) is not None


# The refusals, a whole sentence for each field that has names (Italian orders the words and
# agrees them differently): field -> (too long, invisible, someone else's, a username, a name).
REFUSALS = {
    "display name": (
        _("A display name can be at most %(max)s characters (%(length)s now)."),
        _("A display name cannot contain control or invisible characters."),
        _("“%(name)s” would pass for someone else: choose another display name."),
        _("“%(name)s” is or looks like another player's username: choose another display name."),
        "",
    ),
    "username": (
        _("A username can be at most %(max)s characters (%(length)s now)."),
        _("A username cannot contain control or invisible characters."),
        _("“%(name)s” would pass for someone else: choose another username."),
        _("“%(name)s” is or looks like another player's username: choose another username."),
        _("“%(name)s” is or looks like another player's name: choose another username."),
    ),
    "seat name": (
        _("A seat name can be at most %(max)s characters (%(length)s now)."),
        _("A seat name cannot contain control or invisible characters."),
        _("“%(name)s” would pass for someone else: choose another seat name."),
        _("“%(name)s” is or looks like another player's username: choose another seat name."),
        "",
    ),
}


def check_name(name: str, *, user=None, field: str = "display name") -> str:
    """The tidied name, or ValidationError with a sentence. `user`: the owner (may be unsaved)."""

    too_long, invisible, someone_else, a_username, a_name = REFUSALS[field]
    name = tidy(name)
    if len(name) > NAME_MAX_LENGTH:
        raise ValidationError(str(too_long) % {"max": NAME_MAX_LENGTH, "length": len(name)})
    if any(unicodedata.category(ch) in ("Cc", "Cf") for ch in name):
        raise ValidationError(str(invisible))
    key = skeleton(name)
    if key in RESERVED or _is_bot_name(key):
        raise ValidationError(str(someone_else) % {"name": name})
    others = User.objects.exclude(pk=user.pk) if user is not None and user.pk else User.objects
    normal = unicodedata.normalize("NFKC", name)
    if others.filter(Q(username__iexact=normal) | Q(username_key=key)).exists():
        raise ValidationError(str(a_username) % {"name": name})
    if field == "username" and (
        others.filter(Q(display_name__iexact=normal) | Q(display_key=key)).exists()
    ):
        raise ValidationError(str(a_name) % {"name": name})
    return name
