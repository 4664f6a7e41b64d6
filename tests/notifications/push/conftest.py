"""Web Push on: the site's VAPID keys (made for the test session) and a push service on
loopback that checks what the site signs (tests/notifications/push/service.py)."""

from __future__ import annotations

import pytest

from tests.notifications.push.service import PushService, Trap
from tests.support.push import VAPID_PRIVATE, VAPID_PUBLIC


@pytest.fixture
def push_on(settings):
    settings.VAPID_PUBLIC_KEY = VAPID_PUBLIC
    settings.VAPID_PRIVATE_KEY = VAPID_PRIVATE
    settings.VAPID_SUBJECT = "mailto:admin@geartable.test"
    return settings


@pytest.fixture
def push_service(push_on):
    service = PushService(VAPID_PUBLIC)
    service.start()
    yield service
    service.stop()


@pytest.fixture
def trap():
    """A loopback port no push may reach (tests/notifications/push/service.py: Trap)."""
    trap = Trap()
    yield trap
    trap.close()


@pytest.fixture
def commit(django_capture_on_commit_callbacks):
    """Run one step as a request would: its transaction commits, and the tasks it queued on
    commit run (eagerly), and theirs."""

    def run(step, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return step(*args, **kwargs)

    return run
