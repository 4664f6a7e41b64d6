"""The open pages' event streams (server-sent events), served by the stream process.

One async view per stream: `game_events` (a game page: its game's changes, and its player's
"Your turn · N") and `my_events` (any other page of a logged-in user: the count). A stream is
authorized exactly as the poll is, by the same function (access.game_reader: the page's signed
key, else the session) when it opens, at each event (an `access` event, sent by whatever ends a
right to read, reads the grant from the database) and at least every
GEARTABLE_STREAM_RECHECK_SECONDS (10 minutes: a safety net); once that no longer holds it
ends. What it sends names only what changed (games/live/events.py); the page fetches its own
fragment through the ordinary views. The way from commit to page: docs/live.md.

The process holds one PostgreSQL connection that LISTENs (`_listen`, psycopg's async
connection, started by the first stream) and fans each event out through events.HUB. Reads
for authorization run on a few threads of their own (GEARTABLE_STREAM_READ_THREADS), each
keeping its connection: however many streams are open, the process holds that many database
connections and the listener's, and a read pays no connection set-up.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import random
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from contextlib import aclosing
from dataclasses import dataclass
from importlib import import_module

import psycopg
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections
from django.db.utils import load_backend
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse

from accounts.models import User
from config.addresses import client_address
from games.live import cache as live
from games.live import events
from games.models import Status
from games.reads import access

log = logging.getLogger(__name__)

_SESSIONS = import_module(settings.SESSION_ENGINE).SessionStore
# How long a new stream waits for the listener's first LISTEN before it answers 503 (the page
# then polls), and how long the listener waits before it tries to connect again.
LISTEN_READY_SECONDS = 5.0
LISTEN_RETRY_SECONDS = (0.5, 10.0)
# `retry:` the browser waits before it reconnects (ms), at random in this range: a restart of
# the stream process does not bring every page back in the same second.
RETRY_MS = (2000, 8000)
HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


@dataclass(frozen=True)
class Viewer:
    user_id: int  # 0: a visitor (a spectator without an account, or not logged in)
    version: int
    chat: int
    your_turn: int | None
    seat: int = 0  # the viewer's own seat in a game in play (their "watching" mark), else 0


# --- who may listen (the poll's rules) ----------------------------------------------------------


def _with_session(request: HttpRequest) -> None:
    """The session the cookie names, read only when asked (no middleware on the stream paths)."""
    if not hasattr(request, "session"):
        request.session = _SESSIONS(request.COOKIES.get(settings.SESSION_COOKIE_NAME))


def _game_viewer(request: HttpRequest, game_id: int, fresh: bool = False) -> Viewer | None:
    """The viewer if this request may see the game's changes, as the poll decides (one
    function for both: access.game_reader); None otherwise. `fresh`: the grant from the
    database (an `access` event: the cache is set only after the commit that sent it)."""
    _with_session(request)
    reader = access.game_reader(request, game_id, fresh=fresh)
    if reader is None:
        return None
    seat = reader.seat if reader.user_id and reader.status == Status.ACTIVE else 0
    return Viewer(reader.user_id, reader.version, reader.chat, reader.your_turn, seat or 0)


def _me(request: HttpRequest) -> int | None:
    """The count of games waiting for the session's user (active, same password), or None."""
    _with_session(request)
    user_id = access.session_user_id(request)
    if not user_id:
        return None
    password = (
        User.objects.filter(pk=user_id, is_active=True).values_list("password", flat=True).first()
    )
    if not password or not access.session_is_valid(request, password):
        return None
    return live.your_turn(user_id)


# The threads the streams' reads run on, each with its own (persistent) database connection.
# Django's default runs each read on its stream's own thread (the request's thread-sensitive
# context), so with a connection per read: 2,000 pages opening together asked PostgreSQL for
# more connections than it has (max_connections), and every event paid a connection's set-up
# (docs/benchmarks.md, live updates at scale).
READERS = ThreadPoolExecutor(settings.GEARTABLE_STREAM_READ_THREADS, thread_name_prefix="read")


def on_readers(fn):
    """`fn` on one of the READERS threads; a connection that failed or outlived CONN_MAX_AGE is
    closed after, as at the end of a request."""

    def run(*args):
        try:
            return fn(*args)
        finally:
            close_old_connections()

    return sync_to_async(run, thread_sensitive=False, executor=READERS)


game_viewer = on_readers(_game_viewer)
me = on_readers(_me)
mark_watching = on_readers(live.mark_watching)


# --- the seated players' "watching" marks --------------------------------------------------------


class Watching:
    """The "watching" marks of the players whose game page has its stream open here (a tab
    in view: the page opens its stream without `h=1`), so that the page need not poll for it:
    a player watching gets no "your turn" e-mail (notifications.is_watching). Written for all
    of this process's open streams at once every GEARTABLE_WATCHING_SECONDS / 2 (one cache
    write, no database read: live.mark_watching), and for a new one as it opens. In the
    event loop's thread only."""

    def __init__(self) -> None:
        self.open: Counter = Counter()  # (game id, user id, seat id) -> streams open here
        self.task: asyncio.Task | None = None

    @staticmethod
    def seconds() -> int:
        return settings.GEARTABLE_WATCHING_SECONDS

    async def add(self, mark: tuple[int, int, int]) -> None:
        if not self.seconds():
            return
        self.open[mark] += 1
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._run())
        if self.open[mark] == 1:
            try:
                await mark_watching([mark], self.seconds())
            except Exception:
                log.warning("could not mark a player watching", exc_info=True)

    def discard(self, mark: tuple[int, int, int]) -> None:
        if mark in self.open:
            self.open[mark] -= 1
            if self.open[mark] <= 0:
                del self.open[mark]

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(max(1.0, self.seconds() / 2))
            if not self.open:
                continue
            try:
                await mark_watching(list(self.open), self.seconds())
            except Exception:  # the cache or the database away for a moment: next round
                log.warning("could not mark the players watching", exc_info=True)


WATCHING = Watching()


# --- the listener: one LISTEN connection per process --------------------------------------------


class Listener:
    """The process's LISTEN connection, started by the first stream and kept for good; it
    reconnects after a failure and then tells every stream to read its state again (events
    sent meanwhile are lost: NOTIFY keeps none)."""

    def __init__(self) -> None:
        self.task: asyncio.Task | None = None
        self.ready: asyncio.Event | None = None

    async def wait_ready(self) -> bool:
        if not _postgresql():
            return True  # the in-process hub, fed at each commit of this process
        if self.task is None or self.task.done():
            self.ready = asyncio.Event()
            self.task = asyncio.create_task(self._run())
        try:
            await asyncio.wait_for(self.ready.wait(), LISTEN_READY_SECONDS)
        except TimeoutError:
            return False
        return True

    async def _run(self) -> None:
        db = settings.DATABASES["default"]
        params = {
            "dbname": db["NAME"],
            "user": db.get("USER") or None,
            "password": db.get("PASSWORD") or None,
            "host": db.get("HOST") or None,
            "port": db.get("PORT") or None,
        }
        params = {k: v for k, v in params.items() if v is not None}
        # DATABASE_URL's query (sslmode=…, config/env.py) are libpq's parameters: the same here.
        params.update(
            (k, v) for k, v in db.get("OPTIONS", {}).items() if k not in _DJANGO_ONLY_OPTIONS
        )
        delay = LISTEN_RETRY_SECONDS[0]
        first = True
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(autocommit=True, **params) as conn:
                    await conn.execute(f"LISTEN {events.CHANNEL}")
                    delay = LISTEN_RETRY_SECONDS[0]
                    self.ready.set()
                    if not first:
                        events.HUB.resync()
                    first = False
                    async for note in conn.notifies():
                        try:
                            event = json.loads(note.payload)
                        except ValueError:
                            log.warning("an event that is not JSON: %r", note.payload[:200])
                            continue
                        events.HUB.publish(event)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("the stream listener lost PostgreSQL; again in %.1f s", delay)
                self.ready.clear()
            await asyncio.sleep(delay * random.uniform(0.5, 1.5))
            delay = min(delay * 2, LISTEN_RETRY_SECONDS[1])


@functools.cache
def _postgresql() -> bool:
    """Is the database PostgreSQL? Asked of the backend's class: `connection.vendor` in the
    event loop's thread made a connection object for each stream (Django's connections are
    per async context: one per request), kept as long as the stream (~8 kB, issue 36.4)."""
    engine = settings.DATABASES["default"]["ENGINE"]
    return load_backend(engine).DatabaseWrapper.vendor == "postgresql"


# Database OPTIONS that Django's backend reads itself: not connection parameters.
_DJANGO_ONLY_OPTIONS = {"isolation_level", "pool", "server_side_binding", "assume_role"}

LISTENER = Listener()


# --- the streams ----------------------------------------------------------------------------------


def _frame(data: dict, *, event: str | None = None, event_id: str | None = None) -> str:
    lines = []
    if event:
        lines.append(f"event: {event}")
    if event_id:
        lines.append(f"id: {event_id}")
    lines.append("data: " + json.dumps(data, separators=(",", ":")))
    return "\n".join(lines) + "\n\n"


def _seen(request: HttpRequest) -> tuple[int, int]:
    """What the page holds: the Last-Event-ID of a reconnect ("version.chat"), else the
    version and chat count it was drawn with (v, c); -1 when unknown."""
    last = request.headers.get("Last-Event-ID", "")
    parts = last.split(".") if last else [request.GET.get("v", ""), request.GET.get("c", "")]
    try:
        version = int(parts[0])
    except (ValueError, IndexError):
        version = -1
    try:
        chat = int(parts[1])
    except (ValueError, IndexError):
        chat = -1
    return version, chat


def _cors(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """The site's own pages (CSRF_TRUSTED_ORIGINS) may read the stream from another origin."""
    origin = request.headers.get("Origin")
    if origin and origin in settings.CSRF_TRUSTED_ORIGINS:
        response["Access-Control-Allow-Origin"] = origin
        response["Access-Control-Allow-Credentials"] = "true"
    response["Vary"] = "Origin, Cookie"
    return response


def _refusal(request: HttpRequest, message: str, status: int) -> HttpResponse:
    response = HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")
    return _cors(request, response)


def _stream(request: HttpRequest, body, release) -> HttpResponse:
    response = StreamingHttpResponse(
        Held(body, release), content_type="text/event-stream", headers=HEADERS
    )
    return _cors(request, response)


# --- how many streams one user, one address may hold (issue 25.5) -------------------------------

OPEN: Counter = Counter()  # ("user", id) / ("address", ip) -> streams open now in this process
TOO_MANY = (
    "Too many live pages are open at once from here: this page checks for news every few"
    " seconds instead. Close a few tabs to get instant updates back."
)


def take_slot(request: HttpRequest, user_id: int):
    """A release() for one more open stream of this user (0: a visitor) and client address,
    or None when either already holds its limit (GEARTABLE_STREAMS_PER_USER, _PER_ADDRESS).
    In the event loop's thread only: no lock needed."""
    keys = [("address", client_address(request))]
    limits = [settings.GEARTABLE_STREAMS_PER_ADDRESS]
    if user_id:
        keys.append(("user", user_id))
        limits.append(settings.GEARTABLE_STREAMS_PER_USER)
    if any(OPEN[key] >= limit for key, limit in zip(keys, limits, strict=True)):
        return None
    OPEN.update(keys)
    released = False

    def release() -> None:
        nonlocal released
        if not released:
            released = True
            OPEN.subtract(keys)
            for key in keys:
                if OPEN[key] <= 0:
                    del OPEN[key]

    return release


class Held:
    """A stream's body that gives its slot back however it ends: when the body ends or is
    cancelled (the client went away), or at the response's close() if it never started."""

    def __init__(self, body, release) -> None:
        self._body = body
        self.close = release  # StreamingHttpResponse.close() calls it; release is idempotent

    def __aiter__(self):
        return self._run()

    async def _run(self):
        try:
            async with aclosing(self._body) as body:
                async for part in body:
                    yield part
        finally:
            self.close()


async def game_events(request: HttpRequest, game_id: int) -> HttpResponse:
    """The stream of a game page: an event each time the game's version or chat moves past
    what the page holds (and its player's count of games waiting for them)."""
    if request.method != "GET":
        return _refusal(request, "A stream is read with GET.", 405)
    viewer = await game_viewer(request, game_id)
    if viewer is None:
        return _refusal(request, "There is no such game.", 404)
    if not await LISTENER.wait_ready():
        return _refusal(request, "Live updates are not available now: the page checks.", 503)
    release = take_slot(request, viewer.user_id)
    if release is None:
        return _refusal(request, TOO_MANY, 429)
    return _stream(request, _game_stream(request, game_id, viewer.user_id), release)


async def _game_stream(request: HttpRequest, game_id: int, user_id: int):
    names = [f"game:{game_id}"] + ([f"user:{user_id}"] if user_id else [])
    queue = events.HUB.subscribe(*names)
    mark = None  # the viewer's "watching" mark while this stream keeps it (WATCHING)
    try:
        seen_version, seen_chat = _seen(request)
        yield f"retry: {random.randint(*RETRY_MS)}\n\n"
        # Read after subscribing: a commit between the two is in the queue, not lost.
        viewer = await game_viewer(request, game_id)
        if viewer is None or viewer.user_id != user_id:
            yield _frame({"kind": "revoked"}, event="revoked")
            return
        your_turn = None
        checked = asyncio.get_running_loop().time()
        in_view = request.GET.get("h") != "1"  # a tab out of sight is not someone watching
        news = True  # may this read's version be sent (not the read of a `turns` event)
        while True:
            if viewer is not None:
                wanted = (game_id, user_id, viewer.seat) if viewer.seat and in_view else None
                if wanted != mark:
                    if mark is not None:
                        WATCHING.discard(mark)
                    mark = wanted
                    if mark is not None:
                        await WATCHING.add(mark)
                if news and (viewer.version, viewer.chat) != (seen_version, seen_chat):
                    seen_version, seen_chat = viewer.version, viewer.chat
                    yield _frame(
                        {
                            "game": game_id,
                            "version": seen_version,
                            "chat": seen_chat,
                            "kind": "game",
                        },
                        event_id=f"{seen_version}.{seen_chat}",
                    )
                if viewer.your_turn is not None and viewer.your_turn != your_turn:
                    your_turn = viewer.your_turn
                    yield _frame({"kind": "turns", "your_turn": your_turn}, event="turns")
            event = await settle(queue, await next_event(queue))
            now = asyncio.get_running_loop().time()
            if event is None and now - checked < settings.GEARTABLE_STREAM_RECHECK_SECONDS:
                yield ": keep-alive\n\n"
                viewer = None
                continue
            # An event (or time for the periodic check): is the viewer still allowed, and
            # what is the game's state now? The event itself is never forwarded as it came.
            # Whatever ends a right to read sends `access` (games/live/events.py): then the grant
            # is read from the database, and the periodic check is only a safety net.
            fresh = event is not None and event.get("kind") in ("access", "resync")
            # A `turns` event says whose turn it is, in any of the user's games: what it reads
            # of this game is not sent. This game's own change comes as its `game` event (the
            # same commit's, sent first), which `settle` waits past when it owes a step: the
            # version a `turns` read finds may be the turn between a last program and its
            # resolution, and sent, every page fetched that turn and then the resolved one
            # (issue 36.5; tests/live/test_stream_settle.py). As the API's streams do.
            news = event is None or event.get("kind") != "turns"
            viewer = await game_viewer(request, game_id, fresh)
            if not fresh and viewer is not None and _behind(viewer, event):
                # The game's event says what its commit made; a read older than that came from
                # the cache's copy, which the commit refreshes only after the event may have
                # arrived (live.forget_game, on_commit): read the database, or the page would
                # stay on the older version until some later event (issue 34.9).
                viewer = await game_viewer(request, game_id, True)
            checked = now
            if viewer is None or viewer.user_id != user_id:
                yield _frame({"kind": "revoked"}, event="revoked")
                return
            if event is None:
                yield ": keep-alive\n\n"
    finally:
        if mark is not None:
            WATCHING.discard(mark)
        events.HUB.unsubscribe(queue, *names)


# A game event whose commit left the server a step to take (`due`: a complete Out of Gears
# turn to resolve, a bot to play) is followed in a moment by that step's own event. A stream
# waits a moment for it, so that its page fetches the game once, as the step left it,
# rather than the state in between and then the step's behind it, both drawn while the worker
# resolves (issue 36.5, docs/benchmarks.md). Past GEARTABLE_STREAM_DUE_WAIT_MS (a slow or
# stopped worker: the sweep repairs a lost task) the stream sends what is, as for any event.


async def settle(queue: events.Inbox, event: dict | None) -> dict | None:
    """The event to act on: `event` itself, unless it is a game event with a step owed; then
    the first game event within GEARTABLE_STREAM_DUE_WAIT_MS that owes none (else the last
    one heard). An `access` or `resync` heard meanwhile is acted on at once; a `turns` is
    covered by the read that follows (it reads the player's count too)."""
    if event is None or event.get("kind") != "game" or not event.get("due"):
        return event
    loop = asyncio.get_running_loop()
    deadline = loop.time() + settings.GEARTABLE_STREAM_DUE_WAIT_MS / 1000
    while (left := deadline - loop.time()) > 0:
        later = await queue.get(left)
        if later is None:
            break
        kind = later.get("kind")
        if kind in ("access", "resync"):
            return later
        if kind == "game":
            event = later
            if not later.get("due"):
                break
    return event


def _behind(viewer: Viewer, event: dict | None) -> bool:
    """Is what was read older than the version (or chat count) this game event announced?"""
    if event is None or event.get("kind") != "game":
        return False
    version, chat = event.get("version"), event.get("chat")
    return (isinstance(version, int) and version > viewer.version) or (
        isinstance(chat, int) and chat > viewer.chat
    )


async def next_event(queue: events.Inbox) -> dict | None:
    """The next event, or None after a keep-alive's time without one."""
    return await queue.get(settings.GEARTABLE_STREAM_KEEPALIVE_SECONDS)


async def my_events(request: HttpRequest) -> HttpResponse:
    """The stream of the site's frame on any other page: the logged-in user's count of games
    waiting for them ("Your turn · N"). Only through the session."""
    if request.method != "GET":
        return _refusal(request, "A stream is read with GET.", 405)
    count = await me(request)
    if count is None:
        return _refusal(request, "Log in to follow your games.", 403)
    if not await LISTENER.wait_ready():
        return _refusal(request, "Live updates are not available now: the page checks.", 503)
    user_id = access.session_user_id(request)
    release = take_slot(request, user_id)
    if release is None:
        return _refusal(request, TOO_MANY, 429)
    return _stream(request, _my_stream(request, user_id), release)


async def _my_stream(request: HttpRequest, user_id: int):
    # The lobby's page also hears that its lists changed (`?lobby=1`; they are public).
    names = [f"user:{user_id}", *(["lobby"] if request.GET.get("lobby") else [])]
    queue = events.HUB.subscribe(*names)
    try:
        yield f"retry: {random.randint(*RETRY_MS)}\n\n"
        count = await me(request)
        checked = asyncio.get_running_loop().time()
        sent = None
        kind = None
        while True:
            if count is None:
                yield _frame({"kind": "revoked"}, event="revoked")
                return
            # Every event of the user's games goes on (My games redraws its lists: a table
            # joined, a game aborted), even when their count stays the same.
            if count != sent or kind == "turns":
                sent = count
                yield _frame({"kind": "turns", "your_turn": count}, event="turns")
            event = await next_event(queue)
            kind = event and event.get("kind")
            if kind == "lobby":  # public lists: nothing to re-read for it
                yield _frame({"kind": "lobby"}, event="lobby")
            now = asyncio.get_running_loop().time()
            if (
                kind in (None, "lobby")
                and now - checked < settings.GEARTABLE_STREAM_RECHECK_SECONDS
            ):
                if event is None:
                    yield ": keep-alive\n\n"
                continue
            count = await me(request)
            checked = now
            if event is None:
                yield ": keep-alive\n\n"
    finally:
        events.HUB.unsubscribe(queue, *names)
