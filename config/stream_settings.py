"""Settings of the stream process (uvicorn config.asgi:application, docs/live.md): the site's
settings, with only the event streams' paths, no middleware but allauth's (async-capable, and
required by its app; the stream views read the session themselves, and a synchronous
middleware would cost a thread hop per request) and no
persistent database connections (a stream reads, gives its connection back, and waits)."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "games.stream_urls"
MIDDLEWARE = ["allauth.account.middleware.AccountMiddleware"]
for _db in DATABASES.values():  # noqa: F405
    _db["CONN_MAX_AGE"] = 0
