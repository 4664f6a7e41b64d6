"""Settings of the gunicorn that tests/views/test_raw_http.py starts: the test settings with DEBUG
off (as in production), pointed by the environment at the test's own database."""

import os

from config.test_settings import *  # noqa: F403

DEBUG = False
DATABASES["default"]["NAME"] = os.environ["RAW_HTTP_DATABASE"]  # noqa: F405
DATABASES["default"]["CONN_MAX_AGE"] = 0  # noqa: F405
