"""Game pages: thin views that parse, call games.services, and render a page or its partial."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.models import Game, Seat, Status


@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    open_games = (
        Game.objects.filter(status=Status.OPEN, public=True)
        .select_related("creator")
        .order_by("-created")[:50]
    )
    return render(request, "games/lobby.html", {"open_games": open_games, "nav_section": "lobby"})


@login_required
@require_GET
def my_games(request: HttpRequest) -> HttpResponse:
    seats = (
        Seat.objects.filter(user=request.user)
        .select_related("game")
        .order_by("-to_act", "-game__updated")[:200]
    )
    return render(request, "games/my_games.html", {"seats": seats, "nav_section": "my_games"})
