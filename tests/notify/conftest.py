"""Fixtures for the notification tests: a real SMTP server (aiosmtpd) on a reserved port, the
settings that point Django's mailer at it, and helpers to start games and read e-mails."""

from __future__ import annotations

import uuid

import pytest

from config.celery import app as geartable_celery_app
from tests.smtp import Inbox, free_port, mailers_for


@pytest.fixture
def smtp_mail(settings, smtp_server) -> Inbox:
    """Django sends through the real SMTP server (the test environment's locmem otherwise).

    The worker of `celery_worker` runs in a thread of this process, so it sees this too."""
    settings.MAILERS = mailers_for(smtp_server.port)
    return smtp_server


@pytest.fixture
def closed_port_mail(settings) -> int:
    """Django sends to a port where no server listens: every delivery fails to connect."""
    port = free_port()
    settings.MAILERS = mailers_for(port)
    return port


@pytest.fixture
def celery_worker(settings):
    """tests/conftest.py's real worker, on a queue of this test's own.

    Other pytest runs on this machine start workers on the same Redis: on the shared default
    queue they take each other's tasks (and run them against the wrong test database). Request
    it before the database fixtures, as the shared one."""
    from celery.contrib.testing.worker import start_worker

    app = geartable_celery_app
    queue = f"geartable-test-notify-{uuid.uuid4().hex[:12]}"
    default_queue = app.conf.task_default_queue
    app.conf.task_default_queue = queue  # where .delay() sends from now on
    app.conf.task_always_eager = False
    settings.CELERY_TASK_ALWAYS_EAGER = False
    try:
        with start_worker(
            app,
            pool="solo",
            perform_ping_check=False,
            without_heartbeat=False,
            loglevel="WARNING",
            queues=[queue],
        ) as worker:
            yield worker
    finally:
        app.conf.task_always_eager = True
        app.conf.task_default_queue = default_queue
        with app.connection_for_write() as connection:
            connection.default_channel.queue_delete(queue)
