"""Vacation in play: a game's deadline waits for a player who is away, their turn e-mails wait
for their return, and a moderator may exempt a game that cannot wait (docs/vacation.md).

The allowance and the player's own dates are games/vacation_dates.py's; this module is what they
do to games while it lasts, called from a few hooks: `hold_deadline` in
actions.deadlines.expire_turn (under the game's row lock), `hold_for_return` and `skip_digest`
in the notifications' delivery, `away_seats` in the game pages. Taking and ending a vacation
(`take` / `come_back`, from the profile) is games/actions/time_off.py. A moderator's exemption
of a game (`moderation.set_exempt`) reads `is_away` and `is_paused_for`.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import F
from django.utils import timezone

from accounts.models import User
from games import vacation_dates as allowance
from games.models import Digest, Game, Notification, Push, Seat, Status
from games.notifications import outbox

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


def hold_deadline(game: Game, absent: list[Seat], now: datetime) -> bool:
    """actions.deadlines.expire_turn, under the game's row lock, before it plays for the absent
    seats: if one of them is a player away on vacation (and the game is not exempt), nobody is
    played for or counted as missing; the turn's clock stopped when they went away, and it
    resumes at their return with the time it had left then (the full time per turn if the turn
    began while they were away). True if it did (the caller then stops). A deadline that had passed
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


def _fallback() -> timedelta:
    return outbox.seconds("PUSH_EMAIL_FALLBACK")


def _has_pushes(note_id: int) -> bool:
    return Push.objects.filter(notification_id=note_id).exists()


def skip_digest(digest: Digest) -> bool:
    """notifications.deliver_digest, after the claim: no daily digest while the player is away
    (each day's would pile up for the return; the turn e-mails held wait instead)."""
    if not is_away(digest.user):
        return False
    outbox.mark_skipped(digest, "Not sent: the player is away on vacation.")
    return True


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
