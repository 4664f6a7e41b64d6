"""allauth, with Geartable's rules for names (accounts/names.py) applied to usernames, and its
e-mails sent through the outbox (accounts/mail.py): a request never waits on SMTP."""

from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter
from allauth.core import context as allauth_context
from django.contrib.sites.shortcuts import get_current_site

from accounts import mail
from accounts.names import check_name


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username: str, shallow: bool = False) -> str:
        username = super().clean_username(username, shallow=shallow)
        return check_name(username, field="username")

    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        """Render as allauth does, then write it down instead of sending it now."""
        request = allauth_context.request
        ctx = {"request": request, "email": email, "current_site": get_current_site(request)}
        ctx.update(context)
        mail.queue(template_prefix, self.render_mail(template_prefix, email, ctx))
