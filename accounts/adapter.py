"""allauth, with Geartable's rules for names (accounts/names.py) applied to usernames."""

from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter

from accounts.names import check_name


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username: str, shallow: bool = False) -> str:
        username = super().clean_username(username, shallow=shallow)
        return check_name(username, field="username")
