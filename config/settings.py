"""Geartable's settings: every value comes from the environment, with a safe default.

A bad value fails loudly at start-up (config/env.py). `make run` works with no variable set
but DEBUG=true; production sets the variables listed in the README.
"""

from __future__ import annotations

from email.utils import parseaddr
from pathlib import Path

from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

from config.env import (
    env_bool,
    env_choice,
    env_int,
    env_list,
    env_str,
    parse_database_url,
)

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", False)
SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "django-insecure-dev-only-key-never-use-in-production-3f9a1c"  # noqa: S105

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])
# The address in e-mails and printed links. Unset, it is `make run`'s: the port it serves on
# (PORT, which the Makefile passes to every command of `make run PORT=...`).
SITE_URL = env_str("SITE_URL", f"http://127.0.0.1:{env_int('PORT', 8000, minimum=1)}").rstrip("/")
if not SITE_URL.startswith(("http://", "https://")):
    raise ImproperlyConfigured(f"SITE_URL must start with http:// or https://, not {SITE_URL!r}")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [SITE_URL])

INSTALLED_APPS = [
    "config.apps.GeartableAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_htmx",
    "allauth",
    "allauth.account",
    "accounts",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "config.middleware.RefuseNulMiddleware",
    "games.effects.QueueingBudgetMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The visitor's language (the switch's cookie, else Accept-Language); a signed-in player's
    # own choice wins in accounts.middleware.UserTimezoneMiddleware (docs/i18n.md).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "accounts.middleware.UserTimezoneMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.context_processors.nav",
            ],
        },
    },
]

# Database: SQLite by default (make run); PostgreSQL in tests and production.
# Persistent connections are worth ~4x throughput on this stack (shared/STACK-NOTES.md).
CONN_MAX_AGE = env_int("CONN_MAX_AGE", 600, minimum=0)
DATABASES = {
    "default": parse_database_url(
        env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'geartable.sqlite3'}"),
        conn_max_age=CONN_MAX_AGE,
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Cache: per-process memory by default; Redis in production (rate limits must be shared).
CACHE_URL = env_str("CACHE_URL")
if CACHE_URL:
    if not CACHE_URL.startswith(("redis://", "rediss://")):
        raise ImproperlyConfigured(f"CACHE_URL must be a redis:// URL, not {CACHE_URL!r}")
    CACHES = {"default": {"BACKEND": "config.cache.RedisCache", "LOCATION": CACHE_URL}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Sessions are read from the cache (Redis in production) and written through to the database.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "my_games"
LOGOUT_REDIRECT_URL = "home"

# django-allauth: username + e-mail at sign-up, log in with either; rate limits on (default).
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_EMAIL_VERIFICATION = env_choice(
    "ACCOUNT_EMAIL_VERIFICATION", "optional", {"none", "optional", "mandatory"}
)
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_LOGOUT_ON_GET = False
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[Geartable] "
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "https" if SITE_URL.startswith("https://") else "http"
ACCOUNT_PRESERVE_USERNAME_CASING = False
# accounts/adapter.py's rules (names, the log-in lock), its e-mails through the outbox
ACCOUNT_ADAPTER = "games.notifications.account_mail.AccountAdapter"
ACCOUNT_FORMS = {"signup": "accounts.forms.SignupForm"}  # with the time zone (issue 27.7)
# A password reset for an address without an account sends nothing (allauth's default mails it
# "you have no account"): the form cannot be used to mail strangers, and says the same either way.
ACCOUNT_EMAIL_UNKNOWN_ACCOUNTS = False

# Celery: with no broker, tasks run eagerly inside the web process (make run).
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL")
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", not CELERY_BROKER_URL)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
# At-least-once delivery of tasks (docs/delivery.md): a task is acknowledged when it has run,
# and handed out again if its worker dies; every task is idempotent under the game's row lock.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 60, minimum=5)  # hard: the bound
CELERY_TASK_SOFT_TIME_LIMIT = CELERY_TASK_TIME_LIMIT * 3 // 4
# E-mail through Django 6.1's MAILERS: the console by default, SMTP when EMAIL_HOST is set.
# A send must end well inside its task's soft time limit: a send cut off by the limit has an
# unknown outcome (docs/delivery.md). EMAIL_TIMEOUT bounds each SMTP step, EMAIL_SEND_DEADLINE
# the whole conversation of one message (config/mail.py).
EMAIL_SEND_DEADLINE = env_int(
    "EMAIL_SEND_DEADLINE", max(1, min(30, CELERY_TASK_SOFT_TIME_LIMIT // 2)), minimum=1
)
if EMAIL_SEND_DEADLINE * 2 > CELERY_TASK_SOFT_TIME_LIMIT:
    raise ImproperlyConfigured(
        f"EMAIL_SEND_DEADLINE ({EMAIL_SEND_DEADLINE} s) must be at most half the tasks' soft "
        f"time limit ({CELERY_TASK_SOFT_TIME_LIMIT} s, 3/4 of CELERY_TASK_TIME_LIMIT)"
    )
# (Not named EMAIL_TIMEOUT here: Django 6.1 refuses its old e-mail settings beside MAILERS.)
_EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", min(10, EMAIL_SEND_DEADLINE), minimum=1)
if _EMAIL_TIMEOUT > EMAIL_SEND_DEADLINE:
    raise ImproperlyConfigured(
        f"EMAIL_TIMEOUT ({_EMAIL_TIMEOUT} s, each SMTP step) must not exceed "
        f"EMAIL_SEND_DEADLINE ({EMAIL_SEND_DEADLINE} s, the whole send)"
    )
_EMAIL_HOST = env_str("EMAIL_HOST")
if _EMAIL_HOST:
    _use_tls = env_bool("EMAIL_USE_TLS", True)
    _use_ssl = env_bool("EMAIL_USE_SSL", False)
    if _use_tls and _use_ssl:
        raise ImproperlyConfigured("EMAIL_USE_TLS and EMAIL_USE_SSL cannot both be on")
    MAILERS = {
        "default": {
            "BACKEND": "config.mail.EmailBackend",  # with EMAIL_SEND_DEADLINE
            "OPTIONS": {
                "host": _EMAIL_HOST,
                "port": env_int("EMAIL_PORT", 465 if _use_ssl else 587, minimum=1),
                "username": env_str("EMAIL_HOST_USER"),
                "password": env_str("EMAIL_HOST_PASSWORD"),
                "use_tls": _use_tls,
                "use_ssl": _use_ssl,
                "timeout": _EMAIL_TIMEOUT,
            },
        }
    }
else:
    MAILERS = {"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Geartable <noreply@geartable.local>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Redis hands an unacknowledged task to another worker only after its visibility timeout
# (3600 s by default): a little above the hard time limit, so a killed worker's task comes back
# within a minute and a half, and a task that is still running is never handed out twice.
# (RabbitMQ needs none of this: it returns a task as soon as its worker's connection drops.)
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": CELERY_TASK_TIME_LIMIT + 30,
    # A hung Redis (connections accepted, never answered) costs a publish this long: 5 s and
    # three retries made a move wait 5 s a task (issue 23). Above the worker's 1 s BRPOP.
    "socket_connect_timeout": 2,
    "socket_timeout": 2,
}
# Queueing must never hang a request when the broker is down or hung: a short connection
# timeout and one quick publish retry (a pooled connection that Redis dropped reconnects), then
# the on-commit hook logs the failure and the beat's sweep re-queues the work from the database
# (games/notifications/outbox.py). A request (and a sweep) has one budget for all its queueing:
# after a failure, or OUTBOX_QUEUE_BUDGET seconds, the rest is left to the sweep (games/effects.py).
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.5,
}
OUTBOX_QUEUE_BUDGET = env_int("OUTBOX_QUEUE_BUDGET", 3, minimum=1)
CELERY_TASK_IGNORE_RESULT = True
# E-mails on a queue of their own (optional): a turn's resolution never waits behind the
# e-mails of the turn before. Workers must then consume both: `celery worker -Q celery,mail`.
CELERY_MAIL_QUEUE = env_str("CELERY_MAIL_QUEUE")
if CELERY_MAIL_QUEUE:
    CELERY_TASK_ROUTES = {
        f"games.tasks.{task}": {"queue": CELERY_MAIL_QUEUE}
        for task in (
            "send_notification",
            "send_invitation",
            "send_digest",
            "send_account_mail",
            "send_push",
        )
    }
# The outbox (docs/delivery.md): what must happen is written in the game's transaction; the
# sweep re-queues what is overdue. Seconds; tests shorten them.
OUTBOX_SWEEP_INTERVAL = env_int("OUTBOX_SWEEP_INTERVAL", 60, minimum=1)
OUTBOX_GAME_GRACE = env_int("OUTBOX_GAME_GRACE", 30, minimum=1)  # a resolution or bot move
OUTBOX_MAIL_GRACE = env_int("OUTBOX_MAIL_GRACE", 60, minimum=1)  # a new e-mail's first send
OUTBOX_RETRY_BASE = env_int("OUTBOX_RETRY_BASE", 60, minimum=1)  # then 2x, 4x, ...
OUTBOX_RETRY_MAX = env_int("OUTBOX_RETRY_MAX", 3600, minimum=1)  # at most an hour apart
OUTBOX_GIVE_UP_AFTER = env_int("OUTBOX_GIVE_UP_AFTER", 86400, minimum=60)  # then FAILED
# A claimed e-mail whose worker died is sent again after this long: above the task's hard
# time limit, so a send in progress is never taken over.
OUTBOX_CLAIM_TIMEOUT = env_int("OUTBOX_CLAIM_TIMEOUT", 2 * CELERY_TASK_TIME_LIMIT, minimum=1)
if OUTBOX_CLAIM_TIMEOUT <= CELERY_TASK_TIME_LIMIT:
    raise ImproperlyConfigured(
        f"OUTBOX_CLAIM_TIMEOUT ({OUTBOX_CLAIM_TIMEOUT} s) must be above the tasks' hard time "
        f"limit (CELERY_TASK_TIME_LIMIT, {CELERY_TASK_TIME_LIMIT} s): a send still running "
        "would be taken over and the e-mail sent twice"
    )
# Web Push (docs/notifications.md): the VAPID key pair (`manage.py make_vapid_keys` prints the
# lines) and a contact for the push services (mailto: or https:). Empty keys: no push at all, the
# site works as before (no switch on the profile, e-mail as today).
VAPID_PUBLIC_KEY = env_str("VAPID_PUBLIC_KEY").strip()
VAPID_PRIVATE_KEY = env_str("VAPID_PRIVATE_KEY").strip()
VAPID_SUBJECT = env_str("VAPID_SUBJECT", f"mailto:{parseaddr(DEFAULT_FROM_EMAIL)[1]}").strip()
if bool(VAPID_PUBLIC_KEY) != bool(VAPID_PRIVATE_KEY):
    raise ImproperlyConfigured("Set both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or neither")
if VAPID_PUBLIC_KEY and not VAPID_SUBJECT.startswith(("mailto:", "https://")):
    raise ImproperlyConfigured(
        f"VAPID_SUBJECT must be a mailto: or https: URL, not {VAPID_SUBJECT!r}"
    )
# A push not acknowledged by the push service after this many seconds counts as failed (one
# attempt: retried with the outbox's backoff). Well inside the tasks' soft time limit.
PUSH_TIMEOUT = env_int("PUSH_TIMEOUT", max(1, min(10, CELERY_TASK_SOFT_TIME_LIMIT // 2)), minimum=1)
if PUSH_TIMEOUT * 2 > CELERY_TASK_SOFT_TIME_LIMIT:
    raise ImproperlyConfigured(
        f"PUSH_TIMEOUT ({PUSH_TIMEOUT} s) must be at most half the tasks' soft time limit "
        f"({CELERY_TASK_SOFT_TIME_LIMIT} s)"
    )
# How long the push service keeps a push for a phone that is off (seconds, the TTL header).
PUSH_TTL = env_int("PUSH_TTL", 86400, minimum=0)
# A turn e-mail to a player with a device subscribed waits this long (seconds) for a push to
# reach them; it is sent at once when every push failed, and skipped when one arrived.
PUSH_EMAIL_FALLBACK = env_int("PUSH_EMAIL_FALLBACK", 600, minimum=1)
# Devices one player may subscribe (older ones must be removed first).
PUSH_DEVICES_PER_USER = env_int("PUSH_DEVICES_PER_USER", 10, minimum=1)
# Subscription endpoints must be https on a push service's host, port 443
# (games.notifications.devices.push_url); http://127.0.0.1:<port> is allowed only with this on
# (DEBUG, the tests' push service).
PUSH_ALLOW_LOOPBACK = env_bool("PUSH_ALLOW_LOOPBACK", DEBUG)
# The daily digest goes out at this hour of each player's own time zone (0–23).
GEARTABLE_DIGEST_HOUR = env_int("GEARTABLE_DIGEST_HOUR", 7, minimum=0)
if GEARTABLE_DIGEST_HOUR > 23:
    raise ImproperlyConfigured("GEARTABLE_DIGEST_HOUR must be an hour from 0 to 23")
CELERY_BEAT_SCHEDULE = {
    "expire-deadlines": {"task": "games.tasks.expire_deadlines", "schedule": 60.0},
    "queue-digests": {"task": "games.tasks.queue_digests", "schedule": crontab(minute=0)},
    "sweep-outbox": {"task": "games.tasks.sweep", "schedule": float(OUTBOX_SWEEP_INTERVAL)},
}

# The site's languages (docs/i18n.md): only fully translated ones are listed, and a test keeps
# them so (tests/i18n). English is the source language and the fallback.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("it", "Italiano")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if env_bool("STATIC_MANIFEST", not DEBUG)
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

# Content-Security-Policy (Django 6's own middleware): nothing is loaded from elsewhere.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "object-src": [CSP.NONE],
}

# Security: on by default whenever DEBUG is off (manage.py check --deploy is clean).
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", not DEBUG)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", not DEBUG)
# Behind a reverse proxy, every request comes from the proxy's address: the client's is the
# right-most one of X-Forwarded-For that our own proxies appended (TRUSTED_PROXY_COUNT of them),
# so that every limit keyed on an address (allauth's log-in locks and rate limits, the API's
# bad-token limit, the streams per address) keys on the client, not on the proxy: one function
# reads it, config/addresses.py. Without BEHIND_PROXY the header is ignored (spoofable).
BEHIND_PROXY = env_bool("BEHIND_PROXY", False)
if BEHIND_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
GEARTABLE_TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 1, minimum=1) if BEHIND_PROXY else 0
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# What one request may carry (README: Limits against abuse). A form's fields: no form here needs
# more than 64 kB. A whole body (a record's file and the form around it): refused on its declared
# length before a byte is read (config/middleware.py), so no upload is ever spooled to disk
# either (FILE_UPLOAD_MAX_MEMORY_SIZE is as large). The reverse proxy's limit should match.
DATA_UPLOAD_MAX_MEMORY_SIZE = 64 * 1024
GEARTABLE_RECORD_MAX_BYTES = env_int("GEARTABLE_RECORD_MAX_BYTES", 500_000, minimum=1_000)
GEARTABLE_MAX_REQUEST_BYTES = env_int(
    "GEARTABLE_MAX_REQUEST_BYTES",
    GEARTABLE_RECORD_MAX_BYTES + DATA_UPLOAD_MAX_MEMORY_SIZE,
    minimum=DATA_UPLOAD_MAX_MEMORY_SIZE,
)
FILE_UPLOAD_MAX_MEMORY_SIZE = GEARTABLE_MAX_REQUEST_BYTES

# Geartable's own.
GEARTABLE_DEMO_PASSWORD = env_str("GEARTABLE_DEMO_PASSWORD", "geartable-demo")
# Abuse limits (README: Configuration). Invitations to e-mail addresses a player types are what a
# spammer would use: a few a day each. Invitations by username and rematch offers (each invites
# the other players) have limits of their own, higher: they reach only players of the site.
GEARTABLE_EMAIL_INVITATIONS_PER_DAY = env_int("GEARTABLE_EMAIL_INVITATIONS_PER_DAY", 10, minimum=0)
GEARTABLE_PLAYER_INVITATIONS_PER_DAY = env_int(
    "GEARTABLE_PLAYER_INVITATIONS_PER_DAY", 30, minimum=0
)
GEARTABLE_REMATCHES_PER_DAY = env_int("GEARTABLE_REMATCHES_PER_DAY", 20, minimum=0)
GEARTABLE_OPEN_TABLES_PER_USER = env_int("GEARTABLE_OPEN_TABLES_PER_USER", 10, minimum=1)
# Game records (docs/records.md): the moves one may hold (a real game has a few hundred), and
# how many a player may import in 24 hours (each is replayed in full by the engine).
GEARTABLE_RECORD_MAX_MOVES = env_int("GEARTABLE_RECORD_MAX_MOVES", 2_000, minimum=1)
GEARTABLE_RECORD_IMPORTS_PER_DAY = env_int("GEARTABLE_RECORD_IMPORTS_PER_DAY", 20, minimum=0)
# The API (docs/api.md): calls per account (all its personal access tokens together) in each
# window of so many seconds; past it, 429 with Retry-After. And calls with a token that is not
# valid per client address in the same windows: past it, that address's calls are refused (429)
# before their token is looked up, until the window ends.
GEARTABLE_API_RATE = env_int("GEARTABLE_API_RATE", 120, minimum=1)
GEARTABLE_API_RATE_SECONDS = env_int("GEARTABLE_API_RATE_SECONDS", 60, minimum=1)
GEARTABLE_API_BAD_TOKEN_RATE = env_int("GEARTABLE_API_BAD_TOKEN_RATE", 30, minimum=1)
# A replay keeps the engine's state every this many steps in the cache, so that a view of any
# step replays at most this many moves (games/reads/replay.py).
GEARTABLE_REPLAY_CHECKPOINT = env_int("GEARTABLE_REPLAY_CHECKPOINT", 25, minimum=1)
# An e-mail's unsubscribe link works this long (days); after that, the profile page does it.
GEARTABLE_UNSUBSCRIBE_LINK_DAYS = env_int("GEARTABLE_UNSUBSCRIBE_LINK_DAYS", 365, minimum=1)
# A player whose open game page checked for news this recently (seconds) is watching the game:
# no "your turn" or "turn resolved" e-mail for it (reminders still go). 0 turns this off.
GEARTABLE_WATCHING_SECONDS = env_int("GEARTABLE_WATCHING_SECONDS", 60, minimum=0)
# Days a player may be away (deadlines paused) per calendar year; also the longest single
# vacation. 0 turns vacations off (docs/vacation.md).
GEARTABLE_VACATION_DAYS_PER_YEAR = env_int("GEARTABLE_VACATION_DAYS_PER_YEAR", 30, minimum=0)
# The live-update check reads each game's version and each player's "your turn" count from the
# cache (games/live/cache.py): on by default where the cache is shared by every process (CACHE_URL).
# Each change forgets them on commit; LIVE_SECONDS bounds how long a missed one could linger.
GEARTABLE_LIVE_CACHE = env_bool("GEARTABLE_LIVE_CACHE", bool(CACHE_URL))
GEARTABLE_LIVE_SECONDS = env_int("GEARTABLE_LIVE_SECONDS", 10, minimum=1)
# Server-sent events (docs/live.md): where the stream process answers, e.g.
# https://live.example.com, "/" (the site's own origin: a proxy sends /events/ to the stream
# process, or one ASGI process serves both, config/run_settings.py), or "" (the default: no
# streams, every page polls as before). Pages open <GEARTABLE_STREAM_URL>/events/game/<id>/;
# the writers send their events only when set.
GEARTABLE_STREAM_URL = env_str("GEARTABLE_STREAM_URL", "").strip()
if GEARTABLE_STREAM_URL != "/":
    GEARTABLE_STREAM_URL = GEARTABLE_STREAM_URL.rstrip("/")
if GEARTABLE_STREAM_URL not in ("", "/") and not GEARTABLE_STREAM_URL.startswith(
    ("http://", "https://")
):
    raise ImproperlyConfigured(
        "GEARTABLE_STREAM_URL must be / or start with http:// or https://,"
        f" not {GEARTABLE_STREAM_URL!r}"
    )
# A stream sends a keep-alive comment this often (seconds; proxies close a silent connection:
# 30 s is half the usual 60 s idle timeout, nginx's proxy_read_timeout and most load balancers'),
# and checks again at least this often that its viewer may still see the game (the poll key's
# grant, the session). A changed password, a deactivation or a lost seat ends the stream at
# once (their commit sends an `access` event, games/live/events.py): this recheck is a safety net.
GEARTABLE_STREAM_KEEPALIVE_SECONDS = env_int("GEARTABLE_STREAM_KEEPALIVE_SECONDS", 30, minimum=1)
GEARTABLE_STREAM_RECHECK_SECONDS = env_int("GEARTABLE_STREAM_RECHECK_SECONDS", 600, minimum=1)
# A change that leaves the server a step to take (a turn to resolve, a bot to play) is followed
# by that step's change: a stream waits this long at most for it, so that its page fetches the
# game once, as the step left it (games/live/stream.py `settle`; 0: no wait).
GEARTABLE_STREAM_DUE_WAIT_MS = env_int("GEARTABLE_STREAM_DUE_WAIT_MS", 1000, minimum=0)
# The threads a stream process runs its streams' reads on (who may listen, the game's version),
# each holding one database connection: the process's connections are this many + 1 (LISTEN).
GEARTABLE_STREAM_READ_THREADS = env_int("GEARTABLE_STREAM_READ_THREADS", 4, minimum=1)
# The stream process (config/stream_settings.py) has only async views and middleware: its ASGI
# handler runs a request's few synchronous parts on one thread shared by the process instead of
# a thread per request, which an open stream would hold as long as its page (config/asgi.py).
# Never for a process with a synchronous view: its requests would run one after another.
GEARTABLE_ASGI_ASYNC_ONLY = False
# Open streams one stream process holds at once for one logged-in user (six tabs each open one),
# and for one client address (a household or an office behind one address; every stream counts
# here, a visitor's too). One more is refused with 429 and the page polls instead: a stranger
# cannot make a process hold thousands of connections. Behind a proxy the address is
# X-Forwarded-For's, which uvicorn trusts from FORWARDED_ALLOW_IPS (127.0.0.1 by default).
# Counted per process.
GEARTABLE_STREAMS_PER_USER = env_int("GEARTABLE_STREAMS_PER_USER", 20, minimum=1)
GEARTABLE_STREAMS_PER_ADDRESS = env_int("GEARTABLE_STREAMS_PER_ADDRESS", 100, minimum=1)
if GEARTABLE_STREAM_URL.startswith("http"):  # the page's EventSource connects there
    _stream_origin = "/".join(GEARTABLE_STREAM_URL.split("/")[:3])
    SECURE_CSP["connect-src"] = [CSP.SELF, _stream_origin]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}
