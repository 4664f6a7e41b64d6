"""Settings of the stream process (uvicorn config.asgi:application, docs/live.md): the site's
settings, with only the event streams' paths and no middleware but allauth's (async-capable, and
required by its app; the stream views read the session themselves, and a synchronous
middleware would cost a thread hop per request). Every view and middleware being async, a
request's synchronous parts run on one thread shared by the process, and an open stream holds
no thread (GEARTABLE_ASGI_ASYNC_ONLY, config/asgi.py). Its reads keep their database
connections, on a few threads of their own (GEARTABLE_STREAM_READ_THREADS, games/live/stream.py)."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "games.live.urls"
MIDDLEWARE = ["allauth.account.middleware.AccountMiddleware"]
GEARTABLE_ASGI_ASYNC_ONLY = True
