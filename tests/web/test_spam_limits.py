"""Issue 13, point 1: the site is no spam relay. E-mail invitations are limited per player and
day and to one waiting per address, never sent to an address that declined or bounced; open
tables are capped per player; friends invited by username are not counted."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import EmailSuppression
from games import services
from games.models import Game, Invitation, Kind, Status
from tests.conftest import make_user
from tests.web.helpers import client_for, text

pytestmark = pytest.mark.django_db


def table(user, seats: int = 6) -> Game:
    return services.create_game(user, services.NewGame(kind=Kind.GEARED, seat_count=seats))


def invite(client, game, who: str):
    response = client.post(reverse("game_invite", args=[game.pk]), {"who": who})
    return response, text(client.get(game.get_absolute_url()))


def test_email_invitations_are_limited_per_player_and_day(alice, settings):
    settings.GEARTABLE_EMAIL_INVITATIONS_PER_DAY = 3
    games = [table(alice) for _ in range(2)]
    client = client_for(alice)
    for n in range(3):
        invite(client, games[n % 2], f"friend{n}@example.com")
    assert Invitation.objects.count() == 3
    response, page = invite(client, games[1], "friend9@example.com")
    assert response.status_code == 302
    assert "You have sent 3 e-mail invitations in the last 24 hours" in page
    assert Invitation.objects.count() == 3


def test_the_daily_limit_counts_only_the_last_24_hours(alice, settings):
    settings.GEARTABLE_EMAIL_INVITATIONS_PER_DAY = 1
    game = table(alice)
    services.invite(alice, game.pk, "old@example.com")
    Invitation.objects.update(created=Invitation.objects.get().created.replace(year=2000))
    services.invite(alice, game.pk, "new@example.com")
    assert Invitation.objects.count() == 2


def test_friends_invited_by_username_are_not_counted(alice, settings, django_user_model):
    settings.GEARTABLE_EMAIL_INVITATIONS_PER_DAY = 1
    game = table(alice)
    services.invite(alice, game.pk, "stranger@example.com")
    for name in ("bob", "carol", "dora"):
        make_user(django_user_model, name)
        services.invite(alice, game.pk, name)
    assert Invitation.objects.filter(user__isnull=False).count() == 3


def test_an_address_gets_one_waiting_invitation_at_a_time(alice, bob):
    client = client_for(alice)
    first, second = table(alice), table(alice)
    services.invite(alice, first.pk, "dora@example.com")
    response, page = invite(client, second, "DORA@example.com")
    assert "That address already has an invitation waiting" in page
    with pytest.raises(services.Conflict):
        services.invite(bob, table(bob).pk, "dora@example.com")  # from anyone
    assert Invitation.objects.count() == 1
    services.leave_game(alice, first.pk)  # the first table closes: its invitation lapses
    services.invite(alice, second.pk, "dora@example.com")
    assert Invitation.objects.count() == 2


@pytest.mark.parametrize("reason", EmailSuppression.Reason.values)
def test_no_invitation_to_an_address_that_declined_or_bounced(alice, reason):
    EmailSuppression.add("Dora@Example.com ", reason)
    response, page = invite(client_for(alice), table(alice), "dora@example.com")
    assert "That address has asked Geartable not to send it invitations." in page
    assert not Invitation.objects.exists()


def test_the_invitation_email_lets_its_address_decline_every_future_one(
    alice, bob, django_capture_on_commit_callbacks
):
    game = table(alice)
    with django_capture_on_commit_callbacks(execute=True):
        services.invite(alice, game.pk, "dora@example.com")
    invitation = Invitation.objects.get()
    decline = reverse("decline_invitation", args=[invitation.token])
    assert f"http://testserver{decline}" in mail.outbox[0].body
    visitor = Client(enforce_csrf_checks=False)
    page = visitor.get(decline)  # a mail scanner following the link changes nothing
    assert page.status_code == 200 and "Never invite this address again" in text(page)
    assert not EmailSuppression.objects.exists()
    assert visitor.post(decline).status_code == 200
    assert EmailSuppression.covers("dora@example.com")
    with pytest.raises(services.Forbidden):
        services.invite(bob, table(bob).pk, "dora@example.com")


def test_declining_needs_an_email_invitation(alice, bob):
    services.invite(alice, table(alice).pk, "bob")
    token = Invitation.objects.get().token
    assert Client().post(reverse("decline_invitation", args=[token])).status_code == 404
    assert not EmailSuppression.objects.exists()


def test_open_tables_are_capped_per_player(alice, bob, settings):
    settings.GEARTABLE_OPEN_TABLES_PER_USER = 2
    first, _second = table(alice, seats=2), table(alice, seats=2)
    client = client_for(alice)
    form = {
        "kind": "geared",
        "seat_count": 2,
        "target": 300,
        "turn_seconds": 0,
        "bots": 0,
        "bot_kind": "greedy",
    }
    response = client.post(reverse("create_game"), form)
    assert response.status_code == 400
    assert "You already have 2 tables waiting for players" in text(response)
    assert Game.objects.filter(creator=alice).count() == 2
    services.join_game(bob, first.pk, token=first.join_token)
    services.start_game(alice, first.pk)  # a started game no longer counts
    assert client.post(reverse("create_game"), form).status_code == 302
    assert Game.objects.filter(creator=alice, status=Status.OPEN).count() == 2


def test_the_limits_have_sensible_defaults():
    from django.conf import settings

    assert settings.GEARTABLE_EMAIL_INVITATIONS_PER_DAY == 10
    assert settings.GEARTABLE_OPEN_TABLES_PER_USER == 10
