"""Geartable as users see it: the whole stack under load (gunicorn, PostgreSQL, Celery on Redis).

Run: make bench-web   (= .venv/bin/python bench/web_bench.py [options]; --help lists them)

1. Drops and creates the database `geartable_bench`, migrates it, seeds bench users with
   logged-in sessions and active games between them, starts gunicorn (DEBUG off, plain http
   on 127.0.0.1:<free port>) and a Celery worker on its own Redis database.
2. GETs with wrk (50 connections, a Lua script spreading requests over many games and
   sessions): the bare view /healthz/, the live-update check (204 path), both game pages,
   "my games" and the lobby. POSTs with bench/web_client.py (50 threads, keep-alive, each
   playing its own games): Geared moves and Out of Gears programs, with /healthz/ from that
   same client as their reference.
3. Out of Gears resolution latency with the real worker.
4. The big database: 10,000 active and 100,000 finished games more; the pages again.
5. The engines' own benchmarks.
Every figure is the median of --repeats runs; the tables are printed as Markdown (the source
of docs/benchmarks.md) and the raw figures saved as JSON (--json). gunicorn and the worker are
stopped on exit, error or Ctrl-C.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
PY = sys.executable
DB_NAME = "geartable_bench"
PG = "postgres://postgres@127.0.0.1:5432"
CSRF = "BenchCsrfSecretBenchCsrfSecret01"  # 32 characters: a valid unmasked CSRF secret

TARGETS = {  # endpoint: (minimum ratio to the bare view's req/s)
    "poll": 0.50,
    "geared_page": 0.20,
    "oog_page": 0.20,
    "geared_move": 0.15,
    "oog_program": 0.15,
}
P99_MS = 100
GET_NAMES = ["healthz", "poll", "geared_page", "oog_page", "my_games", "my_games_grown", "lobby"]
LABELS = {
    "healthz": "bare view /healthz/",
    "poll": "live-update check (204)",
    "geared_page": "Geared game page",
    "oog_page": "Out of Gears game page",
    "my_games": "my games",
    "my_games_grown": "my games, long-time player",
    "lobby": "lobby",
    "bare_py": "bare view /healthz/ (Python client)",
    "geared_move": "Geared move POST",
    "oog_program": "Out of Gears program POST",
}


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def median(values):
    return statistics.median(values) if values else float("nan")


# --- processes -------------------------------------------------------------------------------


class Stack:
    """gunicorn and the Celery worker, each in its own process group, always stopped."""

    def __init__(self, env: dict, tmp: Path, args) -> None:
        self.env, self.tmp, self.args = env, tmp, args
        self.procs: list[subprocess.Popen] = []
        self.port = int(env["BENCH_PORT"])
        self.base = f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        gunicorn = [
            str(ROOT / ".venv/bin/gunicorn"),
            "config.wsgi",
            "-b",
            f"127.0.0.1:{self.port}",
            *self.args.gunicorn.split(),
            "--error-logfile",
            str(self.tmp / "gunicorn.log"),
        ]
        # The workers as the README's production runs them: turns and bots on one, e-mail on
        # another (CELERY_MAIL_QUEUE), so that a turn never waits behind e-mails.
        workers = {"celery": self.args.celery, "celery-mail": self.args.mail_celery}
        commands = [(gunicorn, "gunicorn.out")]
        for name, worker_args in workers.items():
            if not worker_args:
                continue
            commands.append(
                (
                    [
                        str(ROOT / ".venv/bin/celery"),
                        "-A",
                        "config",
                        "worker",
                        *worker_args.split(),
                        "-n",
                        f"{name}@%h",
                        "-l",
                        "info",
                        "--without-gossip",
                        "--without-mingle",
                        "--logfile",
                        str(self.tmp / f"{name}.log"),
                    ],
                    f"{name}.out",
                )
            )
        self.worker_logs = [self.tmp / f"{n}.log" for n, a in workers.items() if a]
        for cmd, out in commands:
            log("starting " + " ".join(cmd[:1] + cmd[1:]).replace(str(ROOT) + "/", ""))
            with open(self.tmp / out, "w") as fh:
                self.procs.append(
                    subprocess.Popen(
                        cmd,
                        cwd=ROOT,
                        env=self.env,
                        stdout=fh,
                        stderr=subprocess.STDOUT,
                        start_new_session=True,
                    )
                )
        deadline = time.time() + 60
        web_up = worker_up = False
        while time.time() < deadline and not (web_up and worker_up):
            for p in self.procs:
                if p.poll() is not None:
                    raise RuntimeError(f"{p.args[0]} exited; see the logs in {self.tmp}")
            with contextlib.suppress(urllib.error.URLError, ConnectionError):
                health = urllib.request.urlopen(self.base + "/healthz/")  # noqa: S310 (http)
                web_up = web_up or health.status == 200
            worker_up = worker_up or all(
                f.exists() and " ready." in f.read_text() for f in self.worker_logs
            )
            time.sleep(0.3)
        if not (web_up and worker_up):
            raise RuntimeError(f"gunicorn or the worker did not start; logs in {self.tmp}")
        log(f"gunicorn on {self.base} and the Celery workers are up")

    def worker_pids(self) -> list[int]:
        """gunicorn's worker processes (for py-spy): the children of the master."""
        out = subprocess.run(
            ["pgrep", "-P", str(self.procs[0].pid)], capture_output=True, text=True
        ).stdout
        return [int(x) for x in out.split()]

    def stop(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(p.pid, signal.SIGTERM)
        for p in self.procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
        self.procs = []


# --- database --------------------------------------------------------------------------------


def create_database(env: dict) -> None:
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
            [DB_NAME],
        )
        conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME}")
        conn.execute(f"CREATE DATABASE {DB_NAME}")
    log(f"database {DB_NAME} created; migrating")
    for cmd in (["migrate", "--noinput", "-v", "0"], ["collectstatic", "--noinput", "-v", "0"]):
        subprocess.run([PY, "manage.py", *cmd], cwd=ROOT, env=env, check=True)


def setup_django(env: dict) -> None:
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def seed_base(args) -> dict:
    """Bench users with sessions; the viewed games (GETs) and the played games (POSTs)."""
    from django.db import connection

    from bench import web_seed as S
    from games.models import Game, Seat, Status

    rng = random.Random(42)
    users = S.make_users(0, args.users)
    cookies = {u.pk: S.session_cookie(u) for u in users}
    # Out of Gears games last ~10 turns: the played set has 3x as many, and the resolution
    # latency its own set, so that neither runs out of games.
    sets = {}
    for name, seed, oog_factor in (("view", 1, 1), ("play", 2, 3), ("resolve", 3, 1)):
        sets[name] = {
            "geared": S.make_games(
                "geared",
                S.pick_players(rng, users, args.geared if name != "resolve" else 0, 2),
                seed=seed,
                played=True,
            ),
            "outofgears": S.make_games(
                "outofgears",
                S.pick_players(rng, users, args.oog * oog_factor, 3),
                seed=seed + 10,
                played=True,
            ),
        }
    # The lobby: open public tables waiting for players (it lists the 50 newest).
    S.make_games(
        "geared", S.pick_players(rng, users, 60, 1), status=Status.OPEN, public=True, seed=3
    )
    for g in Game.objects.filter(status=Status.OPEN):  # open tables are for 2-4 players
        Game.objects.filter(pk=g.pk).update(seat_count=rng.choice([2, 3, 4]))
    with connection.cursor() as cur:
        cur.execute("ANALYZE")

    def games(ids: list[int]) -> list[dict]:
        rows = Seat.objects.filter(game_id__in=ids).values_list("game_id", "position", "user_id")
        by_game: dict[int, dict] = {}
        for gid, pos, uid in rows:
            by_game.setdefault(gid, {})[str(pos)] = cookies[uid]
        versions = dict(Game.objects.filter(pk__in=ids).values_list("pk", "version"))
        return [{"id": i, "cookies": by_game[i], "version": versions[i]} for i in ids]

    world = {
        "users": [{"id": u.pk, "cookie": cookies[u.pk]} for u in users],
        **{f"{s}_{k}": games(ids) for s, kinds in sets.items() for k, ids in kinds.items()},
    }
    connection.close()
    log(
        f"seeded {len(users)} users; active games: viewed {args.geared} Geared 2-player and "
        f"{args.oog} Out of Gears 3-player, played {args.geared} Geared and {3 * args.oog} Out "
        f"of Gears, {args.oog} Out of Gears for the resolution latency; 60 open tables"
    )
    return world


def seed_big(args, world: dict) -> dict:
    """10,000 active and 100,000 finished games more, among 2,000 users (the bench's too)."""
    from django.db import connection
    from django.db.models import Count

    from accounts.models import User
    from bench import web_seed as S
    from games.models import Game, Status

    start = time.perf_counter()
    rng = random.Random(7)
    S.make_users(args.users, args.big_users - args.users)
    # The first half of the bench users keep their games as they were ("my games" of a player
    # whose own history did not grow: what the database's size alone costs); the second half
    # play in the new games like everyone else ("my games" of a long-time player).
    kept = {u["id"] for u in world["users"][: args.users // 2]}
    users = [u for u in User.objects.filter(username__startswith="bench") if u.pk not in kept]
    for status, total in ((Status.ACTIVE, args.big_active), (Status.FINISHED, args.big_finished)):
        geared_n = total * 2 // 3
        for kind, n, sizes in (
            ("geared", geared_n, (2, 2, 3, 4)),
            ("outofgears", total - geared_n, (3, 3, 4, 5)),
        ):
            players = [rng.sample(users, rng.choice(sizes)) for _ in range(n)]
            S.make_games(kind, players, status=status, seed=rng.randrange(1 << 30), played=True)
        log(f"  {total} {status} games inserted ({time.perf_counter() - start:.0f} s)")
    S.fill_finished_states(rng)
    log(f"  finished games' states filled ({time.perf_counter() - start:.0f} s)")
    S.age_finished_games()
    counts = dict(Game.objects.values_list("status").annotate(n=Count("pk")))
    connection.close()
    elapsed = time.perf_counter() - start
    log(f"big database ready in {elapsed:.0f} s: {counts}")
    return {"seconds": elapsed, "counts": counts}


# --- load ------------------------------------------------------------------------------------


def get_plans(world: dict) -> dict[str, list[tuple[str, str]]]:
    """For each GET endpoint, the (path, session cookie) pairs wrk spreads its requests over."""
    plans: dict[str, list[tuple[str, str]]] = {"healthz": [("/healthz/", "")]}
    # As an open page checks: with the poll key that page carries (games/live/cache.py;
    # add_poll_keys).
    plans["poll"] = [
        (f"/games/{g['id']}/poll/?v={g['version']}&c=0&k={g['keys'][seat]}", cookie)
        for kind in ("view_geared", "view_outofgears")
        for g in world[kind]
        for seat, cookie in g["cookies"].items()
    ]
    for name, kind in (("geared_page", "view_geared"), ("oog_page", "view_outofgears")):
        plans[name] = [
            (f"/games/{g['id']}/", cookie) for g in world[kind] for cookie in g["cookies"].values()
        ]
    half = len(world["users"]) // 2
    plans["my_games"] = [("/games/", u["cookie"]) for u in world["users"][:half]]
    plans["my_games_grown"] = [("/games/", u["cookie"]) for u in world["users"][half:]]
    plans["lobby"] = [("/lobby/", u["cookie"]) for u in world["users"]]
    return plans


def add_poll_keys(base: str, world: dict) -> None:
    """Each seat's poll key (`g["keys"][seat]`), read off the game page as the browser reads it,
    for the games whose checks are measured."""
    opener = urllib.request.build_opener(NoRedirect)
    for kind in ("view_geared", "view_outofgears", "resolve_outofgears"):
        for g in world[kind]:
            g["keys"] = {}
            for seat, cookie in g["cookies"].items():
                req = urllib.request.Request(  # noqa: S310 (our own http:// base)
                    f"{base}/games/{g['id']}/", headers={"Cookie": f"sessionid={cookie}"}
                )
                page = opener.open(req).read().decode()
                found = re.search(r'data-poll-key="([^"]+)"', page)
                if not found:
                    raise RuntimeError(f"game {g['id']}: its page carries no poll key")
                g["keys"][seat] = found.group(1)


def check_plan(base: str, name: str, plan: list[tuple[str, str]]) -> None:
    """Before timing anything: sampled requests answer as expected (no redirect to log-in)."""
    expected = 204 if name == "poll" else 200
    for path, cookie in random.Random(1).sample(plan, min(10, len(plan))):
        req = urllib.request.Request(  # noqa: S310 (our own http:// base)
            base + path, headers={"Cookie": f"sessionid={cookie}"}
        )
        opener = urllib.request.build_opener(NoRedirect)
        try:
            status = opener.open(req).status
        except urllib.error.HTTPError as exc:
            status = exc.code
        if status != expected:
            raise RuntimeError(f"{name}: GET {path} answered {status}, not {expected}")


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def run_wrk(base: str, plan_file: Path, args) -> dict:
    cmd = [
        "wrk",
        f"-t{args.wrk_threads}",
        f"-c{args.clients}",
        f"-d{args.seconds}s",
        "--timeout",
        "10s",
        "-s",
        str(BENCH / "web_wrk.lua"),
        base,
        "--",
        str(plan_file),
    ]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    data = json.loads(re.search(r"^JSON (.*)$", out, re.M).group(1))
    data["rps"] = data["requests"] / data["seconds"]
    return data


def write_lua_plan(path: Path, plan: list[tuple[str, str]]) -> None:
    rows = ",\n".join(f'{{"{p}", "{c}"}}' for p, c in plan)
    path.write_text(f"return {{\n{rows}\n}}\n")


def measure_gets(stack: Stack, world: dict, names: list[str], args, tmp: Path) -> dict:
    plans = get_plans(world)
    files = {}
    for name in names:
        check_plan(stack.base, name, plans[name])
        files[name] = tmp / f"plan_{name}.lua"
        write_lua_plan(files[name], plans[name])
    runs: dict[str, list[dict]] = {n: [] for n in names}
    for r in range(args.repeats):
        for name in names:  # interleaved, so that a busy moment touches every endpoint alike
            res = run_wrk(stack.base, files[name], args)
            if res["non2xx"] or res["errors"]:
                log(f"  warning: {name}: {res['non2xx']} non-2xx, {res['errors']} socket errors")
            runs[name].append(res)
            log(
                f"  run {r + 1} {name:12} {res['rps']:8.0f} req/s  "
                f"p50 {res['p50_ms']:6.1f} ms  p99 {res['p99_ms']:6.1f} ms"
            )
    return {n: aggregate(v) for n, v in runs.items()}


def aggregate(runs: list[dict]) -> dict:
    return {
        "rps": median([r["rps"] for r in runs]),
        "p50_ms": median([r["p50_ms"] for r in runs]),
        "p99_ms": median([r["p99_ms"] for r in runs]),
        "runs": runs,
    }


def run_client(mode: str, plan: dict, tmp: Path) -> dict:
    plan_file = tmp / f"client_{mode}.json"
    plan_file.write_text(json.dumps(plan))
    out = subprocess.run(
        [PY, str(BENCH / "web_client.py"), mode, str(plan_file)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def measure_posts(stack: Stack, world: dict, args, tmp: Path) -> dict:
    common = {
        "base": stack.base,
        "csrf": CSRF,
        "database": f"{PG}/{DB_NAME}",
        "clients": args.clients,
        "seconds": args.seconds,
    }
    jobs = {
        "bare_py": ("bare", {}),
        "geared_move": ("geared", {"games": world["play_geared"]}),
        "oog_program": ("outofgears", {"games": world["play_outofgears"]}),
    }
    runs: dict[str, list[dict]] = {n: [] for n in jobs}
    for r in range(args.repeats):
        for name, (mode, extra) in jobs.items():
            res = run_client(mode, {**common, **extra}, tmp)
            bad = {k: v for k, v in res["statuses"].items() if k != "200"}
            if bad:
                log(f"  warning: {name}: statuses {bad}")
            runs[name].append(res)
            log(
                f"  run {r + 1} {name:12} {res['rps']:8.0f} req/s  "
                f"p50 {res['p50_ms']:6.1f} ms  p99 {res['p99_ms']:6.1f} ms"
            )
        wait_queue_empty(args)
    return {n: aggregate(v) for n, v in runs.items()}


def wait_queue_empty(args, timeout: float = 120) -> None:
    """Let the worker finish what the last run queued (e-mails, resolutions)."""
    import redis

    r = redis.Redis.from_url(args.broker)
    deadline = time.time() + timeout
    while time.time() < deadline and r.llen("celery"):
        time.sleep(0.2)
    time.sleep(0.5)


def measure_resolution(stack: Stack, world: dict, args, tmp: Path) -> dict:
    wait_queue_empty(args)
    plan = {
        "base": stack.base,
        "csrf": CSRF,
        "database": f"{PG}/{DB_NAME}",
        "clients": args.resolution_clients,
        "turns": args.resolution_turns,
        "poll_interval": args.poll_interval,
        "games": world["resolve_outofgears"],
    }
    res = run_client("resolution", plan, tmp)
    log(
        f"  resolution: {res['turns']} turns, p50 {res['p50_ms']:.1f} ms, "
        f"p99 {res['p99_ms']:.1f} ms (max {res['max_ms']:.1f} ms)"
    )
    return res


def engine_figures() -> dict:
    out = {}
    for script in ("geared_engine.py", "outofgears_engine.py"):
        log(f"running bench/{script}")
        out[script] = subprocess.run(
            [PY, str(BENCH / script)], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout
    return out


# --- the report ------------------------------------------------------------------------------


def verdict(ok: bool, how: str) -> str:
    return f"met ({how})" if ok else f"**missed** ({how})"


def report(res: dict, args) -> str:
    lines: list[str] = []
    add = lines.append
    gets, posts = res["gets"], res["posts"]
    bare, bare_py = gets["healthz"]["rps"], posts["bare_py"]["rps"]
    add("### Requests per second and latency at 50 concurrent clients (median of runs)\n")
    add(
        "| endpoint | client | req/s | p50 ms | p99 ms | ratio to bare | target | verdict "
        "(ratio; p99 < 100 ms) |"
    )
    add("| --- | --- | ---: | ---: | ---: | ---: | --- | --- |")
    for name, fig in [*gets.items(), *posts.items()]:
        ref = bare_py if name in posts else bare
        client = "Python" if name in posts else "wrk"
        ratio = fig["rps"] / ref
        target = TARGETS.get(name)
        p99_ok = fig["p99_ms"] < P99_MS
        if name in ("healthz", "bare_py"):
            verdict_text, target_text = "reference", "—"
        else:
            target_text = f"≥ {target:.0%}" if target else "—"
            parts = []
            if target:
                parts.append(
                    verdict(ratio >= target, f"{ratio:.0%} vs {target:.0%}, x{ratio / target:.2f}")
                )
            parts.append(
                verdict(p99_ok, f"p99 {fig['p99_ms']:.0f} ms")
                if not p99_ok or target
                else f"p99 {fig['p99_ms']:.0f} ms ok"
            )
            verdict_text = "; ".join(parts)
        if name in ("healthz", "bare_py") and not p99_ok:
            verdict_text += f"; **p99 {fig['p99_ms']:.0f} ms ≥ 100**"
        add(
            f"| {LABELS[name]} | {client} | {fig['rps']:.0f} | {fig['p50_ms']:.1f} | "
            f"{fig['p99_ms']:.1f} | {ratio:.0%} | {target_text} | {verdict_text} |"
        )
    rz = res.get("resolution")
    if rz:
        add("\n### Out of Gears: last program → resolved turn visible (real Celery worker)\n")
        add("| turns | p50 ms | p99 ms | max ms | p50 / p99 from sending the last POST | verdict |")
        add("| ---: | ---: | ---: | ---: | --- | --- |")
        ok = rz["p50_ms"] <= 100 and rz["p99_ms"] <= 300
        add(
            f"| {rz['turns']} | {rz['p50_ms']:.0f} | {rz['p99_ms']:.0f} | {rz['max_ms']:.0f} | "
            f"{rz['from_send_p50_ms']:.0f} / {rz['from_send_p99_ms']:.0f} ms | "
            f"{verdict(ok, 'targets p50 ≤ 100 ms, p99 ≤ 300 ms')} |"
        )
        add(
            f"\n(Visible = the live-update check answers 200; clients poll every "
            f"{rz['poll_interval_ms']:.0f} ms, {args.resolution_clients} games at a time.)"
        )
    big = res.get("big")
    if big:
        add(
            f"\n### With {args.big_active:,} active + {args.big_finished:,} finished games more "
            "(throughput kept)\n"
        )
        add(
            "| endpoint | req/s small DB | req/s big DB | kept | kept, normalised by /healthz/ "
            "| p99 ms big DB | verdict (≥ 80%) |"
        )
        add("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
        norm = big["healthz"]["rps"] / bare
        for name, fig in big.items():
            if name == "healthz":
                continue
            kept = fig["rps"] / gets[name]["rps"]
            kept_n = kept / norm
            add(
                f"| {LABELS[name]} | {gets[name]['rps']:.0f} | {fig['rps']:.0f} | {kept:.0%} | "
                f"{kept_n:.0%} | {fig['p99_ms']:.1f} | "
                f"{verdict(kept_n >= 0.8, f'{kept_n:.0%} normalised, {kept:.0%} raw')} |"
            )
        add(
            f"\n(/healthz/ itself: {bare:.0f} → {big['healthz']['rps']:.0f} req/s between the two "
            f"measurements, {norm:.0%}: the machine's own drift.)"
        )
    eng = res.get("engines")
    if eng:
        add("\n### Engines (one core, full random games)\n")
        add("```")
        for text in eng.values():
            add(text.rstrip())
        add("```")
    return "\n".join(lines)


# --- main ------------------------------------------------------------------------------------


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seconds", type=int, default=10, help="seconds per measured run")
    p.add_argument("--repeats", type=int, default=3, help="runs per figure (median reported)")
    p.add_argument("--clients", type=int, default=50, help="concurrent clients")
    p.add_argument("--wrk-threads", type=int, default=1)
    p.add_argument("--users", type=int, default=200)
    p.add_argument("--geared", type=int, default=200, help="Geared 2-player games per set")
    p.add_argument("--oog", type=int, default=100, help="Out of Gears 3-player games per set")
    p.add_argument("--big-users", type=int, default=2000)
    p.add_argument("--big-active", type=int, default=10_000)
    p.add_argument("--big-finished", type=int, default=100_000)
    p.add_argument("--resolution-turns", type=int, default=300)
    p.add_argument("--resolution-clients", type=int, default=6)
    p.add_argument("--poll-interval", type=float, default=0.01, help="seconds")
    p.add_argument("--gunicorn", default="-w 4 -k gthread --threads 4 --keep-alive 5")
    p.add_argument("--celery", default="--pool=prefork --concurrency=2 -Q celery")
    p.add_argument(
        "--mail-celery",
        default="--pool=prefork --concurrency=1 -Q mail",
        help="the e-mail worker's options ('' for none: then give --celery '-Q celery,mail')",
    )
    p.add_argument("--broker", default="redis://127.0.0.1:6379/11")
    p.add_argument("--skip", default="", help="comma-separated: gets,posts,resolution,big,engines")
    p.add_argument("--endpoints", default=",".join(GET_NAMES), help="the GETs to measure")
    p.add_argument("--serve", action="store_true", help="seed, start, then wait (for profiling)")
    p.add_argument("--report", help="print the tables of a saved --json file and stop")
    p.add_argument("--json", default=str(Path(tempfile.gettempdir()) / "geartable-bench.json"))
    return p.parse_args()


def main() -> int:
    args = parse_args()
    if args.report:  # the tables again from a saved run, without measuring anything
        saved = json.loads(Path(args.report).read_text())
        print(report(saved, argparse.Namespace(**{**vars(args), **saved["args"]})))
        return 0
    skip = set(filter(None, args.skip.split(",")))
    if not shutil.which("wrk") and "gets" not in skip:
        sys.exit("wrk is missing: apt-get install -y wrk")
    port = free_port()
    env = {
        **os.environ,
        "DEBUG": "false",
        "SECRET_KEY": "bench-secret-key-" + "x" * 40,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SITE_URL": f"http://127.0.0.1:{port}",
        "DATABASE_URL": f"{PG}/{DB_NAME}",
        "CELERY_BROKER_URL": args.broker,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "CELERY_MAIL_QUEUE": "mail",
        "CACHE_URL": args.broker.rsplit("/", 1)[0] + "/12",
        "SECURE_SSL_REDIRECT": "false",
        "SESSION_COOKIE_SECURE": "false",
        "CSRF_COOKIE_SECURE": "false",
        "SECURE_HSTS_SECONDS": "0",
        "LOG_LEVEL": "WARNING",
        "BENCH_PORT": str(port),
        "PYTHONPATH": str(ROOT),
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    tmp = Path(tempfile.mkdtemp(prefix="geartable-bench-"))
    stack = Stack(env, tmp, args)

    def on_term(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_term)
    results: dict = {"args": vars(args), "load_before": os.getloadavg()}
    try:
        import redis

        redis.Redis.from_url(args.broker).flushdb()
        create_database(env)
        setup_django(env)
        world = seed_base(args)
        stack.start()
        add_poll_keys(stack.base, world)
        if args.serve:
            plans = get_plans(world)
            log(f"serving on {stack.base}; gunicorn workers {stack.worker_pids()}")
            log(
                f"example: curl -b sessionid={plans['geared_page'][0][1]} {stack.base}"
                f"{plans['geared_page'][0][0]}"
            )
            (tmp / "world.json").write_text(json.dumps(world))
            log(f"plans in {tmp}; Ctrl-C stops")
            while True:
                time.sleep(3600)
        if "gets" not in skip:
            log("GETs (wrk)")
            results["gets"] = measure_gets(
                stack,
                world,
                args.endpoints.split(","),
                args,
                tmp,
            )
        if "posts" not in skip:
            log("POSTs (bench/web_client.py)")
            results["posts"] = measure_posts(stack, world, args, tmp)
        if "resolution" not in skip:
            log("Out of Gears resolution latency")
            results["resolution"] = measure_resolution(stack, world, args, tmp)
        if "big" not in skip and "gets" not in skip:
            log("the big database")
            results["big_seed"] = seed_big(args, world)
            results["big"] = measure_gets(
                stack,
                world,
                args.endpoints.split(","),
                args,
                tmp,
            )
        results["load_after"] = os.getloadavg()
    finally:
        stack.stop()
        log(f"gunicorn and the worker stopped; logs in {tmp}")
    if "engines" not in skip:
        results["engines"] = engine_figures()
    Path(args.json).write_text(json.dumps(results, indent=1, default=str))
    if "gets" in results and "posts" in results:
        print(report(results, args))
    log(
        f"raw figures in {args.json}; load average before {results['load_before']}, "
        f"after {results['load_after']}"
    )
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
