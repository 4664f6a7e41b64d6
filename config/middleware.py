"""Refuse, before any view runs, input that no field on the site can hold: a body too large to
read, a body Django cannot parse, and a NUL character anywhere."""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.exceptions import BadRequest, RequestDataTooBig, SuspiciousOperation
from django.http import HttpRequest, HttpResponse
from django.http.multipartparser import MultiPartParserError
from django.utils.http import parse_header_parameters

log = logging.getLogger(__name__)

NUL_MESSAGE = "This request contains a NUL character, which nothing on Geartable accepts."
UNREADABLE_MESSAGE = (
    "This request's body cannot be read: send a form encoded in UTF-8 "
    "(application/x-www-form-urlencoded or multipart/form-data)."
)
HEADER_MESSAGE = "This request's Content-Type header cannot be read."

# What reading a request's form can raise on input that is the sender's fault: a charset other
# than UTF-8 (BadRequest), a broken multipart body (MultiPartParserError), too many fields or
# files (SuspiciousOperation), a body that stops early (UnreadablePostError, an OSError), a
# field that does not decode (UnicodeDecodeError, a ValueError), an unknown codec (LookupError).
UNREADABLE = (
    BadRequest,
    MultiPartParserError,
    SuspiciousOperation,
    OSError,
    ValueError,
    LookupError,
)


def too_large_message() -> str:
    return f"That request is too large: at most {settings.GEARTABLE_MAX_REQUEST_BYTES:,} bytes."


def refusal(meta) -> HttpResponse | None:
    """A request refused on its headers alone, before a byte of its body is read: a declared
    length over GEARTABLE_MAX_REQUEST_BYTES, or a Content-Type Django cannot parse."""
    try:
        length = int(meta.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0  # Django reads no body then
    if length > settings.GEARTABLE_MAX_REQUEST_BYTES:
        return plain(too_large_message(), 413)
    try:
        parse_header_parameters(meta.get("CONTENT_TYPE", ""))
    except ValueError:
        return plain(HEADER_MESSAGE, 400)
    return None


def guard_wsgi(application):
    """The WSGI application behind a guard that answers `refusal` itself: Django raises on a
    Content-Type it cannot parse while it builds the request, before any middleware runs."""

    def guarded(environ, start_response):
        refused = refusal(environ)
        if refused is None:
            return application(environ, start_response)
        status = f"{refused.status_code} {refused.reason_phrase}"
        start_response(status, [*refused.items(), ("Connection", "close")])
        return [refused.content]

    return guarded


def guard_asgi(application):
    """The ASGI application behind the same guard. Django's ASGI handler reads the whole body
    (spooled to disk past FILE_UPLOAD_MAX_MEMORY_SIZE) before any middleware runs: refuse on
    the headers first, and stop reading a body without a declared length once it is too large."""

    async def guarded(scope, receive, send):
        if scope["type"] != "http":
            return await application(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        meta = {
            "CONTENT_LENGTH": headers.get("content-length", ""),
            "CONTENT_TYPE": headers.get("content-type", ""),
        }
        refused = refusal(meta)
        if refused is not None:
            return await _asgi_send(send, refused)
        seen = 0

        async def counted():
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > settings.GEARTABLE_MAX_REQUEST_BYTES:
                    await _asgi_send(send, plain(too_large_message(), 413))
                    return {"type": "http.disconnect"}  # Django stops reading, answers nothing
            return message

        return await application(scope, counted, send)

    return guarded


async def _asgi_send(send, response: HttpResponse) -> None:
    headers = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in response.items()]
    await send({"type": "http.response.start", "status": response.status_code, "headers": headers})
    await send({"type": "http.response.body", "body": response.content})


def _has_nul(values) -> bool:
    return any("\x00" in key or any("\x00" in v for v in vals) for key, vals in values.lists())


class RefuseNulMiddleware:
    """An oversized body (413, unread), an unreadable one or a NUL character in the path, the
    query string or a form field (400): answered here with a sentence, never a 500.

    PostgreSQL cannot store or even compare a string with NUL in it: left to the views, one in
    a URL token, a query parameter or a form field became a 500 wherever it reached a query.
    A form Django cannot parse raises in whatever reads it first: here, not in the CSRF check
    or the error handler (which read it again and turned the 400 into a 500)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        refused = refusal(request.META)
        if refused is not None:
            return refused
        try:
            query_nul = _has_nul(request.GET)
            post_nul = request.method == "POST" and (
                _has_nul(request.POST) or _has_nul_name(request.FILES)
            )
        except RequestDataTooBig:
            # Read here first, the body is gone for the view: answer for it.
            return plain(too_large_message(), 413)
        except UNREADABLE as exc:
            log.info("Unreadable body refused: %s %s (%s)", request.method, request.path, exc)
            return plain(UNREADABLE_MESSAGE, 400)
        if "\x00" in request.path or query_nul or post_nul:
            return plain(NUL_MESSAGE, 400)
        return self.get_response(request)


def _has_nul_name(files) -> bool:
    return any(
        "\x00" in key or any("\x00" in (f.name or "") for f in vals) for key, vals in files.lists()
    )


def plain(message: str, status: int) -> HttpResponse:
    return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")
