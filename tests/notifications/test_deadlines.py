"""Deadlines: after the time per turn, the absent player's turn is played for them (Geared: the
greedy bot; Out of Gears O19: Defend) through the same write path, once."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import tasks
from games.actions import deadlines
from games.models import Game, Move
from tests.notifications.helpers import Note, recipients, submit_program
from tests.support.games import seat_of, seat_to_act, snapshot, start_geared, start_oog
from tests.support.waiting import wait_for

pytestmark = pytest.mark.django_db(transaction=True)

DAY = 86400
SECOND = timedelta(seconds=1)


def test_geared_nothing_happens_before_the_deadline(mailoutbox, alice, bob):
    game = start_geared([alice, bob], turn_seconds=DAY, target=2000)
    before = snapshot(game)
    assert deadlines.expire_turn(game.pk, game.turn, now=game.deadline - SECOND) is False
    assert snapshot(game) == before


def test_geared_after_the_deadline_the_greedy_bot_plays_the_absent_players_turn(
    mailoutbox, alice, bob
):
    game = start_geared([alice, bob], turn_seconds=DAY, target=2000)
    absent = seat_to_act(game)
    other = bob if absent.user == alice else alice
    turn, old_deadline = game.turn, game.deadline

    assert deadlines.expire_turn(game.pk, turn, now=game.deadline + SECOND) is True
    game.refresh_from_db()
    assert game.turn == turn + 1
    assert seat_to_act(game).user == other
    assert game.deadline > old_deadline, "the next player's clock starts"
    moves = list(Move.objects.filter(game=game))
    assert moves, "the timeout is in the move log"
    assert {(m.kind, m.seat_id) for m in moves} == {(Move.Kind.TIMEOUT, absent.pk)}
    absent.refresh_from_db()
    assert absent.missed_deadlines == 1
    assert absent.user is not None and absent.bot == "", "one miss does not replace anyone"
    assert recipients(game, Note.YOUR_TURN, turn=turn + 1) == [other.username]
    assert [m.to for m in mailoutbox if "Your turn" in m.subject][-1] == [other.email]


def test_geared_the_beat_task_expires_a_past_deadline(mailoutbox, alice, bob):
    game = start_geared([alice, bob], turn_seconds=DAY, target=2000)
    absent = seat_to_act(game)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - SECOND)
    assert tasks.expire_deadlines.delay().get() == {"expired": 1, "reminders": 0}
    game.refresh_from_db()
    assert game.turn == 2
    assert Move.objects.filter(game=game, kind=Move.Kind.TIMEOUT, seat=absent).exists()
    # The new deadline is a day away: the next beat run does nothing.
    assert tasks.expire_deadlines.delay().get() == {"expired": 0, "reminders": 0}


def test_an_expiry_for_a_turn_that_is_over_changes_nothing(mailoutbox, alice, bob):
    game = start_geared([alice, bob], turn_seconds=DAY, target=2000)
    turn = game.turn
    assert deadlines.expire_turn(game.pk, turn, now=game.deadline + SECOND) is True
    before = snapshot(game)
    # The same task delivered twice (acks_late), or a slow beat: the turn has moved on.
    assert deadlines.expire_turn(game.pk, turn, now=game.deadline + timedelta(days=2)) is False
    assert tasks.expire_turn.delay(game.pk, turn).get() is False
    assert snapshot(game) == before


def test_geared_a_game_without_a_time_limit_never_expires(mailoutbox, alice, bob):
    game = start_geared([alice, bob], target=2000)
    assert game.deadline is None
    before = snapshot(game)
    assert (
        deadlines.expire_turn(game.pk, game.turn, now=timezone.now() + timedelta(days=30)) is False
    )
    assert snapshot(game) == before


def revealed(game: Game, turn: int) -> dict[int, tuple[str, int]]:
    story = next(s for s in game.state["story"] if s["turn"] == turn)
    return {e["robot"]: (e["action"], e["number"]) for e in story["revealed"]}


def test_out_of_gears_missing_robots_defend_and_the_turn_resolves(mailoutbox, alice, bob, carol):
    """O19: a robot whose program is not in by the deadline is programmed to Defend."""
    game = start_oog([alice, bob, carol], turn_seconds=DAY)
    submit_program(game, alice)
    game.refresh_from_db()
    alice_program = game.state["programs"][seat_of(game, alice).seat_id]

    assert deadlines.expire_turn(game.pk, 1, now=game.deadline + SECOND) is True
    game.refresh_from_db()
    assert game.turn == 2, "the turn resolved"
    shown = revealed(game, 1)
    for user in (bob, carol):
        (robot,) = seat_of(game, user).robots
        assert shown[robot] == ("attack", robot), "Defend: the robot attacks itself"
    (alice_robot,) = seat_of(game, alice).robots
    assert shown[alice_robot] == (alice_program[0]["action"], alice_program[0]["number"])
    timeouts = Move.objects.filter(game=game, kind=Move.Kind.TIMEOUT)
    assert sorted(m.seat.user.username for m in timeouts) == ["bob", "carol"]
    assert Move.objects.filter(game=game, kind=Move.Kind.RESOLVE).count() == 1
    missed = {s.user.username: s.missed_deadlines for s in game.seats.select_related("user")}
    assert missed == {"alice": 0, "bob": 1, "carol": 1}
    assert recipients(game, Note.TURN_RESOLVED, turn=2) == ["alice", "bob", "carol"]

    before = snapshot(game)
    assert deadlines.expire_turn(game.pk, 1, now=timezone.now() + timedelta(days=3)) is False
    assert snapshot(game) == before


@pytest.mark.worker
def test_out_of_gears_the_beat_expires_and_the_worker_resolves(celery_worker, alice, bob):
    game = start_oog([alice, bob], turn_seconds=DAY)
    submit_program(game, bob)
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - SECOND)
    tasks.expire_deadlines.delay()

    def resolved():
        fresh = Game.objects.get(pk=game.pk)
        return fresh if fresh.turn == 2 else None

    game = wait_for(resolved, what="the worker to expire and resolve turn 1")
    (robot,) = seat_of(game, alice).robots
    assert revealed(game, 1)[robot] == ("attack", robot)
    assert Move.objects.filter(game=game, kind=Move.Kind.RESOLVE).count() == 1
