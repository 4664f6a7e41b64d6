"""Shared fixtures: the personas (alice, bob, carol — carol must not see alice's things) and the
real Celery worker for the tests that need one."""

from __future__ import annotations

import os
import uuid

import pytest
from hypothesis import settings as hypothesis_settings

from tests.smtp import hung_server, smtp_control, smtp_server  # noqa: F401 (fixtures: real servers)

PASSWORD = "correct-horse-battery-staple"

# CI (.ci/run sets CI=true) plays the same random games every run, as Hypothesis advises for CI:
# a landing never depends on a lucky draw. A developer's `make test` and `make deep-test`
# explore new ones each time, and print the seed of any failure to replay it.
hypothesis_settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    hypothesis_settings.load_profile("ci")


@pytest.fixture(autouse=True)
def _seeded_tables(request, monkeypatch):
    """Under CI, every game a test starts is dealt from a generator seeded by the test's name:
    the same deals on every run (as Hypothesis is derandomized above), so a failure is replayed
    with CI=true. A developer's runs keep drawing new deals, which is how flaky tests are found."""
    if not os.environ.get("CI") or not request.config.pluginmanager.hasplugin("django"):
        return
    import random

    from games import services  # lazily: engine tests run without Django

    rng = random.Random(request.node.nodeid)
    monkeypatch.setattr(services, "table_rng", lambda: rng)


@pytest.fixture(autouse=True)
def _fresh_cache(request):
    """Each test starts with an empty cache (the lobby's lists, the live check's copies)."""
    if not request.config.pluginmanager.hasplugin("django"):
        return
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def redis_cache(settings):
    """The cache as in production: Redis (shared by every process), the live cache on; its
    own key prefix per test."""
    settings.CACHES = {
        "default": {
            "BACKEND": "config.cache.RedisCache",
            "LOCATION": "redis://127.0.0.1:6379/9",
            "KEY_PREFIX": f"test-live-{uuid.uuid4().hex}",
        }
    }
    settings.GEARTABLE_LIVE_CACHE = True
    return settings


def make_user(django_user_model, username: str, **extra):
    from allauth.account.models import EmailAddress  # lazily: engine tests run without Django

    user = django_user_model.objects.create_user(
        username=username, email=f"{username}@example.com", password=PASSWORD, **extra
    )
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


@pytest.fixture
def alice(db, django_user_model):
    return make_user(django_user_model, "alice", display_name="Alice")


@pytest.fixture
def bob(db, django_user_model):
    return make_user(django_user_model, "bob", display_name="Bob")


@pytest.fixture
def carol(db, django_user_model):
    return make_user(django_user_model, "carol", display_name="Carol")


@pytest.fixture
def alice_client(client, alice):
    client.force_login(alice)
    return client


# --- Celery: the project's own app on a real broker, for the tests that need a worker ---


@pytest.fixture
def celery_worker(settings):
    """A real Celery worker (solo pool, in a thread) consuming from the real broker.

    Request it *before* `transactional_db`/`live_server`: Celery's Django fixup closes the
    connections it finds when the worker starts. Tasks stop running eagerly for the test."""
    from celery.contrib.testing.worker import start_worker

    from config.celery import app

    app.conf.task_always_eager = False
    settings.CELERY_TASK_ALWAYS_EAGER = False
    try:
        with start_worker(
            app, pool="solo", perform_ping_check=False, without_heartbeat=False, loglevel="WARNING"
        ) as worker:
            yield worker
    finally:
        app.conf.task_always_eager = True


# --- every finished game of the test run round-trips through its record (issue 17) ---

_DB_FIXTURES = {"db", "transactional_db", "django_db_reset_sequences", "live_server"}


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """After each test that used the database (and passed), export every finished game it left
    and replay the record: it must give the stored final state. So every finished game of a test
    run, however it was played (pages, bots, deadlines, resignations), proves the records."""
    outcome = yield
    if item.config.pluginmanager.hasplugin("django") and (
        item.get_closest_marker("django_db") or _DB_FIXTURES & set(item.fixturenames)
    ):
        _check_records_round_trip()
    return outcome


def _check_records_round_trip() -> None:
    from games import engines, records
    from games.models import Game, Status

    for game in Game.objects.filter(status=Status.FINISHED, seed__isnull=False).prefetch_related(
        "seats"
    ):
        if not game.state or not engines.engine(game.kind).is_over(game.state):
            continue  # a test's hand-made "finished" row, not a game that was played to its end
        record = records.loads(records.dumps(records.export(game)))
        replayed = records.replay_record(record)
        assert replayed.state == game.state, f"{game}'s record replays to another state"
