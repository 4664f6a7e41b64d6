"""The stream process's in-memory hub (games/live/events.py): each event reaches the streams of its
topics only, a stalled stream keeps the newest, and without PostgreSQL the event reaches this
process's hub at the commit, never on a rollback."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection, transaction

from games.live import cache as live
from games.live import events
from games.live.events import Hub
from tests.support.games import start_geared


def run(coro):
    """The coroutine in an event loop of its own thread (a browser test's loop may be running
    in this one: pytest-playwright's sync API)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, asyncio.wait_for(coro, 10)).result()


def test_an_event_reaches_the_subscribers_of_its_topics_only():
    async def scenario():
        hub = Hub()
        game_7 = hub.subscribe("game:7", "user:1")
        game_8 = hub.subscribe("game:8")
        user_2 = hub.subscribe("user:2")
        hub.publish({"game": 7, "version": 3, "chat": 0, "kind": "game"})
        hub.publish({"users": [1, 2], "kind": "turns"})
        assert await game_7.get() == {"game": 7, "version": 3, "chat": 0, "kind": "game"}
        assert await game_7.get() == {"users": [1, 2], "kind": "turns"}
        assert await user_2.get() == {"users": [1, 2], "kind": "turns"}
        assert game_8.empty() and game_7.empty() and user_2.empty()
        hub.unsubscribe(game_7, "game:7", "user:1")
        hub.publish({"game": 7, "version": 4, "chat": 0, "kind": "game"})
        assert game_7.empty()
        assert hub.count() == 2

    run(scenario())


def test_an_event_published_from_another_thread_arrives_in_the_loop():
    async def scenario():
        hub = Hub()
        queue = hub.subscribe("lobby")
        threading.Thread(target=hub.publish, args=({"kind": "lobby"},)).start()
        assert await queue.get() == {"kind": "lobby"}

    run(scenario())


def test_a_stalled_stream_keeps_the_newest_events():
    async def scenario():
        hub = Hub()
        queue = hub.subscribe("game:1")
        for version in range(events.QUEUE_SIZE + 5):
            hub.publish({"game": 1, "version": version, "chat": 0, "kind": "game"})
        got = [queue.get_nowait()["version"] for _ in range(queue.qsize())]
        assert got[-1] == events.QUEUE_SIZE + 4
        assert len(got) == events.QUEUE_SIZE

    run(scenario())


def test_a_stalled_stream_keeps_its_games_newest_event_among_others():
    """A game stream sends the game's version on its `game` event only (a `turns` event's read
    may find the turn between a last program and its resolution: issue 36.5), so the newest
    game event is not dropped for the `turns` events behind it."""

    async def scenario():
        hub = Hub()
        queue = hub.subscribe("game:1", "user:5")
        hub.publish({"game": 1, "version": 3, "chat": 0, "kind": "game"})
        for _ in range(events.QUEUE_SIZE + 3):
            hub.publish({"users": [5], "kind": "turns"})
        got = [queue.get_nowait() for _ in range(queue.qsize())]
        assert len(got) == events.QUEUE_SIZE
        assert got[0] == {"game": 1, "version": 3, "chat": 0, "kind": "game"}
        assert all(e["kind"] == "turns" for e in got[1:])

    run(scenario())


@pytest.mark.django_db(transaction=True)
def test_without_postgresql_the_event_reaches_this_process_at_the_commit_only(
    settings, monkeypatch, alice, bob
):
    settings.GEARTABLE_STREAM_URL = "http://127.0.0.1:1"
    game = start_geared([alice, bob])
    monkeypatch.setattr(connection, "vendor", "sqlite")  # no LISTEN/NOTIFY: the in-process hub

    def rolled_back():
        with pytest.raises(RuntimeError), transaction.atomic():
            live.forget_game(game.pk)
            raise RuntimeError

    def committed():
        with transaction.atomic():
            live.forget_game(game.pk)
            live.forget_turns([alice.pk])

    # The loop in a thread of its own, the commits here, as a sync view's beside the streams.
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    names = (f"game:{game.pk}", f"user:{alice.pk}")

    async def subscribe():
        return events.HUB.subscribe(*names)

    async def drain(queue):
        got = [await asyncio.wait_for(queue.get(), 10)]
        await asyncio.sleep(0.05)  # anything else already handed to the loop lands meanwhile
        while not queue.empty():
            got.append(queue.get_nowait())
        return got

    def in_loop(coro):
        return asyncio.run_coroutine_threadsafe(coro, loop).result(20)

    queue = in_loop(subscribe())
    try:
        rolled_back()
        committed()
        assert in_loop(drain(queue)) == [
            {
                "game": game.pk,
                "version": game.version,
                "chat": game.chat_seq,
                "due": None,
                "kind": "game",
            },
            {"users": [alice.pk], "kind": "turns"},
        ]
    finally:
        events.HUB.unsubscribe(queue, *names)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()
