"""Celery tasks: thin, idempotent wrappers that take ids, re-read, and call games.services."""

from __future__ import annotations

import logging

from celery import shared_task

from games import services

log = logging.getLogger(__name__)


@shared_task(acks_late=True, autoretry_for=(ConnectionError,), retry_backoff=True, max_retries=5)
def resolve_turn(game_id: int, turn: int) -> bool:
    """Resolve an Out of Gears turn once every program is in; does nothing if already done."""
    return services.resolve_turn(game_id, turn)


@shared_task(acks_late=True)
def play_bots(game_id: int) -> int:
    """Every bot that must act now acts, through the same locked, version-checked write path."""
    return services.play_bots(game_id)


@shared_task(acks_late=True, autoretry_for=(OSError,), retry_backoff=True, max_retries=5)
def send_invitation(invitation_id: int) -> bool:
    from games import notifications

    return notifications.send_invitation(invitation_id)
