"""A real gunicorn serving the site (tests/views/server_settings.py: DEBUG off, as in production)
against the test's own database, for the tests whose point is the real server: raw HTTP
(tests/views/test_raw_http.py), the client's address behind a proxy (tests/api/test_proxy.py)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.db import connection

from tests.smtp import free_port
from tests.support.waiting import wait_for

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Gunicorn:
    port: int
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


def _answers_health(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2) as s:
            s.sendall(b"GET /healthz/ HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
            return s.recv(64).split(b" ", 2)[1:2] == [b"200"]
    except OSError:
        return False


def serve(tmp_path: Path, extra_env: dict | None = None) -> Iterator[Gunicorn]:
    """Start gunicorn (one worker, two threads) on a free port with `extra_env` (settings read
    from the environment), wait until it answers /healthz/, yield it, then stop it. The test
    must see its own commits there: a transactional test."""
    port = free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.views.server_settings",
        "RAW_HTTP_DATABASE": connection.settings_dict["NAME"],
        "PYTHONPATH": str(ROOT),
        **(extra_env or {}),
    }
    log_path = tmp_path / "gunicorn.log"
    log = open(log_path, "wb")  # noqa: SIM115 (kept by the process)
    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "gunicorn", "config.wsgi"),
            *("-b", f"127.0.0.1:{port}", "-w", "1", "--threads", "2", "--timeout", "60"),
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )

    def answering() -> bool:
        assert process.poll() is None, "gunicorn exited"
        return _answers_health(port)

    try:
        wait_for(answering, seconds=60, what="gunicorn to answer /healthz/")
    except AssertionError as error:
        process.kill()
        pytest.fail(f"gunicorn did not start ({error}):\n{log_path.read_text()}")
    try:
        yield Gunicorn(port, log_path)
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()
