"""One game: its page, its fragment, the live check (poll), a move, and its log."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import RequestDataTooBig
from django.db.models import F
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseStopPolling

from accounts.middleware import shows_no_time
from accounts.models import User
from games import engines, errors
from games.actions import moves, watching
from games.live import cache as live
from games.models import Game, Seat, Status, chat_messages, seat_names
from games.pages import Table, page
from games.reads import access, invitations, notes, players, seating
from games.reads.links import name_links
from games.views.common import (
    ranking_and_places,
    visible_game,
)


@require_GET
def game_page(request: HttpRequest, game_id: int) -> HttpResponse:
    game = visible_game(request, game_id, token=request.GET.get("token"), with_note=True)
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
    turns: int | None = None,
) -> HttpResponse:
    """The game page, or its fragment (for htmx, or when `fragment`). `query`: the page's own
    parameters (a Geared selection), the request's by default; `refused`: the action just
    refused, so that the form shows what the player picked next to the error; `turns`: the
    nav's "Your turn" count when the caller read it (a fragment's answer sends it along), so
    that the "next game" link needs no query of its own."""
    query = request.GET if query is None else query
    if fragment is None:
        fragment = bool(request.htmx) and not request.htmx.boosted
    seat = seating.seat_of(game, request.user)
    # The poll key goes in the page's #live, which a fragment (or a move's answer) does not
    # carry: signed only for a whole page (games/live/cache.py).
    poll_key = (
        access.poll_key(game, request.user, request.GET.get("token"), seat and seat.pk)
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
                # The invite box offers the people this player played with, then those they
                # follow (issue 27.2): two queries, for the seated player only.
                "suggestions": players.invite_suggestions(request.user) if seat else [],
                # Who is invited, for the table's players only (issue 34.10); a visitor's own
                # invitation, so that the page says who invites them and offers Decline.
                "invited": invitations.on_the_table(game, request.user) if seat else [],
                "invitation": None if seat else invitations.waiting_for(game, request.user),
                **page(game.kind).table_context(game),
            },
            status=status,
        )
    if game.state is None:  # a table called off before it started: no game to draw
        return render(
            request,
            "games/called_off.html",
            {"game": game, "seat": seat, "nav_section": "my_games"},
            status=status,
        )
    shared = shared_key(
        request, game, seat, query=query, fragment=fragment, refused=refused, error=error
    )
    if shared and fragment:
        html = cache.get(shared)  # drawn for another spectator at this version (geartable.py)
        if html is not None:
            return HttpResponse(html, status=status)
    context = game_context(request, game, seat, query=query, fragment=fragment, refused=refused)
    context["shared_game_key"] = shared
    context["error"] = error
    context["poll_key"] = poll_key
    if not fragment and turns is None and request.user.is_authenticated:
        # The nav shows the count on every full page: read it once, for the nav and the link.
        turns = context["nav_your_turn"] = live.your_turn(request.user.pk)
    context["next_game_url"] = _next_game_url(game, seat, context["is_my_turn"], turns)
    if error:
        context["focus"] = "error"
    template = f"games/{game.kind}.html" + ("#game" if fragment else "")
    if seat is not None:  # what this player has now been shown
        watching.mark_seen(seat, game.version, engines.engine(game.kind).news_mark(game.state))
    return render(request, template, context, status=status)


def shared_key(
    request: HttpRequest, game: Game, seat: Seat | None, *, query, fragment: bool, refused, error
) -> str:
    """The cache key of the game's fragment (`#game`) as every one of its spectators sees it,
    or "" when this viewer's is their own. Who shares it: a reader with no seat, now or before
    (a former player's page says so), of a game in play, with nothing asked of the page (a
    refused action, a selection). What it depends on is in the key: the game and its version,
    the fragment or the whole page (focus is asked differently), signed in or not (the notice),
    by the table's link or not (its links keep the token), the time zone (the deadline's time),
    the language.
    A seated player's never is: it holds their hand or program and their session's CSRF token,
    and each seat draws each version about once (tests/views/test_shared_fragment.py)."""
    if seat is not None or refused is not None or error or game.status != Status.ACTIVE:
        return ""
    if any(name != "token" for name in query):
        return ""
    if seating.former_seat_of(game, request.user) is not None:
        return ""
    by_link = request.GET.get("token") == game.join_token
    signed_in = request.user.is_authenticated
    zone, language = timezone.get_current_timezone_name(), translation.get_language()
    kind = f"{fragment:d}{signed_in:d}{by_link:d}"
    return f"game-shared:{game.pk}:{game.version}:{kind}:{zone}:{language}"


def _next_game_url(game: Game, seat: Seat | None, is_my_turn: bool, turns: int | None) -> str:
    """Where "Next game waiting for you" leads (issue 27.3), or "" when no other game waits or
    this one is the player's to play. Drawn from the nav's count, which already includes this
    game when it waits for them: no query of its own (the link's view finds the game)."""
    if seat is None or not seat.position or not turns:
        return ""
    if is_my_turn and game.is_active:
        return ""
    others = turns - (1 if seat.to_act and game.is_active else 0)
    return f"{reverse('next_game')}?from={game.pk}" if others > 0 else ""


def game_context(
    request: HttpRequest,
    game: Game,
    seat: Seat | None,
    *,
    query=None,
    fragment: bool = False,
    refused: object = None,
    replay: bool = False,
) -> dict:
    """What a game's page is drawn from. `replay`: a past step of a game that is over
    (views/records.py): nothing is live there, so nobody is told it is their turn and no card
    or button offers a move (issue 34.10)."""
    eng = engines.engine(game.kind)
    seen = access.seen_by(game, seat)
    me, view, legal = seen.me, seen.view, seen.legal
    # A bot account reads its games here, read-only: it plays through the API (issue 28.4).
    bot_account = getattr(request.user, "is_bot", False) and me is not None
    if bot_account or replay:
        legal = ()
    seats = {s.seat_id: s for s in game.table}
    names = seat_names(seats.values())
    context = {
        "game": game,
        "seat": seat,
        "me": me,
        "view": view,
        "names": names,
        "seats_by_id": seats,
        "version": game.version,
        "is_my_turn": not replay and me is not None and me in eng.to_act(game.state),
        "replay": replay,
        "nav_section": "my_games",
        "bot_account": bot_account,
        # A visitor by the join link keeps the token on the page's own links (log, refresh).
        "token_query": f"?token={game.join_token}"
        if seat is None and request.GET.get("token") == game.join_token
        else "",
    }
    # A player who resigned (or was replaced) keeps reading the table and its chat, as a
    # spectator sees it: their old hand is the bot's now.
    former = None if seat is not None else seating.former_seat_of(game, request.user)
    context["former_seat"] = former
    # Spectators who are logged in read the chat too (read only); players write in it. The chat
    # is outside the game's fragment (`#game`): a fragment (htmx, a move's answer) needs none.
    if not fragment and (seat is not None or request.user.is_authenticated):
        context["chat_messages"] = chat_messages(game, request.user)
        context["chat_read_only"] = seat is None or bot_account  # a bot chats by the API
    # The player's own notes (issue 27.4): on their full page only, outside `#game`, so that no
    # fragment, poll or stream ever carries them, and a live update never clobbers the typing.
    if not fragment and seat is not None and seat.position:
        context["note_text"] = notes.note_text(game, request.user)
        context["note_max"] = notes.NOTE_MAX
        context["note_hint"] = page(game.kind).NOTES_HINT
    context["spectator"] = seat is None and former is None
    if context["spectator"]:
        context["nav_section"] = "lobby"  # watching: a game found in the lobby, not one of mine
    if game.status == Status.FINISHED and game.result:
        context.update(_game_over_context(request, game, names, me, seats))
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
        links=name_links(seats.values()),
    )
    context.update(page(game.kind).context(table))
    return context


def _game_over_context(
    request: HttpRequest, game: Game, names: dict, me, seats: dict[str, Seat]
) -> dict:
    """The end of the game: final standings, and the ways on (replay, a rematch)."""
    result = game.result
    scores, winners = result.get("scores", {}), result.get("winners", [])
    ranking, places = ranking_and_places(result)
    standings = [
        {
            "place": places.get(sid, i + 1),
            "name": names.get(sid, sid),
            "seat": seats.get(sid),
            "score": scores.get(sid, 0),
            "winner": sid in winners,
            "is_me": sid == me,
        }
        for i, sid in enumerate(ranking)
    ]
    offered = seating.rematch_of(game)
    # "Play again with" (issue 27.2): the lobby's new table form with the game's other players
    # who have an account here ticked to invite; for those who played in it.
    user_id = request.user.pk if request.user.is_authenticated else None
    played = any(user_id in (s.user_id, s.replaced_user_id) for s in seats.values())
    others = [s.user.username for s in seats.values() if s.player_url and s.user_id != user_id]
    return {
        "play_again_url": f"{reverse('lobby')}?{urlencode({'with': ','.join(others)})}#new-game"
        if played and others and user_id
        else "",
        "standings": standings,
        "rematch": offered,
        "rematch_mine": offered is not None
        and request.user.is_authenticated
        and offered.seats.filter(user=request.user).exists(),
    }


@require_GET
def game_fragment(request: HttpRequest, game_id: int) -> HttpResponse:
    game = visible_game(request, game_id, token=request.GET.get("token"))
    if game.status == Status.OPEN:
        return _render_game(request, game)
    turns = _your_turn(request)
    return _with_your_turn(_render_game(request, game, fragment=True, turns=turns), turns)


@shows_no_time  # it answers numbers and headers only: the session stays unread on its key path
@require_GET
def poll(request: HttpRequest, game_id: int) -> HttpResponse:
    """The live-update check: one indexed query. 204 if nothing changed since version `v` (and
    chat message count `c`, when given); 200 with `X-Refresh: game` and/or `chat` if the page
    should fetch those fragments again, and the version and chat count they will show
    (`X-Game-Version`, `X-Chat-Seq`: the page fetches only what is newer than it shows); 286
    (htmx's "stop polling") once the game is over."""
    try:
        seen = int(request.GET.get("v", ""))
        seen_chat = int(request.GET["c"]) if "c" in request.GET else None
    except ValueError:
        return HttpResponse("v and c must be the numbers the page shows", status=400)
    # Who may read the game: the page's signed key (no session, the state from the cache), else
    # the session; the same answer as the event stream's (games/reads/access.py).
    reader = access.game_reader(request, game_id)
    if reader is None:
        raise Http404(_("There is no such game."))
    # A player with the page in view is watching: no "your turn" e-mail (a hidden tab says h=1).
    in_view = reader.status == Status.ACTIVE and request.GET.get("h") != "1"
    if reader.by_key:
        if (
            reader.seat
            and not reader.watch_fresh
            and in_view
            and live.watching_due(reader.seat, int(watching.WATCH_WRITE_EVERY.total_seconds()))
        ):
            watching.note_watching(reader.seat, None)
    elif reader.seat and reader.user_id and in_view:
        watching.note_watching(reader.seat, reader.watched)
    response = _poll_answer(reader.version, reader.status, reader.chat, seen, seen_chat)
    if reader.user_id:
        response[YOUR_TURN_HEADER] = str(reader.your_turn)  # the nav's "Your turn · N", kept live
    if not reader.by_key and "k" in request.GET:
        # A page that checks by key: a fresh one, for what the session allows.
        viewer = User(pk=reader.user_id, password=reader.password) if reader.user_id else None
        response[live.FRESH_KEY_HEADER] = live.issue(
            game_id, viewer, reader.seat, reader.ties.bits()
        )
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
            status=200,
            headers={
                "X-Refresh": ",".join(changed),
                "X-Game-Version": str(version),
                "X-Chat-Seq": str(chat_seq),
            },
        )
    if status in (Status.FINISHED, Status.ABORTED) and seen_chat is None:
        return HttpResponseStopPolling()
    return HttpResponse(status=204)


YOUR_TURN_HEADER = "X-Your-Turn"


def _your_turn(request: HttpRequest) -> int | None:
    """The nav's count for an htmx answer (one query, or the cache), None for a visitor."""
    return live.your_turn(request.user.pk) if request.user.is_authenticated else None


def _with_your_turn(response: HttpResponse, turns: int | None) -> HttpResponse:
    """An htmx answer that swaps part of a game page carries the nav's count along, so that
    "Your turn · N" follows the moves made and seen without a reload."""
    if turns is not None:
        response[YOUR_TURN_HEADER] = str(turns)
    return response


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
        return HttpResponse(_("That request is too large."), status=400)
    try:
        action = json.loads(raw)
    except (ValueError, TypeError, RecursionError):  # RecursionError: nesting thousands deep
        action = None
    by_kind = _posted_forms(request.POST) if action is None else None
    try:
        game = moves.submit_action(
            request.user,
            game_id,
            _parse_version(request),
            action,
            by_kind=by_kind,
            seen=bool(request.htmx),  # the answer shows it: what was seen, written with the move
        )
    except errors.GameError as exc:
        game = exc.game
        if game is None or not access.may_read_game(game, request.user):
            game = visible_game(request, game_id)  # a 404 for who may not see it
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
        game = visible_game(request, game_id)
    turns = _your_turn(request)
    return _with_your_turn(_render_game(request, game, query={}, turns=turns), turns)


@login_required
@require_GET
def next_game(request: HttpRequest) -> HttpResponse:
    """The game that has waited longest for this player (issue 27.3, lichess's correspondence
    queue): the nearest deadline first, then the one whose last change (the move that made it
    their turn) is oldest; `from`, the game they come from, is skipped. None: My games."""
    try:
        current = int(request.GET.get("from", "0"))
    except ValueError:
        current = 0
    found = (
        Seat.objects.filter(user=request.user, to_act=True, game__status=Status.ACTIVE)
        .exclude(game_id=current)
        .order_by(F("game__deadline").asc(nulls_last=True), "game__updated", "game_id")
        .values_list("game_id", flat=True)
        .first()
    )
    if found is None:
        messages.info(request, _("No other game is waiting for you."))
        return redirect("my_games")
    return redirect("game", found)


@require_GET
def game_log(request: HttpRequest, game_id: int) -> HttpResponse:
    """Every move of the game as sentences (what this visitor may see)."""
    game = visible_game(request, game_id, token=request.GET.get("token"))
    if game.status == Status.OPEN:
        return redirect(game)
    seat = seating.seat_of(game, request.user)
    me = seat.seat_id if seat else None
    names = seat_names(game.table)
    context = {"game": game, "nav_section": "my_games"}
    context.update(page(game.kind).log_context(game, me, names, name_links(game.table)))
    return render(request, "games/log.html", context)
