"""Issue 13, point 1: the site is no spam relay. E-mail invitations are limited per player and
day and to one waiting per address, never sent to an address that declined or bounced; open
tables are capped per player; friends invited by username are not counted against that cap.

Issue 22, points 5 and 6: an address typed in is an e-mail invitation whoever owns it (every
e-mail rule applies); the suppression list holds for every invitation e-mail, when it is
written and when it is sent; the inviter's display name is never a link in an e-mail;
invitations by username have a daily limit of their own; a player may refuse invitations from
people they have not played with, and turn invitation e-mails off; one inviter sends one
invitee at most one invitation e-mail a day, however often it is repeated."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import EmailSuppression
from games import errors
from games.actions import tables
from games.models import Game, Invitation, Kind, Status
from games.reads import invitations
from tests.support.games import client_for, start_geared
from tests.support.pages import text
from tests.support.users import make_user

pytestmark = pytest.mark.django_db


def table(user, seats: int = 6) -> Game:
    return tables.create_game(user, tables.NewGame(kind=Kind.GEARED, seat_count=seats))


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
    tables.invite(alice, game.pk, "old@example.com")
    Invitation.objects.update(created=Invitation.objects.get().created.replace(year=2000))
    tables.invite(alice, game.pk, "new@example.com")
    assert Invitation.objects.count() == 2


def test_friends_invited_by_username_are_not_counted(alice, settings, django_user_model):
    settings.GEARTABLE_EMAIL_INVITATIONS_PER_DAY = 1
    game = table(alice)
    tables.invite(alice, game.pk, "stranger@example.com")
    for name in ("bob", "carol", "dora"):
        make_user(django_user_model, name)
        tables.invite(alice, game.pk, name)
    assert Invitation.objects.filter(user__isnull=False).count() == 3


def test_an_address_gets_one_waiting_invitation_at_a_time(alice, bob):
    client = client_for(alice)
    first, second = table(alice), table(alice)
    tables.invite(alice, first.pk, "dora@example.com")
    response, page = invite(client, second, "DORA@example.com")
    assert "That address already has an invitation waiting" in page
    with pytest.raises(errors.Conflict):
        tables.invite(bob, table(bob).pk, "dora@example.com")  # from anyone
    assert Invitation.objects.count() == 1
    tables.leave_game(alice, first.pk)  # the first table closes: its invitation lapses
    tables.invite(alice, second.pk, "dora@example.com")
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
        tables.invite(alice, game.pk, "dora@example.com")
    invitation = Invitation.objects.get()
    decline = reverse("decline_invitation", args=[invitation.token])
    assert f"http://testserver{decline}" in mail.outbox[0].body
    visitor = Client(enforce_csrf_checks=False)
    page = visitor.get(decline)  # a mail scanner following the link changes nothing
    assert page.status_code == 200 and "Never invite this address again" in text(page)
    assert not EmailSuppression.objects.exists()
    assert visitor.post(decline).status_code == 200
    assert EmailSuppression.covers("dora@example.com")
    with pytest.raises(errors.Forbidden):
        tables.invite(bob, table(bob).pk, "dora@example.com")


def test_an_email_invitation_taken_by_a_player_can_still_be_declined_for_its_address(alice, bob):
    tables.invite(alice, table(alice).pk, "dora@example.com")
    invitation = Invitation.objects.get()
    tables.accept_email_invitation(bob, invitation.token)
    assert Client().post(reverse("decline_invitation", args=[invitation.token])).status_code == 200
    assert EmailSuppression.covers("dora@example.com")


def test_declining_needs_an_email_invitation(alice, bob):
    tables.invite(alice, table(alice).pk, "bob")
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
    tables.join_game(bob, first.pk, token=first.join_token)
    tables.start_game(alice, first.pk)  # a started game no longer counts
    assert client.post(reverse("create_game"), form).status_code == 302
    assert Game.objects.filter(creator=alice, status=Status.OPEN).count() == 2


def test_the_limits_have_sensible_defaults():
    from django.conf import settings

    assert settings.GEARTABLE_EMAIL_INVITATIONS_PER_DAY == 10
    assert settings.GEARTABLE_OPEN_TABLES_PER_USER == 10
    assert settings.GEARTABLE_PLAYER_INVITATIONS_PER_DAY == 30
    assert settings.GEARTABLE_REMATCHES_PER_DAY == 20


# --- issue 22, point 5: an address typed in is an e-mail invitation, whoever owns it ----------


def sending(callbacks):
    """Run what the requests queued after commit (the e-mails' tasks, eager here)."""
    for callback in callbacks:
        callback()


def test_a_players_address_typed_in_counts_against_the_daily_email_cap(alice, bob, settings):
    settings.GEARTABLE_EMAIL_INVITATIONS_PER_DAY = 1
    game = table(alice)
    tables.invite(alice, game.pk, "stranger@example.com")
    response, page = invite(client_for(alice), game, "Bob@Example.com")  # bob's address
    assert "You have sent 1 e-mail invitation in the last 24 hours" in page
    assert not Invitation.objects.filter(user=bob).exists()
    assert Invitation.objects.count() == 1


def test_a_players_address_gets_one_waiting_invitation_at_a_time(alice, bob, carol):
    tables.invite(carol, table(carol).pk, "bob@example.com")
    response, page = invite(client_for(alice), table(alice), "bob@example.com")
    assert "That address already has an invitation waiting; one at a time." in page
    assert Invitation.objects.count() == 1


def test_no_invitation_to_a_players_address_that_bounced(alice, bob):
    EmailSuppression.add("bob@example.com", EmailSuppression.Reason.BOUNCED)
    response, page = invite(client_for(alice), table(alice), "bob@example.com")
    assert "That address has asked Geartable not to send it invitations." in page
    assert not Invitation.objects.exists()
    assert not mail.outbox


def test_a_players_address_gets_the_email_invitation_and_the_answer_does_not_say_whose(
    alice, bob, django_capture_on_commit_callbacks
):
    game = table(alice)
    client = client_for(alice)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("game_invite", args=[game.pk]), {"who": "bob@example.com"})
    assert "Invitation sent to bob@example.com." in text(client.get(response["Location"]))
    invitation = Invitation.objects.get()
    assert (invitation.via, invitation.user, invitation.email) == ("email", None, "bob@example.com")
    (message,) = mail.outbox
    assert reverse("decline_invitation", args=[invitation.token]) in message.body
    assert reverse("accept_invitation", args=[invitation.token]) in message.body


def test_suppression_holds_for_an_invitation_by_username_when_written(
    alice, bob, django_capture_on_commit_callbacks
):
    EmailSuppression.add("bob@example.com", EmailSuppression.Reason.BOUNCED)
    game = table(alice)
    with django_capture_on_commit_callbacks(execute=True):
        tables.invite(alice, game.pk, "bob")
    invitation = Invitation.objects.get()
    assert invitation.user == bob, "the invitation stands in the site"
    assert invitation.state == "skipped" and "no more invitations" in invitation.error
    assert not mail.outbox
    assert client_for(bob).get(game.get_absolute_url()).status_code == 200


@pytest.mark.parametrize("who", ["bob", "dora@example.com"])
def test_suppression_holds_for_every_invitation_email_when_sent(
    alice, bob, who, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks() as queued:
        tables.invite(alice, table(alice).pk, who)
    address = "bob@example.com" if who == "bob" else who
    EmailSuppression.add(address, EmailSuppression.Reason.BOUNCED)  # bounced meanwhile
    sending(queued)
    assert not mail.outbox
    assert Invitation.objects.get().state == "skipped"


@pytest.mark.parametrize(
    ("display", "username", "to_player", "named"),
    [
        ("Alice", "alice", True, "“Alice” (alice)"),
        ("Alice", "alice", False, "alice"),
        ("Win $500: evil.example/x", "mallory", True, "mallory"),
        ("www.cheap-pills", "mallory", True, "mallory"),
        ("J. R. Smith", "jr", True, "“J. R. Smith” (jr)"),
        ("Free money", "free.money", True, "“Free money”"),
        ("Free money", "free.money", False, "A player on Geartable"),
        ("", "bob", True, "bob"),
    ],
)
def test_how_an_invitation_email_names_its_sender(display, username, to_player, named):
    inviter = Invitation.inviter.field.related_model(username=username, display_name=display)
    assert invitations.inviter_name(inviter, to_player=to_player) == named


def test_a_spammers_display_name_never_reaches_an_invitation_email(
    alice, bob, django_capture_on_commit_callbacks
):
    alice.display_name = "Win $500: evil.example/x"  # as it was before the name rules
    alice.save(update_fields=["display_name"])
    with django_capture_on_commit_callbacks(execute=True):
        tables.invite(alice, table(alice).pk, "bob")
        tables.invite(alice, table(alice).pk, "dora@example.com")
    assert len(mail.outbox) == 2
    for message in mail.outbox:
        html = message.alternatives[0][0]
        assert "evil.example" not in message.subject + message.body + html
        assert "alice invites you" in message.body


# --- issue 22, point 6: limits and a say for the invited ------------------------------------


def test_invitations_by_username_are_limited_per_player_and_day(alice, settings, django_user_model):
    settings.GEARTABLE_PLAYER_INVITATIONS_PER_DAY = 3
    games = [table(alice) for _ in range(2)]
    names = ["bob", "carol", "dora", "erin"]
    for name in names:
        make_user(django_user_model, name)
    client = client_for(alice)
    for n, name in enumerate(names[:3]):
        invite(client, games[n % 2], name)
    response, page = invite(client, games[1], "erin")
    assert "You have invited 3 players by username in the last 24 hours" in page
    assert Invitation.objects.count() == 3
    with pytest.raises(errors.GameError) as refused:
        tables.invite(alice, games[0].pk, "erin")
    assert refused.value.status == 429
    Invitation.objects.update(created=Invitation.objects.first().created.replace(year=2000))
    tables.invite(alice, games[0].pk, "erin")  # a day later


def test_a_player_may_take_invitations_only_from_players_they_have_played_with(
    alice, bob, carol, django_capture_on_commit_callbacks
):
    start_geared([alice, bob])  # alice and bob have played together; carol never has
    profile = client_for(bob).post(
        reverse("profile"),
        {"time_zone": "UTC", "notify_turn": "on", "notify_invitation": "on"}
        | {"only_known_inviters": "on"},
    )
    assert profile.status_code == 302
    bob.refresh_from_db()
    assert bob.only_known_inviters

    response, page = invite(client_for(carol), table(carol), "bob")
    assert response.status_code == 302
    assert "bob takes invitations only from players they have played with." in page
    assert "bob@example.com" not in page
    assert not Invitation.objects.exists()
    with pytest.raises(errors.Forbidden):
        tables.invite(carol, table(carol).pk, "bob")

    with django_capture_on_commit_callbacks(execute=True):
        tables.invite(alice, table(alice).pk, "bob")  # a player bob knows
        # carol types bob's address: told it is sent, as for any address; no e-mail goes.
        tables.invite(carol, table(carol).pk, "bob@example.com")
    assert [m.to for m in mail.outbox] == [["bob@example.com"]]
    assert "alice" in mail.outbox[0].body
    skipped = Invitation.objects.get(inviter=carol)
    assert skipped.state == "skipped"


def test_a_player_with_invitation_emails_off_is_invited_without_an_email(
    alice, bob, django_capture_on_commit_callbacks
):
    bob.notify_invitation = False
    bob.save(update_fields=["notify_invitation"])
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(3):  # open, invite, cancel, again
            game = table(alice)
            tables.invite(alice, game.pk, "bob")
            tables.leave_game(alice, game.pk)
        game = table(alice)
        tables.invite(alice, game.pk, "bob")
    assert not mail.outbox
    assert Invitation.objects.filter(user=bob).count() == 4
    assert "Alice invites you" in text(client_for(bob).get(reverse("my_games")))


def test_an_invitation_email_to_a_player_turns_invitation_emails_off_in_one_click(
    alice, bob, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        tables.invite(alice, table(alice).pk, "bob")
    (message,) = mail.outbox
    link = message.extra_headers["List-Unsubscribe"].strip("<>")
    assert link in message.body
    assert Client().post(link.removeprefix("http://testserver")).status_code == 200
    bob.refresh_from_db()
    assert not bob.notify_invitation and bob.notify_turn, "that switch only"


@pytest.mark.parametrize("who", ["bob", "dora@example.com"])
def test_one_invitation_email_a_day_from_one_inviter_however_often_repeated(
    alice, bob, carol, who, django_capture_on_commit_callbacks
):
    for inviter in (alice,) * 5 + (carol,):  # open a table, invite, cancel it, again
        game = table(inviter)
        with django_capture_on_commit_callbacks(execute=True):  # its e-mail goes now
            tables.invite(inviter, game.pk, who)
        tables.leave_game(inviter, game.pk)  # carol: another inviter, their own e-mail
    address = "bob@example.com" if who == "bob" else who
    assert len(mail.outbox) == 2 and all(m.to == [address] for m in mail.outbox)
    assert Invitation.objects.filter(inviter=alice).count() == 5, "each invitation stands"
    assert Invitation.objects.filter(inviter=alice, state="sent").count() == 1
    Invitation.objects.update(created=Invitation.objects.first().created.replace(year=2000))
    with django_capture_on_commit_callbacks(execute=True):
        tables.invite(alice, table(alice).pk, who)  # a day later
    assert len(mail.outbox) == 3
