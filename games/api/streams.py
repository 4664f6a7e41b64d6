"""The API's NDJSON streams (issue 28.2, docs/api.md "Streams"), served by the stream process
beside the pages' event streams, on the same machinery (games/live/stream.py: its one LISTEN, the
in-memory hub, its reader threads, its per-user and per-address limits).

- `GET /api/v1/stream/account`: `gameStart`, `yourTurn`, `gameOver` and `invitation` lines for
  the token's user; first a `yourTurn` for every game waiting for them now.
- `GET /api/v1/games/{id}/stream`: `{"type": "game", …}` with exactly the body of `GET
  /api/v1/games/{id}` (`api.game_json`: the same function), then a new one each time the
  game's version moves; the server ends the stream after the line that shows the game over.

One JSON object per line; a bare `\\n` is the keep-alive (GEARTABLE_STREAM_KEEPALIVE_SECONDS).
Authenticated like the API's calls and by the same function (`tokens.check`: a bearer token,
never the session; opening counts against the token's rate), the token checked again at
every event that makes the stream read, at every GEARTABLE_STREAM_RECHECK_SECONDS, and its
expiry against the clock at every keep-alive; a revoked token's `access` event (games/live/cache.py)
ends its streams within that event's delivery. Like the pages' streams, a line is what the
database says now, never what the event said: an event only wakes the stream.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field

from django.conf import settings
from django.db.models import Q
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.utils import timezone

from accounts import tokens
from accounts.models import ApiToken
from config.addresses import client_address
from config.middleware import bearer
from games.api import calls as api
from games.errors import GameError
from games.live import events, stream
from games.models import Invitation, Seat, Status

NDJSON = "application/x-ndjson"
HEADERS = {"Cache-Control": "private, no-store", "X-Accel-Buffering": "no"}
KEEPALIVE = "\n"
OVER = (Status.FINISHED, Status.ABORTED)
TOO_MANY = (
    "Too many streams are open for this account (or from this address): close one first. "
    "The limit counts the site's own live pages too."
)
READ = ApiToken.Scope.READ


def _refusal(status: int, detail: str, headers: dict[str, str] | None = None) -> HttpResponse:
    """A refusal as the API's calls answer one: `{"detail": sentence}` and its status."""
    response = HttpResponse(
        json.dumps({"detail": detail}), status=status, content_type="application/json"
    )
    response["Cache-Control"] = HEADERS["Cache-Control"]
    for name, value in (headers or {}).items():
        response[name] = value
    return response


def _ndjson(body, release) -> HttpResponse:
    return StreamingHttpResponse(stream.Held(body, release), content_type=NDJSON, headers=HEADERS)


async def _opening(request: HttpRequest, read, *args):
    """The stream's first read (token and state), or the refusal to answer instead."""
    if request.method != "GET":
        return None, _refusal(405, "A stream is read with GET.")
    token = bearer(request.headers.get("Authorization"))
    try:
        return await read(token, client_address(request), *args), None
    except tokens.Refused as refused:
        return None, _refusal(refused.status, refused.detail, refused.headers)
    except GameError as error:
        return None, _refusal(error.status, error.message)


async def _open(request: HttpRequest, lines, read, *args) -> HttpResponse:
    """A stream's opening, for both kinds: its first read (`read(*args)`: the token and what
    it shows), its place under the limits, then `lines(token, row)` as NDJSON; or the refusal."""
    opened, refused = await _opening(request, read, *args)
    if refused is not None:
        return refused
    row = opened[0]
    release, refused = await _held(request, row)
    if refused is not None:
        return refused
    token = bearer(request.headers.get("Authorization"))
    return _ndjson(lines(token, row), release)


async def _held(request: HttpRequest, row: ApiToken):
    """This stream's place under the limits, or the refusal (503 without a listener, 429)."""
    if not await stream.LISTENER.wait_ready():
        return None, _refusal(503, "Streams are not available now: try again in a minute.")
    release = stream.take_slot(request, row.user_id)
    if release is None:
        return None, _refusal(429, TOO_MANY, {"Retry-After": "60"})
    return release, None


def _expired(row: ApiToken) -> bool:
    return row.expires is not None and row.expires <= timezone.now()


def _drain(queue: events.Inbox) -> None:
    """Events queued behind the one that woke the stream: one read answers them all."""
    while not queue.empty():
        queue.get_nowait()


class Rest:
    """When a stream next reads on its own (no event): the keep-alive's clock and the
    periodic re-check's, in the event loop's time."""

    def __init__(self) -> None:
        self.checked = self.wrote = self.now()

    @staticmethod
    def now() -> float:
        return asyncio.get_running_loop().time()

    def recheck_due(self) -> bool:
        return self.now() - self.checked >= settings.GEARTABLE_STREAM_RECHECK_SECONDS

    def quiet(self) -> bool:
        return self.now() - self.wrote >= settings.GEARTABLE_STREAM_KEEPALIVE_SECONDS


# --- a game's stream ---------------------------------------------------------------------------


def _read_game(token: str | None, opening: str | None, game_id: int) -> tuple[ApiToken, str, dict]:
    """The token (tokens.check, scope read) and the game's line as its user sees it now.
    `opening`: the client's address when the stream opens (the call counts against the
    rates), None at its re-checks."""
    row = tokens.check(token, READ, counted=opening is not None, address=opening)
    line, body = api.game_json(row.user, game_id)
    return row, line, body


read_game = stream.on_readers(_read_game)


async def game_stream(request: HttpRequest, game_id: int) -> HttpResponse:
    """GET /api/v1/games/{id}/stream: the game as the token's user sees it, then each change."""
    return await _open(
        request, lambda token, row: _game_lines(token, row, game_id), read_game, game_id
    )


async def _game_lines(token: str, row: ApiToken, game_id: int):
    names = [f"game:{game_id}", f"user:{row.user_id}"]  # the user's: its `access` events
    queue = events.HUB.subscribe(*names)
    try:
        sent = None
        rest = Rest()
        read = True  # read after subscribing: a commit in between is in the queue, not lost
        while True:
            if read:
                try:
                    row, line, body = await read_game(token, None, game_id)
                except (tokens.Refused, GameError):
                    return  # revoked, expired, or the game no longer readable: the end
                rest.checked = rest.now()
                if body["version"] != sent:
                    sent = body["version"]
                    rest.wrote = rest.checked
                    yield line + "\n"
                    if body["status"] in OVER:
                        return
            event = await stream.next_event(queue)
            if _expired(row):
                return
            # `turns` (whose turn it is in any of the user's games) says nothing of this one:
            # its own change comes as a `game` event. `access` and `resync`: read again.
            woken = event is not None and event.get("kind") != "turns"
            if woken:
                _drain(queue)
            read = woken or rest.recheck_due()
            if event is None or (not woken and rest.quiet()):
                rest.wrote = rest.now()
                yield KEEPALIVE
    finally:
        events.HUB.unsubscribe(queue, *names)


# --- the account's stream --------------------------------------------------------------------


@dataclass
class Account:
    """What the account's stream has told its client: the games in play it knows (id -> kind),
    the version of each `yourTurn` it sent, the invitations it knows."""

    active: dict[int, str] = field(default_factory=dict)
    turns: dict[int, int] = field(default_factory=dict)
    invitations: set[int] = field(default_factory=set)

    def lines(self, seats: list[tuple], invitations: list[tuple], *, first: bool) -> list[dict]:
        """The lines that take the client from what it was told to the state read now: seats
        (game id, kind, status, version, to_act) and invitations (id, game id, kind, from)."""
        out = []
        present = set()
        for game_id, kind, status, version, to_act in seats:
            present.add(game_id)
            game = {"id": game_id, "kind": kind}
            if status == Status.ACTIVE:
                if game_id not in self.active:
                    self.active[game_id] = kind
                    if not first:
                        out.append({"type": "gameStart", "game": game})
                if to_act and self.turns.get(game_id) != version:
                    self.turns[game_id] = version
                    out.append({"type": "yourTurn", "game": {**game, "version": version}})
                elif not to_act:
                    self.turns.pop(game_id, None)
            elif status in OVER and game_id in self.active:
                del self.active[game_id]
                self.turns.pop(game_id, None)
                out.append({"type": "gameOver", "game": game})
        for gone in set(self.active) - present:  # their seat went to a bot, e.g.: no line
            del self.active[gone]
            self.turns.pop(gone, None)
        for pk, game_id, kind, inviter in invitations:
            if pk not in self.invitations and not first:
                out.append(
                    {"type": "invitation", "game": {"id": game_id, "kind": kind}, "from": inviter}
                )
        self.invitations = {pk for pk, *_ in invitations}
        return out


def _read_account(token: str | None, opening: str | None, known: frozenset[int] = frozenset()):
    """The token (scope read), its user's seats in games in play (and in `known` games, to see
    them end) and their invitations to tables still open: two indexed queries. `opening` as
    for a game's stream."""
    row = tokens.check(token, READ, counted=opening is not None, address=opening)
    seats = list(
        Seat.objects.filter(user_id=row.user_id)
        .filter(Q(game__status=Status.ACTIVE) | Q(game_id__in=known))
        .order_by("game_id")
        .values_list("game_id", "game__kind", "game__status", "game__version", "to_act")
    )
    invitations = list(
        Invitation.objects.filter(
            user_id=row.user_id, accepted__isnull=True, game__status=Status.OPEN
        )
        .order_by("pk")
        .values_list("pk", "game_id", "game__kind", "inviter__username")
    )
    return row, seats, invitations


read_account = stream.on_readers(_read_account)


async def account_stream(request: HttpRequest) -> HttpResponse:
    """GET /api/v1/stream/account: the token's user's games starting, waiting for them,
    ending, and their invitations."""
    return await _open(request, _account_lines, read_account)


async def _account_lines(token: str, row: ApiToken):
    names = [f"user:{row.user_id}"]  # `turns`: any change of the user's games; `access`
    queue = events.HUB.subscribe(*names)
    try:
        told = Account()
        first = True
        rest = Rest()
        read = True
        while True:
            if read:
                try:
                    row, seats, invitations = await read_account(
                        token, None, frozenset(told.active)
                    )
                except tokens.Refused:
                    return
                rest.checked = rest.now()
                lines = told.lines(seats, invitations, first=first)
                first = False
                if lines:
                    rest.wrote = rest.checked
                    yield "".join(json.dumps(line) + "\n" for line in lines)
            event = await stream.next_event(queue)
            if _expired(row):
                return
            _drain(queue)
            read = event is not None or rest.recheck_due()
            if event is None:
                rest.wrote = rest.now()
                yield KEEPALIVE
    finally:
        events.HUB.unsubscribe(queue, *names)
