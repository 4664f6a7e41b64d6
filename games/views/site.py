"""The site's own pages: home, rules, favicon."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils.safestring import mark_safe
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

from games.rules import GAMES, rules_html


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"nav_section": "home"})


@require_GET
def rules(request: HttpRequest) -> HttpResponse:
    return render(request, "games/rules_index.html", {"games": GAMES, "nav_section": "rules"})


@require_GET
def rules_game(request: HttpRequest, game: str) -> HttpResponse:
    if game not in GAMES:
        raise Http404("No such game")
    # The rules text is ours (games/rules/*.md), rendered by markdown: safe to mark safe.
    body = mark_safe(rules_html(game))  # noqa: S308
    return render(
        request,
        "games/rules.html",
        {"game": game, "title": GAMES[game], "body": body, "nav_section": "rules"},
    )


@require_GET
@cache_control(max_age=86400, public=True)
def favicon(request: HttpRequest) -> HttpResponse:
    return redirect(static("favicon.svg"), permanent=True)


def healthz(request: HttpRequest) -> HttpResponse:
    """A fixed response with no database and no session: for load balancers, and the bare-stack
    reference in the benchmarks (bench/)."""
    return HttpResponse("ok", content_type="text/plain")
