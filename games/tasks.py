"""Celery tasks: thin, idempotent wrappers that take ids, re-read, and call games.actions.

Every task is queued on commit (never inside the transaction that made the work), serialised
as JSON, time-limited, and acknowledged late (config/settings.py): a task whose worker dies is
handed out again. Running twice changes nothing the second time: the services check the turn
or version under the game's row lock, and an e-mail's row is claimed before it is sent.

A lost task is not lost work: the beat's `sweep` reads what is owed from the database and
queues it again (games/notifications/outbox.py, docs/delivery.md). So e-mail retries are the sweep's
too: a failed send records its next attempt on the row instead of waiting in the broker.
"""

from __future__ import annotations

import logging

from celery import shared_task

from games.actions import deadlines, moves
from games.notifications import account_mail, digest, email, outbox, push_delivery
from games.reads import due

log = logging.getLogger(__name__)


@shared_task
def resolve_turn(game_id: int, turn: int) -> bool:
    """Resolve an Out of Gears turn once every program is in; does nothing if already done."""
    return moves.resolve_turn(game_id, turn)


@shared_task
def play_bots(game_id: int) -> int:
    """Every bot that must act now acts, through the same locked, version-checked write path."""
    return moves.play_bots(game_id)


@shared_task
def catch_up(game_id: int) -> int:
    """The sweep's repair of a game owed a step: its resolution, then its bots."""
    return moves.catch_up(game_id)


def _send(send, row_id: int) -> bool:
    """Send one e-mail row. A failure is already recorded on the row (its next attempt, or
    FAILED), and the sweep retries it: the task itself ends here either way."""
    try:
        return send(row_id)
    except Exception:  # recorded on the row and logged by send(); the sweep retries it
        return False


@shared_task
def send_notification(notification_id: int) -> bool:
    """Send one e-mail; a failed delivery never touches the game."""
    return _send(email.deliver, notification_id)


@shared_task
def send_invitation(invitation_id: int) -> bool:
    return _send(email.send_invitation, invitation_id)


@shared_task
def send_digest(digest_id: int) -> bool:
    return _send(digest.deliver_digest, digest_id)


@shared_task
def send_account_mail(mail_id: int) -> bool:
    """An account e-mail of allauth (confirmation, password reset), written by the adapter."""
    return _send(account_mail.deliver, mail_id)


@shared_task
def send_push(push_id: int) -> bool:
    """A Web Push of a notification to one device (games/notifications/push.py)."""
    return _send(push_delivery.deliver_push, push_id)


@shared_task
def queue_digests() -> int:
    """Beat, hourly: the daily digests of the players for whom it is now GEARTABLE_DIGEST_HOUR."""
    return len(digest.queue_digests())


@shared_task
def sweep() -> dict:
    """Beat, every OUTBOX_SWEEP_INTERVAL seconds: re-queue every overdue piece of work."""
    return outbox.sweep()


@shared_task
def expire_turn(game_id: int, turn: int) -> bool:
    return deadlines.expire_turn(game_id, turn)


@shared_task
def remind(game_id: int, turn: int) -> int:
    return deadlines.remind(game_id, turn)


@shared_task
def expire_deadlines() -> dict:
    """Beat, every minute: act on every expired deadline and send the reminders that are due.
    Each game is handled by its own task, so one failing game never blocks the others."""
    expired, to_remind = due.due_deadlines()
    for game_id, turn in expired:
        expire_turn.delay(game_id, turn)
    for game_id, turn in to_remind:
        remind.delay(game_id, turn)
    return {"expired": len(expired), "reminders": len(to_remind)}
