"""Fixtures for the notification tests: a real SMTP server (aiosmtpd) on a reserved port, the
settings that point Django's mailer at it, or at a port where nobody listens. The real worker
is tests/support/workers.py's `celery_worker`, on a queue of the test's own."""

from __future__ import annotations

import pytest

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
