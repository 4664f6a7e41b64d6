"""What changed, said by the transaction that changed it, for the open pages' event streams.

An event names only *what* changed, never what it now shows: `{"game": 42, "version": 17,
"chat": 3, "due": null, "kind": "game"}` (a game's version or chat moved on; `due`, when the
server owes it a step, is since when: `Game.due_since`, never sent on to a page), `{"users":
[5, 8], "kind": "turns"}` (whose turn it is changed in their games), `{"kind": "lobby"}` (the
lobby's lists), `{"users": [5], "game": null, "kind": "access"}` (who may read changed: a
password, a deactivation, a seat's player).
Each page then fetches its own fragment through the ordinary views, where hidden information is
filtered as it always was (docs/live.md).

- On PostgreSQL the event is a `pg_notify` sent inside the transaction that made the change:
  PostgreSQL delivers it at the commit, in commit order, and never on a rollback. Every stream
  process listens (games/live/stream.py) and fans it out in memory through its `HUB`.
- Elsewhere (SQLite) there is no listening across processes: the event is handed to this
  process's `HUB` once the transaction commits (`on_commit`), which serves only a process that
  both writes and streams.

Nothing is sent while `GEARTABLE_STREAM_URL` is empty (no streams: pages poll, as before): a
NOTIFY takes a lock at commit that nobody should pay for without a listener.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.conf import settings
from django.db import connection, transaction

from games import sql
from games.models import Game

log = logging.getLogger(__name__)

CHANNEL = "geartable_live"  # the LISTEN/NOTIFY channel every stream process listens on


def enabled() -> bool:
    return bool(settings.GEARTABLE_STREAM_URL)


def game_changed(game_id: int | None, written: tuple | None = None) -> None:
    """A game's version, status or chat changed (call it after the write, in its transaction).
    `written`: its (version, chat sequence, due_since) as this transaction wrote them, when the
    caller holds the game's lock: not read again."""
    if not enabled() or game_id is None:
        return
    if written is not None:
        version, chat, due = written
        due = due and due.isoformat()
        _send({"game": game_id, "version": version, "chat": chat, "due": due, "kind": "game"})
        return
    if connection.vendor == "postgresql":
        # The row as committed by this transaction (it holds the row's lock until then).
        # `due`: the server owes the game a step (a turn to resolve, a bot to play), whose
        # version follows in a moment: the streams wait for it (stream.settle).
        sql.notify_row(
            CHANNEL,
            Game,
            game_id,
            "game",
            game="id",
            version="version",
            chat="chat_seq",
            due="due_since",
        )
        return
    row = Game.objects.filter(pk=game_id).values_list("version", "chat_seq", "due_since").first()
    if row is not None:
        due = row[2] and row[2].isoformat()
        _send({"game": game_id, "version": row[0], "chat": row[1], "due": due, "kind": "game"})


def turns_changed(user_ids: Iterable[int | None]) -> None:
    """Whose turn it is changed in games of these users (their "Your turn · N")."""
    if not enabled():
        return
    users = sorted({int(uid) for uid in user_ids if uid})
    if users:
        _send({"users": users, "kind": "turns"})


def access_changed(user_ids: Iterable[int | None] = (), game_id: int | None = None) -> None:
    """What lets someone read changed: a user's password or `is_active` (their streams), a
    seat's player (the game's streams). Each stream hearing it checks its viewer again at once,
    with the grant read from the database (not the cache, which the commit sets only after
    this event is delivered), and ends with `revoked` if it no longer holds."""
    if not enabled():
        return
    users = sorted({int(uid) for uid in user_ids if uid})
    if users or game_id is not None:
        _send({"users": users, "game": game_id, "kind": "access"})


def lobby_changed() -> None:
    """A public table opened, filled, started or ended."""
    if enabled():
        _send({"kind": "lobby"})


# The events of a change made inside `together()`, sent in one statement as it ends.
_pending: ContextVar[list[str] | None] = ContextVar("live_events_pending", default=None)


@contextmanager
def together() -> Iterator[None]:
    """The events sent inside go out in one statement as it ends (PostgreSQL: one SELECT of
    every pg_notify), still inside the transaction: a move's "game" and "turns" events are
    one round trip (issue 36.1). Nothing is sent if it ends with an exception (the
    transaction is rolled back: its events would never be delivered anyway)."""
    if _pending.get() is not None or connection.vendor != "postgresql":
        yield  # already gathering (the outer block sends), or SQLite (sent on commit)
        return
    pending: list[str] = []
    token = _pending.set(pending)
    try:
        yield
    finally:
        _pending.reset(token)
    if pending:
        sql.notify(CHANNEL, *pending)


def _send(event: dict) -> None:
    if connection.vendor == "postgresql":
        pending = _pending.get()
        if pending is not None:
            pending.append(json.dumps(event))
        else:
            sql.notify(CHANNEL, json.dumps(event))
    else:
        transaction.on_commit(lambda: HUB.publish(event), robust=True)


def topics(event: dict) -> list[str]:
    """The subscriptions an event reaches: a game's viewers, a user's pages, the lobby."""
    if event.get("kind") == "game" and isinstance(event.get("game"), int):
        return [f"game:{event['game']}"]
    if event.get("kind") == "turns" and isinstance(event.get("users"), list):
        return [f"user:{uid}" for uid in event["users"] if isinstance(uid, int)]
    if event.get("kind") == "lobby":
        return ["lobby"]
    if event.get("kind") == "access":
        users = event.get("users") if isinstance(event.get("users"), list) else []
        found = [f"user:{uid}" for uid in users if isinstance(uid, int)]
        if isinstance(event.get("game"), int):
            found.append(f"game:{event['game']}")
        return found
    return []


# A subscriber that falls this far behind (a stalled client) loses its oldest events: each
# carries the whole current version, so the newest one is all a page needs; but the newest
# `game` event is kept (a game stream sends the version on its game's event only, not on a
# `turns` event's read: stream._game_stream).
QUEUE_SIZE = 16
RESYNC = {"kind": "resync"}  # to every subscriber: events may have been missed, read again


class Inbox:
    """One open stream's events not yet read: at most QUEUE_SIZE (the oldest dropped, the
    newest `game` event kept), and its stream's one wait. In the event loop's thread only. A
    list and a future, where an asyncio.Queue held three deques (~2.2 kB in each open stream,
    measured with tracemalloc); and a wait that a timer ends with a result instead of a
    cancellation (asyncio.wait_for's way): the keep-alive's path, which every stream takes
    every few seconds (issue 36.4)."""

    __slots__ = ("_events", "_waiter")

    def __init__(self) -> None:
        self._events: list[dict] = []
        self._waiter: asyncio.Future | None = None

    def put(self, event: dict) -> None:
        found = self._events
        if len(found) >= QUEUE_SIZE:
            only_game = found[0].get("kind") == "game" and all(
                e.get("kind") != "game" for e in found[1:]
            )
            del found[1 if only_game else 0]
        self._events.append(event)
        _wake(self._waiter)

    async def get(self, timeout: float | None = None) -> dict | None:
        """The next event, waiting for one at most `timeout` seconds (None after it)."""
        if not self._events:
            loop = asyncio.get_running_loop()
            self._waiter = waiter = loop.create_future()
            timer = None if timeout is None else loop.call_later(timeout, _wake, waiter)
            try:
                await waiter
            finally:
                self._waiter = None
                if timer is not None:
                    timer.cancel()
            if not self._events:
                return None
        return self._events.pop(0)

    def get_nowait(self) -> dict:
        if not self._events:
            raise asyncio.QueueEmpty
        return self._events.pop(0)

    def qsize(self) -> int:
        return len(self._events)

    def empty(self) -> bool:
        return not self._events


def _wake(waiter: asyncio.Future | None) -> None:
    if waiter is not None and not waiter.done():
        waiter.set_result(None)


class Hub:
    """This process's subscriptions, fanned out in memory: one Inbox per open stream.
    `publish` may be called from any thread (a sync view's on_commit, the listener's task)."""

    def __init__(self) -> None:
        self._subscribers: dict[str, set[Inbox]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lock = threading.Lock()

    def subscribe(self, *names: str) -> Inbox:
        """An inbox that receives the events of these topics (call it in the event loop)."""
        queue = Inbox()
        with self._lock:
            self._loop = asyncio.get_running_loop()
            for name in names:
                self._subscribers.setdefault(name, set()).add(queue)
        return queue

    def unsubscribe(self, queue: Inbox, *names: str) -> None:
        with self._lock:
            for name in names:
                found = self._subscribers.get(name)
                if found is not None:
                    found.discard(queue)
                    if not found:
                        del self._subscribers[name]

    def count(self) -> int:
        with self._lock:
            return len({q for queues in self._subscribers.values() for q in queues})

    def publish(self, event: dict) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return  # nobody has subscribed in this process
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self._deliver(event)
        else:
            loop.call_soon_threadsafe(self._deliver, event)

    def resync(self) -> None:
        """Every subscriber reads its state again (the listener reconnected: it may have
        missed events meanwhile)."""
        with self._lock:
            queues = {q for found in self._subscribers.values() for q in found}
        for queue in queues:
            queue.put(RESYNC)

    def _deliver(self, event: dict) -> None:
        with self._lock:
            queues = {q for name in topics(event) for q in self._subscribers.get(name, ())}
        for queue in queues:
            queue.put(event)


HUB = Hub()
