"""Shared fixtures: the personas (alice, bob, carol — carol must not see alice's things); the
real Celery worker, the SMTP servers and the cache, from tests/support and tests/smtp.py."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings as hypothesis_settings

from tests.smtp import hung_server, smtp_control, smtp_server  # noqa: F401 (fixtures: real servers)
from tests.support.cache import _fresh_cache, redis_cache  # noqa: F401 (fixtures)
from tests.support.users import make_user
from tests.support.workers import celery_worker  # noqa: F401 (fixture: a real worker)

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


# --- the order of the run: the long tests first, in every process's share ---------------------

# pytest-xdist's worksteal hands each process a contiguous share of the list and lets an idle
# process take the end of another's. The long tests (real processes: workers, brokers, SMTP,
# stream processes, a browser; the engines' random games) go first in every share, mixed so
# that the ones waiting on processes run beside the ones computing; the short ones fill the end,
# where the processes steal from each other, so the run ends with no process left alone with a
# 30 s test (docs/benchmarks.md, "The test suite's wall time"). Within a folder the order is kept.
_LONG = ("faults", "e2e", "stream")
_LONG_FILES = ("test_oog_properties.py", "test_geared_properties.py", "test_geared_equivalence.py")
_MIXED = ("faults", "e2e", "stream", "unit", "push", "notify")


def _spread(items: list) -> list:
    """The items with each folder's tests spread evenly through the list, in their order."""
    groups: dict[str, list] = {}
    for item in items:
        parts = item.nodeid.split("/")
        groups.setdefault(parts[1] if len(parts) > 2 and parts[1] in _MIXED else "", []).append(
            item
        )
    place = {
        id(item): (index + 0.5) / len(members)
        for members in groups.values()
        for index, item in enumerate(members)
    }
    return sorted(items, key=lambda item: place[id(item)])


def pytest_collection_modifyitems(items):
    def is_long(item) -> bool:
        parts = item.nodeid.split("::")[0].split("/")
        return (len(parts) > 2 and parts[1] in _LONG) or parts[-1] in _LONG_FILES

    ordered = _spread([i for i in items if is_long(i)]) + _spread(
        [i for i in items if not is_long(i)]
    )
    shares = max(1, int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")))
    # Dealt out like cards: share k gets items k, k + n, k + 2n, ... of the ordered list, so each
    # contiguous share begins with its part of the long tests.
    items[:] = [item for k in range(shares) for item in ordered[k::shares]]
