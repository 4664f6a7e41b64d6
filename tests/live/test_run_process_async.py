"""Issue 34.10: `make run`'s one ASGI process printed `RuntimeError: CurrentThreadExecutor
already quit or is broken` when a page navigated and opened a new stream. Its cause: sync-only
middleware (WhiteNoise's and three of ours) made Django carry every request through
async_to_sync, whose executor is gone once the client drops the request mid-way. Every
middleware of that process is now async-capable, and its static files are served in front of
Django (config/run_asgi.py)."""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.testing import ApplicationCommunicator
from django.core.handlers.asgi import ASGIHandler
from django.test import override_settings

from config import run_asgi, run_settings

pytestmark = pytest.mark.django_db


def test_no_middleware_of_the_one_process_is_adapted(caplog):
    """Django adapts (and logs, at DEBUG) each middleware that cannot run as the handler does:
    none may be, or a request runs through async_to_sync."""
    caplog.set_level(logging.DEBUG, logger="django.request")
    with override_settings(MIDDLEWARE=run_settings.MIDDLEWARE, DEBUG=True):  # DEBUG: logged
        ASGIHandler()  # loads the middleware chain as uvicorn's process does
    adapted = [r.getMessage() for r in caplog.records if "adapted for" in r.getMessage()]
    assert adapted == []


async def _get(application, path: str) -> tuple[int, bytes]:
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1")],
        "client": ("127.0.0.1", 40000),
        "server": ("127.0.0.1", 8000),
    }
    talk = ApplicationCommunicator(application, scope)
    await talk.send_input({"type": "http.request", "body": b"", "more_body": False})
    start = await talk.receive_output(10)
    body = b""
    while True:
        message = await talk.receive_output(10)
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    return start["status"], body


def test_the_one_process_serves_its_static_files_without_whitenoise():
    # A thread of its own: another test of this process may have left an event loop in this one.
    with ThreadPoolExecutor(1) as thread:
        call = thread.submit(asyncio.run, _get(run_asgi.application, "/static/js/geartable.js"))
        status, body = call.result(timeout=30)
    assert status == 200
    assert b"function" in body
