"""A bot takes the seat: after three missed deadlines in a row (O19, and the same for Geared),
or when a player resigns; the game goes on and the others are told."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from games import errors
from games.actions import deadlines
from games.models import Game, Move, Seat, Status
from tests.notifications.helpers import Note, notes, play_turn, recipients, submit_program
from tests.support.games import client_for, seat_of, seat_to_act, snapshot, start_geared, start_oog

pytestmark = pytest.mark.django_db(transaction=True)

DAY = 86400
SECOND = timedelta(seconds=1)


def expire(game: Game) -> None:
    game.refresh_from_db()
    assert deadlines.expire_turn(game.pk, game.turn, now=game.deadline + SECOND) is True
    game.refresh_from_db()


def subjects_to(mailoutbox, user) -> list[str]:
    return [m.subject for m in mailoutbox if m.to == [user.email]]


# --- three missed deadlines in a row ------------------------------------------------------------


def test_geared_a_player_who_misses_three_deadlines_in_a_row_is_replaced(mailoutbox, alice, bob):
    game = start_geared([alice, bob], turn_seconds=DAY, target=2000)
    absent = seat_to_act(game)
    player = absent.user
    other = bob if player == alice else alice

    for miss in (1, 2):
        expire(game)
        absent.refresh_from_db()
        assert (absent.missed_deadlines, absent.user) == (miss, player)
        play_turn(game)  # the other player plays their own turn
    assert not notes(game, Note.REPLACED).exists()
    expire(game)

    absent.refresh_from_db()
    assert absent.bot == "greedy"
    assert absent.user is None
    assert absent.replaced_user == player
    assert recipients(game, Note.REPLACED) == [player.username]
    assert recipients(game, Note.PLAYER_REPLACED) == [other.username]
    assert any(s.startswith("A bot has taken your seat") for s in subjects_to(mailoutbox, player))
    assert f"{player.name} was replaced by a bot in Geared: Build Your Bike #{game.pk}" in (
        subjects_to(mailoutbox, other)
    )

    # The game goes on: the other plays, and the bot answers in the replaced seat.
    assert seat_to_act(game).user == other
    turn = game.turn
    play_turn(game)
    game.refresh_from_db()
    assert game.turn == turn + 2
    assert seat_to_act(game).user == other
    assert Move.objects.filter(game=game, seat=absent, kind=Move.Kind.ACTION).exists()


def test_geared_a_move_of_ones_own_between_misses_resets_the_count(mailoutbox, alice, bob):
    game = start_geared([alice, bob], turn_seconds=DAY, target=2000)
    absent = seat_to_act(game)
    player = absent.user

    expire(game)  # miss
    play_turn(game)  # the other
    assert play_turn(game).user == player  # a move of their own
    absent.refresh_from_db()
    assert absent.missed_deadlines == 0
    play_turn(game)  # the other
    expire(game)  # miss
    play_turn(game)  # the other
    expire(game)  # miss

    absent.refresh_from_db()
    assert absent.missed_deadlines == 2
    assert (absent.user, absent.bot) == (player, "")
    assert not notes(game, Note.REPLACED).exists()
    assert not notes(game, Note.PLAYER_REPLACED).exists()


def test_out_of_gears_three_missed_programs_in_a_row_put_a_bot_in_the_seat(mailoutbox, alice, bob):
    game = start_oog([alice, bob], turn_seconds=DAY)
    for turn in (1, 2, 3):
        submit_program(game, alice)
        expire(game)
        assert game.turn == turn + 1, "the turn resolved with bob's robot defending"
    seat = Seat.objects.get(game=game, replaced_user=bob)
    assert (seat.bot, seat.user) == ("greedy", None)
    assert recipients(game, Note.REPLACED) == ["bob"]
    assert recipients(game, Note.PLAYER_REPLACED) == ["alice"]
    # Turn 4: the bot has programmed already; alice's program completes the turn.
    game.refresh_from_db()
    assert seat.seat_id in game.state["programs"]
    submit_program(game, alice)
    game.refresh_from_db()
    assert game.turn == 5


# --- resigning ------------------------------------------------------------------------------------


def test_resigning_on_ones_turn_a_bot_takes_the_seat_and_plays(mailoutbox, alice, bob):
    game = start_geared([alice, bob], target=2000)
    seat = seat_to_act(game)
    player = seat.user
    other = bob if player == alice else alice
    turn = game.turn

    response = client_for(player).post(reverse("game_resign", args=[game.pk]))
    assert response.status_code == 302
    assert response.url == game.get_absolute_url()

    seat.refresh_from_db()
    assert (seat.bot, seat.user, seat.replaced_user) == ("greedy", None, player)
    game.refresh_from_db()
    assert game.status == Status.ACTIVE
    assert game.turn == turn + 1, "the bot played the turn"
    assert seat_to_act(game).user == other
    assert Move.objects.filter(game=game, seat=seat, kind=Move.Kind.ACTION).exists()
    assert recipients(game, Note.PLAYER_REPLACED) == [other.username]
    assert not notes(game, Note.REPLACED).exists(), "who resigned knows"
    assert f"{player.name} was replaced by a bot in Geared: Build Your Bike #{game.pk}" in (
        subjects_to(mailoutbox, other)
    )
    assert recipients(game, Note.YOUR_TURN, turn=turn + 1) == [other.username]


def test_resigning_out_of_gears_the_bot_programs_and_the_turn_resolves(mailoutbox, alice, bob):
    game = start_oog([alice, bob])
    submit_program(game, alice)
    response = client_for(bob).post(reverse("game_resign", args=[game.pk]))
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.turn == 2
    assert recipients(game, Note.PLAYER_REPLACED) == ["alice"]


def test_resigning_a_finished_game_is_refused_and_changes_nothing(mailoutbox, alice, bob):
    game = start_geared([alice, bob], target=2000)
    Game.objects.filter(pk=game.pk).update(status=Status.FINISHED, deadline=None)
    before = snapshot(game)
    response = client_for(alice).post(reverse("game_resign", args=[game.pk]))
    assert response.status_code == 302
    assert [str(m) for m in get_messages(response.wsgi_request)] == [
        "Only a game in play can be resigned from."
    ]
    assert snapshot(game) == before
    with pytest.raises(errors.Conflict):
        deadlines.resign(alice, game.pk)


def test_a_non_player_cannot_resign(mailoutbox, alice, bob, carol):
    game = start_geared([alice, bob], target=2000)
    before = snapshot(game)
    assert client_for(carol).post(reverse("game_resign", args=[game.pk])).status_code == 404
    assert client_for(carol).post(reverse("game_resign", args=[999999])).status_code == 404
    assert snapshot(game) == before


def test_resigning_needs_a_post(mailoutbox, alice, bob):
    game = start_geared([alice, bob], target=2000)
    before = snapshot(game)
    assert client_for(alice).get(reverse("game_resign", args=[game.pk])).status_code == 405
    assert snapshot(game) == before


def test_a_player_who_resigned_cannot_resign_again_or_play(mailoutbox, alice, bob):
    game = start_geared([alice, bob], target=2000)
    client_for(alice).post(reverse("game_resign", args=[game.pk]))
    assert seat_of(game, bob)
    before = snapshot(game)
    assert client_for(alice).post(reverse("game_resign", args=[game.pk])).status_code == 404
    assert snapshot(game) == before
