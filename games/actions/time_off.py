"""A player going away and coming back (docs/vacation.md): the profile's vacation set, changed or
ended, and what it does to their games at once: paused deadlines moved (each game under its
lock), held e-mails released, open pages told. The allowance and the dates are
games/vacation_dates.py's; what a vacation holds while it lasts is games/vacation.py's."""

from __future__ import annotations

from datetime import date, datetime

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games import effects
from games import vacation_dates as allowance
from games.models import Game, Notification, Push, Seat, Status
from games.notifications import outbox
from games.vacation import HELD, _fallback, is_away, is_paused_for


def _retime(user: User, old_back: datetime, new_back: datetime, now: datetime) -> int:
    """The player's return moved from `old_back` to `new_back` (back early, or a new date):
    each deadline paused for them (their old return + the time the turn had left) moves to
    `new_back` + that time. Each game under its row lock."""
    game_ids = list(
        Seat.objects.filter(
            user=user,
            to_act=True,
            game__status=Status.ACTIVE,
            game__vacation_exempt=False,
            game__paused_left__isnull=False,
        ).values_list("game_id", flat=True)
    )
    moved = 0
    for game_id in game_ids:
        game = Game.objects.locked(game_id)
        if game is None or game.status != Status.ACTIVE or not is_paused_for(game, old_back):
            continue
        game.deadline = new_back + game.paused_left
        game.save(update_fields=["deadline", "updated"])
        moved += 1
    return moved


def take(user: User, until: date, now: datetime | None = None):
    """Set (or change) the player's vacation: away until the end of `until`. A new date moves
    what waited for the old one: paused deadlines (to the new return + the time per turn) and,
    if sooner, held e-mails."""
    now = now or timezone.now()
    with transaction.atomic():
        old_back = user.away_ends if is_away(user, now) else None
        stretch = allowance.start(user, until, now)
        if old_back is not None and stretch.ends != old_back:
            _retime(user, old_back, stretch.ends, now)
            _release_mail(user, stretch.ends, now)
        _show_pause(user)
    return stretch


def come_back(user: User, now: datetime | None = None):
    """End the player's vacation now: paused deadlines resume now with the time they had left,
    and the e-mails that waited go out (once each: they are the same outbox rows)."""
    now = now or timezone.now()
    with transaction.atomic():
        old_back = user.away_ends
        stretch = allowance.end(user, now)
        _retime(user, old_back or stretch.ends, now, now)
        _release_mail(user, now, now)
        _show_pause(user)
    return stretch


def _show_pause(user: User) -> None:
    """The games waiting for the player say so ("paused: X is away until …", or "due in …"
    again): each one's open pages learn of it at the commit (Game.shown_changed), each game
    under its row lock, in the order of their ids."""
    game_ids = (
        Seat.objects.filter(
            user=user, to_act=True, game__status=Status.ACTIVE, game__vacation_exempt=False
        )
        .order_by("game_id")
        .values_list("game_id", flat=True)
    )
    for game_id in list(game_ids):
        game = Game.objects.locked(game_id)
        if game is not None and game.status == Status.ACTIVE:
            game.shown_changed()


def _release_mail(user: User, when: datetime, now: datetime) -> None:
    """Held e-mails of this player due at `when` instead (their return moved); sent after
    commit if that is now."""
    rows = Notification.objects.filter(
        user=user, state=outbox.State.PENDING, error__startswith=HELD, next_attempt__gt=when
    )
    ids = list(rows.values_list("pk", flat=True))
    Notification.objects.filter(pk__in=ids, state=outbox.State.PENDING).update(
        next_attempt=when,
        give_up_at=when + outbox.seconds("OUTBOX_GIVE_UP_AFTER"),
    )
    # Those with pushes wait for them: the pushes go at `when`, their e-mails a fallback later.
    with_pushes = set(
        Push.objects.filter(notification_id__in=ids).values_list("notification_id", flat=True)
    )
    Notification.objects.filter(pk__in=with_pushes, state=outbox.State.PENDING).update(
        next_attempt=when + _fallback(),
        give_up_at=when + _fallback() + outbox.seconds("OUTBOX_GIVE_UP_AFTER"),
    )
    pushes = Push.objects.filter(
        notification__user=user,
        state=outbox.State.PENDING,
        error__startswith=HELD,
        next_attempt__gt=when,
    )
    push_ids = list(pushes.values_list("pk", flat=True))
    Push.objects.filter(pk__in=push_ids, state=outbox.State.PENDING).update(
        next_attempt=when, give_up_at=when + outbox.seconds("OUTBOX_GIVE_UP_AFTER")
    )
    if when <= now:
        for pk in ids:
            if pk not in with_pushes:
                effects.after_commit("games.tasks.send_notification", pk)
        for pk in push_ids:
            effects.after_commit("games.tasks.send_push", pk)
