"""Accounts: sign-up, confirmation, log-in, profile, log-out, password reset, and bad input."""

import re

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.core.exceptions import ImproperlyConfigured
from django.urls import reverse

from accounts import game_side
from accounts.models import User
from accounts.names import check_name
from games.models import BotKind
from games.reads import players
from tests.support.users import PASSWORD

pytestmark = pytest.mark.django_db

SIGNUP = {
    "username": "dora",
    "email": "dora@example.com",
    "password1": "a-long-and-unusual-passphrase",
    "password2": "a-long-and-unusual-passphrase",
}


def first_link(body: str) -> str:
    return re.search(r"https?://[^/\s]+(/\S+)", body).group(1)


def test_signup_confirm_login_profile_logout(client, settings, django_capture_on_commit_callbacks):
    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"
    with django_capture_on_commit_callbacks(execute=True):  # the outbox sends after commit
        response = client.post(reverse("account_signup"), SIGNUP)
    assert response.status_code == 302
    user = User.objects.get(username="dora")
    assert user.email == "dora@example.com"
    assert not EmailAddress.objects.get(user=user).verified

    assert len(mail.outbox) == 1
    confirm_path = first_link(mail.outbox[0].body)
    response = client.post(confirm_path)
    assert response.status_code == 302
    assert EmailAddress.objects.get(user=user).verified

    client.post(reverse("account_logout"))
    response = client.post(
        reverse("account_login"), {"login": "dora", "password": SIGNUP["password1"]}
    )
    assert response.status_code == 302
    assert client.get(reverse("profile")).status_code == 200

    response = client.post(
        reverse("profile"),
        {
            "display_name": "Dora the Rider",
            "time_zone": "Europe/Paris",
            "notify_turn": "on",
        },
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.display_name == "Dora the Rider"
    assert user.time_zone == "Europe/Paris"
    assert user.notify_turn is True
    assert user.notify_reminder is False
    assert "Dora the Rider" in client.get(reverse("profile")).content.decode()

    response = client.post(reverse("account_logout"))
    assert response.status_code == 302
    assert client.get(reverse("profile")).status_code == 302  # back to the log-in page


def test_signup_without_confirmation_when_turned_off(client, settings):
    settings.ACCOUNT_EMAIL_VERIFICATION = "none"
    response = client.post(reverse("account_signup"), SIGNUP)
    assert response.status_code == 302
    assert not mail.outbox
    assert client.get(reverse("profile")).status_code == 200  # logged in at once


def test_login_with_email(client, alice):
    response = client.post(
        reverse("account_login"), {"login": "alice@example.com", "password": PASSWORD}
    )
    assert response.status_code == 302
    assert client.get(reverse("profile")).context["user"] == alice


def test_wrong_password_does_not_tell_whether_the_user_exists(client, alice):
    wrong = client.post(reverse("account_login"), {"login": "alice", "password": "nope-nope"})
    unknown = client.post(reverse("account_login"), {"login": "zed", "password": "nope-nope"})
    assert wrong.status_code == unknown.status_code == 200
    wrong_errors = wrong.context["form"].non_field_errors()
    unknown_errors = unknown.context["form"].non_field_errors()
    assert wrong_errors and wrong_errors == unknown_errors
    assert "_auth_user_id" not in client.session


def test_password_reset_email_link_sets_a_new_password(
    client, alice, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):  # the outbox sends after commit
        response = client.post(reverse("account_reset_password"), {"email": "alice@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    reset_path = first_link(mail.outbox[0].body)
    response = client.get(reset_path)  # allauth redirects to the key-less form URL
    form_url = response.url if response.status_code == 302 else reset_path
    response = client.post(
        form_url, {"password1": "brand-new-passphrase-42", "password2": "brand-new-passphrase-42"}
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("brand-new-passphrase-42")


def test_password_reset_mails_nothing_to_an_address_without_an_account(
    client, alice, django_capture_on_commit_callbacks
):
    """Issue 22: the reset form must not mail strangers (allauth's "you have no account" mail)
    and answers exactly as for a known address. Account e-mails go through the outbox, sent
    after the commit (issue 23): the callbacks run here as they would after a request."""
    with django_capture_on_commit_callbacks(execute=True):
        unknown = client.post(reverse("account_reset_password"), {"email": "stranger@example.com"})
    assert unknown.status_code == 302
    assert mail.outbox == []
    with django_capture_on_commit_callbacks(execute=True):
        known = client.post(reverse("account_reset_password"), {"email": "alice@example.com"})
    assert known.status_code == 302 and known.url == unknown.url
    assert [m.to for m in mail.outbox] == [["alice@example.com"]]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"username": "alice"}, "username"),
        ({"email": "alice@example.com"}, "email"),
        ({"password1": "password", "password2": "password"}, "password1"),
        ({"email": "not-an-email"}, "email"),
    ],
    ids=["taken-username", "taken-email", "weak-password", "malformed-email"],
)
def test_bad_signup_shows_errors_and_creates_nothing(client, alice, change, field):
    before = User.objects.count()
    response = client.post(reverse("account_signup"), SIGNUP | change)
    assert response.status_code == 200
    assert response.context["form"].errors.get(field)
    assert User.objects.count() == before


def test_login_is_rate_limited(client, alice):
    for _ in range(6):
        client.post(reverse("account_login"), {"login": "alice", "password": "bad"})
    # Even the right password is refused for a while after repeated failures.
    response = client.post(reverse("account_login"), {"login": "alice", "password": PASSWORD})
    assert "Too many failed login attempts" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_profile_rejects_an_unknown_time_zone(alice_client, alice):
    response = alice_client.post(reverse("profile"), {"time_zone": "Mars/Olympus"})
    assert response.status_code == 200
    assert response.context["form"].errors["time_zone"]
    alice.refresh_from_db()
    assert alice.time_zone == "UTC"


def test_profile_needs_login(client):
    response = client.get(reverse("profile"))
    assert response.status_code == 302
    assert reverse("account_login") in response.url


# --- behind a reverse proxy: the client's address, not the proxy's (issue 22) -------------------

LOCKED = "Too many failed login attempts"


def _fail_login(client, n: int, forwarded_for: str):
    """`n` failed log-ins, each with a name of its own (so only the per-address limit counts),
    as they reach the site through a proxy at 10.0.0.1 that appends the client's address."""
    response = None
    for i in range(n):
        response = client.post(
            reverse("account_login"),
            {"login": f"nobody{i}-{forwarded_for}", "password": "bad"},
            REMOTE_ADDR="10.0.0.1",
            # The client may send any first entry; the right-most is the one our proxy added.
            HTTP_X_FORWARDED_FOR=f"198.51.100.7, {forwarded_for}",
        )
    return response


def test_behind_a_proxy_two_clients_are_limited_separately(client, settings):
    settings.GEARTABLE_TRUSTED_PROXY_COUNT = 1  # what BEHIND_PROXY=true sets (test_site.py)
    assert LOCKED not in _fail_login(client, 10, "203.0.113.1").content.decode()
    assert LOCKED in _fail_login(client, 1, "203.0.113.1").content.decode()
    # Another client behind the same proxy is not locked out by the first one.
    assert LOCKED not in _fail_login(client, 1, "203.0.113.2").content.decode()


def test_without_a_proxy_a_forwarded_for_header_is_ignored(client, settings):
    settings.GEARTABLE_TRUSTED_PROXY_COUNT = 0  # BEHIND_PROXY off: the default
    assert LOCKED not in _fail_login(client, 10, "203.0.113.1").content.decode()
    # Changing the (spoofable) header does not make a new client.
    assert LOCKED in _fail_login(client, 1, "203.0.113.2").content.decode()


def test_accounts_asks_play_of_the_game_side_which_answers_in_its_ready(monkeypatch):
    """accounts/ imports nothing of games (issue 35.4): the bots' labels (names) and "has this
    account sat at a table" (bots) are handed in by games/apps.py. Asked before the game side
    answered, it is an error, never a guess that lets a name or a bot through."""
    side = game_side.game_side()
    assert side.bot_names == tuple(BotKind.labels)
    assert side.has_played is players.has_played
    monkeypatch.setattr(game_side, "_answer", [])
    with pytest.raises(ImproperlyConfigured):
        check_name("Greedy bot 2")


# --- issue 37: the account side in the player's language --------------------------------------


@pytest.mark.parametrize(
    ("accept", "refusal"),
    [
        ("it-IT,it;q=0.9", "“bot3” sembrerebbe qualcun altro: scegli un altro nome utente."),
        ("en", "“bot3” would pass for someone else: choose another username."),
    ],
    ids=["italian", "english"],
)
def test_a_sign_up_refusal_of_a_name_is_in_the_pages_language(client, accept, refusal):
    """Needs the Italian catalog (this area's translations applied)."""
    response = client.post(
        reverse("account_signup"), SIGNUP | {"username": "bot3"}, HTTP_ACCEPT_LANGUAGE=accept
    )
    assert response.status_code == 200
    assert response.context["form"].errors["username"] == [refusal]
    assert not User.objects.filter(username="bot3").exists()


def test_the_profiles_tokens_and_bot_forms_speak_each_players_language(alice, bob):
    """Needs the Italian catalog (this area's translations applied)."""
    from tests.support.games import client_for

    alice.language, bob.language = "it", "en"
    alice.save(update_fields=["language"]), bob.save(update_fields=["language"])
    italian, english = client_for(alice), client_for(bob)
    page = italian.get(reverse("profile")).content.decode()
    assert "Token API" in page and "Fuso orario" in page and "Crea un token" in page
    page = english.get(reverse("profile")).content.decode()
    assert "API tokens" in page and "Time zone" in page and "Create a token" in page
    named = {"name": "bell\x07", "scopes": ["read"], "days": 90}
    refused = italian.post(reverse("token_create"), named).content.decode()
    assert "Il nome di un token ha al massimo 60 caratteri, senza caratteri di controllo." in (
        refused.replace("&#x27;", "'")
    )
    refused = italian.post(reverse("make_bot"), {"owner": "", "password": "x"})
    assert "Spunta la casella per confermare che hai capito che è per sempre." in (
        refused.content.decode()
    )
