"""Fixtures for the notification tests: a real SMTP server (aiosmtpd) on a reserved port, the
settings that point Django's mailer at it, and helpers to start games and read e-mails."""

from __future__ import annotations

import logging
import socket
import time
import uuid
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage

import pytest
from aiosmtpd.controller import Controller

from config.celery import app as geartable_celery_app


def free_port() -> int:
    """A port nobody listens on now (aiosmtpd's Controller cannot take port 0)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Inbox:
    """What the SMTP server received; `refuse` makes it answer DATA with a 550."""

    port: int = 0
    messages: list[EmailMessage] = field(default_factory=list)
    refuse: str = ""
    refused: int = 0

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's name)
        if self.refuse:
            self.refused += 1
            return self.refuse
        message = message_from_bytes(envelope.content, policy=policy.default)
        message["X-Envelope-To"] = ", ".join(envelope.rcpt_tos)
        self.messages.append(message)
        return "250 Message accepted for delivery"

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.messages if address in m["To"]]

    def wait_for(self, count: int, *, to: str | None = None, seconds: float = 10.0):
        """Poll until at least `count` messages (to `to`) are in; they go out in the worker."""
        deadline = time.monotonic() + seconds
        while True:
            found = self.to(to) if to else list(self.messages)
            if len(found) >= count:
                return found
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"timed out after {seconds} s: {len(found)} of {count} e-mail(s)"
                    f"{' to ' + to if to else ''}; subjects: {[m['Subject'] for m in found]}"
                )
            time.sleep(0.05)


def mailers_for(port: int) -> dict:
    return {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": "127.0.0.1", "port": port, "use_tls": False, "timeout": 5},
        }
    }


@pytest.fixture
def smtp_server():
    logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd logs every SMTP line
    inbox = Inbox(port=free_port())
    controller = Controller(inbox, hostname="127.0.0.1", port=inbox.port)
    controller.start()
    try:
        yield inbox
    finally:
        controller.stop()


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
