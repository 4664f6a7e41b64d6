"""Issue 14, point 6a: no "your turn" / "turn resolved" e-mail to a player who has the game's
page open (its live check ran within GEARTABLE_WATCHING_SECONDS); reminders still go. The page's
check is the real poll view; tasks run eagerly on commit, e-mails land in locmem."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.actions import deadlines, watching
from games.models import Notification, Seat
from tests.notifications.helpers import Note, notes, play_turn
from tests.notifications.helpers import submit_program as program
from tests.support.games import client_for, seat_to_act, start_geared, start_oog

pytestmark = pytest.mark.django_db(transaction=True)


def watch(user, game, **params):
    """The player's open page checks for news, as geartable.js does every 2 s."""
    game.refresh_from_db()
    query = {"v": game.version, **params}
    response = client_for(user).get(reverse("game_poll", args=[game.pk]), query)
    assert response.status_code == 204


def the_next(game):
    """The player who will be told it is their turn once the current one plays."""
    mover = seat_to_act(game)
    return next(s for s in game.seats.select_related("user") if s.pk != mover.pk).user


def mails_to(mailoutbox, user) -> list:
    return [m for m in mailoutbox if m.to == [user.email]]


def test_a_player_watching_the_game_gets_no_your_turn_email(mailoutbox, alice, bob):
    game = start_geared([alice, bob], target=2000)
    waiting = the_next(game)
    watch(waiting, game)
    assert Seat.objects.get(game=game, user=waiting).watched is not None
    mailoutbox.clear()

    play_turn(game)

    note = notes(game, Note.YOUR_TURN, turn=2).get()
    assert note.state == Notification.State.SKIPPED
    assert note.error == "Not needed: the player had the game open."
    assert mails_to(mailoutbox, waiting) == []


def test_a_player_not_watching_is_mailed(mailoutbox, alice, bob):
    game = start_geared([alice, bob], target=2000)
    waiting = the_next(game)
    mailoutbox.clear()
    play_turn(game)
    assert notes(game, Note.YOUR_TURN, turn=2).get().state == Notification.State.SENT
    assert len(mails_to(mailoutbox, waiting)) == 1


def test_a_watch_older_than_the_window_is_not_watching(mailoutbox, alice, bob, settings):
    settings.GEARTABLE_WATCHING_SECONDS = 60
    game = start_geared([alice, bob], target=2000)
    waiting = the_next(game)
    watch(waiting, game)
    Seat.objects.filter(game=game, user=waiting).update(
        watched=timezone.now() - timedelta(seconds=61)
    )
    mailoutbox.clear()
    play_turn(game)
    assert notes(game, Note.YOUR_TURN, turn=2).get().state == Notification.State.SENT
    assert len(mails_to(mailoutbox, waiting)) == 1


def test_a_hidden_tab_is_not_watching(mailoutbox, alice, bob):
    game = start_geared([alice, bob], target=2000)
    waiting = the_next(game)
    watch(waiting, game, h="1")
    assert Seat.objects.get(game=game, user=waiting).watched is None
    play_turn(game)
    assert notes(game, Note.YOUR_TURN, turn=2).get().state == Notification.State.SENT


def test_zero_seconds_turns_the_rule_off(mailoutbox, alice, bob, settings):
    settings.GEARTABLE_WATCHING_SECONDS = 0
    game = start_geared([alice, bob], target=2000)
    watch(the_next(game), game)
    play_turn(game)
    assert notes(game, Note.YOUR_TURN, turn=2).get().state == Notification.State.SENT


def test_a_reminder_still_goes_to_a_player_watching(mailoutbox, alice, bob):
    game = start_geared([alice, bob], turn_seconds=86400, target=2000)
    waiting = seat_to_act(game).user
    watch(waiting, game)
    mailoutbox.clear()
    assert deadlines.remind(game.pk, game.turn, now=game.deadline - timedelta(hours=4)) == 1
    assert notes(game, Note.REMINDER, turn=game.turn).get().state == Notification.State.SENT
    assert len(mails_to(mailoutbox, waiting)) == 1


def test_turn_resolved_is_skipped_only_for_the_player_watching(mailoutbox, alice, bob):
    game = start_oog([alice, bob])
    watch(alice, game)
    program(game, alice)
    program(game, bob)
    game.refresh_from_db()
    assert game.turn == 2
    rows = {n.user: n for n in notes(game, Note.TURN_RESOLVED, turn=2)}
    assert rows[alice].state == Notification.State.SKIPPED
    assert rows[bob].state == Notification.State.SENT


def test_the_watch_is_written_at_most_every_twenty_seconds(alice, bob):
    game = start_geared([alice, bob], target=2000)
    seat = Seat.objects.get(game=game, user=alice)
    first = timezone.now()
    watching.note_watching(seat.pk, None, now=first)
    watching.note_watching(seat.pk, first, now=first + timedelta(seconds=19))
    seat.refresh_from_db()
    assert seat.watched == first
    watching.note_watching(seat.pk, first, now=first + timedelta(seconds=21))
    seat.refresh_from_db()
    assert seat.watched == first + timedelta(seconds=21)


def test_a_spectator_or_a_player_who_left_leaves_no_watch(alice, bob, carol):
    game = start_geared([alice, bob], target=2000)
    game.public = True
    game.save(update_fields=["public"])
    watch(carol, game)
    deadlines.resign(bob, game.pk)
    watch(bob, game)
    assert list(Seat.objects.filter(game=game).values_list("watched", flat=True)) == [None, None]
