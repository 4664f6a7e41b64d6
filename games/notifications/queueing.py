"""What e-mail and push is owed to whom: the players' switches, the rows written once, and why
one is no longer worth sending.

Services call `queue()` inside their transaction: it records one Notification row per player
(a unique key makes it at most once per player, game, turn and kind): the row is the outbox
entry (games/notifications/outbox.py). A Celery task queued on commit sends it
(games/notifications/email.py, push_delivery.py); the beat's sweep re-queues it if that task is
lost or the send fails. Templates come in trios per message:
templates/emails/<kind>_subject.txt, <kind>.txt and <kind>.html.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from games import effects, sql
from games.live import cache as live
from games.models import (
    Game,
    Notification,
    Push,
    Seat,
)
from games.notifications import outbox
from games.notifications import push as webpush

Kind = Notification.Kind


# Which profile switch governs a kind of e-mail (None: always sent, e.g. "you were replaced").
PREFERENCE = {
    Kind.YOUR_TURN: "notify_turn",
    Kind.TURN_RESOLVED: "notify_turn",
    Kind.GAME_OVER: "email_game_over",
    Kind.REMINDER: "notify_reminder",
    Kind.REPLACED: None,
    Kind.PLAYER_REPLACED: None,
    Kind.ABORTED: None,
}


# A notification written at most once: one INSERT that writes nothing if the row is there
# (the rows of one change in one INSERT: `many`, matched by the constraint's key).
_ONCE = next(c for c in Notification._meta.constraints if c.name == "notification_once")
_insert_once = sql.InsertOnce(Notification, key=tuple(_ONCE.fields))


def may_mail(user, kind: str) -> bool:
    """Never a bot (no user, or a bot account: no person reads it, issue 28.4), an inactive or
    suspended user, or one who turned it off."""
    if user is None or user.is_bot or not user.is_active or not user.email or user.is_suspended:
        return False
    preference = PREFERENCE[kind]
    return preference is None or getattr(user, preference)


def queue(game: Game, kind: str, seats, *, turn: int = 0, about: int = 0) -> list[int]:
    """Record one e-mail per eligible player and send each after commit. Call inside the
    game's transaction. Returns the ids of the notifications created."""
    notes: list[Notification] = []
    for seat in seats:
        user = seat.user
        if any(note.user == user for note in notes):
            continue  # one row per player (an INSERT of them all must not name one twice)
        # E-mail, a device, or both (the e-mail row is the notification's; a player who wants
        # pushes only has it skipped: games/notifications/push.py).
        if not may_mail(user, kind) and not (
            webpush.may_push(user, kind) and webpush.has_devices(user)
        ):
            continue
        notes.append(
            Notification(
                kind=kind,
                user=user,
                game=game,
                turn=turn,
                about=about,
                next_attempt=outbox.first_attempt(),
            )
        )
    # At most once (the unique key): one INSERT of them all, which writes none already there.
    created = _insert_once.many(notes)
    # A player with devices subscribed is pushed first; their e-mail waits
    # (games/notifications/push.py).
    waiting = set(webpush.queue(created))
    # The move is committed whatever happens to its e-mail: a broker that cannot be reached is
    # logged, and the sweep sends the row later.
    for note in created:
        if note.pk not in waiting:
            effects.after_commit("games.tasks.send_notification", note.pk)
    return [note.pk for note in created]


# Turn e-mails stop being worth sending once the turn they announce is over.
TURN_KINDS = (Kind.YOUR_TURN, Kind.REMINDER, Kind.TURN_RESOLVED)
# What a player who chose the daily digest gets in it instead (reminders and the end of a game
# still come at once: they are about a deadline, and once per game).
DIGESTED = (Kind.YOUR_TURN, Kind.TURN_RESOLVED)
# What a player watching the game's page sees happen there instead (a reminder of a deadline
# still goes: the page does not ring).
WATCHED_KINDS = (Kind.YOUR_TURN, Kind.TURN_RESOLVED)


def unwanted(note: Notification) -> str:
    """Why this e-mail should not go out now, or "" if it should. A row whose earlier attempt
    may have arrived is only held to the player's own choices (`finishing`)."""
    if not may_mail(note.user, note.kind):  # preferences may have changed since queued
        return "No longer wanted: the player turned it off or cannot be mailed."
    if note.user.email_digest and note.kind in DIGESTED:
        return "Left for the player's daily digest."
    if finishing(note):
        return ""
    if not note.user.email_with_push and webpush.reached(note.pk):
        return "Not needed: a notification reached the player's device."
    return _overtaken(note, note)


def finishing(row) -> bool:
    """Was an earlier attempt of this row cut off in the middle of its SMTP conversation (its
    worker killed: a lost claim; or cut off during DATA)? Then the message may or may not have
    arrived, and it is sent again with its Message-ID whatever changed since (the turn passed,
    the game or the table stopped, the player's page is open, a push arrived, the player went
    away): at least once, never a loss. Only the recipient's own choices (turned off, the
    suppression list, cannot be mailed) still stop it. Sent so, it counts as a possible double
    (`outbox.MAYBE_DOUBLED`, the outbox page; docs/delivery.md)."""
    return row.maybe_sent


def _overtaken(note: Notification, row: Notification | Push) -> str:
    """Why the news of `note` is no longer worth sending by `row` (the e-mail itself or one of
    its pushes, whose own attempts and age count), or "": one rule for both channels."""
    if note.kind in WATCHED_KINDS and is_watching(note.game_id, note.user_id):
        return "Not needed: the player had the game open."
    if note.kind in TURN_KINDS and not note.game.is_active:
        # Aborted or finished since it was written: there is no turn to play, late or not
        # (the game's own e-mail, "aborted" or "game over", tells the player).
        return f"No longer wanted: the game is {note.game.get_status_display().lower()}."
    late = row.attempts > 1 or row.created < timezone.now() - outbox.seconds("OUTBOX_MAIL_GRACE")
    if late and note.kind in TURN_KINDS and note.game.turn != note.turn:
        # A retry after an outage: the turn it announces has passed, the player has moved on.
        return "No longer wanted: the turn it announced is over."
    return ""


def is_watching(game_id: int, user_id: int, *, now=None) -> bool:
    """Has this player's open page of the game checked for news within
    GEARTABLE_WATCHING_SECONDS (games.actions.watching.note_watching), or has its open stream marked
    them watching (games.live.cache.mark_watching)? Then they see the news there."""
    window = settings.GEARTABLE_WATCHING_SECONDS
    if not window:
        return False
    if live.streamed(game_id, user_id):
        return True
    since = (now or timezone.now()) - timedelta(seconds=window)
    return Seat.objects.filter(game_id=game_id, user_id=user_id, watched__gte=since).exists()


def human_seats(seats, *, exclude: Seat | None = None) -> list[Seat]:
    """The seats a person plays, of a game's `seats` (with their players)."""
    return [s for s in seats if s.user_id and not s.bot and (exclude is None or s.pk != exclude.pk)]


def players_of(game: Game):
    """A game's seats with their players, as `human_seats` reads them (one query)."""
    return game.seats.select_related("user", "replaced_user")
