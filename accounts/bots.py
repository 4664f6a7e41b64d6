"""Bot accounts (issue 28.4; docs/api.md, "Bot accounts"): marking an account as a bot, for good.

A person who wants to run a bot signs up a second account for it, logs in as that account and
marks it on its profile, naming their own (human) account as the owner and proving it with
that account's password: so nobody can claim a bot is "by fay" without fay. The mark cannot be
undone (as on lichess): the account then plays only through the API with a `bot` token, is
rated as a bot, and is sent no e-mail or push. An account that has ever sat at a table is
refused, as lichess refuses an account that has played: its games and rating were a human's.

The owner's password is checked as a log-in checks it, against the same lock
(`accounts.logins`): a wrong one counts against the owner (whatever account typed it, however
many at once), and an owner locked out of logging in is locked out here too.
"""

from __future__ import annotations

from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from accounts import logins
from accounts.game_side import game_side
from accounts.models import User

LOCKED = gettext_noop(
    "Too many wrong passwords: try again in a few minutes."
)  # translated when said


class BotError(Exception):
    """A refusal with a sentence for the player; nothing was changed."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message, self.status = message, status


def why_not(account: User) -> str:
    """Why this account cannot become a bot, or "" if it can (before any owner is named)."""
    if account.is_bot:
        return gettext("This account is already a bot.")
    if account.is_staff or account.is_superuser:
        return gettext("A moderator's account cannot be a bot.")
    if account.is_suspended:
        return gettext("A suspended account cannot become a bot.")
    if game_side().has_played(account):
        return gettext(
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


def mark_as_bot(
    account: User,
    owner_username: str,
    owner_password: str,
    request: HttpRequest | None = None,
) -> User:
    """Make `account` a bot account run by the player `owner_username`, who proves it with
    their password: for good. BotError (nothing changed) if the account may not, the owner is
    not a person's account, or the password is wrong or may not be tried now (the owner's
    log-in lock, `logins.check_password`; `request`: the form's, whose address counts too)."""
    with transaction.atomic():
        # Locked: two submissions at once are one after the other.
        account = User.objects.select_for_update().get(pk=account.pk)
        reason = why_not(account)
        if reason:
            raise BotError(reason, status=409 if account.is_bot else 403)
        name = (owner_username or "").strip()
        owner = User.objects.filter(username__iexact=name, is_active=True).first() if name else None
        if owner is None or owner.pk == account.pk or owner.is_bot:
            raise BotError(
                gettext("Name the player who runs this bot: your own account, not a bot.")
            )
        try:
            proven = logins.check_password(request, owner, owner_password)
        except logins.Locked:
            raise BotError(gettext(LOCKED), status=429) from None
        if not proven:
            message = gettext("That is not the password of %(username)s.")
            raise BotError(message % {"username": owner.username}, status=403)
        account.is_bot, account.bot_owner, account.bot_since = True, owner, timezone.now()
        account.save(update_fields=["is_bot", "bot_owner", "bot_since"])
    return account
