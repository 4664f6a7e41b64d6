"""Vacation in play (docs/vacation.md): a deadline does not pass for a player who is away —
nobody plays for them or counts a miss — and runs again, with the full time per turn, once they
are back; in Out of Gears the others still program; an exempt game runs as usual; the turn
e-mails to the away player wait in the outbox and go once on their return."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from games import vacation
from games import vacation_dates as allowance
from games.actions import deadlines, moderation, time_off
from games.models import Game, ModerationAction, Move, Notification, Outgoing
from games.notifications import digest as digests
from games.notifications import outbox
from games.reads import due
from tests.notifications.helpers import Note, notes, play_turn, submit_program
from tests.support.games import seat_of, seat_to_act, start_geared, start_oog
from tests.support.users import make_user

pytestmark = pytest.mark.django_db(transaction=True)

DAY = 86400
SECOND = timedelta(seconds=1)
State = Outgoing.State


def away(user, days: int = 3):
    """`user` goes on vacation now, until `days` days from today."""
    time_off.take(user, timezone.localdate() + timedelta(days=days))
    user.refresh_from_db()
    return user


def went(user) -> datetime:
    """When the player's current vacation began."""
    return allowance.current(user).started


def moves(game: Game, kind: str | None = None):
    rows = Move.objects.filter(game=game)
    return rows.filter(kind=kind) if kind else rows


# --- Geared ----------------------------------------------------------------------------------


def test_geared_the_deadline_waits_for_a_player_away(mailoutbox, alice, bob):
    game = start_geared([alice, bob], turn_seconds=DAY, target=2000)
    absent = seat_to_act(game)
    user = away(absent.user)
    turn, count, deadline = game.turn, moves(game).count(), game.deadline

    assert deadlines.expire_turn(game.pk, turn, now=game.deadline + SECOND) is False
    game.refresh_from_db()
    assert (game.turn, moves(game).count()) == (turn, count), "nobody played for them"
    # The turn resumes at the return with the time it had left when they went away.
    assert game.deadline == user.away_ends + (deadline - went(user)), "the time left, after return"
    absent.refresh_from_db()
    assert (absent.missed_deadlines, absent.bot, absent.user_id) == (0, "", user.pk)
    # Once per pause: the beat does not pick the game again before the return.
    assert (game.pk, turn) not in due.due_deadlines()[0]
    assert deadlines.expire_turn(game.pk, turn, now=game.deadline - SECOND) is False
    # After the return (and the full time), the deadline runs as usual.
    assert deadlines.expire_turn(game.pk, turn, now=game.deadline + SECOND) is True
    game.refresh_from_db()
    assert game.turn == turn + 1
    assert moves(game, Move.Kind.TIMEOUT).filter(seat=absent).exists()


def test_coming_back_early_gives_the_time_left_from_now(mailoutbox, alice, bob):
    game = start_geared([alice, bob], turn_seconds=DAY, target=2000)
    user = away(seat_to_act(game).user, days=10)
    left = game.deadline - went(user)
    deadlines.expire_turn(game.pk, game.turn, now=game.deadline + SECOND)
    before = timezone.now()
    time_off.come_back(user)
    game.refresh_from_db()
    assert before + left <= game.deadline <= timezone.now() + left
    assert deadlines.expire_turn(game.pk, game.turn, now=game.deadline + SECOND) is True


def test_a_new_return_date_moves_the_paused_deadline(mailoutbox, alice, bob):
    game = start_geared([alice, bob], turn_seconds=DAY, target=2000)
    user = away(seat_to_act(game).user, days=10)
    left = game.deadline - went(user)
    deadlines.expire_turn(game.pk, game.turn, now=game.deadline + SECOND)
    user = away(user, days=2)
    game.refresh_from_db()
    assert game.deadline == user.away_ends + left


def test_one_vacation_day_buys_no_more_time_than_it_pauses(mailoutbox, alice, bob):
    """Issue 22: one allowance day used to turn three deadlines that were about to pass into
    three full new turns. A paused turn resumes with the time it had left, so the vacation
    gives each game exactly the time the player was away: what the allowance charged."""
    # "Today only" must outlast the hour left, whatever the hour the test runs at: alice lives
    # where her day has at least three hours to go (her calendar decides when a day ends).
    alice.time_zone = next(
        zone
        for zone in ("UTC", "Pacific/Kiritimati", "America/Los_Angeles", "Asia/Tokyo")
        if 2 <= timezone.localtime(timezone=ZoneInfo(zone)).hour <= 20
    )
    alice.save(update_fields=["time_zone"])
    games = []
    for _ in range(3):
        game = start_geared([alice, bob], turn_seconds=3 * DAY, target=2000)
        if seat_to_act(game).user != alice:
            play_turn(game)
        # Most of alice's three days are gone: an hour is left.
        Game.objects.filter(pk=game.pk).update(deadline=timezone.now() + timedelta(hours=1))
        game.refresh_from_db()
        games.append(game)
    time_off.take(alice, allowance.local_today(alice, timezone.now()))  # today only: one day
    user = alice
    user.refresh_from_db()
    assert allowance.allowance(user).used == 1
    for game in games:
        deadline = game.deadline
        assert deadlines.expire_turn(game.pk, game.turn, now=deadline + SECOND) is False
        game.refresh_from_db()
        assert game.deadline == user.away_ends + (deadline - went(user))
        assert game.deadline - user.away_ends <= timedelta(hours=1)  # not three new days


def test_a_deadline_that_passed_before_the_vacation_is_not_held(mailoutbox, alice, bob):
    """Going away after the deadline passed (before the beat's minute came round) saves
    nothing: the turn times out as usual."""
    game = start_geared([alice, bob], turn_seconds=DAY, target=2000)
    absent = seat_to_act(game)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=30))
    game.refresh_from_db()
    away(absent.user)
    assert deadlines.expire_turn(game.pk, game.turn, now=timezone.now()) is True
    absent.refresh_from_db()
    assert absent.missed_deadlines == 1


def test_a_turn_that_began_while_away_gets_its_full_time_at_the_return(mailoutbox, alice, bob):
    game = start_geared([alice, bob], turn_seconds=DAY, target=2000)
    other = seat_to_act(game)
    player = bob if other.user == alice else alice
    user = away(player, days=3)
    play_turn(game)  # now it is the away player's turn, begun while they are away
    game.refresh_from_db()
    assert seat_to_act(game).user == user
    assert deadlines.expire_turn(game.pk, game.turn, now=game.deadline + SECOND) is False
    game.refresh_from_db()
    assert game.deadline == user.away_ends + timedelta(seconds=DAY)


def test_a_player_away_who_is_not_to_act_pauses_nothing(mailoutbox, alice, bob):
    game = start_geared([alice, bob], turn_seconds=DAY, target=2000)
    absent = seat_to_act(game)
    away(bob if absent.user == alice else alice)
    assert deadlines.expire_turn(game.pk, game.turn, now=game.deadline + SECOND) is True


def test_an_exempt_game_runs_its_deadlines_as_usual(mailoutbox, alice, bob, django_user_model):
    moderator = make_user(django_user_model, "mod", is_staff=True, is_superuser=True)
    game = start_geared([alice, bob], turn_seconds=DAY, target=2000)
    absent = seat_to_act(game)
    away(absent.user)
    moderation.set_exempt(moderator, game.pk, True, "a tournament final")
    assert ModerationAction.objects.filter(game=game, action="exempt from vacations").exists()
    game.refresh_from_db()
    assert deadlines.expire_turn(game.pk, game.turn, now=game.deadline + SECOND) is True
    absent.refresh_from_db()
    assert absent.missed_deadlines == 1


# --- Out of Gears ------------------------------------------------------------------------------


def test_oog_the_others_program_and_the_turn_waits_for_the_player_away(mailoutbox, alice, bob):
    game = start_oog([alice, bob], turn_seconds=DAY)
    user = away(bob)
    submit_program(game, alice)
    submit_program(game, alice)  # and may change it while the turn waits
    game.refresh_from_db()
    turn, deadline = game.turn, game.deadline
    assert deadlines.expire_turn(game.pk, turn, now=game.deadline + SECOND) is False
    game.refresh_from_db()
    assert game.turn == turn and not moves(game, Move.Kind.TIMEOUT).exists()
    assert game.deadline == user.away_ends + (deadline - went(user))
    assert seat_of(game, bob).missed_deadlines == 0

    time_off.come_back(user)
    game.refresh_from_db()
    assert deadlines.expire_turn(game.pk, turn, now=game.deadline + SECOND) is True
    game.refresh_from_db()
    assert game.turn == turn + 1, "O19: back, the missing robot defends and the turn resolves"
    assert moves(game, Move.Kind.TIMEOUT).filter(seat=seat_of(game, bob)).exists()


# --- e-mails -------------------------------------------------------------------------------------


def to(mailoutbox, user) -> list:
    return [m for m in mailoutbox if m.to == [user.email]]


def test_the_your_turn_email_waits_for_the_return_and_goes_once(mailoutbox, alice, bob):
    game = start_geared([alice, bob], turn_seconds=DAY, target=2000)
    mover = seat_to_act(game).user
    other = bob if mover == alice else alice
    user = away(other)
    mailoutbox.clear()
    play_turn(game)  # now it is the away player's turn
    note = notes(game, Note.YOUR_TURN, user=user).get()
    assert note.state == State.PENDING and note.error.startswith(vacation.HELD)
    assert note.next_attempt == user.away_ends and note.attempts == 0
    assert to(mailoutbox, user) == []
    assert outbox.sweep()["emails"] == 0, "nothing due before the return"

    time_off.come_back(user)
    note.refresh_from_db()
    assert note.state == State.SENT
    assert len(to(mailoutbox, user)) == 1 and "Your turn" in to(mailoutbox, user)[0].subject
    outbox.sweep(now=timezone.now() + timedelta(days=30))
    assert len(to(mailoutbox, user)) == 1, "once"


def test_at_the_natural_return_the_sweep_sends_what_waited(mailoutbox, alice, bob):
    game = start_oog([alice, bob], turn_seconds=DAY)
    user = away(bob)
    mailoutbox.clear()
    submit_program(game, alice)
    submit_program(game, bob)  # playing while away is allowed; the turn resolves
    note = notes(game, Note.TURN_RESOLVED, user=user).get()
    assert note.state == State.PENDING and to(mailoutbox, user) == []
    # The vacation is over (its end moved into the past rather than waiting for it).
    past = timezone.now() - SECOND
    type(user).objects.filter(pk=user.pk).update(away_ends=past)
    Notification.objects.filter(pk=note.pk).update(next_attempt=past)
    assert outbox.sweep()["emails"] == 1
    note.refresh_from_db()
    assert note.state == State.SENT and len(to(mailoutbox, user)) == 1
    assert outbox.sweep()["emails"] == 0 and len(to(mailoutbox, user)) == 1


def test_a_reminder_is_not_sent_while_away_and_not_twice_on_return(mailoutbox, alice, bob):
    game = start_geared([alice, bob], turn_seconds=DAY, target=2000)
    mover = seat_to_act(game).user
    user = away(bob if mover == alice else alice)
    play_turn(game)
    game.refresh_from_db()
    deadlines.remind(game.pk, game.turn, now=game.deadline - timedelta(hours=1))
    reminder = notes(game, Note.REMINDER, user=user).get()
    assert reminder.state == State.SKIPPED, "the turn's own e-mail waits already"
    time_off.come_back(user)
    assert len(to(mailoutbox, user)) == 1


def test_a_reminder_waits_if_the_turn_email_went_before_the_vacation(mailoutbox, alice, bob):
    game = start_geared([alice, bob], turn_seconds=DAY, target=2000)
    mover = seat_to_act(game).user
    other = bob if mover == alice else alice
    play_turn(game)  # "your turn" goes out at once
    assert len(to(mailoutbox, other)) == 1
    user = away(other)
    game.refresh_from_db()
    deadlines.remind(game.pk, game.turn, now=game.deadline - timedelta(hours=1))
    reminder = notes(game, Note.REMINDER, user=user).get()
    assert reminder.state == State.PENDING and reminder.next_attempt == user.away_ends
    time_off.come_back(user)
    reminder.refresh_from_db()
    assert reminder.state == State.SENT and len(to(mailoutbox, user)) == 2


def test_no_daily_digest_while_away(mailoutbox, alice, bob):
    from games.models import Digest

    bob.email_digest = True
    bob.save(update_fields=["email_digest"])
    start_geared([alice, bob], turn_seconds=DAY, target=2000)
    away(bob)
    digest = Digest.objects.create(user=bob, day=timezone.localdate())
    assert digests.deliver_digest(digest.pk) is False
    digest.refresh_from_db()
    assert digest.state == State.SKIPPED and to(mailoutbox, bob) == []
