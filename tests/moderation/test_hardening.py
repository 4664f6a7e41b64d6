"""Issue 13, point 7: suspended players cannot report, rename or resign; nobody reports their
own message; the chat rate is per player across games; a moderator who plays in a game sees
it in the admin as a player; the invitation's Subject is plain text."""

from __future__ import annotations

import pytest
from django.core import mail
from django.urls import reverse

from games import errors
from games.actions import moderation, tables
from games.models import ChatMessage, Move, Report, Seat
from tests.support.games import client_for, start_geared

pytestmark = pytest.mark.django_db

HAND_IN_A_VIEW = "&quot;hand&quot;"  # the key of a Geared view, HTML-escaped in <pre>


@pytest.fixture
def suspended(mod_client, alice):
    url = reverse("admin:accounts_user_suspend", args=[alice.pk])
    assert mod_client.post(url, {"reason": "spam"}).status_code == 302
    alice.refresh_from_db()
    return alice


def test_a_suspended_player_cannot_report(geared_game, suspended, bob):
    message = ChatMessage.objects.post(geared_game, bob, "hm")
    url = reverse("chat_report", args=[geared_game.pk, message.pk])
    response = client_for(suspended).post(url, {"reason": "spam"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 403
    assert "Your account is suspended" in response.content.decode()
    assert not Report.objects.exists()


def test_a_suspended_player_cannot_change_their_display_name(suspended):
    client = client_for(suspended)
    response = client.post(
        reverse("profile"), {"display_name": "Totally Legit", "time_zone": "UTC"}
    )
    assert response.status_code == 200
    assert "you cannot change your display name" in response.content.decode()
    suspended.refresh_from_db()
    assert suspended.display_name == "Alice"
    # Their e-mail switches are still theirs to change.
    response = client.post(reverse("profile"), {"display_name": "Alice", "time_zone": "UTC"})
    assert response.status_code == 302
    suspended.refresh_from_db()
    assert (suspended.notify_turn, suspended.notify_reminder) == (False, False)


def test_a_suspended_player_cannot_resign(geared_game, suspended):
    client = client_for(suspended)
    response = client.post(reverse("game_resign", args=[geared_game.pk]))
    assert response.status_code == 302
    assert "Your account is suspended" in client.get(response["Location"]).content.decode()
    assert Seat.objects.filter(game=geared_game, user=suspended, bot="").exists()
    assert not Seat.objects.filter(game=geared_game, replaced_user=suspended).exists()


def test_a_player_cannot_report_their_own_message(geared_game, alice):
    message = ChatMessage.objects.post(geared_game, alice, "mine")
    url = reverse("chat_report", args=[geared_game.pk, message.pk])
    response = client_for(alice).post(url, {"reason": "spam"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert "You cannot report your own message." in response.content.decode()
    assert not Report.objects.exists()


def test_the_chat_rate_is_per_player_across_games(alice, bob, carol):
    games = [start_geared([alice, other], public=True, target=1000) for other in (bob, carol)]
    count, _seconds = moderation.CHAT_RATE
    for i in range(count):
        moderation.post_chat(alice, games[i % 2].pk, f"m{i}")
    for game in games:
        with pytest.raises(errors.GameError) as refused:
            moderation.post_chat(alice, game.pk, "one too many")
        assert refused.value.status == 429
    assert ChatMessage.objects.count() == count
    moderation.post_chat(bob, games[0].pk, "bob has his own allowance")


def test_a_moderator_who_plays_does_not_see_the_other_hands_in_the_admin(
    alice, bob, mod_client, geared_game
):
    alice.is_staff = alice.is_superuser = True
    alice.save(update_fields=["is_staff", "is_superuser"])
    url = reverse("admin:games_game_change", args=[geared_game.pk])
    playing = client_for(alice).get(url)
    assert playing.status_code == 200
    page = playing.content.decode()
    assert HAND_IN_A_VIEW not in page
    assert "Hidden: you play in this game" in page
    models = {f.formset.model for f in playing.context["inline_admin_formsets"]}
    assert Move not in models
    # A moderator who does not play sees every view and the move log.
    watching = mod_client.get(url)
    assert HAND_IN_A_VIEW in watching.content.decode()
    assert Move in {f.formset.model for f in watching.context["inline_admin_formsets"]}


def test_the_invitation_subject_is_plain_text_without_user_text(
    alice, bob, django_capture_on_commit_callbacks
):
    alice.display_name = "Tom & <Jerry>"
    alice.save(update_fields=["display_name"])
    game = tables.create_game(alice, tables.NewGame(kind="geared", seat_count=2))
    with django_capture_on_commit_callbacks(execute=True):
        tables.invite(alice, game.pk, "bob")
    (message,) = mail.outbox
    assert message.subject == "You are invited to play Geared: Build Your Bike on Geartable"
    assert "Tom & <Jerry>" in message.body
