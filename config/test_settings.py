"""Settings for pytest: the real settings, with test defaults for what the environment omits."""

import os

os.environ.setdefault("SECRET_KEY", "test-secret-key-not-for-production-5b1e2a7d9c")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/geartable")
os.environ.setdefault("SECURE_SSL_REDIRECT", "false")
os.environ.setdefault("SESSION_COOKIE_SECURE", "false")
os.environ.setdefault("CSRF_COOKIE_SECURE", "false")
os.environ.setdefault("STATIC_MANIFEST", "false")
os.environ.setdefault("SITE_URL", "http://testserver")
os.environ.setdefault("ALLOWED_HOSTS", "testserver,localhost,127.0.0.1")

from config.settings import *  # noqa: E402,F403

# Tests queue tasks eagerly unless a test asks for the real worker (tests/conftest.py).
CELERY_TASK_ALWAYS_EAGER = True
# The in-process test workers have one slot (solo pool): a send to a real SMTP server holds it
# at most this long, so a resolution never waits long behind e-mail (issue 23). Set here, not
# in the environment, which the fault tests' worker processes inherit.
EMAIL_SEND_DEADLINE = min(EMAIL_SEND_DEADLINE, 5)  # noqa: F405
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast, tests only
# The real broker, for the tests that start a real worker (tests/conftest.py: celery_worker).
CELERY_BROKER_URL = os.environ.get("CELERY_TEST_BROKER_URL", "redis://127.0.0.1:6379/0")
# Serve static files from the source folders (no collectstatic before tests or live_server).
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
# The real PostgreSQL, with a flush of DELETEs instead of TRUNCATE after each transactional test
# (config/test_postgresql/base.py: the same empty tables in milliseconds instead of seconds).
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":  # noqa: F405
    DATABASES["default"]["ENGINE"] = "config.test_postgresql"  # noqa: F405
# One test database per pytest process, so that two runs on one machine never drop each
# other's database (pytest-django creates it at the start and drops it at the end).
DATABASES["default"].setdefault("TEST", {})["NAME"] = (  # noqa: F405
    f"test_{DATABASES['default']['NAME']}_{os.getpid()}"  # noqa: F405
)
# One Celery queue per pytest process too: a worker started by one test run must never take
# the tasks of another run that uses another test database.
CELERY_TASK_DEFAULT_QUEUE = f"geartable-test-{os.getpid()}"
# The tests' push service listens on loopback (tests/notifications/push): its http://127.0.0.1
# endpoints are accepted. Push itself stays off (no VAPID keys) unless a test sets the keys.
PUSH_ALLOW_LOOPBACK = True
