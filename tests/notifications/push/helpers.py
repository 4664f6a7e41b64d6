"""Helpers for the push tests: a device subscribes as its page would."""

from __future__ import annotations

import json

from accounts.models import PushSubscription
from tests.support.games import client_for


def subscribe(user, device) -> PushSubscription:
    answer = client_for(user).post(
        "/accounts/push/subscribe/",
        json.dumps(device.subscription()),
        content_type="application/json",
        HTTP_USER_AGENT="Mozilla/5.0 (Android 14) Chrome/140.0",
    )
    assert answer.status_code == 201, answer.content
    return PushSubscription.objects.get(endpoint=device.endpoint)
