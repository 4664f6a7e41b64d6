"""Which games the clock has made due: deadlines passed and reminders owed (the beat's list),
and the games with no clock that wait on a player too long (the dashboard's "stalled")."""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Exists, F, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from games.models import TURN_TIMES, Game, Move, Seat, Status


def due_deadlines(now=None) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """(game, turn) pairs whose deadline has passed, and those due a reminder (indexed)."""
    now = now or timezone.now()
    active = Game.objects.filter(status=Status.ACTIVE, deadline__isnull=False)
    expired = list(active.filter(deadline__lte=now).values_list("pk", "turn")[:500])
    # The reminder is due once 80% of the turn's time is gone: deadline - 20% of it <= now.
    # turn_seconds takes three values, so one indexed range query per value.
    to_remind: list[tuple[int, int]] = []
    for seconds in [seconds for seconds, _label in TURN_TIMES if seconds]:
        to_remind += list(
            active.filter(
                turn_seconds=seconds,
                deadline__gt=now,
                deadline__lte=now + timedelta(seconds=seconds * 0.2),
            )
            .exclude(reminded_turn=F("turn"))
            .values_list("pk", "turn")[:500]
        )
    return expired, to_remind


# A game with no time limit waiting on a player this long shows on the dashboard ("stalled"):
# nothing else would ever move it, and the player to act could hold it for ever.
STALLED_AFTER = timedelta(days=7)


def stalled_games(now=None) -> QuerySet[Game]:
    """Games in play with no time limit, waiting on a person (not a bot), whose last move (or
    start) is older than STALLED_AFTER; `idle_since` says since when. By the move log's
    (game, seq) index: one look-up per game in play without a deadline."""
    now = now or timezone.now()
    last_move = Move.objects.filter(game=OuterRef("pk")).order_by("-seq").values("created")[:1]
    waiting = Seat.objects.filter(game=OuterRef("pk"), to_act=True, user__isnull=False)
    return (
        Game.objects.filter(status=Status.ACTIVE, deadline__isnull=True, turn_seconds=0)
        .filter(Exists(waiting))
        .annotate(idle_since=Coalesce(Subquery(last_move), F("started")))
        .filter(idle_since__lt=now - STALLED_AFTER)
    )
