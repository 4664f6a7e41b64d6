"""A real stream process for the tests (tests/live, tests/e2e): uvicorn serving the stream
paths (config/stream_settings.py) against the test's own PostgreSQL database, which sees what
the test commits (transactional tests), and a raw HTTP reader of its event streams."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connection

from tests.smtp import free_port
from tests.support.waiting import patience, wait_for

ROOT = Path(__file__).resolve().parents[1]
KEEPALIVE = 1  # seconds: the stream process's keep-alive, short for the tests
# Its periodic recheck of the viewer's grant also re-reads the game: long by default, so that an
# event a test sees can only have come from the commit's NOTIFY; short where a test needs it.
RECHECK = 600


class StreamProcess:
    def __init__(self, port: int, log: Path, pid: int) -> None:
        self.port = port
        self.pid = pid
        self.url = f"http://127.0.0.1:{port}"
        self.log = log

    def open(self, path: str, headers: dict | None = None, timeout: float = 20.0) -> Stream:
        return Stream(self.port, path, headers or {}, timeout)

    def threads(self) -> int:
        """The process's threads now (/proc)."""
        with open(f"/proc/{self.pid}/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("Threads:"))


class Stream:
    """One raw HTTP/1.1 request to the stream process, its answer read line by line."""

    def __init__(self, port: int, path: str, headers: dict, timeout: float) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        extra = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{extra}\r\n".encode())
        self.file = self.sock.makefile("rb")
        self.raw = b""  # every byte read, for the scans
        status_line = self._line()
        self.status = int(status_line.split(b" ", 2)[1])
        self.headers = {}
        while (line := self._line().strip()) != b"":
            name, _, value = line.decode("latin-1").partition(":")
            self.headers[name.strip().lower()] = value.strip()
        self.chunked = self.headers.get("transfer-encoding") == "chunked"
        self._body = b""
        self.closed = False

    def _line(self) -> bytes:
        line = self.file.readline()
        self.raw += line
        return line

    def _more(self) -> bool:
        """Read one more piece of the body; False once the answer has ended."""
        if not self.chunked:
            data = self.file.read1(65536)
            self.raw += data
            self._body += data
            return bool(data)
        size = int(self._line().split(b";")[0].strip() or b"0", 16)
        if size == 0:
            return False
        data = self.file.read(size + 2)
        self.raw += data
        self._body += data[:-2]
        return True

    def _wait_more(self, deadline: float, late: str) -> None:
        """Read the next piece of the answer (or see it end) before `deadline`, else
        TimeoutError(`late`, with the last bytes read)."""
        remaining = deadline - time.monotonic()
        try:
            if remaining <= 0:
                raise TimeoutError
            self.sock.settimeout(remaining)
            if not self._more():
                self.closed = True
        except TimeoutError:
            raise TimeoutError(f"{late}: {self.raw[-500:]!r}") from None

    def body(self) -> bytes:
        """The whole (finite) answer's body."""
        while self._more():
            pass
        return self._body

    def next_event(self, deadline_seconds: float = 20.0, *, skip_comments=True) -> dict:
        """The next event ({"event": ..., "id": ..., "data": {...}}), waiting at most so long;
        {"end": True} once the server ended the stream."""
        return self._event_by(time.monotonic() + deadline_seconds * patience(), skip_comments)

    def _event_by(self, deadline: float, skip_comments: bool = True) -> dict:
        deadline_seconds = round(deadline - time.monotonic(), 1)
        while True:
            if b"\n\n" in self._body:
                block, self._body = self._body.split(b"\n\n", 1)
                fields = {}
                for line in block.decode().split("\n"):
                    name, _, value = line.partition(":")
                    fields[name] = value.strip()
                if "data" in fields:
                    fields["data"] = json.loads(fields["data"])
                    return fields
                if not skip_comments:
                    return fields
                continue
            if self.closed:
                return {"end": True}
            self._wait_more(deadline, f"no event within {deadline_seconds} s")

    def next_line(self, deadline_seconds: float = 20.0, *, keepalives: bool = False):
        """The next NDJSON line (the API's streams) as its object, waiting at most so long;
        a keep-alive (a bare line) is skipped, or "" when `keepalives`; {"end": True} once
        the server ended the stream."""
        return self._line_by(time.monotonic() + deadline_seconds * patience(), keepalives)

    def _line_by(self, deadline: float, keepalives: bool = False):
        deadline_seconds = round(deadline - time.monotonic(), 1)
        while True:
            if b"\n" in self._body:
                line, self._body = self._body.split(b"\n", 1)
                if line.strip():
                    return json.loads(line)
                if keepalives:
                    return ""
                continue
            if self.closed:
                assert not self._body.strip(), f"a line without its end: {self._body!r}"
                return {"end": True}
            self._wait_more(deadline, f"no line within {deadline_seconds} s")

    def line_where(self, test, deadline_seconds: float = 20.0) -> dict:
        """The first NDJSON line for which test(line) holds, within the deadline."""
        deadline = time.monotonic() + deadline_seconds * patience()
        while True:
            line = self._line_by(deadline)
            if line.get("end"):
                raise AssertionError(f"the stream ended first: {self.raw[-500:]!r}")
            if test(line):
                return line

    def event_where(self, test, deadline_seconds: float = 20.0) -> dict:
        """The first event for which test(event) holds, within the deadline."""
        deadline = time.monotonic() + deadline_seconds * patience()
        while True:
            event = self._event_by(deadline)
            if event.get("end"):
                raise AssertionError(f"the stream ended first: {self.raw[-500:]!r}")
            if test(event):
                return event

    def close(self) -> None:
        self.file.close()
        self.sock.close()


def start_stream_process(
    tmp_path: Path,
    *,
    name: str = "stream",
    recheck: int = RECHECK,
    origins: str = "",
    extra_env: dict | None = None,
    port: int | None = None,
):
    """A uvicorn on a free port (or `port`: one a stopped stream process served) serving
    config.asgi with the stream settings (and `extra_env`'s settings): (process, server, log
    file)."""
    port = port or free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.live.stream_settings",
        "STREAM_DATABASE": connection.settings_dict["NAME"],
        "STREAM_APPLICATION_NAME": f"geartable-stream-{port}",
        "PYTHONPATH": str(ROOT),
        "GEARTABLE_STREAM_URL": f"http://127.0.0.1:{port}",
        "GEARTABLE_STREAM_KEEPALIVE_SECONDS": str(KEEPALIVE),
        "GEARTABLE_STREAM_RECHECK_SECONDS": str(recheck),
        "CSRF_TRUSTED_ORIGINS": origins or "http://testserver",
        **(extra_env or {}),
    }
    log_path = tmp_path / f"{name}.log"
    log = open(log_path, "wb")  # noqa: SIM115 (kept by the process)
    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "uvicorn", "config.asgi:application"),
            *("--host", "127.0.0.1", "--port", str(port), "--no-access-log"),
            # As the README runs it: the client's address is config/addresses.py's alone.
            "--no-proxy-headers",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    server = StreamProcess(port, log_path, process.pid)

    def answering() -> bool:
        if process.poll() is not None:
            pytest.fail("uvicorn stopped at start:\n" + log_path.read_text())
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
        except OSError:
            return False
        return True

    try:
        wait_for(answering, seconds=60, what=lambda: "uvicorn to start:\n" + log_path.read_text())
    except AssertionError:
        process.kill()
        raise
    return process, server, log


def serve(request, tmp_path: Path, settings):
    """Start a stream process for this test and point this process (the writer, and the live
    server's pages) at it; yields it, then stops it. A test marked `recheck(seconds)` gets a
    process that rechecks its streams that often; one marked `stream_env(NAME="value")`, a
    process with those settings."""
    marker = request.node.get_closest_marker("recheck")
    recheck = marker.args[0] if marker else RECHECK
    marker = request.node.get_closest_marker("stream_env")
    extra_env = marker.kwargs if marker else {}
    # A browser's page comes from the live server: the stream answers its origin (CORS).
    origins = "http://testserver"
    if "live_server" in request.fixturenames:
        origins += "," + request.getfixturevalue("live_server").url
    process, server, log = start_stream_process(
        tmp_path, recheck=recheck, origins=origins, extra_env=extra_env
    )
    # The pages' URL of it: on the live server's host (localhost), so the browser sends the
    # session cookie with it (the same site, as in production behind one proxy).
    page_url = server.url
    if "live_server" in request.fixturenames:
        page_url = server.url.replace("127.0.0.1", "localhost")
    settings.GEARTABLE_STREAM_URL = page_url
    settings.SECURE_CSP = {
        **settings.SECURE_CSP,
        "connect-src": [*settings.SECURE_CSP["connect-src"], page_url],
    }
    yield server
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    log.close()
