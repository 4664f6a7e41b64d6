"""A body too large is refused before it is read, whichever way it comes (issue 22, point 7):
by its declared Content-Length through the middleware (the WSGI path; a real gunicorn in
test_raw_http.py), and through the ASGI application, whose Django handler would otherwise read
it all, spooled to disk, before any middleware runs."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.conf import settings

from config.asgi import application as asgi_application


def test_a_declared_length_over_the_limit_is_413_unread(client):
    response = client.generic(
        "POST",
        "/games/import/",
        b"x" * 10,
        content_type="multipart/form-data; boundary=b",
        CONTENT_LENGTH=str(50_000_000),
    )
    assert response.status_code == 413
    assert "That request is too large" in response.content.decode()


def http_scope(headers: list[tuple[bytes, bytes]]) -> dict:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/games/import/",
        "raw_path": b"/games/import/",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), *headers],
        "client": ("127.0.0.1", 5000),
        "server": ("testserver", 80),
    }


def run(scope: dict, chunks) -> tuple[list[dict], int]:
    """Call the ASGI application; the count of body chunks it asked for, and what it sent."""
    sent, asked = [], 0

    async def receive():
        nonlocal asked
        asked += 1
        return next(chunks, {"type": "http.disconnect"})

    async def send(message):
        sent.append(message)

    # In an event loop of its own thread: a browser test run before it in this process leaves
    # pytest-playwright's loop running in this one.
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, asgi_application(scope, receive, send)).result()
    return sent, asked


def body(chunks: int, size: int = 100_000):
    """A body of `chunks` chunks (bounded: without the guard, Django reads all of it to disk)."""
    for n in range(chunks):
        yield {"type": "http.request", "body": b"x" * size, "more_body": n < chunks - 1}


@pytest.mark.django_db
def test_asgi_refuses_a_declared_length_without_reading_the_body():
    scope = http_scope([(b"content-length", b"50000000"), (b"content-type", b"text/plain")])
    sent, asked = run(scope, body(100))
    assert asked == 0
    assert sent[0]["status"] == 413 and b"too large" in sent[1]["body"]


@pytest.mark.django_db
def test_asgi_stops_reading_a_body_of_no_declared_length_past_the_limit():
    sent, asked = run(http_scope([(b"content-type", b"text/plain")]), body(100))  # 10 MB
    assert asked <= settings.GEARTABLE_MAX_REQUEST_BYTES // 100_000 + 2  # not all 100 chunks
    assert sent[0]["status"] == 413
