"""Web Push in the tests: the site's VAPID keys, made once for the test session
(tests/notifications/push)."""

from __future__ import annotations

from tests.notifications.push.service import vapid_pair

VAPID_PUBLIC, VAPID_PRIVATE = vapid_pair()
