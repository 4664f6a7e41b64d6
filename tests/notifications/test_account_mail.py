"""allauth's e-mails go through the outbox (games/notifications/account_mail.py): a sign-up or a
password reset while the SMTP server is down succeeds, and the confirmation arrives when it is back.
With the real SMTP client against a real socket (nobody listening, then aiosmtpd); tasks run eagerly
after commit, the sweep retries."""

from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.models import AccountMail
from games.notifications import outbox
from tests.notifications.helpers import text_part
from tests.smtp import Inbox, SmtpServer
from tests.support.users import make_user

pytestmark = pytest.mark.django_db(transaction=True)

SIGNUP = {
    "username": "dora",
    "email": "dora@example.com",
    "password1": "a-long-and-unusual-passphrase",
    "password2": "a-long-and-unusual-passphrase",
}
State = AccountMail.State


def first_path(body: str) -> str:
    return re.search(r"https?://[^/\s]+(/\S+)", body).group(1)


@pytest.fixture
def smtp_down_then_up(settings, closed_port_mail):
    """The SMTP server's port, with nobody listening until the test starts the server."""
    server = SmtpServer(Inbox(port=closed_port_mail))
    yield server
    server.stop()


def retry_now() -> dict:
    AccountMail.objects.filter(state=State.PENDING).update(next_attempt=timezone.now())
    return outbox.sweep()


def test_a_sign_up_while_smtp_is_down_succeeds_and_the_confirmation_arrives_after(
    settings, smtp_down_then_up
):
    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"
    response = Client().post(reverse("account_signup"), SIGNUP)
    assert response.status_code == 302, "the sign-up never fails on SMTP"
    user = User.objects.get(username="dora")
    address = EmailAddress.objects.get(user=user)
    assert not address.verified
    row = AccountMail.objects.get()
    assert (row.state, row.attempts, row.to) == (State.PENDING, 1, "dora@example.com")
    assert "Connection refused" in row.error or "111" in row.error, row.error

    smtp_down_then_up.start()
    assert retry_now()["emails"] == 1
    (message,) = smtp_down_then_up.inbox.messages
    assert message["To"] == "dora@example.com" and "Confirm" in message["Subject"]
    assert str(message["Message-ID"]) == f"<accountmail-{row.pk}@testserver>"
    row.refresh_from_db()
    assert row.state == State.SENT and row.text == "" and row.html == "", "the link is erased"

    response = Client().post(first_path(text_part(message)))
    assert response.status_code == 302
    address.refresh_from_db()
    assert address.verified, "the confirmation link of the e-mail that arrived late works"
    assert retry_now()["emails"] == 0, "sent once"


def test_a_password_reset_while_smtp_is_down_succeeds_and_the_link_arrives_after(
    smtp_down_then_up, alice
):
    response = Client().post(reverse("account_reset_password"), {"email": "alice@example.com"})
    assert response.status_code == 302
    assert AccountMail.objects.get().state == State.PENDING
    smtp_down_then_up.start()
    retry_now()
    (message,) = smtp_down_then_up.inbox.to("alice@example.com")
    assert "/accounts/password/reset/key/" in text_part(message)


def test_the_admin_shows_who_and_how_but_never_the_link(
    smtp_down_then_up, django_user_model, alice
):
    Client().post(reverse("account_reset_password"), {"email": "alice@example.com"})
    row = AccountMail.objects.get()
    link = first_path(row.text)
    moderator = make_user(django_user_model, "mod", is_staff=True, is_superuser=True)
    admin = Client()
    admin.force_login(moderator)
    for path in (
        reverse("admin:games_accountmail_changelist"),
        reverse("admin:games_accountmail_change", args=[row.pk]),
    ):
        page = admin.get(path)
        assert page.status_code == 200
        body = page.content.decode()
        assert "alice@example.com" in body and link not in body
