"""Game pages: thin views that parse, call games.services, and render a page or its partial."""

from __future__ import annotations

import copy
import functools
import hashlib
import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, load_backend
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.decorators import login_required
from django.contrib.humanize.templatetags.humanize import ordinal
from django.core.cache import cache
from django.core.exceptions import RequestDataTooBig
from django.core.paginator import Paginator
from django.db.models import Count, Max, Q, Sum
from django.db.models.fields.json import KeyTransform
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.utils.http import urlencode
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseStopPolling

from accounts.middleware import shows_no_time
from accounts.models import EmailSuppression, User
from games import engines, live, moderation, ratings, replay, rows, services
from games.context_processors import your_turn_count
from games.forms import NewGameForm
from games.models import ChatMessage, Game, Invitation, Seat, Status, seat_names, table_prefetch
from games.pages import Table, page


def answer_error(request: HttpRequest, exc: services.GameError, back) -> HttpResponse:
    """A refusal as the HTTP answer a page's form gets: a 404 page for what this visitor may
    not know exists, otherwise back to `back` with the sentence shown there."""
    if exc.status == 404:
        raise Http404(exc.message) from None
    messages.error(request, exc.message)
    return redirect(back)


def _bad_request(request: HttpRequest, message: str) -> HttpResponse:
    """Input no form of ours sends (a crafted request): 400 and a sentence, nothing changed."""
    return render(request, "bad_request.html", {"message": message}, status=400)


def _visible_game(request: HttpRequest, game_id: int, *, token: str | None = None) -> Game:
    """The game if this visitor may see it: seated players always, and those who left it for a
    bot (read only); anyone for a public game or with the join link; for everybody else a
    private game does not exist (404)."""
    game = Game.objects.with_table(game_id)
    if game is None:
        raise Http404("There is no such game.")
    _user_from_seats(request, game)
    if services.may_watch(game, request.user, token):
        return game
    raise Http404("There is no such game.")


# --- lobby and my games ------------------------------------------------------------------------


def _render_lobby(request: HttpRequest, form: NewGameForm, status: int = 200) -> HttpResponse:
    return render(
        request,
        "games/lobby.html",
        {
            "lists": _lobby_lists(),
            "form": form,
            "blank_form": "" if form.is_bound else _blank_form_html(),
            "nav_section": "lobby",
        },
        status=status,
    )


# The lobby's lists (open tables, games to watch) are the same for every visitor: drawn once and
# kept this long, and forgotten at once when a public table opens, fills, starts or ends
# (live.forget_lobby). Between those, only "N minutes since the last move" and the order of the
# games to watch may lag by up to this many seconds.
LOBBY_SECONDS = 5


def _lobby_lists() -> str:
    lists = cache.get(live.LOBBY_KEY)
    if lists is not None:
        return lists
    # An open table's row says how many have joined, not who: a count, not its seats.
    open_games = (
        Game.objects.filter(status=Status.OPEN, public=True)
        .select_related("creator")
        .defer("state")
        .annotate(players=Count("seats"))
        .order_by("-created")[:50]
    )
    # Public games in play, to watch: the most recently moved first (the lobby's index).
    watch_games = (
        Game.objects.filter(status=Status.ACTIVE, public=True)
        .prefetch_related(table_prefetch())
        .defer("state")
        .order_by("-updated")[:WATCH_SHOWN]
    )
    lists = render_to_string(
        "games/lobby.html#lists", {"open_games": open_games, "watch_games": watch_games}
    )
    cache.set(live.LOBBY_KEY, lists, LOBBY_SECONDS)
    return lists


@functools.cache
def _blank_form_html() -> str:
    """The new game form's fields, as everybody first sees them: the same for all (nothing in
    it depends on the visitor or on the games), so drawn once per process; a refused form is
    drawn with its values and errors each time."""
    return render_to_string("games/lobby.html#form-fields", {"form": NewGameForm()})


WATCH_SHOWN = 20


@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    return _render_lobby(request, NewGameForm())


@login_required
@require_POST
def create(request: HttpRequest) -> HttpResponse:
    form = NewGameForm(request.POST)
    if form.is_valid():
        try:
            game = services.create_game(request.user, form.spec())
        except services.GameError as exc:
            form.add_error(None, exc.message)
        else:
            return redirect(game)
    return _render_lobby(request, form, status=400)


@login_required
@require_GET
def my_games(request: HttpRequest) -> HttpResponse:
    """Games in play and waiting first, then the latest finished ones (all of them on their own
    paginated page): the page costs the same for a new player and for one with 500 games. The
    list is drawn once per state of the player's games (_my_games_key) and kept."""
    key = _my_games_key(request.user.pk)
    content = cache.get(key)
    if content is None:
        content = render_to_string("games/my_games.html#content", _my_games(request.user))
        cache.set(key, content, MY_GAMES_SECONDS)
    return render(request, "games/my_games.html", {"content": content, "nav_section": "my_games"})


# What "my games" shows changes only when one of my games does (a move, a join, a result: its
# `updated`), when I look at one (what is new for me: my seats' seen marks), or when I am
# invited: an aggregate of my seats and one of my invitations say whether it did. The names of
# the other players and "due in …" may lag by up to MY_GAMES_SECONDS.
MY_GAMES_SECONDS = 60


def _my_games_key(user_id: int) -> str:
    seats = Seat.objects.filter(user_id=user_id).aggregate(
        n=Count("pk"),
        updated=Max("game__updated"),
        seen=Sum("seen_version"),
        marks=Sum("seen_mark"),
        last=Max("pk"),
    )
    waiting = Q(accepted__isnull=True)
    invited = Invitation.objects.filter(user_id=user_id).aggregate(
        n=Count("pk", filter=waiting),
        updated=Max("game__updated", filter=waiting),
        last=Max("pk"),
    )
    state = (*seats.values(), *invited.values())
    digest = hashlib.blake2b(repr(state).encode(), digest_size=12).hexdigest()
    # Times are drawn in the player's own zone: a change of zone draws the list again.
    return f"my-games:{user_id}:{digest}:{timezone.get_current_timezone_name()}"


def _my_games(user) -> dict:
    seats = list(
        _with_scores(_my_seats(user)).filter(game__status__in=[Status.OPEN, Status.ACTIVE])[
            :MY_GAMES_IN_PLAY
        ]
    )
    finished = list(_my_seats(user).filter(game__status=Status.FINISHED)[: FINISHED_SHOWN + 1])
    _with_tables([*seats, *finished])
    invitations = (
        Invitation.objects.filter(user=user, accepted__isnull=True, game__status=Status.OPEN)
        .select_related("game", "inviter")
        .order_by("-created")
    )
    groups = {
        "your_turn": [s for s in seats if s.game.is_active and s.to_act],
        "waiting": [s for s in seats if s.game.is_active and not s.to_act],
        "open": [s for s in seats if s.game.is_open],
        "finished": _decorate(finished[:FINISHED_SHOWN]),
    }
    _decorate(seats)
    return {
        "groups": groups,
        "invitations": invitations,
        "more_finished": len(finished) > FINISHED_SHOWN,
    }


MY_GAMES_IN_PLAY = 200
FINISHED_SHOWN = 20


def _my_seats(user):
    return (
        Seat.objects.filter(user=user)
        .select_related("game")
        # Not the engine states: a list of games needs none, and a finished game's state (its
        # whole event log) is 10-15 kB of JSON to fetch and decode per row.
        .defer("game__state")
        .order_by("-game__updated")
    )


def _with_scores(seats):
    """Only the few keys of each game's state that its scores need (engines.SCORE_KEYS)."""
    keys = {key for kind_keys in engines.SCORE_KEYS.values() for key in kind_keys}
    return seats.annotate(**{f"state_{key}": KeyTransform(key, "game__state") for key in keys})


# What a row needs of every seat at the table: whose turn it is and each one's name (Seat.name).
OTHERS = Seat.objects.select_related("user", "replaced_user").only(
    *("game_id", "position", "to_act", "recorded_name", "bot", "bot_number"),
    *("user", "user__display_name", "user__username"),
    *("replaced_user", "replaced_user__display_name", "replaced_user__username"),
)


def _with_tables(seats: list[Seat]) -> None:
    """Each seat's `table`: every seat of its game, in order (Seat.Meta.ordering), for all the
    games listed in one query (grouped here: cheaper than prefetching through game__seats)."""
    tables: dict[int, list[Seat]] = {}
    for other in OTHERS.filter(game_id__in={seat.game_id for seat in seats}):
        tables.setdefault(other.game_id, []).append(other)
    for seat in seats:
        seat.table = tables.get(seat.game_id, [])


def _decorate(seats: list[Seat]) -> list[Seat]:
    """What a row of "my games" says: who else plays, whose turn it is, the scores (in play) or
    my place (finished), and how much happened since I last looked."""
    for seat in seats:
        game = seat.game
        table = seat.table
        names = {s.seat_id: "You" if s.pk == seat.pk else s.name for s in table if s.position}
        seat.others = [other.name for other in table if other.pk != seat.pk]
        seat.news = max(0, game.version - seat.seen_version) if seat.seen_version else 0
        if game.status == Status.ACTIVE:
            seat.turn_names = [names[s.seat_id] for s in table if s.to_act and s.position]
            parts = {
                key: getattr(seat, f"state_{key}", None) for key in engines.SCORE_KEYS[game.kind]
            }
            scores = engines.scores_now(game.kind, parts)
            seat.scores = [
                (names.get(sid, sid), points)
                for sid, points in sorted(scores.items(), key=lambda item: -item[1])
            ]
        if game.status == Status.FINISHED:
            seat.outcome = _outcome(seat)
            seat.standing = _standing(seat)
    return seats


@login_required
@require_GET
def finished_games(request: HttpRequest) -> HttpResponse:
    """Every finished game of mine, newest first, a page at a time."""
    paginator = Paginator(_my_seats(request.user).filter(game__status=Status.FINISHED), 25)
    page = paginator.get_page(request.GET.get("page"))
    page.object_list = list(page.object_list)
    _with_tables(page.object_list)
    _decorate(page.object_list)
    return render(request, "games/finished.html", {"page": page, "nav_section": "my_games"})


def _outcome(seat: Seat) -> str:
    result = seat.game.result or {}
    winners = result.get("winners", [])
    if seat.seat_id in winners:
        return "Won" if len(winners) == 1 else "Shared win"
    return "Lost"


def _places(result: dict) -> tuple[list[str], dict[str, int]]:
    """A finished game's seats in order, and each one's place (equal scores share a place)."""
    scores = result.get("scores", {})
    ranking = result.get("ranking") or sorted(scores, key=lambda s: -scores[s])
    return ranking, ratings.places_of(result)


def _standing(seat: Seat) -> str:
    """ "2nd of 3 · 14 pts": my place at the end and my score."""
    result = seat.game.result or {}
    ranking, places = _places(result)
    if seat.seat_id not in places:
        return ""
    points = result.get("scores", {}).get(seat.seat_id, 0)
    return f"{ordinal(places[seat.seat_id])} of {len(ranking)} · {points} pts"


# --- one game ------------------------------------------------------------------------------------


@require_GET
def game_page(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _visible_game(request, game_id, token=request.GET.get("token"))
    return _render_game(request, game)


def _render_game(
    request: HttpRequest,
    game: Game,
    *,
    error: str = "",
    status: int = 200,
    refused: object = None,
    query=None,
    fragment: bool | None = None,
) -> HttpResponse:
    """The game page, or its fragment (for htmx, or when `fragment`). `query`: the page's own
    parameters (a Geared selection), the request's by default; `refused`: the action just
    refused, so that the form shows what the player picked next to the error."""
    query = request.GET if query is None else query
    if fragment is None:
        fragment = bool(request.htmx) and not request.htmx.boosted
    seat = services.seat_of(game, request.user)
    # The poll key goes in the page's #live, which a fragment (or a move's answer) does not
    # carry: signed only for a whole page (games/live.py).
    poll_key = (
        live.issue(game.pk, request.user, seat and seat.pk)
        if not fragment or game.status == Status.OPEN
        else ""
    )
    if game.status == Status.OPEN:
        return render(
            request,
            "games/table.html",
            {
                "game": game,
                "seat": seat,
                "seats": game.table,
                "error": error,
                "join_url": request.build_absolute_uri(
                    reverse("game", args=[game.pk]) + f"?token={game.join_token}"
                )
                if seat
                else None,
                "token": request.GET.get("token", ""),
                "poll_key": poll_key,
                **page(game.kind).table_context(game),
            },
            status=status,
        )
    context = _game_context(request, game, seat, query=query, fragment=fragment, refused=refused)
    context["error"] = error
    context["poll_key"] = poll_key
    if error:
        context["focus"] = "error"
    template = f"games/{game.kind}.html" + ("#game" if fragment else "")
    if seat is not None:  # what this player has now been shown
        services.mark_seen(seat, game.version, context.get("mark_now", seat.seen_mark))
    return render(request, template, context, status=status)


def _game_context(
    request: HttpRequest,
    game: Game,
    seat: Seat | None,
    *,
    query=None,
    fragment: bool = False,
    refused: object = None,
) -> dict:
    eng = engines.engine(game.kind)
    me = seat.seat_id if seat and seat.position else None
    view = eng.view(game.state, me)
    seats = {s.seat_id: s for s in game.table}
    names = seat_names(seats.values())
    legal = eng.legal_actions(game.state, me) if me and game.is_active else []
    context = {
        "game": game,
        "seat": seat,
        "me": me,
        "view": view,
        "names": names,
        "seats_by_id": seats,
        "version": game.version,
        "is_my_turn": me is not None and me in eng.to_act(game.state),
        "nav_section": "my_games",
        # A visitor by the join link keeps the token on the page's own links (log, refresh).
        "token_query": f"?token={game.join_token}"
        if seat is None and request.GET.get("token") == game.join_token
        else "",
    }
    # A player who resigned (or was replaced) keeps reading the table and its chat, as a
    # spectator sees it: their old hand is the bot's now.
    former = None if seat is not None else services.former_seat_of(game, request.user)
    context["former_seat"] = former
    # Spectators who are logged in read the chat too (read only); players write in it. The chat
    # is outside the game's fragment (`#game`): a fragment (htmx, a move's answer) needs none.
    if not fragment and (seat is not None or request.user.is_authenticated):
        context["chat_messages"] = _chat_messages(game)
        context["chat_read_only"] = seat is None
    context["spectator"] = seat is None and former is None
    if context["spectator"]:
        context["nav_section"] = "lobby"  # watching: a game found in the lobby, not one of mine
    if game.status == Status.FINISHED and game.result:
        context.update(_game_over_context(request, game, names, me))
    seen = seat.seen_mark if seat is not None and seat.seen_version else None
    table = Table(
        game=game,
        view=view,
        legal=legal,
        names=names,
        me=me,
        seen=seen,
        query={} if query is None else query,
        refused=refused,
        htmx=fragment,
    )
    context.update(page(game.kind).context(table))
    return context


def _game_over_context(request: HttpRequest, game: Game, names: dict, me) -> dict:
    """The end of the game: final standings, and the ways on (replay, a rematch)."""
    result = game.result
    scores, winners = result.get("scores", {}), result.get("winners", [])
    ranking, places = _places(result)
    standings = [
        {
            "place": places.get(sid, i + 1),
            "name": names.get(sid, sid),
            "score": scores.get(sid, 0),
            "winner": sid in winners,
            "is_me": sid == me,
        }
        for i, sid in enumerate(ranking)
    ]
    offered = services.rematch_of(game)
    return {
        "standings": standings,
        "rematch": offered,
        "rematch_mine": offered is not None
        and request.user.is_authenticated
        and offered.seats.filter(user=request.user).exists(),
    }


@require_GET
def game_fragment(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _visible_game(request, game_id, token=request.GET.get("token"))
    if game.status == Status.OPEN:
        return _render_game(request, game)
    return _with_your_turn(request, _render_game(request, game, fragment=True))


@shows_no_time  # it answers numbers and headers only: the session stays unread on its key path
@require_GET
def poll(request: HttpRequest, game_id: int) -> HttpResponse:
    """The live-update check: one indexed query. 204 if nothing changed since version `v` (and
    chat message count `c`, when given); 200 with `X-Refresh: game` and/or `chat` if the page
    should fetch those fragments again; 286 (htmx's "stop polling") once the game is over."""
    try:
        seen = int(request.GET.get("v", ""))
        seen_chat = int(request.GET["c"]) if "c" in request.GET else None
    except ValueError:
        return HttpResponse("v and c must be the numbers the page shows", status=400)
    key = request.GET.get("k")
    viewer = live.read(key, game_id) if key else None
    if viewer is not None:  # the page's signed key: no session, and the state from the cache
        try:
            return _poll_by_key(request, game_id, seen, seen_chat, *viewer)
        except live.Revoked:  # its user left the seat, changed password, was deactivated
            pass
    user_id = _session_user_id(request)
    row = rows.poll_row(game_id, user_id, request.GET.get("t", "-"))
    if row is None:
        raise Http404("There is no such game.")
    version, status, chat_seq, open_to_all, seated, password, my_seat, watched, your_turn = row
    logged_in = bool(password) and _session_is_valid(request, password)
    if not open_to_all and not (seated and logged_in):
        raise Http404("There is no such game.")
    # A player with the page in view is watching: no "your turn" e-mail (a hidden tab says h=1).
    if my_seat and logged_in and status == Status.ACTIVE and request.GET.get("h") != "1":
        services.note_watching(my_seat, watched)
    response = _poll_answer(version, status, chat_seq, seen, seen_chat)
    if logged_in:
        response[YOUR_TURN_HEADER] = str(your_turn)  # the nav's "Your turn · N", kept live
    if key is not None:  # a page that checks by key: a fresh one, for what the session allows
        viewer = User(pk=user_id, password=password) if logged_in else None
        response[live.FRESH_KEY_HEADER] = live.issue(game_id, viewer, my_seat)
    return response


def _poll_by_key(
    request: HttpRequest,
    game_id: int,
    seen: int,
    seen_chat: int | None,
    user_id: int,
    seat: int,
    tag: str,
) -> HttpResponse:
    """The check of a page that carries its poll key (games/live.py): the key says who may see
    the game, the cache says its version and that the key's grant still holds (else
    live.Revoked); the database only when the cache has forgotten."""
    found, your_turn, watch_fresh = live.state(game_id, user_id, seat, tag)
    if found is None:
        raise Http404("There is no such game.")
    version, status, chat_seq = found
    if (
        seat
        and not watch_fresh
        and status == Status.ACTIVE
        and request.GET.get("h") != "1"
        and live.watching_due(seat, int(services.WATCH_WRITE_EVERY.total_seconds()))
    ):
        services.note_watching(seat, None)
    response = _poll_answer(version, status, chat_seq, seen, seen_chat)
    if user_id:
        response[YOUR_TURN_HEADER] = str(your_turn)
    return response


def _poll_answer(
    version: int, status: str, chat_seq: int, seen: int, seen_chat: int | None
) -> HttpResponse:
    changed = []
    if version != seen:
        changed.append("game")
    if seen_chat is not None and chat_seq != seen_chat:
        changed.append("chat")
    if changed:
        return HttpResponse(
            status=200, headers={"X-Refresh": ",".join(changed), "X-Game-Version": str(version)}
        )
    if status in (Status.FINISHED, Status.ABORTED) and seen_chat is None:
        return HttpResponseStopPolling()
    return HttpResponse(status=204)


YOUR_TURN_HEADER = "X-Your-Turn"


def _with_your_turn(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """An htmx answer that swaps part of a game page carries the nav's count along (one query),
    so that "Your turn · N" follows the moves made and seen without a reload."""
    if request.user.is_authenticated:
        response[YOUR_TURN_HEADER] = str(your_turn_count(request.user))
    return response


def _session_user_id(request: HttpRequest) -> int:
    """The logged-in user's id from the session, without loading the user row."""
    try:
        return int(request.session.get(SESSION_KEY, 0))
    except (TypeError, ValueError):
        return 0


def _session_is_valid(request: HttpRequest, password: str) -> bool:
    """Is this session's auth hash the one of the user's current password, as get_user() checks
    it: a session dropped elsewhere (password changed, e.g.) is dropped here too."""
    if request.session.get(BACKEND_SESSION_KEY) not in settings.AUTHENTICATION_BACKENDS:
        return False
    given = request.session.get(HASH_SESSION_KEY)
    if not given:
        return False
    user = User(pk=_session_user_id(request), password=password)
    return constant_time_compare(given, user.get_session_auth_hash()) or any(
        constant_time_compare(given, fallback) for fallback in user.get_session_auth_fallback_hash()
    )


def _user_from_seats(request: HttpRequest, game: Game) -> None:
    """request.user, when the session's user is a player of this game (or the one a bot
    replaced), taken from the row just read with the seats rather than by a query of its own,
    after django.contrib.auth.get_user's own checks on that row: the session's backend loads
    users by id (ModelBackend.get_user), the user is active, the session's hash is the one of
    their current password. Any other case (a visitor, a hash of an older secret) leaves
    request.user to load as it always does."""
    user_id = _session_user_id(request)
    backend = request.session.get(BACKEND_SESSION_KEY)
    if not user_id or backend not in settings.AUTHENTICATION_BACKENDS:
        return
    if type(load_backend(backend)).get_user is not ModelBackend.get_user:
        return
    for seat in game.table:
        for user in (seat.user, seat.replaced_user):
            if user is not None and user.pk == user_id:
                given = request.session.get(HASH_SESSION_KEY) or ""
                if user.is_active and constant_time_compare(given, user.get_session_auth_hash()):
                    request.user = user  # what AuthenticationMiddleware's lazy user would load
                return


def _parse_version(request: HttpRequest) -> int | None:
    try:
        return int(request.POST.get("version", ""))
    except ValueError:
        return None


def _posted_forms(post) -> dict[str, object]:
    """The action as each game's own form would read the POST (an Out of Gears program form),
    by kind: read without the database; the service takes the one of the game's kind."""
    return {kind: page(kind).parse_move(post) for kind in engines.ENGINES}


@login_required
@require_POST
def move(request: HttpRequest, game_id: int) -> HttpResponse:
    """A move (Geared) or a program (Out of Gears): the engine's action as JSON, or the game's
    own form, and the version. The game is read once, by the service, locked; the answer is
    drawn from the game it returns, or (a refusal) the game as it read it."""
    try:
        raw = request.POST.get("action", "")
    except RequestDataTooBig:
        return HttpResponse("That request is too large.", status=400)
    try:
        action = json.loads(raw)
    except (ValueError, TypeError, RecursionError):  # RecursionError: nesting thousands deep
        action = None
    by_kind = _posted_forms(request.POST) if action is None else None
    try:
        game = services.submit_action(
            request.user, game_id, _parse_version(request), action, by_kind=by_kind
        )
    except services.GameError as exc:
        game = exc.game
        if game is None or not services.may_watch(game, request.user, None):
            game = _visible_game(request, game_id)  # a 404 for who may not see it
        if by_kind is not None:
            action = by_kind.get(game.kind)
        # The confirm form posts to this URL with the preview's selection in its query string,
        # so a refusal shows the same preview (if it still stands) with the reason beside it.
        if not request.htmx:
            messages.error(request, exc.message)
            return redirect(game.get_absolute_url() + page(game.kind).refused_query(request.GET))
        return _render_game(request, game, error=exc.message, status=exc.status, refused=action)
    if not request.htmx:
        return redirect(game)
    # The game as the move left it, its seats with it (their to_act too); read again only if
    # the step the move left the server (a turn to resolve, a bot to play) was taken since
    # the commit, as the cache says (a worker that was quick, or tasks run in this process).
    if game.due_since is not None and live.committed_version(game_id) != game.version:
        game = _visible_game(request, game_id)
    return _with_your_turn(request, _render_game(request, game, query={}))


# --- the table before the start ---------------------------------------------------------


def _lobby_action(request: HttpRequest, game_id: int, fn, success: str | None = None):
    try:
        result = fn()
    except services.GameError as exc:
        return answer_error(request, exc, reverse("game", args=[game_id]))
    if success:
        messages.success(request, success)
    return result


def _posted_robots(request: HttpRequest) -> list[int] | None:
    """The robots a joining player ticked; None if the form was not ours."""
    raw_robots = request.POST.getlist("robot")
    # ASCII digits only: "²" passes str.isdigit() and then int() refuses it.
    if not all(r.isascii() and r.isdigit() for r in raw_robots):
        return None
    return [int(r) for r in raw_robots]


@login_required
@require_POST
def join(request: HttpRequest, game_id: int) -> HttpResponse:
    robots = _posted_robots(request)
    if robots is None:
        return _bad_request(request, "Robots are numbered 1 to 8.")
    token = request.POST.get("token") or None
    result = _lobby_action(
        request,
        game_id,
        lambda: services.join_game(request.user, game_id, robots=robots, token=token),
    )
    if isinstance(result, HttpResponse) and token:
        # Refused (full, started): back to the table by the link, or a private game is a 404.
        return redirect(f"{reverse('game', args=[game_id])}?{urlencode({'token': token})}")
    return result if isinstance(result, HttpResponse) else redirect("game", game_id)


@login_required
@require_POST
def leave(request: HttpRequest, game_id: int) -> HttpResponse:
    result = _lobby_action(
        request, game_id, lambda: services.leave_game(request.user, game_id), "You left the game."
    )
    return result if isinstance(result, HttpResponse) else redirect("my_games")


@login_required
@require_POST
def start(request: HttpRequest, game_id: int) -> HttpResponse:
    result = _lobby_action(request, game_id, lambda: services.start_game(request.user, game_id))
    return result if isinstance(result, HttpResponse) else redirect("game", game_id)


@login_required
@require_POST
def invite(request: HttpRequest, game_id: int) -> HttpResponse:
    who = request.POST.get("who", "")[:254]
    result = _lobby_action(
        request,
        game_id,
        lambda: services.invite(request.user, game_id, who),
        f"Invitation sent to {who.strip()}.",
    )
    return result if isinstance(result, HttpResponse) else redirect("game", game_id)


@login_required
@require_POST
def rematch(request: HttpRequest, game_id: int) -> HttpResponse:
    """Offer a rematch of a finished game, or accept the one offered: to the new table."""
    result = _lobby_action(request, game_id, lambda: services.rematch(request.user, game_id))
    return result if isinstance(result, HttpResponse) else redirect(result)


CHAT_SHOWN = 50


def _chat_messages(game: Game) -> list[ChatMessage]:
    """The game's last messages, oldest first, each with its author."""
    latest = game.chat.select_related("author").order_by("-pk")[:CHAT_SHOWN]
    return list(reversed(latest))


def _chat_response(request, game_id: int, *, error: str = "", notice: str = "", status=200):
    """The chat log: for whoever may watch the game (players write, the others read)."""
    game = _visible_game(request, game_id, token=request.GET.get("token"))
    seat = services.seat_of(game, request.user)
    if not request.htmx and request.method == "POST":
        if error:
            messages.error(request, error)
        elif notice:
            messages.success(request, notice)
        return redirect(game)
    context = {
        "game": game,
        "chat_messages": _chat_messages(game),
        "chat_error": error,
        "chat_notice": notice,
        "chat_read_only": seat is None,
        "former_seat": None if seat else services.former_seat_of(game, request.user),
    }
    return render(request, "games/chat.html#log", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def chat(request: HttpRequest, game_id: int) -> HttpResponse:
    """GET: the chat log fragment. POST: say something to the table (players only)."""
    if request.method == "POST":
        try:
            moderation.post_chat(request.user, game_id, request.POST.get("text", ""))
        except services.GameError as exc:
            if exc.status == 404:
                raise Http404(exc.message) from None
            return _chat_response(request, game_id, error=exc.message, status=exc.status)
    return _chat_response(request, game_id)


@login_required
@require_POST
def chat_report(request: HttpRequest, game_id: int, message_id: int) -> HttpResponse:
    if not ChatMessage.objects.filter(pk=message_id, game_id=game_id).exists():
        raise Http404("There is no such message.")
    try:
        moderation.report_message(request.user, message_id, request.POST.get("reason", ""))
    except services.GameError as exc:
        if exc.status == 404:
            raise Http404(exc.message) from None
        return _chat_response(request, game_id, error=exc.message, status=exc.status)
    return _chat_response(request, game_id, notice="Thank you: a moderator will look at it.")


@require_GET
def game_replay(request: HttpRequest, game_id: int) -> HttpResponse:
    """A finished game, step by step: replayed from its seed and its move log, each step shown
    as the visitor's own seat saw it then (or as a spectator)."""
    game = _visible_game(request, game_id, token=request.GET.get("token"))
    if not game.is_over or not game.state:
        raise Http404("A game can be replayed once it is over.")
    moves = replay.moves_of(game)
    try:
        step = min(max(int(request.GET.get("step", len(moves))), 0), len(moves))
    except ValueError:
        step = len(moves)
    past = copy.copy(game)
    past.state = replay.state_at(game, moves, step)
    context = _game_context(request, past, services.seat_of(game, request.user), query={})
    context.update(
        step=step,
        steps=len(moves),
        move=moves[step - 1] if step else None,
        board=f"games/{game.kind}.html#game",
        jumps=sorted(
            {
                0,
                max(0, step - 10),
                max(0, step - 1),
                min(len(moves), step + 1),
                min(len(moves), step + 10),
                len(moves),
            }
        ),
    )
    return render(request, "games/replay.html", context)


@login_required
@require_POST
def resign(request: HttpRequest, game_id: int) -> HttpResponse:
    result = _lobby_action(
        request,
        game_id,
        lambda: services.resign(request.user, game_id),
        "You resigned; a bot plays your seat from now on.",
    )
    return result if isinstance(result, HttpResponse) else redirect("game", game_id)


@require_http_methods(["GET", "POST"])
def accept_invitation(request: HttpRequest, token: str) -> HttpResponse:
    """The link in an invitation e-mail. Not logged in: sign up (or log in) and come back here.
    GET shows the table with a Join button, and changes nothing (a link on any other site, or
    a mail scanner, must not seat anyone); only that button's POST takes the seat."""
    if not Invitation.objects.filter(token=token).exists():
        raise Http404("This invitation link is not valid.")
    here = reverse("accept_invitation", args=[token])
    if not request.user.is_authenticated:
        messages.info(request, "Sign up or log in to take your seat.")
        return redirect(f"{reverse('account_signup')}?next={here}")
    if request.method == "POST":
        robots = _posted_robots(request)
        if robots is None:
            return _bad_request(request, "Robots are numbered 1 to 8.")
        try:
            game = services.accept_email_invitation(request.user, token, robots=robots)
        except services.GameError as exc:
            return answer_error(request, exc, here)
        return redirect(game)
    try:
        invitation = services.email_invitation_for(request.user, token)
    except services.GameError as exc:
        raise Http404(exc.message) from None
    game = Game.objects.with_table(invitation.game_id)
    seat = services.seat_of(game, request.user)
    if seat is not None:
        return redirect(game)  # already at the table
    if game.status != Status.OPEN:
        messages.error(
            request,
            "This game has already started."
            if game.is_active
            else "This table is no longer waiting for players.",
        )
        return redirect("my_games")
    context = {
        "game": game,
        "seat": None,
        "seats": game.table,
        "invited_by": invitation.inviter.username,
        "join_action": here,
        "poll_key": live.issue(game.pk, request.user, None),
        **page(game.kind).table_context(game),
    }
    return render(request, "games/table.html", context)


@csrf_exempt  # RFC 8058 one-click (List-Unsubscribe-Post): mail clients POST without a session
@require_http_methods(["GET", "POST"])
def decline_invitation(request: HttpRequest, token: str) -> HttpResponse:
    """From an e-mail invitation: its address never gets another one. GET asks (mail scanners
    follow links); POST does it. No log-in: the address may have no account."""
    # An e-mail invitation, even once taken by a player (its row then names them).
    invitation = Invitation.objects.filter(token=token, via=Invitation.Via.EMAIL).first()
    if invitation is None:
        raise Http404("This invitation link is not valid.")
    done = request.method == "POST"
    if done:
        EmailSuppression.add(invitation.email, EmailSuppression.Reason.UNSUBSCRIBED)
    return render(request, "games/decline.html", {"invitation": invitation, "done": done})


@require_GET
def game_log(request: HttpRequest, game_id: int) -> HttpResponse:
    """Every move of the game as sentences (what this visitor may see)."""
    game = _visible_game(request, game_id, token=request.GET.get("token"))
    if game.status == Status.OPEN:
        return redirect(game)
    seat = services.seat_of(game, request.user)
    me = seat.seat_id if seat else None
    names = seat_names(game.table)
    context = {"game": game, "nav_section": "my_games"}
    context.update(page(game.kind).log_context(game, me, names))
    return render(request, "games/log.html", context)
