"""Celery tasks: thin, idempotent wrappers that take ids, re-read, and call games.services.

Every task is queued on commit (never inside the transaction that made the work), serialised
as JSON, and time-limited (config/settings.py). A task that runs twice changes nothing the
second time: the services check the turn or version under the game's row lock, and an e-mail's
Notification row is sent once.
"""

from __future__ import annotations

import logging
import smtplib

from celery import shared_task

from games import notifications, services

log = logging.getLogger(__name__)

# What a failed delivery raises: SMTP refusals and connection errors (OSError covers sockets).
MAIL_ERRORS = (smtplib.SMTPException, OSError)


@shared_task(acks_late=True)
def resolve_turn(game_id: int, turn: int) -> bool:
    """Resolve an Out of Gears turn once every program is in; does nothing if already done.

    acks_late: if the worker dies mid-way, the broker hands the task to another worker, and the
    turn check under the row lock makes the second run safe."""
    return services.resolve_turn(game_id, turn)


@shared_task(acks_late=True)
def play_bots(game_id: int) -> int:
    """Every bot that must act now acts, through the same locked, version-checked write path."""
    return services.play_bots(game_id)


@shared_task(bind=True, acks_late=True, max_retries=5)
def send_notification(self, notification_id: int) -> bool:
    """Send one e-mail; on failure retry with exponential backoff, then record the failure.
    A failed delivery never touches the game."""
    try:
        return notifications.deliver(notification_id)
    except MAIL_ERRORS as exc:
        final = self.request.retries >= self.max_retries
        notifications.record_failure(notification_id, repr(exc), final=final)
        if final:
            return False
        raise self.retry(exc=exc, countdown=min(600, 5 * 2**self.request.retries)) from exc
    except Exception as exc:  # a bug, not the mail server: retrying would not help
        log.exception("E-mail %s could not be built", notification_id)
        notifications.record_failure(notification_id, repr(exc), final=True)
        return False


@shared_task(bind=True, acks_late=True, max_retries=5)
def send_invitation(self, invitation_id: int) -> bool:
    try:
        return notifications.send_invitation(invitation_id)
    except MAIL_ERRORS as exc:
        if self.request.retries >= self.max_retries:
            log.error("Invitation %s failed after its retries: %r", invitation_id, exc)
            return False
        raise self.retry(exc=exc, countdown=min(600, 5 * 2**self.request.retries)) from exc


@shared_task(acks_late=True)
def expire_turn(game_id: int, turn: int) -> bool:
    return services.expire_turn(game_id, turn)


@shared_task(acks_late=True)
def remind(game_id: int, turn: int) -> int:
    return services.remind(game_id, turn)


@shared_task
def expire_deadlines() -> dict:
    """Beat, every minute: act on every expired deadline and send the reminders that are due.
    Each game is handled by its own task, so one failing game never blocks the others."""
    expired, to_remind = services.due_deadlines()
    for game_id, turn in expired:
        expire_turn.delay(game_id, turn)
    for game_id, turn in to_remind:
        remind.delay(game_id, turn)
    return {"expired": len(expired), "reminders": len(to_remind)}
