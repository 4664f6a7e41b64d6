"""The real Celery worker for the tests that need one (solo pool, in a thread of the test's
process), on a queue of the test's own, and a ledger of what was queued there and what ran."""

from __future__ import annotations

import os
import threading
import uuid
from collections import Counter

import pytest
from celery.signals import after_task_publish, task_postrun

from tests.support.waiting import wait_for


class TaskLedger:
    """Every task published to `queue` and every task run, by id (a task retried is published
    and run again under its id): when each id has run as often as it was queued, nothing is
    left that could still send an e-mail or make a move."""

    def __init__(self, queue: str) -> None:
        self.queue = queue
        self.queued: Counter[str] = Counter()
        self.ran: Counter[str] = Counter()
        self.lock = threading.Lock()

    def _published(self, sender=None, headers=None, routing_key=None, **_) -> None:
        if routing_key == self.queue and headers and "id" in headers:
            with self.lock:
                self.queued[headers["id"]] += 1

    def _finished(self, sender=None, task_id=None, **_) -> None:
        with self.lock:
            self.ran[task_id] += 1

    def connect(self) -> None:
        after_task_publish.connect(self._published, weak=False)
        task_postrun.connect(self._finished, weak=False)

    def disconnect(self) -> None:
        after_task_publish.disconnect(self._published)
        task_postrun.disconnect(self._finished)

    def pending(self) -> int:
        with self.lock:
            return sum(max(0, n - self.ran[task_id]) for task_id, n in self.queued.items())

    def wait_until_idle(self, seconds: float = 10.0) -> None:
        """Wait until every task queued so far (and every task those queued) has run."""
        wait_for(
            lambda: self.pending() == 0,
            seconds=seconds,
            what=lambda: f"{self.pending()} queued task(s) to run",
        )


def _forget_routing(app) -> None:
    """Celery builds its queues, router and task sender from the settings on first use."""
    app.__dict__.pop("amqp", None)


@pytest.fixture
def celery_worker(settings):
    """A real Celery worker (solo pool, in a thread) consuming from the real broker, on a
    queue of this test's own: other pytest processes (xdist, other runs on the machine) start
    workers on the same Redis, and a task one of them took would run against its own test
    database. `celery_worker.tasks` is the queue's TaskLedger. Tasks stop running eagerly.

    Request it *before* `transactional_db`/`live_server`: Celery's Django fixup closes the
    connections it finds when the worker starts."""
    from celery.contrib.testing.worker import start_worker

    from config.celery import app

    queue = f"geartable-test-{os.getpid()}-{uuid.uuid4().hex[:12]}"
    saved = app.conf.task_default_queue
    app.conf.task_default_queue = queue
    _forget_routing(app)
    assert app.amqp.default_queue.name == queue
    app.conf.task_always_eager = False
    settings.CELERY_TASK_ALWAYS_EAGER = False
    ledger = TaskLedger(queue)
    ledger.connect()
    try:
        with start_worker(
            app,
            pool="solo",
            perform_ping_check=False,
            without_heartbeat=False,
            loglevel="WARNING",
            queues=[queue],
        ) as worker:
            worker.tasks = ledger
            yield worker
    finally:
        ledger.disconnect()
        app.conf.task_always_eager = True
        app.conf.task_default_queue = saved
        _forget_routing(app)
        with app.connection_for_write() as conn:
            channel = conn.default_channel
            channel.queue_delete(queue)
            client = getattr(channel, "client", None)  # Redis: the exchange's binding tables
            if client is not None:
                client.delete(f"_kombu.binding.{queue}", f"_kombu.binding_permanent.{queue}")
