"""The game head of both games says who the game waits for while they are on vacation, and until
when — their name and return date only — instead of the deadline."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.actions import moderation, time_off
from games.models import Game
from tests.support.games import (
    client_for,
    greedy_program,
    seat_of,
    seat_to_act,
    start_geared,
    start_oog,
)
from tests.support.users import make_user
from tests.views.outofgears.helpers import post_program

pytestmark = pytest.mark.django_db

DAY = 86400


def head(client, game: Game) -> str:
    response = client.get(game.get_absolute_url())
    assert response.status_code == 200
    match = re.search(r'<header class="game-head">(.*?)</header>', response.content.decode(), re.S)
    return " ".join(match.group(1).split())


def notice(text: str) -> str | None:
    match = re.search(r'<span class="paused">(.*?)</span>', text)
    return match.group(1) if match else None


def timed(game: Game) -> Game:
    Game.objects.filter(pk=game.pk).update(
        turn_seconds=DAY, deadline=timezone.now() + timedelta(days=1)
    )
    game.refresh_from_db()
    return game


def go_away(user, days=5):
    until = timezone.localdate() + timedelta(days=days)
    time_off.take(user, until)
    return f"{until.day} {until:%b}"


def test_geared_the_others_see_the_pause_instead_of_the_deadline(alice, bob, carol):
    game = timed(start_geared([alice, bob, carol], public=True))
    absent = seat_to_act(game).user
    other = next(u for u in (alice, bob, carol) if u != absent)
    assert "due" in head(client_for(other), game)
    date = go_away(absent)

    text = head(client_for(other), game)
    assert notice(text) == f"· paused: {absent.name} is away until {date}"
    assert "due" not in text
    assert notice(head(client_for(absent), game)) == f"· paused: you are away until {date}"
    # A spectator of the public game sees the same: the name and the date, nothing more.
    assert notice(head(Client(), game)) == f"· paused: {absent.name} is away until {date}"


def test_no_notice_for_an_away_player_who_is_not_awaited(alice, bob):
    game = timed(start_geared([alice, bob]))
    absent = seat_to_act(game).user
    other = bob if absent == alice else alice
    go_away(other)
    assert notice(head(client_for(absent), game)) is None


def test_no_notice_in_an_exempt_game(alice, bob, django_user_model):
    game = timed(start_geared([alice, bob]))
    absent = seat_to_act(game).user
    go_away(absent)
    moderator = make_user(django_user_model, "mod", is_staff=True)
    moderation.set_exempt(moderator, game.pk, True, "cannot wait")
    text = head(client_for(bob if absent == alice else alice), game)
    assert notice(text) is None and "due" in text


def test_out_of_gears_shows_who_has_not_programmed_and_is_away(alice, bob, carol):
    game = timed(start_oog([alice, bob, carol]))
    date = go_away(carol)
    client = client_for(alice)
    assert notice(head(client, game)) == f"· paused: Carol is away until {date}"
    # The others still program (through the page); the notice stays while the turn waits.
    for user in (alice, bob):
        game.refresh_from_db()
        action = greedy_program(game, seat_of(game, user))
        response = post_program(client_for(user), game, action, game.turn_version)
        assert response.status_code == 200
    text = head(client, game)
    assert "Waiting for <strong>Carol</strong>" in text
    assert notice(text) == f"· paused: Carol is away until {date}"
