"""Settings of the stream process that tests/live start: the test settings with the stream
process's own paths and middleware (config/stream_settings.py), pointed by the environment at
the test's own database."""

import os

from config import stream_settings
from config.test_settings import *  # noqa: F403

ROOT_URLCONF = stream_settings.ROOT_URLCONF
MIDDLEWARE = stream_settings.MIDDLEWARE
GEARTABLE_ASGI_ASYNC_ONLY = stream_settings.GEARTABLE_ASGI_ASYNC_ONLY
DEBUG = False
DATABASES["default"]["NAME"] = os.environ["STREAM_DATABASE"]  # noqa: F405
# Its connections are named after its port, so that a test counts this process's connections
# and no other's (a stream process of an earlier test may still be closing its own).
DATABASES["default"].setdefault("OPTIONS", {})["application_name"] = os.environ.get(  # noqa: F405
    "STREAM_APPLICATION_NAME", "geartable-stream"
)
# A test that gives this process a shared cache (CACHE_URL, Redis) gives it its own key prefix
# too, so that no other test run's keys are read as this one's.
if os.environ.get("STREAM_CACHE_KEY_PREFIX") and "LOCATION" in CACHES["default"]:  # noqa: F405
    CACHES["default"]["KEY_PREFIX"] = os.environ["STREAM_CACHE_KEY_PREFIX"]  # noqa: F405
