"""Settings of `make run`: the whole site and its event streams in one ASGI process (uvicorn
config.asgi:application), so a move in one browser reaches another at once on the embedded
defaults (SQLite, tasks run eagerly). No LISTEN there: each commit hands its event to this
process's in-memory hub (games/live/events.py), which feeds the streams this same process holds
(docs/live.md). With DATABASE_URL on PostgreSQL the process LISTENs as a stream process does."""

from config.env import env_int
from config.settings import *  # noqa: F403

ROOT_URLCONF = "config.run_urls"
# The pages open their streams on their own origin, whatever host the browser used.
GEARTABLE_STREAM_URL = GEARTABLE_STREAM_URL or "/"  # noqa: F405
# Plain HTTP/1.1 (uvicorn has no HTTP/2): a browser opens at most six connections to a host
# and each tab's stream holds one. A fifth stream of one user is refused (429: that tab polls),
# so the browser keeps connections free for pages and their fragments.
GEARTABLE_STREAMS_PER_USER = env_int("GEARTABLE_STREAMS_PER_USER", 4, minimum=1)
# Every middleware of the one process is async-capable: WhiteNoise's is sync only, and one
# sync middleware made Django carry each request through async_to_sync, whose executor broke
# ("CurrentThreadExecutor already quit or is broken") when a navigating page dropped its
# requests. Static files are served in front of Django instead (config/run_asgi.py).
MIDDLEWARE = [m for m in MIDDLEWARE if not m.startswith("whitenoise.")]  # noqa: F405
