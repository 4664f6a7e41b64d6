import os

import django
from django.conf import settings
from django.core.handlers.asgi import ASGIHandler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from config.middleware import guard_asgi  # noqa: E402 - needs the settings module set


class SharedThreadASGIHandler(ASGIHandler):
    """Django's ASGI handler without its thread per request, for a process whose views and
    middleware are all async (the stream process: GEARTABLE_ASGI_ASYNC_ONLY).

    Django serves each request in a ThreadSensitiveContext of its own, and a request's first
    synchronous call (its request_started receivers: always) starts a thread that lives as long
    as the request: for an event stream, as long as its page stays open (10,005 threads at
    10,000 streams, docs/benchmarks.md). Here the few synchronous parts of a request (the
    request_started and request_finished receivers, the response's close(), a plain error
    page's handler) run on asgiref's one thread shared by the process, in turn, and an open
    stream holds no thread. A synchronous view or middleware would run there too, one request
    after another: tests/live/test_threads.py keeps the stream process free of them."""

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        await self.handle(scope, receive, send)


def _handler() -> ASGIHandler:
    django.setup(set_prefix=False)  # as get_asgi_application()
    if settings.GEARTABLE_ASGI_ASYNC_ONLY:
        return SharedThreadASGIHandler()
    return ASGIHandler()


application = guard_asgi(_handler())
