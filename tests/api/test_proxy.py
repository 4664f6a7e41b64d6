"""Issue 34.3: behind the documented proxy (BEHIND_PROXY=true), every limit keyed on an address
keys on the client's (config/addresses.py: X-Forwarded-For's entry our proxy appended), not on
the proxy's: one client guessing tokens does not lock every other client out of the API. A real
gunicorn, reached as nginx reaches it (from 127.0.0.1, with the header the proxy writes)."""

from __future__ import annotations

import http.client
import json
import time

import pytest

from tests.support import gunicorn
from tests.support.api import token_for
from tests.support.waiting import wait_for

pytestmark = pytest.mark.django_db(transaction=True)

BAD = "gt_000000000000_" + "x" * 43
ME = "/api/v1/me"
# The limits' fixed windows, long for this test: its calls never straddle two of them.
WINDOW = 3600


@pytest.fixture
def behind_proxy(tmp_path):
    env = {"BEHIND_PROXY": "true", "GEARTABLE_API_RATE_SECONDS": str(WINDOW)}
    yield from gunicorn.serve(tmp_path, env)


def call(server, token: str, forwarded_for: str) -> tuple[int, dict]:
    """GET /api/v1/me through "the proxy": whatever the client wrote in X-Forwarded-For, then
    the address the proxy saw (nginx's $proxy_add_x_forwarded_for)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=20)
    try:
        headers = {"Authorization": f"Bearer {token}", "X-Forwarded-For": forwarded_for}
        connection.request("GET", ME, headers=headers)
        answer = connection.getresponse()
        return answer.status, json.loads(answer.read() or b"{}")
    finally:
        connection.close()


def test_34_3_one_forwarded_client_guessing_tokens_locks_out_only_itself(
    behind_proxy, settings, alice, bob
):
    limit = settings.GEARTABLE_API_BAD_TOKEN_RATE  # the server's: the same settings
    good_alice, good_bob = token_for(alice), token_for(bob)
    wait_for(lambda: time.time() % WINDOW < WINDOW - 60, seconds=70, what="a window's start")
    # The guesser writes a new first entry each time: only the proxy's entry counts.
    statuses = [call(behind_proxy, BAD, f"10.9.{i}.1, 203.0.113.9")[0] for i in range(limit + 1)]
    assert statuses == [401] * limit + [429]
    # The guesser is now refused, even with a valid token, whatever it writes itself ...
    status, body = call(behind_proxy, good_alice, "198.51.100.1, 203.0.113.9")
    assert status == 429 and "not valid from here" in body["detail"]
    # ... and every other client behind the same proxy is not.
    for token, name in ((good_bob, "bob"), (good_alice, "alice")):
        status, body = call(behind_proxy, token, "203.0.113.10")
        assert status == 200 and body["username"] == name, body
