"""Bot accounts (issue 28.4; docs/api.md, "Bot accounts"): marking an account as a bot, for good.

A person who wants to run a bot signs up a second account for it, logs in as that account and
marks it on its profile, naming their own (human) account as the owner and proving it with
that account's password: so nobody can claim a bot is "by fay" without fay. The mark cannot be
undone (as on lichess): the account then plays only through the API with a `bot` token, is
rated as a bot, and is sent no e-mail or push. An account that has ever sat at a table is
refused, as lichess refuses an account that has played: its games and rating were a human's.
"""

from __future__ import annotations

from django.core.cache import cache
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import User
from games.models import Seat

# Wrong owner passwords an account may try, per hour: the form must not be a way to guess a
# player's password faster than the log-in page allows.
PASSWORD_TRIES = 5
PASSWORD_WINDOW = 3600


class BotError(Exception):
    """A refusal with a sentence for the player; nothing was changed."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message, self.status = message, status


def why_not(account: User) -> str:
    """Why this account cannot become a bot, or "" if it can (before any owner is named)."""
    if account.is_bot:
        return "This account is already a bot."
    if account.is_staff or account.is_superuser:
        return "A moderator's account cannot be a bot."
    if account.is_suspended:
        return "A suspended account cannot become a bot."
    if Seat.objects.filter(Q(user=account) | Q(replaced_user=account)).exists():
        return (
            "This account has sat at a table: its games and rating are a person's, so it "
            "cannot become a bot."
        )
    return ""


def bots_of(owner: User) -> list[str]:
    """The usernames of the bot accounts this person marked as theirs, for their profile (a
    bot owns none)."""
    if owner.is_bot:
        return []
    return list(
        owner.bots.filter(is_bot=True).order_by("username").values_list("username", flat=True)
    )


def _tries_key(account: User) -> str:
    return f"bot-owner-tries:{account.pk}:{int(timezone.now().timestamp() // PASSWORD_WINDOW)}"


def mark_as_bot(account: User, owner_username: str, owner_password: str) -> User:
    """Make `account` a bot account run by the player `owner_username`, who proves it with
    their password: for good. BotError (nothing changed) if the account may not, the owner is
    not a person's account, or the password is wrong (at most PASSWORD_TRIES an hour)."""
    key = _tries_key(account)
    if (cache.get(key) or 0) >= PASSWORD_TRIES:
        raise BotError("Too many wrong passwords: try again in an hour.", status=429)
    with transaction.atomic():
        # Locked: two submissions at once are one after the other.
        account = User.objects.select_for_update().get(pk=account.pk)
        reason = why_not(account)
        if reason:
            raise BotError(reason, status=409 if account.is_bot else 403)
        name = (owner_username or "").strip()
        owner = User.objects.filter(username__iexact=name, is_active=True).first() if name else None
        if owner is None or owner.pk == account.pk or owner.is_bot:
            raise BotError("Name the player who runs this bot: your own account, not a bot.")
        if not owner.check_password(owner_password or ""):
            cache.add(key, 0, PASSWORD_WINDOW + 1)
            cache.incr(key)
            raise BotError(f"That is not the password of {owner.username}.", status=403)
        account.is_bot, account.bot_owner, account.bot_since = True, owner, timezone.now()
        account.save(update_fields=["is_bot", "bot_owner", "bot_since"])
    return account
