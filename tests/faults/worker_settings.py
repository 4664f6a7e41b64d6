"""Settings of the worker, beat and web processes that the fault tests start as real
processes: the test settings, pointed by the environment at the test's own database, broker,
queue and SMTP server (tests/support/faults.py)."""

import os

from config.test_settings import *  # noqa: F403

CELERY_TASK_ALWAYS_EAGER = False
CELERY_BROKER_URL = os.environ["FAULT_BROKER_URL"]
CELERY_TASK_DEFAULT_QUEUE = os.environ["FAULT_QUEUE"]
DATABASES["default"]["NAME"] = os.environ["FAULT_DATABASE"]  # noqa: F405
DATABASES["default"]["CONN_MAX_AGE"] = 0  # noqa: F405
MAILERS = {
    "default": {
        "BACKEND": "config.mail.EmailBackend",  # EMAIL_SEND_DEADLINE: 3/8 of TIME_LIMIT
        "OPTIONS": {
            "host": "127.0.0.1",
            "port": int(os.environ["FAULT_SMTP_PORT"]),
            "use_tls": False,
            "timeout": 3,
        },
    }
}
