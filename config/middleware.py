"""Refuse, before any view runs, input that no field on the site can hold."""

from __future__ import annotations

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse

NUL_MESSAGE = "This request contains a NUL character, which nothing on Geartable accepts."


def _has_nul(values) -> bool:
    return any("\x00" in key or any("\x00" in v for v in vals) for key, vals in values.lists())


class RefuseNulMiddleware:
    """A NUL character in the path, the query string or a form field is 400 here.

    PostgreSQL cannot store or even compare a string with NUL in it: left to the views, one in
    a URL token, a query parameter or a form field became a 500 wherever it reached a query."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            post_nul = request.method == "POST" and _has_nul(request.POST)
        except RequestDataTooBig:
            # Read here first, the body is gone for the view: answer for it.
            return _bad_request("That request is too large.")
        if "\x00" in request.path or _has_nul(request.GET) or post_nul:
            return _bad_request(NUL_MESSAGE)
        return self.get_response(request)


def _bad_request(message: str) -> HttpResponse:
    return HttpResponse(message, status=400, content_type="text/plain; charset=utf-8")
