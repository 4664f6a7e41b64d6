"""allauth, with Geartable's rules for names (accounts/names.py) applied to usernames, the
log-in lock keyed on the account (accounts/logins.py) and the time zone chosen at sign-up.

Its e-mails go through the outbox: that is the site's adapter, games/notifications/account_mail.py's
subclass of this one (settings.ACCOUNT_ADAPTER), since the outbox is the game side's and
accounts/ imports nothing of games."""

from __future__ import annotations

from dataclasses import dataclass

from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings
from django.http import HttpRequest

from accounts import logins
from accounts.middleware import offered_language
from accounts.names import check_name
from config.addresses import client_address

SITE_NAME = "Geartable"


@dataclass(frozen=True)
class Site:
    """What allauth's e-mails call `current_site`. Without django.contrib.sites it was the
    request's host, and the e-mails said "Hello from 127.0.0.1:8000!" (issue 27.7)."""

    name: str
    domain: str


def site() -> Site:
    return Site(SITE_NAME, settings.SITE_URL)


class AccountAdapter(DefaultAccountAdapter):
    def get_client_ip(self, request: HttpRequest) -> str:
        """The address allauth's log-in locks and rate limits key on: the site's one answer
        (config/addresses.py), the same as the API's and the streams' limits."""
        return client_address(request)

    def _get_login_attempts_cache_key(self, request: HttpRequest, **credentials) -> str:
        """The lock a log-in's failures count against: the account named, by its username or
        an e-mail address alike (allauth's own: what was typed), the lock the bot form's owner
        password counts against too (accounts/logins.py)."""
        return logins.key_for_login(credentials)

    def clean_username(self, username: str, shallow: bool = False) -> str:
        username = super().clean_username(username, shallow=shallow)
        return check_name(username, field="username")

    def save_user(self, request, user, form, commit=True):
        """The time zone chosen at sign-up (accounts.forms.SignupForm) and the page's language,
        in the same save."""
        zone = getattr(form, "cleaned_data", {}).get("time_zone")
        if zone:
            user.time_zone = zone
        # The language the sign-up page was shown in: the switch's, else the browser's guess
        # (LocaleMiddleware); the profile changes it.
        user.language = offered_language(getattr(request, "LANGUAGE_CODE", None)) or user.language
        return super().save_user(request, user, form, commit=commit)
