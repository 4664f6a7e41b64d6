"""Side effects after commit: queue a Celery task once the transaction that decided it commits.

Queueing here is how work usually starts within milliseconds, but never the only way it gets
done: what must happen is already written in the committed rows (the outbox: `Game.due_since`,
pending `Notification` and `Invitation` rows), and the beat's sweep (games/outbox.py) re-queues
whatever is overdue. So a broker that cannot be reached never fails the request or the task that
made the change: the failure is logged and the sweep catches up (docs/delivery.md).

Tasks are named, not imported, so that the services, the notifications and the tasks that call
them form no import circle.
"""

from __future__ import annotations

import logging

from celery import current_app
from django.db import transaction
from kombu.exceptions import OperationalError

log = logging.getLogger(__name__)

# What publishing raises when the broker is down or unreachable (kombu wraps the transport's
# connection errors in OperationalError; a socket error can surface as OSError).
BROKER_ERRORS = (OperationalError, OSError)


def enqueue(task_name: str, *args) -> bool:
    """Queue `task_name(*args)` now; False (logged) if the broker cannot take it."""
    try:
        current_app.tasks[task_name].delay(*args)
    except BROKER_ERRORS as exc:
        log.warning("Could not queue %s%r (%r); the outbox sweep will", task_name, args, exc)
        return False
    return True


def after_commit(task_name: str, *args) -> None:
    """Queue `task_name(*args)` once the current transaction commits (never before: a worker
    must find the rows), and never if it rolls back."""
    transaction.on_commit(lambda: enqueue(task_name, *args))
