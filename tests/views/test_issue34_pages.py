"""Issue 34.10's page items, over HTTP: the host's table lists who is invited and their state
(to the table's players only), an invitee is told who invites them and may decline, a replay
never says "Your turn", the notes box's hint belongs to the game it is on."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from accounts.models import EmailSuppression
from games.actions import tables
from games.models import Game, Invitation, Kind, Move, Seat
from tests.support.games import client_for, finished_geared, start_geared, start_oog
from tests.support.pages import text
from tests.support.users import make_user

pytestmark = pytest.mark.django_db


# --- (k) the notes box's hint is the game's own -------------------------------------------------


def notes_hint(page: str) -> str:
    box = re.search(r'<textarea id="notes-text"[^>]*\bplaceholder="([^"]*)"', page)
    assert box, "no notes box"
    return box.group(1)


def test_issue_34_10_the_notes_hint_is_each_games_own(alice, bob):
    client = client_for(alice)
    geared = start_geared([alice, bob], target=2000).get_absolute_url()
    oog = start_oog([alice, bob]).get_absolute_url()
    geared, oog = (notes_hint(text(client.get(url))) for url in (geared, oog))
    assert "Steal" in geared  # Geared's own cards
    # Out of Gears has no Steal (a Geared card): its hint speaks of its robots and junkyards.
    assert "Steal" not in oog and "junkyard" in oog


# --- (e) a replay is not live ------------------------------------------------------------------


def test_issue_34_10_a_replay_never_says_your_turn_nor_offers_a_move(alice, bob):
    game = finished_geared(alice, bob)
    steps = Move.objects.filter(game=game).count()
    url = reverse("game_replay", args=[game.pk])
    move = reverse("game_move", args=[game.pk])
    clients = (client_for(alice), client_for(bob))
    # Each player is the one to play at one of the first steps (step 0: the first seat's turn).
    for step in range(min(steps, 4)):
        for client in clients:
            page = text(client.get(url, {"step": step}))
            assert f"Step {step} of {steps}" in page
            assert "Your turn" not in page, step
            assert 'class="your-turn"' not in page and "my-turn" not in page
            assert move not in page  # no move form, no tappable card (it would lead to one)
            assert "Next to play" in page  # who played next, as everyone saw it


# --- (c), (d) who is invited; an invitee's Decline ---------------------------------------------


def words(page: str) -> str:
    """The page's text as a reader sees it: tags gone, spaces squeezed."""
    page = re.sub(r"</?a\b[^>]*>", "", page)  # a link is part of its sentence
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


@pytest.fixture
def dave(db, django_user_model):
    return make_user(django_user_model, "dave", display_name="Dave")


def table_with_invitations(alice, bob, dave, *, public: bool = False) -> Game:
    """Alice's open table (3 seats): Bob seated, Dave invited by username, an address by e-mail."""
    game = tables.create_game(alice, tables.NewGame(kind=Kind.GEARED, seat_count=3, public=public))
    tables.join_game(bob, game.pk, token=game.join_token)
    tables.invite(alice, game.pk, "dave")
    tables.invite(alice, game.pk, "zed.friend@example.com")
    return Game.objects.get(pk=game.pk)


def test_issue_34_10_the_tables_players_see_who_is_invited_and_whether_they_declined(
    alice, bob, dave
):
    game = table_with_invitations(alice, bob, dave)
    host = words(text(client_for(alice).get(game.get_absolute_url())))
    assert "Dave pending" in host
    assert "zed.friend@example.com pending" in host  # the address as the host typed it
    # Another player of the table sees who is invited; an address they did not type, masked.
    other = words(text(client_for(bob).get(game.get_absolute_url())))
    assert "Dave pending" in other
    assert "z…@example.com pending" in other and "zed.friend" not in other

    version = Game.objects.get(pk=game.pk).version
    invitee = client_for(dave)
    answer = invitee.post(reverse("game_decline", args=[game.pk]))
    assert answer.status_code == 302 and answer["Location"] == reverse("my_games")
    assert "You declined Alice’s invitation." in words(text(invitee.get(answer["Location"])))
    assert Invitation.objects.get(user=dave).declined is not None
    # The version moved: the host's open page redraws (its live check compares versions).
    assert Game.objects.get(pk=game.pk).version > version
    assert "Dave declined" in words(text(client_for(alice).get(game.get_absolute_url())))
    # Asked again, the host hears why not.
    host = client_for(alice)
    answer = host.post(reverse("game_invite", args=[game.pk]), {"who": "dave"})
    assert "Dave has declined this table’s invitation." in words(text(host.get(answer["Location"])))
    assert Invitation.objects.filter(user=dave).count() == 1


def test_issue_34_10_who_is_invited_is_the_tables_players_business_only(
    alice, bob, carol, dave, client
):
    game = table_with_invitations(alice, bob, dave, public=True)
    by_link = f"{game.get_absolute_url()}?token={game.join_token}"
    pages = {
        "stranger": text(client_for(carol).get(game.get_absolute_url())),
        "visitor": text(client.get(by_link)),
        "invitee": text(client_for(dave).get(game.get_absolute_url())),
    }
    for who, page in pages.items():
        assert "invited-list" not in page, who
        assert "example.com" not in page and "zed" not in page, who
        assert "pending" not in page, who
    assert "Dave" not in pages["stranger"] and "Dave" not in pages["visitor"]


def test_issue_34_10_an_invitee_is_told_who_invites_them_and_may_decline(alice, bob, dave):
    game = table_with_invitations(alice, bob, dave)
    invitee = client_for(dave)
    page = text(invitee.get(game.get_absolute_url()))
    assert "Alice invites you" in words(page)
    decline = reverse("game_decline", args=[game.pk])
    assert f'formaction="{decline}"' in page and ">Decline</button>" in page
    assert "Join this game" in page
    invitee.post(decline)
    # Declined: My games lists it no more; the table says so, and Join still stands.
    assert "Alice invites you" not in words(text(invitee.get(reverse("my_games"))))
    page = text(invitee.get(game.get_absolute_url()))
    assert "You declined Alice’s invitation." in words(page) and ">Decline</button>" not in page
    tables.join_game(dave, game.pk)
    assert Seat.objects.filter(game=game, user=dave).exists()


def test_issue_34_10_declining_without_an_invitation_is_a_missing_games_answer(
    alice, bob, carol, dave
):
    game = table_with_invitations(alice, bob, dave)
    before = list(Invitation.objects.values_list("pk", "declined"))
    version = Game.objects.get(pk=game.pk).version
    stranger = client_for(carol)
    for game_id in (game.pk, 999999):
        answer = stranger.post(reverse("game_decline", args=[game_id]))
        assert answer.status_code == 404 and "There is no such game." in text(answer)
    # A seated player has no invitation to decline; nothing changed for anyone.
    answer = client_for(bob).post(reverse("game_decline", args=[game.pk]))
    assert answer.status_code == 302
    assert list(Invitation.objects.values_list("pk", "declined")) == before
    assert Game.objects.get(pk=game.pk).version == version


def test_issue_34_10_the_emails_decline_link_declines_the_table_through_the_same_function(
    alice, bob, dave, client
):
    game = table_with_invitations(alice, bob, dave)
    invitation = Invitation.objects.get(email="zed.friend@example.com")
    assert client.post(reverse("decline_invitation", args=[invitation.token])).status_code == 200
    assert EmailSuppression.covers("zed.friend@example.com")
    assert "zed.friend@example.com declined" in words(
        text(client_for(alice).get(game.get_absolute_url()))
    )


def test_issue_34_10_an_email_invitations_page_offers_decline_for_that_invitation(
    alice, bob, carol, dave
):
    game = table_with_invitations(alice, bob, dave)
    invitation = Invitation.objects.get(email="zed.friend@example.com")
    follower = client_for(carol)  # whoever follows the e-mail's link, logged in
    page = text(follower.get(reverse("accept_invitation", args=[invitation.token])))
    assert "Alice invites you" in words(page)
    assert f'name="invitation" value="{invitation.token}"' in page
    answer = follower.post(
        reverse("game_decline", args=[game.pk]), {"invitation": invitation.token}
    )
    assert answer.status_code == 302
    invitation.refresh_from_db()
    assert invitation.declined is not None and invitation.user is None
    assert not EmailSuppression.covers("zed.friend@example.com")  # this table only
