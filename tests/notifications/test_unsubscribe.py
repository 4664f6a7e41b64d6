"""The unsubscribe link of an e-mail: no log-in, one kind of e-mail off; a GET only asks (mail
scanners follow links), a POST (the page's button or RFC 8058 one-click) does it; a link that
is forged, altered, expired or for an account that is gone changes nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.core import signing
from django.db import transaction
from django.test import Client
from django.urls import reverse

from accounts.models import User
from games.actions import deadlines
from games.models import Game, Notification, Status
from games.notifications import queueing as notifications
from games.notifications import unsubscribe
from tests.notifications.helpers import play_turn, unsubscribe_url
from tests.support.games import seat_to_act, start_geared

pytestmark = pytest.mark.django_db(transaction=True)


def link_path(message) -> str:
    url = unsubscribe_url(message)
    assert url.startswith(settings.SITE_URL)
    return url.removeprefix(settings.SITE_URL)


def prefs(*users) -> list[tuple[bool, bool]]:
    return [
        (u.notify_turn, u.notify_reminder)
        for u in User.objects.filter(pk__in=[u.pk for u in users]).order_by("pk")
    ]


@pytest.fixture
def turn_email(smtp_mail, alice, bob):
    """The "your turn" e-mail the SMTP server received for the player after the first move."""
    game = start_geared([alice, bob], turn_seconds=86400, target=2000)
    smtp_mail.messages.clear()
    mover = play_turn(game).user
    waiting = bob if mover == alice else alice
    (message,) = smtp_mail.to(waiting.email)
    return game, waiting, message


def test_following_the_link_only_asks_with_one_button(turn_email):
    game, waiting, message = turn_email
    response = Client().get(link_path(message))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Unsubscribe?" in page and '<form method="post">' in page
    waiting.refresh_from_db()
    assert (waiting.notify_turn, waiting.notify_reminder) == (True, True)


def test_the_button_turns_turn_emails_off_without_logging_in(turn_email):
    game, waiting, message = turn_email
    response = Client(enforce_csrf_checks=True).post(link_path(message))
    assert response.status_code == 200
    assert "We will no longer send" in response.content.decode()
    waiting.refresh_from_db()
    assert waiting.notify_turn is False
    assert waiting.notify_reminder is True, "only the kind the e-mail was about"


def test_one_click_post_from_a_mail_client_works_without_csrf_or_session(turn_email):
    game, waiting, message = turn_email
    client = Client(enforce_csrf_checks=True)
    response = client.post(
        link_path(message),
        "List-Unsubscribe=One-Click",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 200
    waiting.refresh_from_db()
    assert waiting.notify_turn is False


def test_the_reminder_link_turns_reminders_off(smtp_mail, alice, bob):
    game = start_geared([alice, bob], turn_seconds=86400, target=2000)
    waiting = seat_to_act(game).user
    smtp_mail.messages.clear()
    assert deadlines.remind(game.pk, game.turn, now=game.deadline - timedelta(hours=2)) == 1
    (message,) = smtp_mail.to(waiting.email)
    assert Client().post(link_path(message)).status_code == 200
    waiting.refresh_from_db()
    assert (waiting.notify_turn, waiting.notify_reminder) == (True, False)


def test_the_game_over_link_turns_off_the_game_over_box_only(smtp_mail, alice, bob):
    """Issue 26 point 3: game over has its own e-mail box in the profile's grid."""
    game = start_geared([alice, bob], turn_seconds=86400, target=2000)
    Game.objects.filter(pk=game.pk).update(status=Status.FINISHED)
    game.refresh_from_db()
    smtp_mail.messages.clear()
    with transaction.atomic():
        notifications.queue(game, Notification.Kind.GAME_OVER, [game.seats.get(user=bob)])
    (message,) = smtp_mail.to(bob.email)
    assert Client().post(link_path(message)).status_code == 200
    bob.refresh_from_db()
    assert not bob.email_game_over
    assert bob.notify_turn and bob.push_game_over and bob.notify_reminder


def test_the_link_works_twice(turn_email):
    game, waiting, message = turn_email
    assert Client().post(link_path(message)).status_code == 200
    assert Client().post(link_path(message)).status_code == 200
    waiting.refresh_from_db()
    assert waiting.notify_turn is False


def altered(token: str, index: int) -> str:
    chars = list(token)
    chars[index] = "B" if chars[index] != "B" else "C"
    return "".join(chars)


def assert_refused(response) -> None:
    assert response.status_code == 400
    page = response.content.decode()
    assert "This link is not valid" in page
    assert "Nothing was changed" in page


@pytest.mark.parametrize("method", ["get", "post"])
def test_a_forged_token_is_refused_and_changes_nothing(alice, bob, method):
    before = prefs(alice, bob)
    for token in (
        "forged",
        signing.dumps({"u": alice.pk, "p": "notify_turn"}, salt="another.salt"),
        signing.dumps({"u": alice.pk, "p": "notify_turn"}, key="not-our-secret-key-0123456789"),
    ):
        response = getattr(Client(), method)(reverse("unsubscribe", args=[token]))
        assert_refused(response)
    assert prefs(alice, bob) == before


def test_a_token_altered_by_one_character_is_refused(alice):
    token = unsubscribe.unsubscribe_token(alice, "notify_turn")
    payload_end = token.index(":")
    for index in (0, 1, 3, payload_end - 1, payload_end + 3, len(token) - 2):
        response = Client().post(reverse("unsubscribe", args=[altered(token, index)]))
        assert_refused(response)
    alice.refresh_from_db()
    assert alice.notify_turn is True


def test_a_signed_token_for_another_field_is_refused(alice):
    # Even with our key, the link may only touch the two e-mail switches.
    token = signing.dumps(
        {"u": alice.pk, "p": "is_active"}, salt=unsubscribe.UNSUBSCRIBE_SALT, compress=True
    )
    assert_refused(Client().post(reverse("unsubscribe", args=[token])))
    alice.refresh_from_db()
    assert alice.is_active is True


def test_a_token_of_a_deleted_user_is_refused(carol, alice):
    token = unsubscribe.unsubscribe_token(carol, "notify_turn")
    before = prefs(alice)
    carol.delete()
    assert_refused(Client().post(reverse("unsubscribe", args=[token])))
    assert prefs(alice) == before


def test_the_header_is_a_plain_url_on_one_line_not_rfc2047_encoded(turn_email, smtp_mail):
    game, waiting, message = turn_email
    # As received by the SMTP server, before any decoding.
    (raw,) = [value for name, value in message.raw_items() if name == "List-Unsubscribe"]
    assert "=?" not in raw and "\n" not in raw
    assert raw.startswith(f"<{settings.SITE_URL}/") and raw.endswith(">")
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_the_token_does_not_carry_the_user_id(alice):
    token = unsubscribe.unsubscribe_token(alice, "notify_turn")
    assert alice.mail_key in token
    # Neither in clear nor in a decodable payload (the old tokens were base64 JSON).
    assert f'"u": {alice.pk}' not in token and f'"u":{alice.pk}' not in token
    with pytest.raises(signing.BadSignature):
        signing.loads(token.partition(".")[2], salt=unsubscribe.UNSUBSCRIBE_SALT)


def test_a_token_is_bound_to_its_preference(alice):
    token = unsubscribe.unsubscribe_token(alice, "notify_reminder")
    as_turn = "t" + token[1:]  # the same signature, offered for the other switch
    assert_refused(Client().post(reverse("unsubscribe", args=[as_turn])))
    alice.refresh_from_db()
    assert (alice.notify_turn, alice.notify_reminder) == (True, True)


def test_a_token_expires_after_the_configured_days(alice, monkeypatch, settings):
    import time

    settings.GEARTABLE_UNSUBSCRIBE_LINK_DAYS = 365
    now = time.time()
    monkeypatch.setattr(signing.time, "time", lambda: now - 366 * 86400)
    old = unsubscribe.unsubscribe_token(alice, "notify_turn")
    monkeypatch.setattr(signing.time, "time", lambda: now - 364 * 86400)
    recent = unsubscribe.unsubscribe_token(alice, "notify_turn")
    monkeypatch.undo()
    assert_refused(Client().post(reverse("unsubscribe", args=[old])))
    alice.refresh_from_db()
    assert alice.notify_turn is True
    assert Client().post(reverse("unsubscribe", args=[recent])).status_code == 200
    alice.refresh_from_db()
    assert alice.notify_turn is False
