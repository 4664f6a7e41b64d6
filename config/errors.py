"""The site's 400 page: a sentence, and never an error of its own."""

from __future__ import annotations

import logging

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from config.middleware import plain

log = logging.getLogger(__name__)

BAD_REQUEST_MESSAGE = "This request is malformed: nothing was changed."


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """Django's own handler is wrapped in requires_csrf_token, which reads the form again: on a
    body that cannot be parsed it raised the same error once more, and the 400 became a 500.
    This one reads nothing of the request, and falls back to plain text if the page fails."""
    try:
        return render(request, "bad_request.html", {"message": BAD_REQUEST_MESSAGE}, status=400)
    except Exception:  # noqa: BLE001 - an error page must answer whatever broke
        log.exception("The 400 page failed; answered in plain text")
        return plain(BAD_REQUEST_MESSAGE, 400)
