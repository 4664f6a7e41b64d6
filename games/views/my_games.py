"""My games: in play, waiting, open, and the finished ones a page at a time."""

from __future__ import annotations

import hashlib

from django.contrib.auth.decorators import login_required
from django.contrib.humanize.templatetags.humanize import ordinal
from django.core.cache import cache
from django.core.paginator import Paginator
from django.db.models import Count, Max, Q, Sum
from django.db.models.fields.json import KeyTransform
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games import engines
from games.models import Invitation, Seat, Status
from games.views.common import (
    ranking_and_places,
)


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
    waiting = Q(accepted__isnull=True, declined__isnull=True)
    invited = Invitation.objects.filter(user_id=user_id).aggregate(
        n=Count("pk", filter=waiting),
        updated=Max("game__updated", filter=waiting),
        last=Max("pk"),
    )
    state = (*seats.values(), *invited.values())
    digest = hashlib.blake2b(repr(state).encode(), digest_size=12).hexdigest()
    # Times are drawn in the player's own zone and words in their language: a change of
    # either draws the list again.
    zone, language = timezone.get_current_timezone_name(), translation.get_language()
    return f"my-games:{user_id}:{digest}:{zone}:{language}"


def _my_games(user) -> dict:
    seats = list(
        _with_scores(_my_seats(user)).filter(game__status__in=[Status.OPEN, Status.ACTIVE])[
            :MY_GAMES_IN_PLAY
        ]
    )
    finished = list(_my_seats(user).filter(OVER)[: FINISHED_SHOWN + 1])
    _with_tables([*seats, *finished])
    invitations = (
        Invitation.objects.filter(
            user=user, accepted__isnull=True, declined__isnull=True, game__status=Status.OPEN
        )
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
# The games listed as over: finished, and those a moderator aborted in play (their rows say so);
# a table called off before it started is not a game anyone played.
OVER = Q(game__status=Status.FINISHED) | Q(game__status=Status.ABORTED, game__started__isnull=False)


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


# What a row needs of every seat at the table: whose turn it is, each one's name (Seat.name) and
# the link to their page (Seat.player_url: an active account's).
OTHERS = Seat.objects.select_related("user", "replaced_user").only(
    *("game_id", "position", "to_act", "recorded_name", "bot", "bot_number"),
    *("user", "user__display_name", "user__username", "user__is_active"),
    *("user__is_bot", "user__bot_owner"),  # "(a bot by fay)" (issue 28.4)
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
        you = _("You")
        names = {s.seat_id: you if s.pk == seat.pk else s.name for s in table if s.position}
        seat.others = [other for other in table if other.pk != seat.pk]
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
    """Every finished (or aborted) game of mine, newest first, a page at a time."""
    paginator = Paginator(_my_seats(request.user).filter(OVER), 25)
    page = paginator.get_page(request.GET.get("page"))
    page.object_list = list(page.object_list)
    _with_tables(page.object_list)
    _decorate(page.object_list)
    return render(request, "games/finished.html", {"page": page, "nav_section": "my_games"})


def _outcome(seat: Seat) -> str:
    result = seat.game.result or {}
    winners = result.get("winners", [])
    if seat.seat_id in winners:
        return _("Won") if len(winners) == 1 else _("Shared win")
    return _("Lost")


def _standing(seat: Seat) -> str:
    """ "2nd of 3 · 14 pts": my place at the end and my score."""
    result = seat.game.result or {}
    ranking, places = ranking_and_places(result)
    if seat.seat_id not in places:
        return ""
    points = result.get("scores", {}).get(seat.seat_id, 0)
    return _("%(place)s of %(players)s · %(points)s pts") % {
        "place": ordinal(places[seat.seat_id]),
        "players": len(ranking),
        "points": points,
    }
