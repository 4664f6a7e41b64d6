"""Side effects after commit: queue a Celery task once the transaction that decided it commits.

Queueing here is how work usually starts within milliseconds, but never the only way it gets
done: what must happen is already written in the committed rows (the outbox: `Game.due_since`,
pending `Notification` and `Invitation` rows), and the beat's sweep (games/notifications/outbox.py)
re-queues whatever is overdue. So a broker that cannot be reached never fails the request or the
task that made the change: the failure is logged and the sweep catches up (docs/delivery.md).

A request, or a sweep, has one budget for queueing (`queueing_budget`): after the first failure,
or OUTBOX_QUEUE_BUDGET seconds, the rest is not even tried and is left to the sweep. A hung
broker (accepting connections, never answering) made each task of a request wait its own
timeout: 50 s to start an 8-player table (issue 23).

Tasks are named, not imported, so that the services, the notifications and the tasks that call
them form no import circle.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from celery import current_app
from django.conf import settings
from django.db import transaction
from kombu.exceptions import OperationalError

log = logging.getLogger(__name__)

# What publishing raises when the broker is down or unreachable (kombu wraps the transport's
# connection errors in OperationalError; a socket error can surface as OSError).
BROKER_ERRORS = (OperationalError, OSError)


@dataclass
class _Budget:
    ends: float
    failed: bool = False
    skipped: int = 0


_budget: ContextVar[_Budget | None] = ContextVar("queueing_budget", default=None)


@contextmanager
def queueing_budget(seconds: float | None = None) -> Iterator[_Budget]:
    """One budget for all the queueing done inside: after a failure or `seconds`
    (OUTBOX_QUEUE_BUDGET), `enqueue` leaves the rest to the sweep."""
    budget = _Budget(time.monotonic() + (seconds or settings.OUTBOX_QUEUE_BUDGET))
    token = _budget.set(budget)
    try:
        yield budget
    finally:
        _budget.reset(token)
        if budget.skipped:
            log.warning("%s task(s) not queued (the broker failed); the sweep will", budget.skipped)


class QueueingBudgetMiddleware:
    """Every request queues within one budget: a hung broker costs it one timeout, not one
    per task. Sync and async (under ASGI, `make run`, a sync-only middleware makes Django
    run the rest of the request through async_to_sync, whose executor breaks when the client
    goes away mid-request: issue 34.10)."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request):
        if self.is_async:
            return self._acall(request)
        with queueing_budget():
            return self.get_response(request)

    async def _acall(self, request):
        with queueing_budget():
            return await self.get_response(request)


def enqueue(task_name: str, *args) -> bool:
    """Queue `task_name(*args)` now; False (logged) if the broker cannot take it, or if this
    request's budget is spent. (Eager tasks, `make run`, have no sweep: always run.)"""
    budget = _budget.get()
    eager = current_app.conf.task_always_eager
    if budget is not None and not eager and (budget.failed or time.monotonic() > budget.ends):
        budget.skipped += 1
        return False
    try:
        current_app.tasks[task_name].delay(*args)
    except BROKER_ERRORS as exc:
        if budget is not None:
            budget.failed = True
        log.warning("Could not queue %s%r (%r); the outbox sweep will", task_name, args, exc)
        return False
    return True


def after_commit(task_name: str, *args) -> None:
    """Queue `task_name(*args)` once the current transaction commits (never before: a worker
    must find the rows), and never if it rolls back."""
    transaction.on_commit(lambda: enqueue(task_name, *args))
