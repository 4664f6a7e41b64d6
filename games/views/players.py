"""Players' pages: ratings and statistics, for people and for the bots."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from accounts.models import User
from games import ratings
from games.models import BotKind, Rating


@login_required
@require_GET
def player(request: HttpRequest, username: str) -> HttpResponse:
    user = User.objects.filter(username__iexact=username, is_active=True).first()
    if user is None:
        raise Http404("There is no such player.")
    return _render(request, user.name, ratings.player_stats(user=user), is_me=user == request.user)


@login_required
@require_GET
def bot(request: HttpRequest, bot: str) -> HttpResponse:
    if bot not in BotKind.values:
        raise Http404("There is no such bot.")
    name = BotKind(bot).label
    return _render(request, name, ratings.player_stats(bot=bot), is_bot=True)


def _render(request, name: str, stats: list[dict], **flags) -> HttpResponse:
    bots = {r.kind: r for r in Rating.objects.filter(user=None, bot=BotKind.GREEDY)}
    for row in stats:
        row["greedy"] = bots.get(row["kind"])
    context = {"name": name, "stats": stats, "nav_section": "profile" if flags.get("is_me") else ""}
    return render(request, "games/player.html", {**context, **flags})
