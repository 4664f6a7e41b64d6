"""The lobby: the open tables and the games to watch, and the new game form."""

from __future__ import annotations

import functools

from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET, require_POST

from games import live, services
from games.forms import NewGameForm
from games.models import Game, Status, table_prefetch


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
