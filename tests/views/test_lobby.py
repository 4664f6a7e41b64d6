"""The lobby and the table before the start: create, join, leave, start, invite."""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import EmailSuppression, User
from games.actions import tables
from games.models import Game, Invitation, Kind, Seat, Status
from tests.support.games import client_for
from tests.support.pages import text

pytestmark = pytest.mark.django_db

GOOD = {
    "kind": "geared",
    "seat_count": 3,
    "target": 300,
    "turn_seconds": 0,
    "bots": 0,
    "bot_kind": "greedy",
}


def open_game(creator, *, seats=3, public=False) -> Game:
    return tables.create_game(
        creator, tables.NewGame(kind=Kind.GEARED, seat_count=seats, public=public)
    )


def flash(client, url) -> str:
    return text(client.get(url))


# --- create ----------------------------------------------------------------------------------


def test_it_creates_a_game_and_seats_the_creator(alice_client, alice):
    response = alice_client.post(reverse("create_game"), {**GOOD, "bots": 1, "public": "on"})
    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == game.get_absolute_url()
    assert (game.kind, game.seat_count, game.public, game.status) == ("geared", 3, True, "open")
    assert game.options == {"target": 300}
    assert [(s.user_id, s.bot) for s in game.seats.order_by("pk")] == [
        (alice.pk, ""),
        (None, "greedy"),
    ]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"seat_count": 9}, "Select a valid choice"),
        ({"seat_count": 7}, "Geared: Build Your Bike is for 2 to 6 players."),
        ({"advanced": "on"}, "Only Out of Gears has an advanced mode."),
        ({"robots": ["3"]}, "Robots are for Out of Gears; Geared has none."),
        (
            {"kind": "outofgears", "advanced": "on", "seat_count": 5},
            "Out of Gears in advanced mode is for 2 to 4 players.",
        ),
        ({"bots": 3}, "Leave at least one seat for a person: yours."),
        ({"bots": 5}, "Leave at least one seat for a person: yours."),
        ({"target": 301}, "Select a valid choice"),
        ({"kind": "chess"}, "Select a valid choice"),
    ],
)
def test_it_refuses_bad_values_with_form_errors_and_creates_nothing(alice_client, change, message):
    response = alice_client.post(reverse("create_game"), {**GOOD, **change})
    assert response.status_code == 400
    assert message in text(response)
    assert 'class="errorlist' in text(response)
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("kind", "seats", "extra", "options"),
    [
        ("outofgears", 8, {}, {"advanced": False}),
        ("outofgears", 4, {"advanced": "on"}, {"advanced": True}),
        ("geared", 6, {"target": 500}, {"target": 500}),
    ],
)
def test_each_kind_takes_its_own_settings_and_its_own_players(
    alice_client, kind, seats, extra, options
):
    """What the page sends once its script has hidden (and disabled) the other kind's settings:
    no target for Out of Gears, no advanced mode or robots for Geared."""
    data = {k: v for k, v in GOOD.items() if k != "target"}
    response = alice_client.post(
        reverse("create_game"), {**data, "kind": kind, "seat_count": seats, **extra}
    )
    assert response.status_code == 302, text(response)
    game = Game.objects.get()
    assert (game.kind, game.seat_count, game.options) == (kind, seats, options)


def test_the_lobby_tells_its_script_each_kinds_number_of_players(alice_client):
    page = text(alice_client.get(reverse("lobby")))
    assert 'data-ranges="{&quot;geared&quot;: [2, 6], &quot;outofgears&quot;: [2, 8], ' in page
    assert '<fieldset class="subform" data-kind="geared">' in page
    assert '<fieldset class="subform" data-kind="outofgears">' in page


def test_a_visitor_cannot_create_a_game(client):
    response = client.post(reverse("create_game"), GOOD)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))
    assert not Game.objects.exists()


# --- join ------------------------------------------------------------------------------------


def test_it_joins_a_public_game_from_the_lobby(alice, bob):
    game = open_game(alice, public=True)
    private = open_game(alice)
    client = client_for(bob)
    lobby = text(client.get(reverse("lobby")))
    assert game.get_absolute_url() in lobby
    assert private.get_absolute_url() not in lobby
    response = client.post(reverse("game_join", args=[game.pk]))
    assert response.status_code == 302
    assert response["Location"] == game.get_absolute_url()
    assert game.seats.filter(user=bob).exists()
    assert "Leave the game" in flash(client, game.get_absolute_url())


def test_a_private_game_needs_its_token_to_join(alice, bob):
    game = open_game(alice)
    client = client_for(bob)
    assert client.post(reverse("game_join", args=[game.pk])).status_code == 404
    response = client.post(reverse("game_join", args=[game.pk]), {"token": "not-the-token"})
    assert response.status_code == 404
    assert not game.seats.filter(user=bob).exists()

    response = client.post(reverse("game_join", args=[game.pk]), {"token": game.join_token})
    assert response.status_code == 302
    assert game.seats.filter(user=bob).exists()
    assert client.get(response["Location"]).status_code == 200


def test_joining_twice_takes_one_seat(alice, bob):
    game = open_game(alice, public=True)
    client = client_for(bob)
    client.post(reverse("game_join", args=[game.pk]))
    client.post(reverse("game_join", args=[game.pk]))
    assert game.seats.filter(user=bob).count() == 1


@pytest.mark.parametrize("public", [True, False])
def test_joining_a_full_game_says_it_is_full(alice, bob, carol, public):
    game = open_game(alice, seats=2, public=public)
    tables.join_game(bob, game.pk, token=game.join_token)
    client = client_for(carol)
    response = client.post(
        reverse("game_join", args=[game.pk]), {"token": "" if public else game.join_token}
    )
    assert response.status_code == 302
    assert not game.seats.filter(user=carol).exists()
    page = client.get(response["Location"])
    assert page.status_code == 200
    assert "This game is full." in text(page)


def test_joining_a_started_game_says_it_has_started(alice, bob, carol):
    game = open_game(alice, seats=2, public=True)
    tables.join_game(bob, game.pk)
    tables.start_game(alice, game.pk)
    client = client_for(carol)
    response = client.post(reverse("game_join", args=[game.pk]))
    assert response.status_code == 302
    assert "This game has already started." in flash(client, response["Location"])
    assert not game.seats.filter(user=carol).exists()


# --- leave -----------------------------------------------------------------------------------


def test_a_player_leaves_before_the_start(alice, bob):
    game = open_game(alice, public=True)
    tables.join_game(bob, game.pk)
    client = client_for(bob)
    response = client.post(reverse("game_leave", args=[game.pk]))
    assert response.status_code == 302
    assert response["Location"] == reverse("my_games")
    assert "You left the game." in flash(client, response["Location"])
    assert not game.seats.filter(user=bob).exists()
    game.refresh_from_db()
    assert game.status == Status.OPEN


def test_the_creator_leaving_aborts_the_game(alice, bob):
    game = open_game(alice, public=True)
    tables.join_game(bob, game.pk)
    response = client_for(alice).post(reverse("game_leave", args=[game.pk]))
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Status.ABORTED
    assert game.finished is not None
    assert game.get_absolute_url() not in text(client_for(bob).get(reverse("lobby")))
    response = client_for(bob).post(reverse("game_join", args=[game.pk]))
    assert game.status == Status.ABORTED


def test_nobody_leaves_a_started_game_by_the_leave_button(alice, bob):
    game = open_game(alice, seats=2, public=True)
    tables.join_game(bob, game.pk)
    tables.start_game(alice, game.pk)
    client = client_for(bob)
    response = client.post(reverse("game_leave", args=[game.pk]))
    assert response.status_code == 302
    assert "The game has started: resign instead." in flash(client, response["Location"])
    assert game.seats.filter(user=bob).exists()


# --- start -----------------------------------------------------------------------------------


def test_only_the_creator_starts_the_game(alice, bob):
    game = open_game(alice, seats=2, public=True)
    tables.join_game(bob, game.pk)
    client = client_for(bob)
    response = client.post(reverse("game_start", args=[game.pk]))
    assert response.status_code == 302
    assert "Only the player who created the game can start it." in flash(
        client, response["Location"]
    )
    game.refresh_from_db()
    assert game.status == Status.OPEN
    assert game.state is None


def test_a_game_starts_only_when_every_seat_is_filled(alice, bob):
    game = open_game(alice, seats=3, public=True)
    tables.join_game(bob, game.pk)
    client = client_for(alice)
    response = client.post(reverse("game_start", args=[game.pk]))
    assert response.status_code == 302
    assert "Wait until all 3 seats are filled." in flash(client, response["Location"])
    game.refresh_from_db()
    assert game.status == Status.OPEN


def test_starting_seats_everyone_in_order_and_one_seat_must_act(alice, bob, carol):
    game = open_game(alice, seats=3)
    for user in (bob, carol):
        tables.join_game(user, game.pk, token=game.join_token)
    response = client_for(alice).post(reverse("game_start", args=[game.pk]))
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Status.ACTIVE
    assert game.seed is not None and game.started is not None
    seats = list(game.seats.all())
    assert sorted(s.position for s in seats) == [1, 2, 3]
    assert [s.seat_id for s in seats if s.to_act] == [game.state["seats"][game.state["turn"]]]
    assert game.state["names"] == {s.seat_id: s.name for s in seats}


# --- invite ----------------------------------------------------------------------------------


def test_invite_by_username_records_it_and_lets_the_invitee_join(alice, bob):
    game = open_game(alice)
    client = client_for(alice)
    response = client.post(reverse("game_invite", args=[game.pk]), {"who": " Bob "})
    assert response.status_code == 302
    assert "Invitation sent to Bob." in flash(client, response["Location"])
    invitation = Invitation.objects.get()
    assert (invitation.game, invitation.inviter, invitation.user) == (game, alice, bob)

    # The invitation lets bob see the private table and join it; it is then accepted.
    bob_client = client_for(bob)
    assert "Alice invites you" in text(bob_client.get(reverse("my_games")))
    assert bob_client.get(game.get_absolute_url()).status_code == 200
    bob_client.post(reverse("game_join", args=[game.pk]))
    assert game.seats.filter(user=bob).exists()
    invitation.refresh_from_db()
    assert invitation.accepted is not None


def test_an_invitation_by_username_emails_the_games_link(
    alice, bob, django_capture_on_commit_callbacks
):
    game = open_game(alice)
    with django_capture_on_commit_callbacks(execute=True):
        client_for(alice).post(reverse("game_invite", args=[game.pk]), {"who": "bob"})
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["bob@example.com"]
    assert "Alice" in message.subject + message.body
    assert f"http://testserver{game.get_absolute_url()}" in message.body
    assert Invitation.objects.get().sent is not None


def test_an_invitation_by_email_sends_the_invitation_link(
    alice, django_capture_on_commit_callbacks
):
    game = open_game(alice)
    with django_capture_on_commit_callbacks(execute=True):
        client_for(alice).post(reverse("game_invite", args=[game.pk]), {"who": "dora@example.com"})
    invitation = Invitation.objects.get()
    assert mail.outbox[0].to == ["dora@example.com"]
    path = reverse("accept_invitation", args=[invitation.token])
    assert f"http://testserver{path}" in mail.outbox[0].body


def test_invite_by_email_signs_up_a_newcomer_and_seats_them(alice, settings):
    settings.ACCOUNT_EMAIL_VERIFICATION = "none"
    game = open_game(alice)
    client_for(alice).post(reverse("game_invite", args=[game.pk]), {"who": "dora@example.com"})
    invitation = Invitation.objects.get()
    assert (invitation.user, invitation.email) == (None, "dora@example.com")
    path = reverse("accept_invitation", args=[invitation.token])  # the e-mail's link

    visitor = Client()
    response = visitor.get(path)
    assert response.status_code == 302
    signup = f"{reverse('account_signup')}?next={path}"
    assert response["Location"] == signup
    assert visitor.get(signup).status_code == 200
    response = visitor.post(
        reverse("account_signup"),
        {
            "username": "dora",
            "email": "dora@example.com",
            "password1": "a-long-and-unusual-passphrase",
            "password2": "a-long-and-unusual-passphrase",
            "next": path,
        },
    )
    assert response.status_code == 302
    assert response["Location"] == path
    page = visitor.get(response["Location"])  # back at the link: the table and a Join button
    assert page.status_code == 200 and "Join this game" in text(page)
    dora = User.objects.get(username="dora")
    assert not Seat.objects.filter(game=game, user=dora).exists()
    response = visitor.post(path)
    assert response.status_code == 302
    assert response["Location"] == game.get_absolute_url()
    assert Seat.objects.filter(game=game, user=dora).exists()
    invitation.refresh_from_db()
    assert invitation.user == dora and invitation.accepted is not None
    assert visitor.get(game.get_absolute_url()).status_code == 200


def test_following_an_invitation_link_only_shows_the_table_and_a_join_button(alice, bob):
    # Issue 22, point 4: the link of an e-mail invitation, followed by a logged-in player (from
    # the e-mail, or planted on any other site), used to seat them at once on a plain GET.
    game = open_game(alice)
    tables.invite(alice, game.pk, "someone@example.com")
    invitation = Invitation.objects.get()
    path = reverse("accept_invitation", args=[invitation.token])
    bob_client = Client(enforce_csrf_checks=True)
    bob_client.force_login(bob)
    page = bob_client.get(path)
    assert page.status_code == 200
    assert "Alice</a> invites you</strong> to this table" in text(page)  # her name, linked
    assert f'<form method="post" action="{path}"' in text(page)
    assert "csrfmiddlewaretoken" in text(page)
    assert not game.seats.filter(user=bob).exists()
    invitation.refresh_from_db()
    assert invitation.user is None and invitation.accepted is None, "nothing changed"

    assert bob_client.post(path).status_code == 403, "a POST from another site has no token"
    assert not game.seats.filter(user=bob).exists()

    csrf = bob_client.cookies["csrftoken"].value
    response = bob_client.post(path, {"csrfmiddlewaretoken": csrf})
    assert response.status_code == 302 and response["Location"] == game.get_absolute_url()
    assert game.seats.filter(user=bob).exists()
    invitation.refresh_from_db()
    assert invitation.user == bob and invitation.accepted is not None


def test_joining_by_an_invitation_link_that_is_refused_changes_nothing(alice, bob, carol):
    game = open_game(alice, seats=2)
    tables.invite(alice, game.pk, "someone@example.com")
    invitation = Invitation.objects.get()
    tables.join_game(carol, game.pk, token=game.join_token)  # the last seat is taken
    path = reverse("accept_invitation", args=[invitation.token])
    client = client_for(bob)
    response = client.post(path)
    assert response.status_code == 302 and response["Location"] == path
    assert "This game is full." in flash(client, path)
    invitation.refresh_from_db()
    assert invitation.user is None, "the invitation is still anyone's who has the link"


def test_an_invitation_link_for_a_started_game_says_so(alice, bob, carol):
    game = open_game(alice, seats=2)
    tables.invite(alice, game.pk, "someone@example.com")
    invitation = Invitation.objects.get()
    tables.join_game(carol, game.pk, token=game.join_token)
    tables.start_game(alice, game.pk)
    client = client_for(bob)
    response = client.get(reverse("accept_invitation", args=[invitation.token]))
    assert response.status_code == 302
    assert "This game has already started." in flash(client, response["Location"])


@pytest.mark.parametrize(
    "name",
    [
        "accept_invitation",
        "decline_invitation",
        "game_decline",
        "game_join",
        "game_rematch",
        "game_start",
    ],
)
def test_no_link_that_joins_accepts_or_declines_acts_on_a_get(alice, bob, name):
    # Every join, accept, decline and rematch link: a GET (a link, a mail scanner) asks or
    # shows, never acts. Invitations, seats, suppressions and games stay as they were.
    game = open_game(alice)
    tables.invite(alice, game.pk, "someone@example.com")
    invitation = Invitation.objects.get()
    arg = invitation.token if "invitation" in name else game.pk
    before = (Seat.objects.count(), Game.objects.count(), list(Invitation.objects.values()))
    response = client_for(bob).get(reverse(name, args=[arg]))
    assert response.status_code in (200, 405)
    assert not EmailSuppression.objects.exists()
    assert (Seat.objects.count(), Game.objects.count(), list(Invitation.objects.values())) == before


def test_invite_an_unknown_username_says_so_and_creates_nothing(alice):
    game = open_game(alice)
    client = client_for(alice)
    response = client.post(reverse("game_invite", args=[game.pk]), {"who": "nobody"})
    assert response.status_code == 302
    assert "There is no player called “nobody”." in flash(client, response["Location"])
    assert not Invitation.objects.exists()
    assert not mail.outbox


def test_an_unknown_invitation_link_is_not_found(client):
    assert client.get(reverse("accept_invitation", args=["nope"])).status_code == 404


def test_a_non_player_cannot_invite(alice, carol):
    game = open_game(alice)
    response = client_for(carol).post(reverse("game_invite", args=[game.pk]), {"who": "bob"})
    assert response.status_code == 404
    assert not Invitation.objects.exists()
