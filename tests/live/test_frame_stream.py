"""Issue 25.2, the site frame's stream (/events/me/) against a real stream process: every change
of the player's games reaches it, even one that leaves their "your turn" count as it was (a
table joined: My games redraws its lists), and the lobby's page (lobby=1) hears that the
lobby's lists changed. Nothing but the kind and the count is sent."""

from __future__ import annotations

import pytest

from games.actions import moderation, tables
from games.models import Kind
from tests.support.games import client_for, start_geared
from tests.support.streams import cookie
from tests.support.users import make_user

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_join_reaches_the_tables_players_and_the_lobby(stream_process, alice, bob, carol):
    game = tables.create_game(alice, tables.NewGame(kind=Kind.GEARED, seat_count=3, public=True))
    mine = stream_process.open("/events/me/", headers=cookie(client_for(alice)))
    lobby = stream_process.open("/events/me/?lobby=1", headers=cookie(client_for(carol)))
    assert mine.status == lobby.status == 200
    first = mine.event_where(lambda e: e.get("event") == "turns")
    assert first["data"] == {"kind": "turns", "your_turn": 0}
    lobby.event_where(lambda e: e.get("event") == "turns")

    tables.join_game(bob, game.pk)
    again = mine.event_where(lambda e: e.get("event") == "turns")
    assert again["data"] == {"kind": "turns", "your_turn": 0}, "the count is the same, yet sent"
    assert lobby.event_where(lambda e: e.get("event") == "lobby")["data"] == {"kind": "lobby"}
    mine.close()
    lobby.close()


def test_an_invitation_and_a_deadline_extended_reach_the_frame_stream(
    stream_process, alice, bob, django_user_model
):
    """My games lists invitations and each game's "due in …": both redraw on their change."""
    moderator = make_user(django_user_model, "mod", is_staff=True, is_superuser=True)
    game = tables.create_game(alice, tables.NewGame(kind=Kind.GEARED, seat_count=3))
    mine = stream_process.open("/events/me/", headers=cookie(client_for(bob)))
    mine.event_where(lambda e: e.get("event") == "turns")
    tables.invite(alice, game.pk, bob.username)
    assert mine.event_where(lambda e: e.get("event") == "turns")["data"]["kind"] == "turns"
    mine.close()

    timed = start_geared([alice, bob], target=1000, turn_seconds=86400)
    mine = stream_process.open("/events/me/", headers=cookie(client_for(alice)))
    first = mine.event_where(lambda e: e.get("event") == "turns")
    moderation.extend_deadline(moderator, timed.pk, 24, "Holiday.")
    again = mine.event_where(lambda e: e.get("event") == "turns")
    assert again["data"] == first["data"]
    mine.close()
