"""allauth's account e-mails (address confirmation, password reset, ...) through the outbox.

allauth sends them inside the request that asks for them: with the SMTP server down a sign-up
answered 500, the account created and its confirmation lost (issue 23). Here the adapter's
`send_mail` renders the message in the request, as allauth would have sent it, and writes it
down as an `AccountMail` row; the outbox's task sends it after commit, and the sweep retries it
until the server is back, as every other e-mail (docs/delivery.md). `AccountAdapter` is the
site's allauth adapter (settings.ACCOUNT_ADAPTER): accounts/adapter.py's rules, and its
e-mails written here.

The stored message carries what the e-mail carries (the confirmation or reset link) and no
more; its bodies are erased once the row is done, and the admin shows only who, which e-mail
and its delivery, never the bodies.
"""

from __future__ import annotations

from allauth.core import context as allauth_context
from django.core.mail import EmailMessage, EmailMultiAlternatives
from django.utils import translation

from accounts import adapter
from games import effects
from games.models import AccountMail
from games.notifications import email, outbox
from games.notifications.email import language_of


def queue(template: str, message: EmailMessage) -> AccountMail:
    """Write down a rendered allauth message and send it after commit."""
    html = next(
        (body for body, kind in getattr(message, "alternatives", []) if kind == "text/html"), ""
    )
    text, subject = message.body, message.subject
    if message.content_subtype == "html":  # allauth sends an HTML-only message as the body
        text, html = "", message.body
    row = AccountMail.objects.create(
        to=message.to[0],
        template=template[:100],
        subject=subject[:300],
        text=text,
        html=html,
        next_attempt=outbox.first_attempt(),
    )
    effects.after_commit("games.tasks.send_account_mail", row.pk)
    return row


def build(row: AccountMail) -> EmailMultiAlternatives:
    message = EmailMultiAlternatives(
        row.subject,
        row.text,
        to=[row.to],
        headers={"Message-ID": email.message_id(row)},
    )
    if row.html:
        if row.text:
            message.attach_alternative(row.html, "text/html")
        else:
            message.body, message.content_subtype = row.html, "html"
    return message


def deliver(mail_id: int) -> bool:
    """Send one account e-mail if it is still pending (claimed as every outbox row is)."""
    row = outbox.claim(AccountMail.objects.all(), mail_id)
    if row is None:
        return False
    try:
        return email.send_claimed(row, lambda: build(row))
    finally:
        forget_if_done(row.pk)


def forget_if_done(mail_id: int) -> None:
    """Erase the bodies (the link they carry) of a row that is done."""
    done = [AccountMail.State.SENT, AccountMail.State.SKIPPED]  # FAILED: kept for a re-queue
    AccountMail.objects.filter(pk=mail_id, state__in=done).exclude(text="", html="").update(
        text="", html=""
    )


class AccountAdapter(adapter.AccountAdapter):
    """accounts' adapter (names, the log-in lock, the time zone), its e-mails through the
    outbox."""

    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        """Render as allauth does, then write it down instead of sending it now: in the
        account's language (a password reset asked from a page in another language reads as
        the player chose), else the page's (no account at that address)."""
        request = allauth_context.request
        ctx = {"request": request, "email": email}
        ctx.update(context)
        ctx["current_site"] = adapter.site()  # allauth's forms pass the request's host
        user = ctx.get("user")
        language = language_of(user) if user is not None else None
        with translation.override(language or translation.get_language()):
            queue(template_prefix, self.render_mail(template_prefix, email, ctx))
