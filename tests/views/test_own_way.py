"""Issue 27.7 and 27.11: the error pages in the site's frame (with DEBUG off, through the real
handlers), the import link in My games, the account e-mails naming the site, the time zone
chosen at sign-up, and the chat's notices outside its list."""

import pytest
from django.core import mail
from django.db import OperationalError, connection
from django.test import Client, override_settings
from django.urls import reverse

from accounts.forms import COMMON_ZONES
from accounts.models import User
from config.errors import SERVER_ERROR_MESSAGE
from games.models import ChatMessage
from tests.support.games import client_for, start_geared

pytestmark = pytest.mark.django_db

FRAME = ('<main id="main"', '<nav class="nav" aria-label="Main">', 'class="footer"')


def in_frame(body: str) -> bool:
    return all(part in body for part in FRAME) and "<h1>" in body


@override_settings(DEBUG=False)
def test_issue_27_7_a_missing_game_is_a_404_page_in_the_frame_with_its_sentence(alice):
    response = client_for(alice).get(reverse("game", args=[987654]))
    body = response.content.decode()
    assert response.status_code == 404
    assert in_frame(body) and "There is no such game." in body
    assert reverse("my_games") in body  # a way on


@override_settings(DEBUG=False)
def test_issue_27_7_an_unknown_address_and_a_bad_decline_link_are_404_pages(client):
    for path in ("/no/such/page/", reverse("decline_invitation", args=["not-a-token"])):
        response = client.get(path)
        body = response.content.decode()
        assert response.status_code == 404 and in_frame(body), path
    assert "This invitation link is not valid." in body
    assert "Resolver404" not in client.get("/no/such/page/").content.decode()


@override_settings(DEBUG=False)
def test_issue_27_7_a_forbidden_page_is_a_403_in_the_frame(alice, bob):
    """A staff member without the right permission opens a moderator's page: the refusal's
    sentence, in the frame."""
    bob.is_staff = True
    bob.save(update_fields=["is_staff"])
    message = ChatMessage.objects.post(start_geared([alice, bob], public=True), alice, "hello")
    response = client_for(bob).get(reverse("admin:games_chatmessage_hide", args=[message.pk]))
    body = response.content.decode()
    assert response.status_code == 403 and in_frame(body)
    assert "Only a moderator can hide a message." in body


@override_settings(DEBUG=False)
def test_issue_27_7_the_500_page_answers_in_the_frame_with_the_database_down(alice, monkeypatch):
    """The 500 page reads nothing of the request and runs no query: here every query fails."""

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    def no_database(execute, sql, params, many, context):
        raise OperationalError("the database is down")

    monkeypatch.setattr("games.views.site.render", broken)
    browser = Client(raise_request_exception=False)
    browser.force_login(alice)
    with connection.execute_wrapper(no_database):
        response = browser.get(reverse("home"))
    body = response.content.decode()
    assert response.status_code == 500
    assert in_frame(body) and SERVER_ERROR_MESSAGE in body
    assert alice.username not in body  # the frame sees a visitor: nothing of the session read


def test_issue_27_7_my_games_links_to_the_import_page(alice):
    body = client_for(alice).get(reverse("my_games")).content.decode()
    assert f'href="{reverse("import_record")}"' in body


def test_issue_27_7_account_emails_name_the_site_not_the_host(
    client, settings, django_capture_on_commit_callbacks
):
    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"
    data = {
        "username": "dora",
        "email": "dora@example.com",
        "password1": "a-long-and-unusual-passphrase",
        "password2": "a-long-and-unusual-passphrase",
        "time_zone": "Asia/Kolkata",
    }
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(reverse("account_signup"), data).status_code == 302
        client.post(reverse("account_logout"))
        client.post(reverse("account_reset_password"), {"email": "dora@example.com"})
    assert len(mail.outbox) == 2
    for message in mail.outbox:  # the links keep the host; the words name the site
        assert (
            "Hello from Geartable!" in message.body and "Hello from testserver" not in message.body
        )
        assert "Thank you for using Geartable!" in message.body
    assert "register an account on Geartable." in mail.outbox[0].body
    assert User.objects.get(username="dora").time_zone == "Asia/Kolkata"


def test_issue_27_7_signup_offers_a_grouped_list_guessed_by_the_browser(client):
    body = client.get(reverse("account_signup")).content.decode()
    assert "data-guess-time-zone" in body
    assert '<optgroup label="Common">' in body and '<optgroup label="Europe">' in body
    assert 'value="US/Eastern"' not in body and 'value="Etc/GMT+5"' not in body
    assert body.index('value="UTC"') < body.index('value="Africa/Abidjan"')
    assert all(f'value="{zone}"' in body for zone in COMMON_ZONES)


def test_issue_27_7_signup_refuses_a_time_zone_not_on_the_list(client):
    data = {
        "username": "erin",
        "email": "erin@example.com",
        "password1": "a-long-and-unusual-passphrase",
        "password2": "a-long-and-unusual-passphrase",
        "time_zone": "Mars/Olympus_Mons",
    }
    response = client.post(reverse("account_signup"), data)
    assert response.status_code == 200 and "Select a valid choice" in response.content.decode()
    assert not User.objects.filter(username="erin").exists()
    assert "data-guess-time-zone" not in response.content.decode()  # the player's choice stays


def test_issue_27_7_the_profile_keeps_a_legacy_zone_nobody_touched(alice):
    alice.time_zone = "US/Eastern"
    alice.save(update_fields=["time_zone"])
    body = client_for(alice).get(reverse("profile")).content.decode()
    assert '<optgroup label="Other">' in body and 'value="US/Eastern" selected' in body


def test_issue_27_11_a_reports_confirmation_is_not_an_item_of_the_chat_list(alice, bob):
    game = start_geared([alice, bob], public=True)
    message = ChatMessage.objects.post(game, bob, "hello")
    response = client_for(alice).post(
        reverse("chat_report", args=[game.pk, message.pk]),
        {"reason": "spam"},
        HTTP_HX_REQUEST="true",
    )
    body = response.content.decode()
    assert response.status_code == 200 and body.lstrip().startswith('<div id="chat-log"')
    notice = body.index('role="status"')
    assert body.index("</ol>") < notice  # after the list, not an <li> in it
    assert "<li" not in body[body.index("</ol>") :]
