"""Suspensions: a suspended player can log in and read, but not move, chat, create or join,
and is told why; an expired suspension and a lifted one let them play again."""

import json
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import engines
from games.actions import tables
from games.models import ChatMessage, Game, ModerationAction, Move, Seat
from tests.support.users import PASSWORD

pytestmark = pytest.mark.django_db


def suspend(mod_client, user, **data):
    url = reverse("admin:accounts_user_suspend", args=[user.pk])
    return mod_client.post(url, {"reason": "spamming the chat", **data})


@pytest.fixture
def suspended_alice(mod_client, alice):
    assert suspend(mod_client, alice).status_code == 302
    alice.refresh_from_db()
    assert alice.is_suspended
    return alice


def test_suspension_is_recorded(moderator, suspended_alice):
    record = ModerationAction.objects.get()
    assert (record.moderator, record.action, record.user) == (
        moderator,
        "suspend user",
        suspended_alice,
    )


def test_a_suspended_player_can_log_in_and_read(client, geared_game, suspended_alice):
    response = client.post(reverse("account_login"), {"login": "alice", "password": PASSWORD})
    assert response.status_code == 302
    page = client.get(geared_game.get_absolute_url())
    assert page.status_code == 200
    assert "Your account is suspended: spamming the chat" in page.content.decode()


def test_a_suspended_player_cannot_move(client, mod_client, geared_game):
    # Whoever is to play first is suspended, so the refusal can only be the suspension's.
    seat = Seat.objects.select_related("user").get(game=geared_game, to_act=True)
    assert suspend(mod_client, seat.user).status_code == 302
    client.force_login(seat.user)
    game = Game.objects.get(pk=geared_game.pk)
    action = engines.engine("geared").legal_actions(game.state, seat.seat_id)[0]
    response = client.post(
        reverse("game_move", args=[game.pk]),
        {"action": json.dumps(action), "version": game.version},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 403
    assert "Your account is suspended: spamming the chat" in response.content.decode()
    after = Game.objects.get(pk=game.pk)
    assert after.version == game.version and after.state == game.state
    assert Move.objects.filter(game=game).count() == game.move_count


def test_a_suspended_player_cannot_chat(client, geared_game, suspended_alice):
    client.force_login(suspended_alice)
    response = client.post(
        reverse("game_chat", args=[geared_game.pk]), {"text": "hi"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 403 and "suspended" in response.content.decode()
    assert not ChatMessage.objects.exists()


def test_a_suspended_player_cannot_create_or_join(client, suspended_alice, bob):

    client.force_login(suspended_alice)
    before = Game.objects.count()
    response = client.post(
        reverse("create_game"),
        {
            "kind": "geared",
            "seat_count": 2,
            "target": 1000,
            "turn_seconds": 0,
            "bots": 0,
            "bot_kind": "greedy",
            "public": "on",
        },
    )
    assert response.status_code == 400 and "suspended" in response.content.decode()
    assert Game.objects.count() == before
    game = tables.create_game(bob, tables.NewGame(kind="geared", seat_count=3, public=True))
    response = client.post(reverse("game_join", args=[game.pk]), follow=True)
    assert "suspended" in response.content.decode()
    assert not Seat.objects.filter(game=game, user=suspended_alice).exists()


def test_a_suspension_ends_at_its_end_date(mod_client, alice):
    suspend(
        mod_client, alice, until=(timezone.now() + timedelta(days=2)).strftime("%Y-%m-%d %H:%M")
    )
    alice.refresh_from_db()
    assert alice.is_suspended
    alice.suspended_until = timezone.now() - timedelta(minutes=1)
    assert not alice.is_suspended and alice.suspension_message == ""


def test_a_suspension_end_in_the_past_is_refused(mod_client, alice):
    response = suspend(mod_client, alice, until="2001-01-01 00:00")
    assert response.status_code == 200 and "must be in the future" in response.content.decode()
    alice.refresh_from_db()
    assert not alice.is_suspended and not ModerationAction.objects.exists()


def test_lifting_a_suspension(mod_client, client, geared_game, suspended_alice):
    url = reverse("admin:accounts_user_lift", args=[suspended_alice.pk])
    assert mod_client.post(url, {"reason": "appeal accepted"}).status_code == 302
    suspended_alice.refresh_from_db()
    assert not suspended_alice.is_suspended
    assert ModerationAction.objects.filter(action="lift suspension").exists()
    client.force_login(suspended_alice)
    response = client.post(reverse("game_chat", args=[geared_game.pk]), {"text": "back"})
    assert response.status_code == 302 and ChatMessage.objects.filter(text="back").exists()


def test_user_admin_lists_games_and_reports(mod_client, alice, bob, geared_game):
    from games.models import Report

    message = ChatMessage.objects.post(geared_game, bob, "meh")
    Report.objects.create(message=message, reporter=alice, reason="rude")
    body = mod_client.get(reverse("admin:accounts_user_change", args=[bob.pk])).content.decode()
    assert str(geared_game) in body and "rude" in body
    body = mod_client.get(reverse("admin:accounts_user_changelist"), {"q": "bob"}).content.decode()
    assert "bob@example.com" in body
