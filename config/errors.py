"""The site's error pages (400, 403, 404, 500) in its frame: a sentence, never an error of
their own."""

from __future__ import annotations

import logging

from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from config.middleware import plain

log = logging.getLogger(__name__)

# English here (a test reads them); each answer says them in the reader's language.
BAD_REQUEST_MESSAGE = gettext_noop("This request is malformed: nothing was changed.")
NOT_FOUND_MESSAGE = gettext_noop("There is nothing at this address.")
FORBIDDEN_MESSAGE = gettext_noop("You may not open this page.")
SERVER_ERROR_MESSAGE = gettext_noop(
    "Something went wrong on our side: nothing you did. Try again in a moment."
)


def _sentence(exception: Exception | None, default: str) -> str:
    """The sentence a refusal was raised with (`Http404("There is no such game.")`, a
    GameError's message turned into a 404 or PermissionDenied), else `default`: Django's own
    404s carry a dict of tried patterns, not a sentence for a person."""
    args = getattr(exception, "args", ())
    if args and isinstance(args[0], str) and args[0].strip():
        return args[0]
    return _(default)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """Django's own handler is wrapped in requires_csrf_token, which reads the form again: on a
    body that cannot be parsed it raised the same error once more, and the 400 became a 500.
    This one reads nothing of the request, and falls back to plain text if the page fails."""
    try:
        return render(request, "bad_request.html", {"message": _(BAD_REQUEST_MESSAGE)}, status=400)
    except Exception:  # noqa: BLE001 - an error page must answer whatever broke
        log.exception("The 400 page failed; answered in plain text")
        return plain(_(BAD_REQUEST_MESSAGE), 400)


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The 404 page in the site's frame (issue 27.7), with the refusal's sentence."""
    message = _sentence(exception, NOT_FOUND_MESSAGE)
    try:
        return render(request, "404.html", {"message": message}, status=404)
    except Exception:  # noqa: BLE001
        log.exception("The 404 page failed; answered in plain text")
        return plain(message, 404)


def forbidden(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The 403 page in the site's frame (issue 27.7), with the refusal's sentence."""
    message = _sentence(exception, FORBIDDEN_MESSAGE)
    try:
        return render(request, "403.html", {"message": message}, status=403)
    except Exception:  # noqa: BLE001
        log.exception("The 403 page failed; answered in plain text")
        return plain(message, 403)


def server_error(request: HttpRequest) -> HttpResponse:
    """The 500 page (issue 27.7). It renders when something is broken (the database, the cache,
    a bug in a context processor): like the 400 page it reads nothing of the request, runs no
    context processor and no query (the frame sees a visitor), and falls back to plain text."""
    try:
        context = {"message": _(SERVER_ERROR_MESSAGE), "user": AnonymousUser()}
        return HttpResponse(render_to_string("500.html", context), status=500)
    except Exception:  # noqa: BLE001
        log.exception("The 500 page failed; answered in plain text")
        return plain(_(SERVER_ERROR_MESSAGE), 500)


# --- the stream process's (games/live/urls.py): plain text, no template ------------------------
# It serves only the streams' paths and has none of the pages': the site's error pages link to
# them, and rendered there each became a 500 of its own, with a traceback in the log.


def plain_bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return plain(BAD_REQUEST_MESSAGE, 400)


def plain_forbidden(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return plain(_sentence(exception, FORBIDDEN_MESSAGE), 403)


def plain_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return plain(_sentence(exception, NOT_FOUND_MESSAGE), 404)


def plain_server_error(request: HttpRequest) -> HttpResponse:
    return plain(SERVER_ERROR_MESSAGE, 500)
