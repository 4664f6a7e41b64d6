"""The site's own pages: home, rules, favicon."""

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET, require_POST

from accounts.middleware import SESSION_LANGUAGE, offered_language
from accounts.models import User
from games.reads.rules import GAMES, quick_start, rules_sections


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"nav_section": "home"})


@require_GET
def rules(request: HttpRequest) -> HttpResponse:
    return render(request, "games/rules_index.html", {"games": GAMES, "nav_section": "rules"})


@require_GET
def rules_game(request: HttpRequest, game: str) -> HttpResponse:
    if game not in GAMES:
        raise Http404(_("No such game"))
    # The rules text is ours (games/rules/*.md), rendered by markdown: rules_sections marks it
    # safe. The quick start first (issue 27.10), then the rules, one collapsed section each.
    opening, sections = rules_sections(game)
    return render(
        request,
        "games/rules.html",
        {
            "game": game,
            "title": GAMES[game],
            "opening": opening,
            "sections": sections,
            "quick": quick_start(game),
            "quick_start": f"games/_quick_start_{game}.html",
            "nav_section": "rules",
        },
    )


@require_GET
@cache_control(max_age=86400, public=True)
def favicon(request: HttpRequest) -> HttpResponse:
    return redirect(static("favicon.svg"), permanent=True)


def healthz(request: HttpRequest) -> HttpResponse:
    """A fixed response with no database and no session: for load balancers, and the bare-stack
    reference in the benchmarks (bench/)."""
    return HttpResponse("ok", content_type="text/plain")


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """The frame's language switch: the site in the chosen language for this browser (a
    cookie, as Django's own set_language) and, for a signed-in player, on their profile too,
    which their e-mails and pushes follow (docs/i18n.md). Back to the page it was used on."""
    language = offered_language(request.POST.get("language"))
    if language is None:
        return HttpResponse(_("That language is not offered."), status=400)
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        back = "/"
    if request.user.is_authenticated:
        User.objects.filter(pk=request.user.pk).update(language=language)
        request.session[SESSION_LANGUAGE] = language
    response = redirect(back)
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=365 * 24 * 3600,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
    )
    return response
