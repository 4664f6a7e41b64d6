"""Issue 34 against a real stream process: the client's address behind the proxy is the one
config/addresses.py gives (34.3), and any path it does not serve is a plain 404, never a 500
nor a traceback in its log (34.4)."""

from __future__ import annotations

import os
import socket
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.api import token_for
from tests.support.games import client_for, start_geared
from tests.support.streams import cookie, stream_path

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.stream_env(BEHIND_PROXY="true", GEARTABLE_STREAMS_PER_ADDRESS="1")
def test_34_3_behind_the_proxy_streams_are_counted_per_forwarded_client(stream_process, alice, bob):
    """Every stream reaches the process from the proxy (127.0.0.1): the limit per address
    counts the client nginx appended to X-Forwarded-For, not the proxy, nor what the client
    wrote itself."""
    game = start_geared([alice, bob], public=True)
    first = stream_process.open(stream_path(game), {"X-Forwarded-For": "203.0.113.1"})
    assert first.status == 200
    # The same client, however it fills in the header's left part: its one place is taken.
    again = stream_process.open(stream_path(game), {"X-Forwarded-For": "198.51.100.1, 203.0.113.1"})
    assert again.status == 429
    # Another client behind the same proxy: its own place, a page's and the API's alike.
    other = stream_process.open(stream_path(game), {"X-Forwarded-For": "203.0.113.2"})
    assert other.status == 200
    api = stream_process.open(
        f"/api/v1/games/{game.pk}/stream",
        {"Authorization": f"Bearer {token_for(alice)}", "X-Forwarded-For": "203.0.113.3"},
    )
    assert api.status == 200
    for stream in (first, again, other, api):
        stream.close()


# --- any path: a 404 with a sentence, never a 500 (34.4) -----------------------------------------

DEEP = os.environ.get("GEARTABLE_FUZZ") == "deep"
SEGMENTS = st.one_of(
    st.text(max_size=12),
    st.sampled_from(
        [
            "events",
            "game",
            "me",
            "api",
            "v1",
            "stream",
            "account",
            "games",
            "1",
            "-1",
            "9" * 30,
            "\x00",
            "..",
            "%",
            "é",
            "\ud800",
            "admin",
            "static",
            "healthz",
        ]
    ),
)
KNOWN = ("/events/game/", "/events/me/", "/api/v1/stream/account", "/api/v1/games/")


def _path(segments: list[str], slash: bool) -> str:
    return (
        "/"
        + "/".join(quote(s, safe="", errors="surrogatepass") for s in segments)
        + ("/" if slash else "")
    )


def _status(port: int, path: str, headers: dict) -> tuple[int, bytes]:
    """The answer's status and its first bytes (a stream that opens is not read on)."""
    extra = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
    with socket.create_connection(("127.0.0.1", port), timeout=20) as s:
        s.sendall(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{extra}Connection: close\r\n\r\n".encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = s.recv(4096)
            if not chunk:
                break
            head += chunk
    return int(head.split(b" ", 2)[1]), head


def test_34_4_any_other_path_of_the_stream_process_is_a_plain_404(stream_process, alice, bob):
    game = start_geared([alice, bob], target=1000)
    personas = {
        "visitor": {},
        "session": cookie(client_for(alice)),
        "token": {"Authorization": f"Bearer {token_for(alice)}"},
    }
    answered = []

    @settings(
        max_examples=300 if DEEP else 40,
        derandomize=not DEEP,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(
        segments=st.lists(SEGMENTS, max_size=6),
        slash=st.booleans(),
        persona=st.sampled_from(sorted(personas)),
    )
    def fuzz(segments, slash, persona):
        path = _path(segments, slash)
        status, head = _status(stream_process.port, path, personas[persona])
        assert status < 500, (path, head)
        if not path.startswith(KNOWN) and path != "/":
            assert status == 404, (path, head)
            assert b"text/plain" in head, head
        answered.append(status)

    fuzz()
    # The streams' own paths with ids no game has, or too large for any: refused, not a 500.
    for path in (f"/events/game/{9 * 10**30}/", "/api/v1/games/99999999999999999999/stream"):
        for headers in personas.values():
            assert _status(stream_process.port, path, headers)[0] in (401, 404), path
    assert _status(stream_process.port, "/nowhere/", {})[0] == 404
    assert _status(stream_process.port, stream_path(game), personas["session"])[0] == 200
    log = stream_process.log.read_text()
    assert "Traceback" not in log and "Internal Server Error" not in log, log[-3000:]
