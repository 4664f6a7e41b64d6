"""CPU milliseconds per request, in-process: each endpoint through Django's test client, timed
with time.process_time (this process's CPU only: Python, Django, templates, the database
driver; not PostgreSQL's own work). Steady where a load test on a shared 2-core machine is
not, so it is the figure to compare before and after a change (issue 16).

Run: make bench-cpu   (= .venv/bin/python bench/web_cpu.py [--requests N] [--repeats R])
Profile one endpoint instead: bench/web_cpu.py --profile geared_move [--sort tottime]
(cProfile over --requests GETs or --posts POSTs after the warm-up; prints pstats' top lines).
The floor instead: bench/web_cpu.py --floor (what a request costs that does nothing but pass
the middleware as a signed-in user, GET and POST, and one statement of each kind a move makes;
the views are the bench's own, added to the URLconf of this process only).

Seeds its own database `geartable_cpu` (dropped and created) with bench/web_seed.py: 60 users
with sessions, 60 Geared 2-player and 60 Out of Gears 3-player games in play after random
play, 40 finished games per kind for "my games", 60 open tables. DEBUG off, cache on Redis
(db 12), Celery queued to Redis (db 13, flushed: tasks are not run here). Prints a Markdown
table: median CPU ms per request and its ratio to /healthz/ (what a request costs at least).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench import web_bench  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DB_NAME = os.environ.get("BENCH_CPU_DB", "geartable_cpu")
PG = "postgres://postgres@127.0.0.1:5432"
# Two runs at once (two engineers, or an old and a new tree) each need their own database and
# their own Redis databases: the cache holds games' versions by id.
REDIS_DB = int(os.environ.get("BENCH_CPU_REDIS_DB", "12"))
ENV = {
    "DATABASE_URL": f"{PG}/{DB_NAME}",
    "DEBUG": "false",
    "SECRET_KEY": "bench-cpu-not-secret-" + "x" * 40,
    "ALLOWED_HOSTS": "testserver,127.0.0.1",
    "SITE_URL": "http://testserver",
    "SECURE_SSL_REDIRECT": "false",
    "SESSION_COOKIE_SECURE": "false",
    "CSRF_COOKIE_SECURE": "false",
    "SECURE_HSTS_SECONDS": "0",
    "CACHE_URL": f"redis://127.0.0.1:6379/{REDIS_DB}",
    "CELERY_BROKER_URL": f"redis://127.0.0.1:6379/{REDIS_DB + 1}",
    "LOG_LEVEL": "ERROR",
}
VIEWED = 20  # games per kind only viewed (GETs); the others are played (POSTs)
# The endpoints' names as bench/web_bench.py prints them, so both tables read alike.
LABELS = {
    name: web_bench.LABELS[name]
    for name in (
        "healthz",
        "poll",
        "geared_page",
        "oog_page",
        "my_games",
        "lobby",
        "geared_move",
        "oog_program",
    )
}


def create_database() -> None:
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", [DB_NAME]
        )
        conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME}")
        conn.execute(f"CREATE DATABASE {DB_NAME}")
    import redis

    for url in (ENV["CACHE_URL"], ENV["CELERY_BROKER_URL"]):  # nothing of an earlier run's ids
        redis.Redis.from_url(url).flushdb()
    env = {**os.environ, **ENV}
    for cmd in (["migrate", "--noinput", "-v", "0"], ["collectstatic", "--noinput", "-v", "0"]):
        subprocess.run([sys.executable, "manage.py", *cmd], cwd=ROOT, env=env, check=True)


def seed() -> dict:
    from django.db import connection

    from bench import web_seed as S
    from games.models import Game, Seat, Status

    rng = random.Random(42)
    users = S.make_users(0, 60)
    cookies = {u.pk: S.session_cookie(u) for u in users}
    ids = {
        "geared": S.make_games("geared", S.pick_players(rng, users, 60, 2), seed=1, played=True),
        "outofgears": S.make_games(
            "outofgears", S.pick_players(rng, users, 60, 3), seed=11, played=True
        ),
    }
    for kind, seats in (("geared", 2), ("outofgears", 3)):
        S.make_games(
            kind,
            S.pick_players(rng, users, 40, seats),
            status=Status.FINISHED,
            seed=5,
            played=True,
        )
    S.fill_finished_states(rng)
    S.make_games("geared", S.pick_players(rng, users, 60, 1), status=Status.OPEN, public=True)
    with connection.cursor() as cur:
        cur.execute("ANALYZE")
    seats = {}
    for gid, pos, uid in Seat.objects.filter(
        game__status=Status.ACTIVE, user__isnull=False
    ).values_list("game_id", "position", "user_id"):
        seats.setdefault(gid, {})[str(pos)] = cookies[uid]
    versions = dict(Game.objects.values_list("pk", "version"))
    return {
        "users": [cookies[u.pk] for u in users],
        "games": {k: [(i, seats[i], versions[i]) for i in v] for k, v in ids.items()},
    }


def client_for(cookie: str):
    from django.test import Client

    client = Client()
    client.cookies["sessionid"] = cookie
    client.get("/healthz/")
    return client


def time_gets(plan: list[tuple[object, str]], n: int, expect: int) -> float:
    """CPU ms per request over n requests spread over the plan's (client, path) pairs."""
    start = time.process_time()
    for i in range(n):
        client, path = plan[i % len(plan)]
        status = client.get(path).status_code
        if status != expect:
            raise RuntimeError(f"GET {path} answered {status}, not {expect}")
    return 1000 * (time.process_time() - start) / n


def time_posts(
    kind: str, world: dict, n: int, rng: random.Random, profiler: cProfile.Profile | None = None
) -> float:
    """CPU ms per move/program POST as htmx sends it; the action is chosen (with the engine,
    from the stored state) outside the timed (and profiled) part."""
    from games import engines
    from games.actions import tables as services
    from games.models import Game

    eng = engines.engine(kind)
    total, done = 0.0, 0
    games = list(world["games"][kind][VIEWED:])  # the viewed ones keep their versions
    rng.shuffle(games)
    clients = {}
    while done < n and games:
        gid, cookies, _version = games[done % len(games)]
        game = Game.objects.get(pk=gid)
        if not game.is_active:
            games.remove((gid, cookies, _version))
            continue
        to_act = sorted(engines.seats_to_act(kind, game.state))
        if not to_act:  # an Out of Gears turn waiting for the worker: resolved here, untimed
            services.resolve_turn(gid, game.turn)
            continue
        seat = to_act[0]
        action = rng.choice(eng.legal_actions(game.state, seat))
        client = clients.setdefault(cookies[seat], client_for(cookies[seat]))
        data = {"action": json.dumps(action), "version": str(game.version)}
        if profiler is not None:
            profiler.enable()
        start = time.process_time()
        response = client.post(f"/games/{gid}/move/", data, HTTP_HX_REQUEST="true")
        total += time.process_time() - start
        if profiler is not None:
            profiler.disable()
        if response.status_code != 200:
            raise RuntimeError(f"POST move answered {response.status_code}")
        done += 1
    return 1000 * total / max(1, done)


def measure(world: dict, args) -> dict[str, list[float]]:
    rng = random.Random(1)
    users = [client_for(c) for c in world["users"][:20]]
    viewers = {}
    for kind in ("geared", "outofgears"):
        viewers[kind] = []
        for gid, cookies, version in world["games"][kind][:VIEWED]:
            client = client_for(next(iter(cookies.values())))
            # The check as the open page sends it: with the page's poll key (games/live/cache.py).
            key = re.search(r'data-poll-key="([^"]+)"', client.get(f"/games/{gid}/").text)[1]
            poll = f"/games/{gid}/poll/?v={version}&c=0&k={key}"
            viewers[kind].append((client, f"/games/{gid}/", poll))
    plans = {
        "healthz": ([(users[0], "/healthz/")], 200),
        "poll": ([(c, poll) for k in viewers.values() for c, _p, poll in k], 204),
        "geared_page": ([(c, page) for c, page, _ in viewers["geared"]], 200),
        "oog_page": ([(c, page) for c, page, _ in viewers["outofgears"]], 200),
        "my_games": ([(c, "/games/") for c in users], 200),
        "lobby": ([(c, "/lobby/") for c in users], 200),
    }
    results: dict[str, list[float]] = {name: [] for name in [*plans, "geared_move", "oog_program"]}
    for plan, expect in plans.values():
        time_gets(plan, min(args.requests, 50), expect)  # warm-up: caches, connections
    if args.profile:
        profile(args, plans, world, rng)
        return {}
    for _ in range(args.repeats):
        for name, (plan, expect) in plans.items():
            results[name].append(time_gets(plan, args.requests, expect))
        results["geared_move"].append(time_posts("geared", world, args.posts, rng))
        results["oog_program"].append(time_posts("outofgears", world, args.posts, rng))
    return results


def profile(args, plans: dict, world: dict, rng: random.Random) -> None:
    """cProfile over one endpoint's requests (after the warm-up): pstats' top lines, and the
    Python calls per request (a figure that, unlike CPU time, does not move with the load)."""
    name = args.profile
    posts = {"geared_move": "geared", "oog_program": "outofgears"}
    if name in posts:
        time_posts(posts[name], world, 5, rng)  # warm-up of the POST path
    profiler = cProfile.Profile()
    if name in posts:
        n = args.posts
        time_posts(posts[name], world, n, rng, profiler)
    else:
        n = args.requests
        plan, expect = plans[name]
        profiler.enable()
        time_gets(plan, n, expect)
        profiler.disable()
    if args.dump:
        profiler.dump_stats(args.dump)
    stats = pstats.Stats(profiler)
    print(f"{LABELS[name]}: {n} requests, {stats.total_calls / n:,.0f} Python calls per request")
    stats.sort_stats(args.sort).print_stats(args.lines)


def floor(world: dict, args) -> None:
    """The floor of a request (issue 36.2): a view that reads the user and answers "ok",
    through the site's middleware, as a GET and as a POST (as the bench's moves send it, and
    with the CSRF check the test client otherwise skips); then one statement of each kind a
    Geared move makes, compiled and executed (inside a transaction rolled back at the end)."""
    from django.db import connection, transaction
    from django.db.models import Case, F, Value, When
    from django.http import HttpResponse
    from django.middleware.csrf import get_token
    from django.test import Client
    from django.urls import clear_url_caches, path

    import config.urls
    from accounts.models import User
    from games.actions import base
    from games.models import Game, Move, Notification, Seat
    from games.notifications import outbox, queueing

    def floor_view(request):
        get_token(request)  # the token a page's forms carry
        return HttpResponse("ok" if request.user.is_authenticated else "no")

    config.urls.urlpatterns.append(path("bench-floor/", floor_view))
    clear_url_caches()
    gid, cookies, _version = world["games"]["geared"][-1]
    cookie = next(iter(cookies.values()))
    plain = client_for(cookie)
    checked = Client(enforce_csrf_checks=True)
    checked.cookies["sessionid"] = cookie
    checked.get("/bench-floor/")
    token = checked.cookies["csrftoken"].value

    def post(client, headers):
        def send():
            if client.post("/bench-floor/", {"version": "1"}, **headers).status_code != 200:
                raise RuntimeError("the floor's POST was refused")

        return send

    requests = {
        "bare view /healthz/": lambda: plain.get("/healthz/"),
        "signed-in GET (session, user)": lambda: plain.get("/bench-floor/"),
        "signed-in POST, as the bench's moves (no CSRF check)": post(plain, {}),
        "signed-in POST with the CSRF check (htmx)": post(
            checked, {"HTTP_X_CSRFTOKEN": token, "HTTP_HX_REQUEST": "true"}
        ),
    }
    user_id = int(plain.session["_auth_user_id"])
    game = Game.objects.with_table(gid)
    seats = [s.pk for s in game.table]
    seat = game.table[0]
    cursor = connection.cursor()
    seq = iter(range(10**6, 10**7))
    statements = {
        "SELECT 1 by cursor (a round trip)": lambda: cursor.execute("SELECT 1"),
        "the user (auth's get)": lambda: User.objects.get(pk=user_id),
        "lock and read the game with its seats": lambda: Game.objects.locked(gid, with_seats=True),
        "INSERT the move": lambda: Move.objects.create(
            game=game, seq=next(seq), seat=seat, kind=Move.Kind.ACTION, action={"type": "draw"}
        ),
        "UPDATE the game (11 fields)": lambda: base._save(game),
        "UPDATE the seats (Case/When)": lambda: Seat.objects.filter(pk__in=seats).update(
            to_act=Case(When(pk__in=seats[:1], then=True), default=False),
            missed_deadlines=Case(
                When(pk=seat.pk, then=Value(0)),
                default=F("missed_deadlines"),
                output_field=Seat._meta.get_field("missed_deadlines"),
            ),
        ),
        "INSERT the outbox rows (ON CONFLICT, RETURNING)": lambda: queueing._insert_once.many(
            [
                Notification(
                    kind=Notification.Kind.YOUR_TURN,
                    user_id=user_id,
                    game=game,
                    turn=next(seq),
                    next_attempt=outbox.first_attempt(),
                )
            ]
        ),
        "NOTIFY (two events)": lambda: cursor.execute(
            "SELECT pg_notify(%s, %s), pg_notify(%s, %s)", ["bench", "a", "bench", "b"]
        ),
    }
    print("| request or statement | CPU ms (median) |\n| --- | ---: |")
    for name, fn in requests.items():
        print(f"| {name} | {_median_ms(fn, args.requests, args.repeats):.3f} |")
    with transaction.atomic():
        for name, fn in statements.items():
            print(f"| {name} | {_median_ms(fn, args.requests, args.repeats):.3f} |")
        transaction.set_rollback(True)


def _median_ms(fn, n: int, repeats: int) -> float:
    """CPU ms per call of fn over n calls (after 20 for the warm-up), median of the repeats."""
    for _ in range(20):
        fn()
    runs = []
    for _ in range(repeats):
        start = time.process_time()
        for _ in range(n):
            fn()
        runs.append(1000 * (time.process_time() - start) / n)
    return statistics.median(runs)


def report(results: dict[str, list[float]]) -> str:
    base = statistics.median(results["healthz"])
    lines = [
        "| endpoint | CPU ms per request (median) | /healthz/ ÷ endpoint |",
        "| --- | ---: | ---: |",
    ]
    for name, values in results.items():
        ms = statistics.median(values)
        lines.append(f"| {LABELS[name]} | {ms:.2f} | {100 * base / ms:.0f}% |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=300, help="GETs per endpoint per repeat")
    parser.add_argument("--posts", type=int, default=60, help="POSTs per kind per repeat")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--profile", choices=LABELS, help="profile this endpoint instead")
    parser.add_argument("--sort", default="cumulative", help="pstats sort key (--profile)")
    parser.add_argument("--lines", type=int, default=40, help="pstats lines (--profile)")
    parser.add_argument("--dump", help="also save the profile to this file (--profile)")
    parser.add_argument(
        "--floor", action="store_true", help="measure the floor of a request instead"
    )
    args = parser.parse_args()
    print(f"creating and seeding {DB_NAME}…", file=sys.stderr)
    create_database()
    os.environ.update(ENV)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    import redis

    world = seed()
    print("measuring…", file=sys.stderr)
    try:
        if args.floor:
            floor(world, args)
            return 0
        results = measure(world, args)
    finally:
        redis.Redis.from_url(ENV["CELERY_BROKER_URL"]).flushdb()
    if results:
        print(report(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
