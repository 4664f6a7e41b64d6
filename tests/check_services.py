"""Before the tests: is each service they talk to reachable? One line says what to start."""

import os
import socket
import sys
from urllib.parse import urlsplit

SERVICES = [
    (
        "PostgreSQL",
        os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/geartable"),
        5432,
        "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start",
    ),
    (
        "Redis",
        os.environ.get("CELERY_TEST_BROKER_URL", "redis://127.0.0.1:6379/0"),
        6379,
        'redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no',
    ),
    (
        "RabbitMQ",
        os.environ.get("CELERY_TEST_AMQP_URL", "amqp://guest:guest@127.0.0.1:5672//"),
        5672,
        "rabbitmq-server -detached",
    ),
]

failed = False
for name, url, default_port, start in SERVICES:
    parts = urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", parts.port or default_port
    try:
        socket.create_connection((host, port), timeout=2).close()
    except OSError:
        print(f"{name} is not reachable on {host}:{port}; start it with: {start}")
        failed = True
sys.exit(1 if failed else 0)
