"""Who is mailed, and how often: preferences, bots, suspended players, the mover, once per turn,
the end of a game. Tasks run eagerly on commit; e-mails land in Django's locmem outbox."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import errors, tasks
from games.actions import deadlines, moves
from games.actions import tables as services
from games.models import Game, Notification, Status
from games.notifications import email
from games.notifications import queueing as notifications
from tests.notifications.helpers import Note, end_turn_choice, notes, play_turn, recipients
from tests.support.games import seat_of, seat_to_act, start_geared, start_oog

# On-commit hooks must run (that is when e-mails are queued): real transactions.
pytestmark = pytest.mark.django_db(transaction=True)


def other(game: Game, user):
    return next(s.user for s in game.seats.select_related("user") if s.user and s.user != user)


def to(mailoutbox, user) -> list:
    return [m for m in mailoutbox if m.to == [user.email]]


def test_the_next_player_is_mailed_once_with_their_turn(mailoutbox, alice, bob):
    game = start_geared([alice, bob], target=2000)
    mover = play_turn(game).user
    waiting = other(game, mover)
    (message,) = to(mailoutbox, waiting)
    assert message.subject == f"Your turn in Geared: Build Your Bike #{game.pk}"
    assert recipients(game, Note.YOUR_TURN, turn=2) == [waiting.username]
    assert notes(game, Note.YOUR_TURN, turn=2).get().state == Notification.State.SENT


def test_a_player_with_turn_emails_off_gets_no_email_and_no_row(mailoutbox, alice, bob):
    game = start_geared([alice, bob], target=2000)
    waiting = other(game, seat_to_act(game).user)
    waiting.notify_turn = False
    waiting.save(update_fields=["notify_turn"])
    mailoutbox.clear()
    play_turn(game)
    assert game.turn == 2
    assert to(mailoutbox, waiting) == []
    assert not notes(game, user=waiting).exists()


def test_turn_emails_off_does_not_stop_reminders_and_reminders_off_stops_them(
    mailoutbox, alice, bob
):
    game = start_geared([alice, bob], turn_seconds=86400, target=2000)
    waiting = seat_to_act(game).user
    waiting.notify_turn = False
    waiting.save(update_fields=["notify_turn"])
    late = game.deadline - timedelta(hours=4)
    assert deadlines.remind(game.pk, game.turn, now=late) == 1
    (reminder,) = [m for m in to(mailoutbox, waiting) if m.subject.startswith("Reminder")]
    assert f"#{game.pk}" in reminder.subject

    play_turn(game)
    play_turn(game)
    waiting = seat_to_act(game).user
    waiting.notify_reminder = False
    waiting.save(update_fields=["notify_reminder"])
    assert deadlines.remind(game.pk, game.turn, now=game.deadline - timedelta(hours=4)) == 0
    assert not notes(game, Note.REMINDER, turn=game.turn).exists()


def test_a_bot_is_never_mailed(mailoutbox, alice):
    game = start_geared([alice], bots=("greedy",), target=2000)
    for _ in range(3):
        if seat_to_act(game).user != alice:
            break
        play_turn(game)
    game.refresh_from_db()
    assert game.move_count >= 2, "the bot played through the same write path"
    assert set(notes(game).values_list("user__username", flat=True)) == {"alice"}
    assert {tuple(m.to) for m in mailoutbox} == {(alice.email,)}


@pytest.mark.parametrize(
    ("until", "mailed"),
    [(None, False), (timedelta(days=2), False), (-timedelta(minutes=1), True)],
    ids=["suspended-indefinitely", "suspended-until-later", "suspension-over"],
)
def test_a_suspended_player_is_never_mailed(mailoutbox, alice, bob, until, mailed):
    game = start_geared([alice, bob], target=2000)
    waiting = other(game, seat_to_act(game).user)
    waiting.suspended = True
    waiting.suspended_until = timezone.now() + until if until is not None else None
    waiting.save(update_fields=["suspended", "suspended_until"])
    mailoutbox.clear()
    play_turn(game)
    assert bool(to(mailoutbox, waiting)) is mailed
    assert notes(game, Note.YOUR_TURN, user=waiting).exists() is mailed


def test_a_player_suspended_after_the_email_was_queued_is_not_mailed(mailoutbox, alice, bob):
    game = start_geared([alice, bob], target=2000)
    waiting = other(game, seat_to_act(game).user)
    (note_id,) = notifications.queue(game, Note.YOUR_TURN, [seat_of(game, waiting)], turn=99)
    waiting.suspended = True
    waiting.save(update_fields=["suspended"])
    mailoutbox.clear()
    assert tasks.send_notification.delay(note_id).get() is False
    assert mailoutbox == []


def test_the_creator_who_plays_first_is_not_mailed_about_the_start(mailoutbox, alice, bob):
    # The first player is drawn at random (G4): start tables until alice, who starts it, opens.
    for _ in range(40):
        game = start_geared([alice, bob], target=2000)
        if seat_to_act(game).user == alice:
            break
    else:
        pytest.fail("alice never played first in 40 games")
    assert not notes(game, user=alice).exists()
    assert to(mailoutbox, alice) == [] or all(
        f"#{game.pk}" not in m.subject for m in to(mailoutbox, alice)
    )


def test_the_mover_is_never_mailed_about_their_own_move(mailoutbox, alice, bob, carol):
    game = start_geared([alice, bob, carol], target=2000)
    mover = play_turn(game).user
    assert mover.username not in recipients(game, Note.YOUR_TURN, turn=2)
    assert recipients(game, Note.YOUR_TURN, turn=2) == [seat_to_act(game).user.username]


def test_a_rearrangement_that_does_not_end_the_turn_mails_nobody(mailoutbox, alice, bob):
    game = start_geared([alice, bob], target=2000)
    rearrange = None
    # Play turns until the player to act may rearrange (G14), then do only that.
    for _ in range(30):
        if not game.is_active:
            break
        seat = seat_to_act(game)
        legal = services.engines.engine("geared").legal_actions(game.state, seat.seat_id)
        rearrange = next((a for a in legal if a["type"] == "rearrange"), None)
        if rearrange:
            break
        play_turn(game)
    if rearrange is None:
        pytest.skip("no rearrangement came up in this game")
    rows = notes(game).count()
    turn = game.turn
    moves.submit_action(seat.user, game.pk, game.version, rearrange)
    game.refresh_from_db()
    assert game.turn == turn
    assert notes(game).count() == rows


def test_at_most_one_your_turn_email_per_player_game_and_turn(mailoutbox, alice, bob):
    game = start_geared([alice, bob], target=2000)
    mover_seat = seat_to_act(game)
    action = end_turn_choice(game, mover_seat)
    version = game.version
    moves.submit_action(mover_seat.user, game.pk, version, action)
    with pytest.raises(errors.Conflict):  # a double click: the same form again
        moves.submit_action(mover_seat.user, game.pk, version, action)
    game.refresh_from_db()
    waiting = other(game, mover_seat.user)
    seat = seat_of(game, waiting)

    # The services queue it again, and the task runs again: still one row, one message.
    assert notifications.queue(game, Note.YOUR_TURN, [seat], turn=game.turn) == []
    (note,) = notes(game, Note.YOUR_TURN, user=waiting, turn=game.turn)
    assert tasks.send_notification.delay(note.pk).get() is False
    assert email.deliver(note.pk) is False
    assert len(to(mailoutbox, waiting)) == 1
    assert notes(game, Note.YOUR_TURN, user=waiting).count() == 1


def test_game_over_mails_every_human_with_the_result(mailoutbox, alice, bob):
    game = start_geared([alice, bob], target=300)
    for _ in range(400):
        if not game.is_active:
            break
        play_turn(game)
    assert game.status == Status.FINISHED
    assert recipients(game, Note.GAME_OVER) == ["alice", "bob"], "the last mover too"
    scores = game.result["scores"]
    for user in (alice, bob):
        (message,) = [m for m in to(mailoutbox, user) if m.subject.startswith("Game over")]
        body = message.body
        for seat in game.seats.select_related("user"):
            assert f"{seat.user.name}: {scores[seat.seat_id]} points" in body
        won = seat_of(game, user).seat_id in game.result["winners"]
        assert ("You won!" in body) is won


def test_the_start_of_an_out_of_gears_game_mails_the_others_their_turn(mailoutbox, alice, bob):
    game = start_oog([alice, bob])
    (note,) = notes(game, Note.YOUR_TURN)
    assert note.user == bob
    assert note.state == Notification.State.SENT, note.error
    (message,) = to(mailoutbox, bob)
    assert message.subject == f"Your turn in Out of Gears #{game.pk}"
