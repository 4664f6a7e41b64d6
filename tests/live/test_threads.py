"""Issue 36.4: an open stream holds no thread of the stream process. Django's ASGI handler gave
each request a thread for its synchronous parts, kept as long as the request: a stream's, as
long as its page (10,005 threads at 10,000 streams). The stream process runs those parts on one
shared thread (config/asgi.py, GEARTABLE_ASGI_ASYNC_ONLY), which it can only do while every view
and middleware it serves is async."""

from __future__ import annotations

import pytest
from asgiref.sync import iscoroutinefunction
from django.urls import URLPattern, get_resolver
from django.utils.module_loading import import_string

from config import stream_settings
from tests.support.api import token_for
from tests.support.games import client_for, start_geared
from tests.support.pages import page_key
from tests.support.streams import cookie, is_game_event, stream_path

# One reader thread: the threads the process may add while streams open are that one, at most.
READERS = 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.stream_env(GEARTABLE_STREAM_READ_THREADS=str(READERS))
def test_open_streams_of_every_kind_hold_no_thread(stream_process, alice, bob):
    game = start_geared([alice, bob], public=True)
    key = page_key(client_for(bob), game)
    alice_session = cookie(client_for(alice))
    token = token_for(bob)

    def open_all(visitors: int, players: int) -> list:
        """Game pages (a visitor's, a player's by its key), the site frame's, the API's game
        and account streams; each read until its first event or line: open and idle."""
        opened = []
        for _ in range(visitors):
            stream = stream_process.open(stream_path(game))
            stream.event_where(is_game_event(game.version))
            opened.append(stream)
        for _ in range(players):
            page = stream_process.open(stream_path(game, k=key))
            page.event_where(is_game_event(game.version))
            frame = stream_process.open("/events/me/", headers=alice_session)
            frame.event_where(lambda e: e.get("event") == "turns")
            api_game = stream_process.open(
                f"/api/v1/games/{game.pk}/stream", {"Authorization": f"Bearer {token}"}
            )
            assert api_game.next_line()["version"] == game.version
            opened += [page, frame, api_game]
        opened.append(
            account := stream_process.open(
                "/api/v1/stream/account", {"Authorization": f"Bearer {token}"}
            )
        )
        assert account.status == 200
        return opened

    warm = open_all(visitors=2, players=1)  # the listener, the reader, the shared thread started
    before = stream_process.threads()
    more = open_all(visitors=30, players=4)  # 43 streams more, all open now
    assert all(stream.status == 200 for stream in more)
    after = stream_process.threads()
    assert after <= before + READERS, (
        f"{len(more)} streams more took the stream process from {before} to {after} threads"
    )
    for stream in warm + more:
        stream.close()


def test_the_stream_process_serves_only_async_views_and_middleware():
    """What lets its requests share one thread for their synchronous parts: no synchronous view
    or middleware there, which would run one request after another (config/asgi.py)."""
    assert stream_settings.GEARTABLE_ASGI_ASYNC_ONLY
    patterns = get_resolver(stream_settings.ROOT_URLCONF).url_patterns
    assert patterns and all(isinstance(p, URLPattern) for p in patterns)
    sync_views = [p.name for p in patterns if not iscoroutinefunction(p.callback)]
    assert sync_views == []
    sync_middleware = [
        path
        for path in stream_settings.MIDDLEWARE
        if not getattr(import_string(path), "async_capable", False)
    ]
    assert sync_middleware == []
