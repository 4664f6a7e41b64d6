"""The clock: a missed deadline acted out (the rules' default for each absent seat, a bot after
too many misses), the reminder at 80% of the time, and resigning (a bot takes the seat)."""

from __future__ import annotations

import random
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import User
from games import engines, vacation
from games.actions.base import (
    _locked_with_seat,
    _queue_followups,
    _settle,
    _sync_seats,
    acting,
    locked_game,
)
from games.actions.moves import _apply, _resolve
from games.errors import Conflict
from games.live import cache as live
from games.models import Game, Move, Seat, Status
from games.notifications import queueing as notifications

MAX_TIMEOUT_STEPS = 20  # actions a missed turn may take before the one that must end it


def expire_turn(game_id: int, turn: int, *, now=None) -> bool:
    """The deadline of turn `turn` has passed: act for every absent seat through the same write
    path (Geared: the greedy bot plays; Out of Gears: O19's default programs), count the miss,
    and after `replace_after` misses in a row put a bot in the seat. Idempotent."""
    now = now or timezone.now()
    with transaction.atomic():
        game = locked_game(game_id)
        if (
            game.status != Status.ACTIVE
            or game.turn != turn
            or game.deadline is None
            or game.deadline > now
        ):
            return False
        eng = engines.engine(game.kind)
        if eng.needs_resolution(game.state):
            # Nobody is absent: every program is in and only the resolution is missing (its
            # task was lost). Resolve it now rather than leave the deadline behind us.
            return _resolve(game)
        seats = {s.seat_id: s for s in game.seats.select_related("user", "replaced_user")}
        absent = [seats[sid] for sid in sorted(eng.to_act(game.state), key=int)]
        if vacation.hold_deadline(game, absent, now):  # a player away: the turn waits
            return False
        for seat in absent:
            # The rules' default for the missed turn (Geared: the greedy bot plays it, perhaps
            # rearranging first; Out of Gears: O19's default program), bounded: the last step
            # must end the seat's turn.
            for step in range(MAX_TIMEOUT_STEPS + 1):
                if game.status != Status.ACTIVE or seat.seat_id not in eng.to_act(game.state):
                    break
                rng = random.Random(f"{game.seed}:{game.version}")
                last = step == MAX_TIMEOUT_STEPS
                action = eng.timeout_actions(game.state, rng, last_chance=last).get(seat.seat_id)
                if action is None:
                    break
                _apply(game, seat, action, Move.Kind.TIMEOUT, eng)
            if not seat.is_bot:
                seat.missed_deadlines += 1
                Seat.objects.filter(pk=seat.pk).update(missed_deadlines=seat.missed_deadlines)
                if seat.missed_deadlines >= game.options.get("replace_after", 3):
                    replace_with_bot(game, seat, missed=True)
    return True


@acting
def resign(user: User, game_id: int) -> Game:
    """A player leaves an active game: a greedy bot takes the seat and the game goes on."""
    with transaction.atomic():
        game, seat = _locked_with_seat(user, game_id, gettext("There is no such game."))
        if game.status != Status.ACTIVE:
            raise Conflict(gettext("Only a game in play can be resigned from."))
        replace_with_bot(game, seat, missed=False)
    return game


def replace_with_bot(game: Game, seat: Seat, *, missed: bool) -> None:
    """A greedy bot takes the seat (of the locked, active game) and the game goes on; the
    others are told, and the player too if they `missed` their deadlines."""
    user = seat.user
    seat.bot, seat.replaced_user, seat.user = "greedy", user, None
    seat.save(update_fields=["bot", "replaced_user", "user"])
    live.forget_turns([user.pk])  # the seat, and its turn if it was theirs, is the bot's now
    game.version += 1
    seats, step = _settle(game, engines.engine(game.kind))
    game.save(update_fields=["version", "due_since", "updated"])
    if missed:
        seat.user = user  # only to address the e-mail; the seat row no longer names them
        notifications.queue(game, notifications.Kind.REPLACED, [seat], turn=game.turn)
        seat.user = None
    others = notifications.human_seats(notifications.players_of(game), exclude=seat)
    notifications.queue(
        game, notifications.Kind.PLAYER_REPLACED, others, turn=game.turn, about=seat.position
    )
    _sync_seats(game, seats, step)
    _queue_followups(game, seats, step)


def remind(game_id: int, turn: int, *, now=None) -> int:
    """Once per turn, when about 80% of the time is gone, remind those who have not played."""
    now = now or timezone.now()
    with transaction.atomic():
        game = locked_game(game_id)
        if (
            game.status != Status.ACTIVE
            or game.turn != turn
            or not game.deadline
            or not game.turn_seconds
            or game.reminded_turn == turn
            or now < game.deadline - timedelta(seconds=game.turn_seconds * 0.2)
        ):
            return 0
        game.reminded_turn = turn
        game.save(update_fields=["reminded_turn", "updated"])
        waiting = [
            s
            for s in game.seats.select_related("user", "replaced_user")
            if s.to_act and s.user_id and not s.bot
        ]
        return len(notifications.queue(game, notifications.Kind.REMINDER, waiting, turn=turn))
