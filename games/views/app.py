"""The installable app (issue 26): the web app manifest, the service worker (served from / so
that it may control every page) and the page it shows when the server cannot be reached.

Nothing here is about one player: the service worker caches only the static shell and the
offline page, never a game page, a fragment or an API answer (templates/pwa/sw.js)."""

from __future__ import annotations

import hashlib
import json

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

from games.reads import links

THEME = "#1a63d6"  # --accent in static/css/site.css
BACKGROUND = "#f6f4ef"  # --bg
ICONS = [("icons/icon-192.png", 192, "any"), ("icons/icon-512.png", 512, "any")]
ICONS += [("icons/maskable-192.png", 192, "maskable"), ("icons/maskable-512.png", 512, "maskable")]
# The shell the service worker keeps for the offline page (and serves from its cache offline).
SHELL = [
    "css/site.css",
    "vendor/htmx-2.0.11.min.js",
    "js/geartable.js",
    "js/app.js",
    "icons.svg",
    "favicon.svg",
    "icons/icon-192.png",
]


@require_GET
@cache_control(max_age=3600, public=True)
def manifest(request: HttpRequest) -> JsonResponse:
    data = {
        "id": "/",
        "name": "Geartable",
        "short_name": "Geartable",
        "description": _("Play Geared and Out of Gears with friends, one move at a time."),
        "lang": translation.get_language(),
        "start_url": reverse("my_games"),
        "scope": "/",
        "display": "standalone",
        "background_color": BACKGROUND,
        "theme_color": THEME,
        "icons": [
            {
                "src": links.static(path),
                "sizes": f"{size}x{size}",
                "type": "image/png",
                "purpose": p,
            }
            for path, size, p in ICONS
        ],
    }
    return JsonResponse(data, content_type="application/manifest+json")


def shell() -> list[str]:
    return [links.static(path) for path in SHELL] + [reverse("offline")]


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """/sw.js: its scope is the whole site (Service-Worker-Allowed), and the browser checks
    for a new one on every visit (no-cache): a deploy reaches installed apps at once."""
    urls = shell()
    context = {
        "shell": json.dumps(urls),
        "offline": json.dumps(reverse("offline")),
        "icon": json.dumps(links.static("icons/icon-192.png")),
        # Hashed static names (production) never change content: served from the cache first.
        "immutable": json.dumps("Manifest" in settings.STORAGES["staticfiles"]["BACKEND"]),
    }
    body = render_to_string("pwa/sw.js", context)
    version = hashlib.sha256(body.encode()).hexdigest()[:12]
    body = body.replace("__VERSION__", version)
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    """What the app shows when the server cannot be reached: no player's data, no script."""
    response = render(request, "pwa/offline.html")
    response["Cache-Control"] = "no-cache"
    return response
