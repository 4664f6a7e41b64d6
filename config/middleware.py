"""Refuse, before any view runs, input that no field on the site can hold: a body too large to
read, a body Django cannot parse, and a NUL character anywhere. The API (under API_PATH) takes
a JSON body only, in UTF-8, without a lone surrogate or a NUL in any of its strings: anything
else is refused here, in the API's shape (`{"detail": sentence}`), before its views read it."""

from __future__ import annotations

import json
import logging

from django.conf import settings
from django.core.exceptions import BadRequest, RequestDataTooBig, SuspiciousOperation
from django.http import HttpRequest, HttpResponse
from django.http.multipartparser import MultiPartParserError
from django.utils.deprecation import MiddlewareMixin
from django.utils.http import parse_header_parameters

log = logging.getLogger(__name__)

NUL_MESSAGE = "This request contains a NUL character, which nothing on Geartable accepts."
UNREADABLE_MESSAGE = (
    "This request's body cannot be read: send a form encoded in UTF-8 "
    "(application/x-www-form-urlencoded or multipart/form-data)."
)
HEADER_MESSAGE = "This request's Content-Type header cannot be read."
# The API's paths (config/urls.py mounts it there): its refusals are JSON, and its bodies JSON.
API_PATH = "/api/"
API_JSON_ONLY = (
    "The API takes a JSON body only: send it with Content-Type: application/json, in UTF-8."
)
API_NOT_UTF8 = "This request's body is not UTF-8 text: the API reads JSON in UTF-8 only."
API_NOT_JSON = "This request's body is not JSON that the API can read."
API_BAD_TEXT = (
    "This request's JSON holds a string no field can keep: a lone surrogate (such as \\ud800)"
    " or a NUL character."
)
# No body at all: the only thing a call without one (a join, a resign) may send.
BODYLESS = ("GET", "HEAD", "OPTIONS")

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


def too_large_message(limit: int | None = None) -> str:
    limit = settings.GEARTABLE_MAX_REQUEST_BYTES if limit is None else limit
    return f"That request is too large: at most {limit:,} bytes."


def is_api(path: str) -> bool:
    return path.startswith(API_PATH)


def answer(path: str, message: str, status: int) -> HttpResponse:
    """A refusal in the shape of the place asked: the API's JSON, else a plain sentence."""
    if is_api(path):
        body = json.dumps({"detail": message})
        return HttpResponse(body, status=status, content_type="application/json; charset=utf-8")
    return plain(message, status)


def refusal(meta, path: str = "") -> HttpResponse | None:
    """A request refused on its headers alone, before a byte of its body is read: a declared
    length over GEARTABLE_MAX_REQUEST_BYTES, or a Content-Type Django cannot parse."""
    try:
        length = int(meta.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0  # Django reads no body then
    if length > settings.GEARTABLE_MAX_REQUEST_BYTES:
        return answer(path, too_large_message(), 413)
    try:
        parse_header_parameters(meta.get("CONTENT_TYPE", ""))
    except ValueError:
        return answer(path, HEADER_MESSAGE, 400)
    return None


def guard_wsgi(application):
    """The WSGI application behind a guard that answers `refusal` itself: Django raises on a
    Content-Type it cannot parse while it builds the request, before any middleware runs."""

    def guarded(environ, start_response):
        refused = refusal(environ, environ.get("PATH_INFO", ""))
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
        refused = refusal(meta, scope.get("path", ""))
        if refused is not None:
            return await _asgi_send(send, refused)
        seen = 0

        async def counted():
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > settings.GEARTABLE_MAX_REQUEST_BYTES:
                    await _asgi_send(send, answer(scope.get("path", ""), too_large_message(), 413))
                    return {"type": "http.disconnect"}  # Django stops reading, answers nothing
            return message

        return await application(scope, counted, send)

    return guarded


async def _asgi_send(send, response: HttpResponse) -> None:
    headers = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in response.items()]
    await send({"type": "http.response.start", "status": response.status_code, "headers": headers})
    await send({"type": "http.response.body", "body": response.content})


def _utf8(request: HttpRequest) -> bool:
    """Whether a body's declared charset, if any, is UTF-8: the one the site reads."""
    return (request.content_params.get("charset") or "utf-8").lower() in ("utf-8", "utf8")


def _has_nul(values) -> bool:
    return any("\x00" in key or any("\x00" in v for v in vals) for key, vals in values.lists())


class RefuseNulMiddleware(MiddlewareMixin):
    """An oversized body (413, unread), an unreadable one or a NUL character in the path, the
    query string or a form field (400): answered here with a sentence, never a 500.

    PostgreSQL cannot store or even compare a string with NUL in it: left to the views, one in
    a URL token, a query parameter or a form field became a 500 wherever it reached a query.
    A form Django cannot parse raises in whatever reads it first: here, not in the CSRF check
    or the error handler (which read it again and turned the 400 into a 500)."""

    def process_request(self, request: HttpRequest) -> HttpResponse | None:
        refused = refusal(request.META, request.path)
        if refused is not None:
            return refused
        if is_api(request.path):
            refused = api_refusal(request)
            return refused
        if request.method not in BODYLESS and not _utf8(request):
            # Django reads a form in a charset it does not know as UTF-8 (it ignores the
            # parameter), and refuses one in a charset it knows: refuse both, the same way.
            return plain(UNREADABLE_MESSAGE, 400)
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
        return None


def bearer(authorization: str | None) -> str | None:
    """The token of an `Authorization: Bearer …` header's value (as django-ninja's HttpBearer
    reads it), or None: the one reading of it (the input check below, and the API's streams,
    games/api/streams.py)."""
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def api_refusal(request: HttpRequest) -> HttpResponse | None:
    """An API call's refusal for its input, or None. Its body is read here as the API's views
    read it (`request.body`, never as a form: a multipart body read as one was gone for them,
    a 500): JSON in UTF-8 or nothing (415 for another type or charset), and no string in it
    that PostgreSQL cannot keep (a lone surrogate, a NUL: 400), wherever it would go. A call
    with no token is the API's to refuse (401) before anything of it is read or queried: a
    visitor learns nothing from its input."""
    if bearer(request.META.get("HTTP_AUTHORIZATION")) is None:
        return None
    path = request.path
    try:
        query_nul = _has_nul(request.GET)
    except UNREADABLE:
        return answer(path, API_NOT_UTF8, 400)
    if "\x00" in path or query_nul:
        return answer(path, NUL_MESSAGE, 400)
    if request.method in BODYLESS:
        return None
    try:
        body = request.body
    except RequestDataTooBig:
        return answer(path, too_large_message(settings.DATA_UPLOAD_MAX_MEMORY_SIZE), 413)
    except UNREADABLE as exc:
        log.info("Unreadable body refused: %s %s (%s)", request.method, path, exc)
        return answer(path, UNREADABLE_MESSAGE, 400)
    if not body:
        return None
    charset = (request.content_params.get("charset") or "utf-8").lower()
    if request.content_type != "application/json" or charset not in ("utf-8", "utf8"):
        if _empty_form(request):
            return None  # a form of no field (a test client's "no data"): no body at all
        return answer(path, API_JSON_ONLY, 415)
    try:
        text = body.decode("utf-8")  # strict: an encoded surrogate is not UTF-8 either
    except UnicodeDecodeError:
        return answer(path, API_NOT_UTF8, 400)
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # not JSON, a number too long to read, too deep
        return answer(path, API_NOT_JSON, 400)
    if not _keepable(data):
        return answer(path, API_BAD_TEXT, 400)
    return None


def _empty_form(request: HttpRequest) -> bool:
    """Whether the body is a form (urlencoded or multipart) of no field and no file. Read from
    the body already read, which the API's views can then still read."""
    if request.content_type not in ("multipart/form-data", "application/x-www-form-urlencoded"):
        return False
    try:
        return not request.POST and not request.FILES
    except UNREADABLE:
        return False


def _keepable(data) -> bool:
    """Whether every string of a parsed JSON value (its keys too) is one PostgreSQL can keep:
    no NUL, no lone surrogate (a "\\ud800" escape; a pair is one character and welcome)."""
    pending = [data]
    while pending:
        value = pending.pop()
        if isinstance(value, dict):
            pending.extend(value.keys())
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)
        elif isinstance(value, str):
            if "\x00" in value:
                return False
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                return False
    return True


def _has_nul_name(files) -> bool:
    return any(
        "\x00" in key or any("\x00" in (f.name or "") for f in vals) for key, vals in files.lists()
    )


def plain(message: str, status: int) -> HttpResponse:
    return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")
