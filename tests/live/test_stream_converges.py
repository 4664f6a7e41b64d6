"""Issue 34.9: a stream sends what *is*, even when the shared cache's copy of the game lags the
commit that announced the change. The commit sets the copy after it (live.forget_game's
on_commit), while the stream hears of it at the commit itself: a stream that believed the copy
sent nothing, and the page stayed on the older version until some later event."""

from __future__ import annotations

import uuid

import pytest

from tests.support.games import client_for, start_geared
from tests.support.pages import page_key
from tests.support.streams import is_game_event, move_through_the_site, stream_path

pytestmark = pytest.mark.django_db(transaction=True)

# The stream process reads the live cache in Redis, as in production; this test process does
# not (its own cache is local), so its moves commit and announce without refreshing Redis's
# copy: exactly the window between a commit and its on_commit, held open.
SHARED_CACHE = pytest.mark.stream_env(
    CACHE_URL="redis://127.0.0.1:6379/9",
    GEARTABLE_LIVE_CACHE="true",
    STREAM_CACHE_KEY_PREFIX=f"test-stream-{uuid.uuid4().hex}",
)


@SHARED_CACHE
def test_an_event_ahead_of_the_cached_copy_is_read_from_the_database(stream_process, alice, bob):
    game = start_geared([alice, bob], target=1000)
    key = page_key(client_for(bob), game)
    # Opened by the page's key: its reads go through the cache, which it fills with this state.
    stream = stream_process.open(stream_path(game, k=key, v=game.version - 1))
    stream.event_where(is_game_event(game.version))

    game = move_through_the_site(game)  # commits and announces; the cached copy is now behind
    stream.event_where(is_game_event(game.version), deadline_seconds=8)
    game = move_through_the_site(game)  # and again: each event brings what committed
    stream.event_where(is_game_event(game.version), deadline_seconds=8)
    stream.close()
