"""Shared fixtures: the personas (alice, bob, carol — carol must not see alice's things); the
real Celery worker, the SMTP servers and the cache, from tests/support and tests/smtp.py."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import psycopg
import pytest
from django.conf import settings
from hypothesis import settings as hypothesis_settings

from tests.smtp import hung_server, smtp_control, smtp_server  # noqa: F401 (fixtures: real servers)
from tests.support.cache import _fresh_cache, redis_cache  # noqa: F401 (fixtures)
from tests.support.users import make_user
from tests.support.workers import celery_worker  # noqa: F401 (fixture: a real worker)

# Celery's Django fixup runs every system check when a worker starts (~0.5 s of CPU each, the
# URLconf and all views imported): the tests start dozens of workers, in this process and as
# real processes (which inherit this environment). The checks have their own tests
# (tests/test_site.py runs `manage.py check --deploy`).
os.environ.setdefault("CELERY_SKIP_CHECKS", "1")

# CI (.ci/run sets CI=true) plays the same random games every run, as Hypothesis advises for CI:
# a landing never depends on a lucky draw. A developer's `make test` and `make deep-test`
# explore new ones each time, and print the seed of any failure to replay it.
hypothesis_settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    hypothesis_settings.load_profile("ci")


def pytest_configure(config):
    """The translations compiled where a .po is newer than its .mo, as `make test` does
    (Makefile, `catalogs`): a targeted run of a fresh checkout shows Italian too. Once, in
    the controller (xdist's workers start after it)."""
    if hasattr(config, "workerinput"):
        return
    for po in Path(settings.BASE_DIR, "locale").glob("*/LC_MESSAGES/*.po"):
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            partial = mo.with_suffix(".mo.partial")
            msgfmt = shutil.which("msgfmt")
            assert msgfmt, "GNU gettext's msgfmt is missing: make gettext-deps installs it"
            subprocess.run([msgfmt, "--check-format", f"--output-file={partial}", po], check=True)
            partial.replace(mo)
    if config.pluginmanager.hasplugin("django"):
        _write_js_catalogs()


def _write_js_catalogs():
    """The JavaScript catalogs (static/js/i18n/<lang>.js, as `make catalogs` writes them) from
    the catalogs just compiled; a file is rewritten only when its content changed."""
    import django
    from django.apps import apps

    if not apps.ready:
        django.setup()
    from games.management.commands.js_catalogs import write_catalogs

    write_catalogs()


@pytest.fixture(autouse=True)
def _seeded_tables(request, monkeypatch):
    """Under CI, every game a test starts is dealt from a generator seeded by the test's name:
    the same deals on every run (as Hypothesis is derandomized above), so a failure is replayed
    with CI=true. A developer's runs keep drawing new deals, which is how flaky tests are found."""
    if not os.environ.get("CI") or not request.config.pluginmanager.hasplugin("django"):
        return
    import random

    from games.actions import tables  # lazily: engine tests run without Django

    rng = random.Random(request.node.nodeid)
    monkeypatch.setattr(tables, "table_rng", lambda: rng)


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
    from games import engines
    from games.models import Game, Status
    from games.reads import records

    for game in Game.objects.filter(status=Status.FINISHED, seed__isnull=False).prefetch_related(
        "seats"
    ):
        if not game.state or not engines.engine(game.kind).is_over(game.state):
            continue  # a test's hand-made "finished" row, not a game that was played to its end
        record = records.loads(records.dumps(records.export(game)))
        replayed = records.replay_record(record)
        assert replayed.state == game.state, f"{game}'s record replays to another state"


# --- the order of the run: real processes spread through it ---------------------------------

# The tests that mostly wait on real processes (workers, brokers, SMTP, stream processes, a
# browser), by folder. pytest-xdist's worksteal hands each process a contiguous share of the
# list: in the folders' alphabetical order, the fault tests (a few seconds of Celery start-up
# each, then waits on sweeps) came in one clump, all processes starting workers at once while
# no process had CPU work to overlap their waits. Spread evenly through the list, each share
# mixes waiting tests with computing ones. Within a folder the order is kept.
_SPREAD = ("faults", "e2e", "live", "notifications")


def pytest_collection_modifyitems(items):
    groups: dict[str, list] = {}
    for item in items:
        parts = item.nodeid.split("/")
        folder = parts[1] if len(parts) > 2 and parts[1] in _SPREAD else ""
        groups.setdefault(folder, []).append(item)
    place = {}
    for members in groups.values():
        for index, item in enumerate(members):
            place[id(item)] = (index + 0.5) / len(members)
    items.sort(key=lambda item: place[id(item)])


# --- test databases left behind -----------------------------------------------------------------


def pytest_sessionstart(session):
    """Drop the test databases of runs whose pytest process is gone. Each pytest process names
    its database test_<NAME>_<pid> (config/test_settings.py); one left open at the end (a process
    of a test still connected) cannot be dropped then, and would stay on the server for good.
    Only the run's first process does this (not xdist's workers), never to a live pid's database."""
    if hasattr(session.config, "workerinput") or not session.config.pluginmanager.hasplugin(
        "django"
    ):
        return
    database = settings.DATABASES["default"]
    if "postgresql" not in database["ENGINE"]:
        return
    ours = re.compile(rf"test_{re.escape(database['NAME'])}_(\d+)(?:_gw\d+)?")
    try:
        with psycopg.connect(
            host=database["HOST"] or None,
            port=database["PORT"] or None,
            user=database["USER"] or None,
            password=database["PASSWORD"] or None,
            dbname="postgres",
            autocommit=True,
            connect_timeout=2,
        ) as conn:
            for (name,) in conn.execute("SELECT datname FROM pg_database").fetchall():
                match = ours.fullmatch(name)
                if match and not _alive(int(match.group(1))):
                    conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    except psycopg.Error:
        pass  # no server, or not ours to clean: the run itself will say so


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # another user's process: alive
    return True
