"""The public JSON API under /api/v1/ (docs/api.md): another door to the same rooms.

Its answers come from what the pages read (`access.seen_by`: the engine's seat-filtered view;
`page(kind).log_context`; `models.chat_messages`) and its writes go through the same
functions as the pages' POSTs (`moves.submit_action`, `moderation.post_chat`), with the same
refusals as `{"detail": sentence}` and their status.

Only a personal access token (`Authorization: Bearer gt_…`, accounts/tokens.py) authenticates a
call: never the session cookie, so a page of another site cannot make a browser call the API
as its user (no CSRF to guard against), and a token opens nothing but the API. Every call with
a token counts against its rate (429 with Retry-After), then its scope is checked: `read` for
every GET, `play` for every POST (a bot account's token: `bot`, which reads and plays).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from django.core.exceptions import RequestDataTooBig
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET
from ninja import NinjaAPI, Path, Schema
from ninja import Status as Answer
from ninja.errors import ValidationError
from ninja.security import HttpBearer
from pydantic import Field

from accounts import tokens
from accounts.models import ApiToken
from config.addresses import client_address
from games import errors
from games.actions import deadlines, moderation, moves, tables
from games.forms import NewGameForm
from games.models import Game, Invitation, Seat, Status, chat_messages, seat_names
from games.pages import page
from games.reads import access, seating

MOVE_RATE_NOTE = "Counts against the token's rate like any call."


Refusal = tokens.Refused  # a call refused before it reached the write path


class Token(HttpBearer):
    """`Authorization: Bearer gt_…`, with the scope this call needs: `tokens.check`, the one
    check of the API's calls and its streams (games/api/streams.py)."""

    def __init__(self, scope: str) -> None:
        super().__init__()
        self.scope = scope

    def __call__(self, request: HttpRequest) -> ApiToken:
        row = super().__call__(request)
        if row is None:  # no header, or not a Bearer one: refused
            return tokens.check(None, self.scope)
        return row

    def authenticate(self, request: HttpRequest, token: str) -> ApiToken:
        return tokens.check(token, self.scope, address=client_address(request))


READ, PLAY = Token(ApiToken.Scope.READ), Token(ApiToken.Scope.PLAY)


class GeartableAPI(NinjaAPI):
    def create_temporal_response(self, request: HttpRequest) -> HttpResponse:
        # A player's hand and games: no cache along the way, nor the client's, keeps them.
        response = super().create_temporal_response(request)
        response["Cache-Control"] = "private, no-store"
        return response


api = GeartableAPI(
    title="Geartable API",
    version="1",
    description="Play Geared and Out of Gears with a personal access token (docs/api.md).",
    urls_namespace="api-1",
    openapi_url="/openapi.json",
    docs_url=None,  # our own page (`docs` below): ninja's Swagger UI needs scripts the CSP forbids
    auth=READ,
)


def _answer(
    request: HttpRequest, status: int, detail: str, headers: dict[str, str] | None = None
) -> HttpResponse:
    response = api.create_response(request, {"detail": detail}, status=status)
    for name, value in (headers or {}).items():
        response[name] = value
    return response


@api.exception_handler(Refusal)
def _refused(request: HttpRequest, exc: Refusal) -> HttpResponse:
    return _answer(request, exc.status, exc.detail, exc.headers)


@api.exception_handler(errors.GameError)
def _game_error(request: HttpRequest, exc: errors.GameError) -> HttpResponse:
    headers = {"Retry-After": str(moderation.CHAT_RATE[1])} if exc.status == 429 else None
    return _answer(request, exc.status, exc.message, headers)


@api.exception_handler(RequestDataTooBig)
def _too_large(request: HttpRequest, exc: RequestDataTooBig) -> HttpResponse:
    # Larger than any field of the API holds (DATA_UPLOAD_MAX_MEMORY_SIZE), though under the
    # whole site's limit (config/middleware.py): refused unread.
    return _answer(request, 413, "That request is too large.")


@api.exception_handler(ValidationError)
def _bad_input(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    """ninja's 422 with a list of errors, as the site's 400 with one sentence."""
    parts = []
    for error in exc.errors[:3]:
        where = ".".join(str(p) for p in error.get("loc", ())[1:]) or "the request"
        parts.append(f"{where}: {error.get('msg', 'not valid')}")
    return _answer(request, 400, "Bad input — " + "; ".join(parts) + ".")


# --- what the API answers ----------------------------------------------------------------------


class Detail(Schema):
    detail: str = Field(description="Why the call was refused, as a sentence.")


class TokenOut(Schema):
    name: str
    scopes: list[str]
    expires: datetime | None


class MeOut(Schema):
    id: int
    username: str
    name: str
    bot: bool = Field(description="A bot account (it plays only with a `bot` token).")
    bot_owner: str | None = Field(description="A bot account's owner's username.")
    token: TokenOut


class GameSummary(Schema):
    id: int
    kind: str
    status: str
    version: int
    seat: str | None = Field(description="Your seat's id in the game (None before it starts).")
    your_turn: bool
    deadline: datetime | None
    updated: datetime


class GameOut(Schema):
    id: int
    kind: str
    status: str
    version: int = Field(description="Send it back with an action.")
    seat: str | None = Field(description="Your seat's id; None if you watch.")
    your_turn: bool
    to_act: list[str] = Field(description="The seats the game waits for.")
    names: dict[str, str] = Field(description="Each seat's name.")
    deadline: datetime | None
    view: dict[str, Any] | None = Field(
        description="The game as your seat sees it (the engine's view, as the page shows it); "
        "None for a table that has not started."
    )
    result: dict[str, Any] | None


class LegalOut(Schema):
    version: int
    seat: str | None
    actions: list[dict[str, Any]]


class ActionIn(Schema):
    version: int = Field(description="The game's version your view was drawn from.")
    action: dict[str, Any] = Field(description="One of the actions GET …/legal lists.")


class TurnLog(Schema):
    turn: int
    who: str = Field("", description='Geared: whose turn it was ("You" for your own).')
    time: datetime | None = Field(description="When the turn ended (None for an old record).")
    programs: list[str] = Field([], description="Out of Gears: the programs revealed.")
    lines: list[str]


class LogOut(Schema):
    lines: list[str] | None = Field(description="Unused (None): the log reads by turns.")
    turns: list[TurnLog] | None = Field(
        description="Each turn, oldest first, as the log page shows it (issue 27.5)."
    )


class ChatLine(Schema):
    id: int
    author: str
    text: str = Field(description="Empty when a moderator removed the message.")
    hidden: bool
    created: datetime


class ChatIn(Schema):
    text: str


GameId = Annotated[int, Path(ge=1, le=2**63 - 1)]

REFUSALS = {401: Detail, 403: Detail, 404: Detail, 429: Detail}
READS = {**REFUSALS, 400: Detail}
WRITES = {**REFUSALS, 400: Detail, 409: Detail, 413: Detail}


# --- reading -------------------------------------------------------------------------------------


def _user(request: HttpRequest):
    return request.auth.user


def _readable(request: HttpRequest, game_id: int) -> Game:
    return readable_by(_user(request), game_id)


def readable_by(user, game_id: int) -> Game:
    """The game with its seats, if this user may see it (as `views.common.visible_game`
    answers a page, without the join link): else 404, as for a game that does not exist."""
    game = Game.objects.with_table(game_id)
    if game is None or not access.may_read_game(game, user):
        raise errors.NotFound("There is no such game.")
    return game


def _game_out(game: Game, seat: Seat | None) -> dict:
    seen = access.seen_by(game, seat) if game.state is not None else None
    return {
        "id": game.pk,
        "kind": game.kind,
        "status": game.status,
        "version": game.version,
        "seat": seen.me if seen else None,
        "your_turn": bool(seat and seat.to_act and game.is_active),
        "to_act": [s.seat_id for s in game.table if s.to_act and s.position],
        "names": seat_names(game.table),
        "deadline": game.deadline,
        "view": seen.view if seen else None,
        "result": game.result if game.status == Status.FINISHED else None,
    }


@api.get("/me", response={200: MeOut, **READS}, summary="Who the token acts for")
def me(request: HttpRequest):
    user, row = _user(request), request.auth
    return {
        "id": user.pk,
        "username": user.username,
        "name": user.name,
        "bot": user.is_bot,
        "bot_owner": user.bot_owner_id if user.is_bot else None,
        "token": {"name": row.name, "scopes": sorted(row.scope_set), "expires": row.expires},
    }


MY_GAMES_LISTED = 200


@api.get("/games", response={200: list[GameSummary], **READS}, summary="My games")
def my_games(request: HttpRequest):
    """The games you sit at that are open or in play: those waiting for you first, then the
    most recently changed (at most 200)."""
    seats = (
        Seat.objects.filter(user=_user(request), game__status__in=[Status.OPEN, Status.ACTIVE])
        .select_related("game")
        .defer("game__state", "game__options", "game__result")
        .order_by("-to_act", "-game__updated", "-pk")[:MY_GAMES_LISTED]
    )
    return [
        {
            "id": s.game_id,
            "kind": s.game.kind,
            "status": s.game.status,
            "version": s.game.version,
            "seat": s.seat_id if s.position else None,
            "your_turn": s.to_act and s.game.status == Status.ACTIVE,
            "deadline": s.game.deadline,
            "updated": s.game.updated,
        }
        for s in seats
    ]


@api.get("/games/{game_id}", response={200: GameOut, **READS}, summary="A game as you see it")
def game(request: HttpRequest, game_id: GameId):
    """The game as your seat sees it: the same view the game page draws (nothing of another
    seat's hand, of a program not yet revealed, of the draw pile's order or of the seed).
    Anyone may read a public game, as a spectator."""
    return game_as_seen(_user(request), game_id)


def game_as_seen(user, game_id: int) -> dict:
    """GET /games/{id}'s answer for this user, and each line of the game's NDJSON stream
    (games/api/streams.py): one function, so the two can never differ. NotFound if they may
    not read it."""
    found = readable_by(user, game_id)
    return _game_out(found, seating.seat_of(found, user))


def game_json(user, game_id: int) -> tuple[str, dict]:
    """A line of the game's stream: `{"type": "game", …}` with exactly the body of GET
    /games/{id}, as the API renders it (checked against GameOut, the same JSON encoder), on one
    line; and that body."""
    body = GameOut.model_validate(game_as_seen(user, game_id)).model_dump()
    return api.renderer.render(None, {"type": "game", **body}, response_status=200), body


@api.get("/games/{game_id}/legal", response={200: LegalOut, **READS}, summary="My legal actions")
def legal(request: HttpRequest, game_id: GameId):
    """Every action your seat may take now (none when it is not your turn, or you watch)."""
    found = _readable(request, game_id)
    seat = seating.seat_of(found, _user(request))
    if found.state is None:
        return {"version": found.version, "seat": None, "actions": []}
    seen = access.seen_by(found, seat)
    return {"version": found.version, "seat": seen.me, "actions": list(seen.legal)}


@api.get("/games/{game_id}/log", response={200: LogOut, **READS}, summary="The game's log")
def log(request: HttpRequest, game_id: GameId):
    """Every move as a sentence (Geared), or each resolved turn's story (Out of Gears), as the
    log page shows them to you."""
    found = _readable(request, game_id)
    if found.state is None:
        return {"lines": None, "turns": []}
    seat = seating.seat_of(found, _user(request))
    me = seat.seat_id if seat and seat.position else None
    return page(found.kind).log_context(found, me, seat_names(found.table))


@api.get("/games/{game_id}/chat", response={200: list[ChatLine], **READS}, summary="The chat")
def chat(request: HttpRequest, game_id: GameId):
    """The game's last 50 messages, oldest first."""
    found = _readable(request, game_id)
    return [_chat_line(m) for m in chat_messages(found)]


def _chat_line(message) -> dict:
    return {
        "id": message.pk,
        "author": message.author.name,
        "text": "" if message.hidden else message.text,
        "hidden": message.hidden,
        "created": message.created,
    }


# --- writing: the one write path -----------------------------------------------------------------


@api.post(
    "/games/{game_id}/actions",
    auth=PLAY,
    response={200: GameOut, **WRITES},
    summary="Play an action",
)
def act(request: HttpRequest, game_id: GameId, body: ActionIn):
    """A move (Geared) or a program (Out of Gears), with the version your view was drawn from:
    through the same write path as the game page, with the same refusals (400 an illegal
    action, 403 a suspended account, 404 no such game of yours, 409 not your turn or a stale
    version). The answer: the game as you now see it."""
    user = _user(request)
    played = moves.submit_action(user, game_id, body.version, body.action)
    return _game_out(played, seating.seat_of(played, user))


@api.post(
    "/games/{game_id}/chat",
    auth=PLAY,
    response={201: ChatLine, **WRITES},
    summary="Say something to the table",
)
def say(request: HttpRequest, game_id: GameId, body: ChatIn):
    """A message to the table (players only), under the chat's rules: at most 500 characters,
    a few messages in a few seconds (429 with Retry-After)."""
    message = moderation.post_chat(_user(request), game_id, body.text)
    return Answer(201, _chat_line(message))


# --- the lobby: open tables, a new table, join, start, invite, resign ---------------------------


class OpenTable(Schema):
    id: int
    kind: str
    seat_count: int
    players: int
    host: str
    created: datetime


class NewTableIn(Schema):
    """The lobby's new game form, as JSON (the form checks it: games/forms.NewGameForm)."""

    kind: str = Field(description="geared or outofgears")
    seat_count: int
    public: bool = False
    turn_seconds: int | None = None
    target: int | None = Field(None, description="Geared: the score that ends the game.")
    advanced: bool = False
    bots: int | None = Field(None, description="How many seats go to bots.")
    bot_kind: str | None = None
    robots: list[int] = Field(default_factory=list, description="Out of Gears: your robots.")
    watchable_by_link: bool = True


class JoinIn(Schema):
    robots: list[int] = Field(default_factory=list, description="Out of Gears: your robots.")
    token: str | None = Field(None, description="A private table's join link's token.")


class InviteIn(Schema):
    who: str = Field(description="A username, or an e-mail address.")


class Invited(Schema):
    detail: str


OPEN_TABLES_LISTED = 50


@api.get("/lobby", response={200: list[OpenTable], **READS}, summary="Open public tables")
def lobby(request: HttpRequest):
    """The public tables waiting for players, the newest first (at most 50)."""
    open_tables = (
        Game.objects.filter(status=Status.OPEN, public=True)
        .select_related("creator")
        .defer("state")
        .annotate(players=Count("seats"))
        .order_by("-created")[:OPEN_TABLES_LISTED]
    )
    return [
        {
            "id": t.pk,
            "kind": t.kind,
            "seat_count": t.seat_count,
            "players": t.players,
            "host": t.creator.name if t.creator else "",
            "created": t.created,
        }
        for t in open_tables
    ]


class InvitationOut(Schema):
    game: OpenTable
    inviter: str = Field(description="The inviter's username.")
    created: datetime


@api.get("/invitations", response={200: list[InvitationOut], **READS}, summary="My invitations")
def my_invitations(request: HttpRequest):
    """The tables you are invited to that still wait for players, the newest first (at most
    50): join one with POST /games/{id}/join. A bot account is seated this way (its owner's
    program accepts for it; docs/api.md, "Bot accounts")."""
    waiting = (
        Invitation.objects.filter(
            user=_user(request), accepted__isnull=True, game__status=Status.OPEN
        )
        .select_related("game__creator", "inviter")
        .defer("game__state")
        .annotate(players=Count("game__seats"))
        .order_by("-created", "-pk")[:OPEN_TABLES_LISTED]
    )
    return [
        {
            "game": {
                "id": i.game_id,
                "kind": i.game.kind,
                "seat_count": i.game.seat_count,
                "players": i.players,
                "host": i.game.creator.name if i.game.creator else "",
                "created": i.game.created,
            },
            "inviter": i.inviter.username,
            "created": i.created,
        }
        for i in waiting
    ]


@api.post("/games", auth=PLAY, response={201: GameOut, **WRITES}, summary="Open a new table")
def create(request: HttpRequest, body: NewTableIn):
    """A new table, as the lobby's form makes one, with the same checks; you sit at it."""
    data = {n: f.initial for n, f in NewGameForm.base_fields.items() if f.initial is not None}
    data.update({k: v for k, v in body.dict().items() if v is not None})
    form = NewGameForm(data)
    if not form.is_valid():
        problems = [e for field_errors in form.errors.values() for e in field_errors]
        raise errors.GameError(" ".join(problems[:3]))
    user = _user(request)
    made = tables.create_game(user, form.spec())
    return Answer(201, _game_out(made, seating.seat_of(made, user)))


def _table_step(request: HttpRequest, game_id: int, step) -> dict:
    user = _user(request)
    changed = step(user)
    return _game_out(changed, seating.seat_of(changed, user))


@api.post("/games/{game_id}/join", auth=PLAY, response={200: GameOut, **WRITES}, summary="Join")
def join(request: HttpRequest, game_id: GameId, body: JoinIn):
    """Take a seat at an open table (a private one with its link's token)."""
    return _table_step(
        request,
        game_id,
        lambda user: tables.join_game(user, game_id, robots=body.robots, token=body.token),
    )


@api.post("/games/{game_id}/start", auth=PLAY, response={200: GameOut, **WRITES}, summary="Start")
def start(request: HttpRequest, game_id: GameId):
    """The host starts the table (empty seats go to bots, as on the page)."""
    return _table_step(request, game_id, lambda user: tables.start_game(user, game_id))


@api.post("/games/{game_id}/resign", auth=PLAY, response={200: GameOut, **WRITES}, summary="Resign")
def resign(request: HttpRequest, game_id: GameId):
    """Leave a game in play: a bot takes your seat; you can still read the game."""
    return _table_step(request, game_id, lambda user: deadlines.resign(user, game_id))


@api.post("/games/{game_id}/leave", auth=PLAY, response={200: Detail, **WRITES}, summary="Leave")
def leave(request: HttpRequest, game_id: GameId):
    """Leave a table that has not started: your seat is free again. The host leaving closes
    the table (nobody else can start it). A game in play is left by resigning."""
    tables.leave_game(_user(request), game_id)
    return {"detail": "You left the table."}


@api.post(
    "/games/{game_id}/rematch", auth=PLAY, response={200: GameOut, **WRITES}, summary="Rematch"
)
def rematch(request: HttpRequest, game_id: GameId):
    """After a finished game, the same table again, as the end screen's button: the first
    player to ask opens it and every other player is invited; the others accept by the same
    call (or the invitation), and it starts by itself once the last one has. The answer is the
    rematch."""
    return _table_step(request, game_id, lambda user: tables.rematch(user, game_id))


@api.post("/games/{game_id}/invite", auth=PLAY, response={201: Invited, **WRITES}, summary="Invite")
def invite(request: HttpRequest, game_id: GameId, body: InviteIn):
    """Invite a player by username or an address by e-mail to your open table, under the
    page's rules (their switches, the daily limits)."""
    tables.invite(_user(request), game_id, body.who[:254])
    return Answer(201, {"detail": "Invited."})


# --- the documentation page -------------------------------------------------------------------


@require_GET
def docs(request: HttpRequest) -> HttpResponse:
    """The API's documentation, drawn from its own OpenAPI schema with the site's templates
    (no script: the CSP and the site's no-CDN rule keep Swagger UI out)."""
    schema = api.get_openapi_schema(path_prefix="/api/v1")
    operations = [
        {
            "method": method.upper(),
            "path": path,
            "summary": op.get("summary", ""),
            "description": op.get("description", ""),
            "scope": "play" if method == "post" else "read",
            "codes": sorted(op.get("responses", {})),
        }
        for path, methods in schema["paths"].items()
        for method, op in methods.items()
    ]
    return render(request, "api/docs.html", {"operations": operations, "schema": schema})
