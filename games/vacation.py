"""Vacation in play: a game's deadline waits for a player who is away, their turn e-mails wait
for their return, and a moderator may exempt a game that cannot wait (docs/vacation.md).

The allowance and the player's own dates are games/vacation_dates.py's; this module is what they
do to games, called from a few hooks: `hold_deadline` in services.expire_turn (under the game's
row lock), `hold_for_return` and `skip_digest` in the notifications' delivery, `away_seats` in
the game pages, and `take` / `come_back` from the profile. A moderator's exemption of a game
(`moderation.set_exempt`) reads `is_away` and `is_paused_for`.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from accounts.models import User
from games import effects, outbox
from games import vacation_dates as allowance
from games.models import Digest, Game, Notification, Push, Seat, Status

# What a held e-mail's row says while it waits (its `error`, shown in the admin's outbox).
HELD = "Held: the player is away on vacation"
# The e-mails that wait for the player's return; the others (game over, replaced, aborted)
# are not about a move they owe, and go at once.
HELD_KINDS = (
    Notification.Kind.YOUR_TURN,
    Notification.Kind.TURN_RESOLVED,
    Notification.Kind.REMINDER,
)


def is_away(user: User | None, now: datetime | None = None) -> bool:
    return (
        user is not None and user.away_ends is not None and user.away_ends > (now or timezone.now())
    )


# --- deadlines --------------------------------------------------------------------------------


def hold_deadline(game: Game, absent: list[Seat], now: datetime) -> bool:
    """services.expire_turn, under the game's row lock, before it plays for the absent seats:
    if one of them is a player away on vacation (and the game is not exempt), nobody is played
    for or counted as missing; the turn's clock stopped when they went away, and it resumes at
    their return with the time it had left then (the full time per turn if the turn began
    while they were away). True if it did (the caller then stops). A deadline that had passed
    before the vacation began is not held. Runs once per pause: the deadline it sets is past
    the return, so the beat does not pick the game again until then."""
    if game.vacation_exempt or game.deadline is None:
        return False
    turn = timedelta(seconds=game.turn_seconds)
    held = []
    for seat in absent:
        if seat.bot or not is_away(seat.user, now):
            continue
        mine = allowance.current(seat.user, now)
        went = mine.started if mine is not None else now
        left = min(game.deadline - went, turn)
        if left > timedelta(0):  # the deadline had not passed before they went away
            held.append((seat.user.away_ends, left))
    if not held:
        return False
    game.paused_left = max(left for _back, left in held)
    game.deadline = max(back for back, _left in held) + game.paused_left
    game.save(update_fields=["deadline", "paused_left", "updated"])
    return True


def is_paused_for(game: Game, back: datetime) -> bool:
    """Is the game's deadline the one `hold_deadline` set for a player back at `back`?"""
    return (
        game.paused_left is not None
        and game.deadline is not None
        and game.deadline == back + game.paused_left
    )


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


# --- the player's vacation ------------------------------------------------------------------


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


# --- e-mails ------------------------------------------------------------------------------------


def hold_for_return(note: Notification) -> bool:
    """notifications.deliver, after the claim: a turn e-mail to a player who is away goes back
    to PENDING, due at their return (the outbox's sweep sends it then, or `come_back` at once),
    with a day of retries from then. A reminder is dropped if the same turn's "your turn" or
    "turn resolved" e-mail already waits: one e-mail per game on return. True if held."""
    user = note.user
    if note.kind not in HELD_KINDS or not is_away(user):
        return False
    if note.kind == Notification.Kind.REMINDER and (
        Notification.objects.filter(
            user=user,
            game_id=note.game_id,
            turn=note.turn,
            kind__in=(Notification.Kind.YOUR_TURN, Notification.Kind.TURN_RESOLVED),
            state=outbox.State.PENDING,
            error__startswith=HELD,
        ).exists()
    ):
        outbox.mark_skipped(note, "Not needed: the turn's own e-mail waits for the player.")
        return True
    # An e-mail with pushes waits, on return too, for a push to reach the player first.
    back = user.away_ends + (_fallback() if _has_pushes(note.pk) else timedelta(0))
    _hold(Notification, note, back)
    return True


def hold_push_for_return(push: Push) -> bool:
    """notifications.deliver_push, after the claim: as `hold_for_return`, a turn push to a
    player who is away waits for their return. True if held."""
    note = push.notification
    if note.kind not in HELD_KINDS or not is_away(note.user):
        return False
    _hold(Push, push, note.user.away_ends)
    return True


def _hold(model, row, back: datetime) -> None:
    user = row.user if model is Notification else row.notification.user
    model.objects.filter(pk=row.pk, state=outbox.State.SENDING, claimed=row.claimed).update(
        state=outbox.State.PENDING,
        claimed=None,
        attempts=F("attempts") - 1,  # waiting is not a failed attempt
        next_attempt=back,
        give_up_at=back + outbox.seconds("OUTBOX_GIVE_UP_AFTER"),
        error=f"{HELD} until {user.away_until:%d %b %Y}.",
    )
    # 0 rows: the claim was taken back meanwhile, and the row is another worker's to send.


def _fallback() -> timedelta:
    return outbox.seconds("PUSH_EMAIL_FALLBACK")


def _has_pushes(note_id: int) -> bool:
    return Push.objects.filter(notification_id=note_id).exists()


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


def skip_digest(digest: Digest) -> bool:
    """notifications.deliver_digest, after the claim: no daily digest while the player is away
    (each day's would pile up for the return; the turn e-mails held wait instead)."""
    if not is_away(digest.user):
        return False
    outbox.mark_skipped(digest, "Not sent: the player is away on vacation.")
    return True


# --- the game page ---------------------------------------------------------------------------


def away_seats(game: Game) -> list[dict]:
    """Who the game waits for while they are away: only each one's name and last day away.
    From the seats the page has already loaded (with their users): no query."""
    if game.status != Status.ACTIVE or game.vacation_exempt:
        return []
    now = timezone.now()
    return [
        {"seat": s.seat_id, "name": s.name, "until": s.user.away_until}
        for s in game.table
        if s.to_act and s.user_id and not s.bot and is_away(s.user, now)
    ]
