"""The lock on an account's password (issue 34.2): one count of wrong passwords per account,
whichever door typed them: the log-in page (allauth, through `accounts.adapter`) and the bot
form's owner password (`accounts.bots`). It is allauth's own `login_failed` limit (README:
Log-in: 5 wrong passwords lock the account for 5 minutes, 10 a minute lock the address), keyed
on the account itself, not on what was typed: a username and an e-mail address of one account
count together, and a guesser cannot get fresh tries from another door or another account of
their own.

The count comes first and the check after: allauth adds the try under its cache lock before
the password is read, and gives it back when the password was right (as its log-in does), so
any number of requests at once get at most the limit's passwords checked.
"""

from __future__ import annotations

from allauth.account.utils import filter_users_by_email, filter_users_by_username
from allauth.core.internal import ratelimit
from django.http import HttpRequest

from accounts.models import User

ACTION = "login_failed"  # allauth's name of the log-in's lock (ACCOUNT_RATE_LIMITS)


class Locked(Exception):
    """Too many wrong passwords for this account (or from this address): none is checked."""


def lock_key(user: User) -> str:
    """The key of `user`'s lock, whatever name they were typed by."""
    return f"account:{user.pk}"


def key_for_login(credentials: dict) -> str:
    """The lock a log-in's credentials count against (allauth's `username=` or `email=`): the
    account they name, else what was typed (no account: no password to guess, but the tries
    are counted all the same)."""
    if credentials.get("email"):
        login = credentials["email"]
        found = filter_users_by_email(login)
    else:
        login = credentials.get("username") or ""
        found = list(filter_users_by_username(login)[:2]) if login else []
    if len(found) == 1:
        return lock_key(found[0])
    return f"login:{login.lower()}"


def check_password(request: HttpRequest | None, user: User, password: str) -> bool:
    """Whether `password` is `user`'s, counted against their lock and the client's address as a
    log-in is: Locked (nothing checked) past the limit. `request`: the one that typed it; code
    that is not a door (the shell, a test) passes None and shares one address's count."""
    if request is None:
        request = HttpRequest()
    usage = ratelimit.consume(request, app="allauth.account", action=ACTION, key=lock_key(user))
    if usage is None:
        raise Locked
    if user.check_password(password or ""):
        usage.rollback()  # a right password costs no try, as at the log-in
        return True
    return False
