"""Live updates at scale: one stream process holding 2,000, then 10,000 open event streams.

Run: make bench-live   (= .venv/bin/python bench/live_bench.py [options]; --help lists them)

1. Drops and creates the database `geartable_bench_live`, migrates it, seeds one public Geared
   game per 10 streams, each watched by its 2 seated players (their session cookie, as a page on
   the site's origin sends it) and 8 spectators without an account.
2. Starts one stream process exactly as in production (uvicorn config.asgi, config/stream_settings,
   the default keep-alive 30 s and recheck 600 s; only the per-address limit raised, every client
   here being 127.0.0.1), with the open-files limit raised to the hard limit (client and server).
3. Opens the streams from this process (asyncio, one raw HTTP/1.1 connection each, at most
   --concurrency opening at once), then measures the stream process from /proc: its RSS before
   and after (memory per stream), its CPU over --idle-seconds of idling (keep-alives, the
   players' "watching" marks, and one recheck of each stream: the default is one recheck period),
   and, while this process commits --rate moves a second for --seconds, the
   time from each commit to its event on every stream of that game (p50, p99, max).
   A "move" is the version bump of a real game and the site's own events (games/live/events.py:
   `game_changed`, the pg_notify every change sends, and `turns_changed` for its two players),
   in one transaction, from a thread of this process: what every write path sends, without
   the engine's work, which is not the stream's cost.
4. Beside it, what the same pages cost by polling: the requests per second at the page's poll
   intervals, and the poll view's CPU per request measured here with Django's test client.

Not part of make test; the figures go to docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import resource
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
DB_NAME = "geartable_bench_live"
PG = "postgres://postgres@127.0.0.1:5432"
PLAYERS, SPECTATORS = 2, 8  # streams per game: its players, and spectators
ENV = {
    "DATABASE_URL": f"{PG}/{DB_NAME}",
    "DEBUG": "false",
    "SECRET_KEY": "bench-live-not-secret-" + "x" * 40,
    "ALLOWED_HOSTS": "testserver,127.0.0.1,localhost",
    "SITE_URL": "http://testserver",
    "SECURE_SSL_REDIRECT": "false",
    "SESSION_COOKIE_SECURE": "false",
    "CSRF_COOKIE_SECURE": "false",
    "SECURE_HSTS_SECONDS": "0",
    "LOG_LEVEL": "WARNING",
    "GEARTABLE_STREAM_URL": "http://127.0.0.1:1",  # set below to the stream process's
    "GEARTABLE_STREAMS_PER_ADDRESS": "1000000",  # every client of the bench is 127.0.0.1
}
CLK_TCK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")
EVENT_RE = re.compile(rb'"game":(\d+),"version":(\d+)')


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def raise_fd_limit(needed: int) -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if hard < needed:
        sys.exit(f"the open-files hard limit is {hard}, {needed} are needed: raise it (ulimit -Hn)")
    return hard


# --- the database -------------------------------------------------------------------------------


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
    subprocess.run(
        [PY, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True
    )


def setup_django(env: dict) -> None:
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def seed(games: int) -> list[dict]:
    """`games` public Geared games, each between two users of its own with a session."""
    from django.db import connection

    from bench import web_seed as S
    from games.models import Seat

    users = S.make_users(0, games * PLAYERS)
    ids = S.make_games(
        "geared",
        [users[i : i + PLAYERS] for i in range(0, len(users), PLAYERS)],
        public=True,
        seed=7,
    )
    cookies = {u.pk: S.session_cookie(u) for u in users}
    seats: dict[int, list[int]] = {}
    for gid, uid in Seat.objects.filter(game_id__in=ids).values_list("game_id", "user_id"):
        seats.setdefault(gid, []).append(uid)
    with connection.cursor() as cur:
        cur.execute("ANALYZE")
    connection.close()
    log(f"seeded {games} public games, {len(users)} players with sessions")
    return [
        {"id": gid, "players": seats[gid], "cookies": [cookies[u] for u in seats[gid]]}
        for gid in ids
    ]


# --- the stream process -------------------------------------------------------------------------


class StreamProcess:
    def __init__(self, env: dict, log_path: Path) -> None:
        self.port = free_port()
        self.env = {
            **env,
            "DJANGO_SETTINGS_MODULE": "config.stream_settings",
            "GEARTABLE_STREAM_URL": f"http://127.0.0.1:{self.port}",
        }
        self.log_path = log_path
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.log_file = open(self.log_path, "wb")  # noqa: SIM115
        self.process = subprocess.Popen(
            [
                *(PY, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1"),
                *("--port", str(self.port), "--no-access-log", "--backlog", "4096"),
                *("--timeout-graceful-shutdown", "2"),
            ],
            cwd=ROOT,
            env=self.env,
            stdout=self.log_file,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                sys.exit("uvicorn stopped at start:\n" + self.log_path.read_text())
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                log(f"stream process {self.process.pid} on port {self.port}")
                return
            except OSError:
                time.sleep(0.1)
        sys.exit("uvicorn did not start:\n" + self.log_path.read_text())

    def rss_mb(self) -> float:
        with open(f"/proc/{self.process.pid}/statm") as f:
            return int(f.read().split()[1]) * PAGE / 2**20

    def threads(self) -> int:
        """The process's threads (/proc: the event loop's, the readers', and any per stream)."""
        with open(f"/proc/{self.process.pid}/status") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("Threads:"))

    def cpu_seconds(self) -> float:
        with open(f"/proc/{self.process.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK  # utime + stime

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if hasattr(self, "log_file"):
            self.log_file.close()


# --- the lean client: one connection per stream, read raw -----------------------------------------


class Stream:
    __slots__ = ("game", "reader", "writer", "seen", "task", "buf")

    def __init__(self, game: int) -> None:
        self.game = game
        self.seen: list[tuple[int, float]] = []  # (version, arrival) of each game event
        self.buf = b""

    async def open(self, port: int, cookie: str | None) -> None:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", port)
        extra = f"Cookie: sessionid={cookie}\r\n" if cookie else ""
        self.writer.write(
            f"GET /events/game/{self.game}/ HTTP/1.1\r\nHost: 127.0.0.1\r\n{extra}\r\n".encode()
        )
        head = await self.reader.readuntil(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 200"):
            raise RuntimeError(head[:200])
        self.task = asyncio.create_task(self.read())

    async def read(self) -> None:
        while data := await self.reader.read(65536):
            now = time.monotonic()
            self.buf += data
            whole, sep, self.buf = self.buf.rpartition(b"\n\n")
            for match in EVENT_RE.finditer(whole):
                self.seen.append((int(match[2]), now))

    def close(self) -> None:
        self.task.cancel()
        self.writer.close()


async def open_streams(port: int, games: list[dict], concurrency: int) -> list[Stream]:
    gate = asyncio.Semaphore(concurrency)
    streams: list[Stream] = []
    failed: list[str] = []

    async def one(game: dict, cookie: str | None) -> None:
        stream = Stream(game["id"])
        async with gate:
            try:
                await stream.open(port, cookie)
            except Exception as exc:  # noqa: BLE001 - counted and reported
                failed.append(repr(exc)[:200])
                return
        streams.append(stream)

    jobs = []
    for game in games:
        jobs += [one(game, cookie) for cookie in game["cookies"]]
        jobs += [one(game, None) for _ in range(SPECTATORS)]
    started = time.monotonic()
    await asyncio.gather(*jobs)
    log(
        f"opened {len(streams)} streams in {time.monotonic() - started:.1f} s"
        + (f"; {len(failed)} failed, e.g. {failed[0]}" if failed else "")
    )
    if failed:
        raise SystemExit("streams failed to open: " + failed[0])
    return streams


# --- measurements -------------------------------------------------------------------------------


async def idle_cpu(server: StreamProcess, seconds: float) -> dict:
    cpu0, t0 = server.cpu_seconds(), time.monotonic()
    await asyncio.sleep(seconds)
    cpu1, t1 = server.cpu_seconds(), time.monotonic()
    share = (cpu1 - cpu0) / (t1 - t0)
    log(f"idle: {share * 100:.1f}% of one core over {t1 - t0:.0f} s")
    return {"core_share": share, "seconds": t1 - t0}


def commit_moves(games: list[dict], rate: float, seconds: float, out: list, rng) -> None:
    """In a thread: `rate` commits a second, each a game's version bump and its events."""
    from django.db import close_old_connections, connection, transaction

    from games.live import events

    interval = 1 / rate
    due = time.monotonic()
    for _ in range(int(rate * seconds)):
        wait = due - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        game = rng.choice(games)
        with transaction.atomic():
            with connection.cursor() as cur:
                cur.execute(
                    "UPDATE games_game SET version = version + 1 WHERE id = %s RETURNING version",
                    [game["id"]],
                )
                version = cur.fetchone()[0]
            events.game_changed(game["id"])
            events.turns_changed(game["players"])
            committing = time.monotonic()  # the block's end is the COMMIT
        out.append((game["id"], version, committing, time.monotonic()))
        due += interval
    close_old_connections()


async def latency(streams: list[Stream], games: list[dict], rate: float, seconds: float) -> dict:
    by_game: dict[int, list[Stream]] = {}
    for stream in streams:
        stream.seen.clear()
        by_game.setdefault(stream.game, []).append(stream)
    commits: list[tuple] = []
    rng = random.Random(5)
    await asyncio.to_thread(commit_moves, games, rate, seconds, commits, rng)

    def outstanding() -> int:
        return sum(
            1
            for gid, version, _t, _d in commits
            for s in by_game[gid]
            if not any(v >= version for v, _ in s.seen)
        )

    deadline = time.monotonic() + 10
    while outstanding() and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    delays, missing = [], 0
    for gid, version, committing, _done in commits:
        for stream in by_game[gid]:
            arrived = [t for v, t in stream.seen if v >= version]
            if arrived:
                delays.append((min(arrived) - committing) * 1000)
            else:
                missing += 1
    delays.sort()
    commit_ms = sorted((done - c) * 1000 for _g, _v, c, done in commits)
    result = {
        "commits": len(commits),
        "observations": len(delays),
        "missing": missing,
        "p50_ms": pct(delays, 50),
        "p99_ms": pct(delays, 99),
        "max_ms": delays[-1] if delays else None,
        "commit_p50_ms": pct(commit_ms, 50),
    }
    log(
        f"commit -> event: {len(delays)} observations, p50 {result['p50_ms']:.1f} ms, "
        f"p99 {result['p99_ms']:.1f} ms, max {result['max_ms']:.1f} ms, {missing} missing"
    )
    return result


def pct(values: list[float], p: float) -> float | None:
    if not values:
        return None
    return values[min(len(values) - 1, int(len(values) * p / 100))]


def poll_cpu_ms(game: dict, requests: int) -> float:
    """The poll view's CPU per request (Django's test client, in this process), as a seated
    player's open page sends it: with the page's key, nothing changed (204)."""
    from django.db import connection
    from django.test import Client

    from accounts.models import User
    from games.live import cache as live
    from games.models import Game, Seat

    client = Client()
    client.cookies["sessionid"] = game["cookies"][0]
    seat = Seat.objects.get(game_id=game["id"], user_id=game["players"][0])
    key = live.issue(game["id"], User.objects.get(pk=seat.user_id), seat.pk)  # the page's key
    version = Game.objects.get(pk=game["id"]).version
    url = f"/games/{game['id']}/poll/?v={version}&c=0&k={key}"
    assert client.get(url).status_code == 204
    for _ in range(20):
        client.get(url)
    cpu = time.process_time()
    for _ in range(requests):
        client.get(url)
    ms = (time.process_time() - cpu) / requests * 1000
    connection.close()
    log(f"poll view: {ms:.2f} CPU ms per request (in-process)")
    return ms


# --- the run ------------------------------------------------------------------------------------


async def run(args, games: list[dict], server: StreamProcess) -> dict:
    res: dict = {"phases": []}
    per_game = PLAYERS + SPECTATORS
    warm = await open_streams(server.port, games[:1], 1)  # Django loaded, the listener up
    await asyncio.sleep(2)
    rss0 = server.rss_mb()
    res["rss_base_mb"] = rss0
    res["threads_base"] = server.threads()
    log(f"RSS with {len(warm)} streams: {rss0:.0f} MB, {res['threads_base']} threads")
    streams = list(warm)
    for total in args.streams:
        want = total // per_game
        streams += await open_streams(
            server.port, games[len(streams) // per_game : want], args.concurrency
        )
        await asyncio.sleep(2)  # the last opens' reads settle
        rss = server.rss_mb()
        phase = {
            "streams": len(streams),
            "rss_mb": rss,
            "kb_per_stream": (rss - rss0) * 1024 / (len(streams) - len(warm)),
            "threads": server.threads(),
        }
        log(
            f"RSS with {len(streams)} streams: {rss:.0f} MB ({phase['kb_per_stream']:.1f} kB"
            f" each), {phase['threads']} threads"
        )
        spy = None
        if args.profile and not res["phases"]:
            spy = subprocess.Popen(
                [
                    *(os.environ.get("PY_SPY", "py-spy"), "record", "-p", str(server.process.pid)),
                    *("-d", str(int(args.idle_seconds)), "-r", "100", "-f", "raw"),
                    *("-o", args.profile, "--nonblocking"),
                ]
            )
        phase["idle"] = await idle_cpu(server, args.idle_seconds)
        if spy is not None:
            await asyncio.to_thread(spy.wait)
            log(f"profile of the idle window: {args.profile}")
        phase["latency"] = await latency(streams, games[:want], args.rate, args.seconds)
        res["phases"].append(phase)
    for stream in streams:
        stream.close()
    return res


def report(res: dict, args) -> str:
    lines = [
        "| open streams | threads | RSS | per stream | idle CPU (one core) | commit → event p50"
        " | p99 | max | observations (missing) |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for p in res["phases"]:
        lat = p["latency"]
        lines.append(
            f"| {p['streams']:,} | {p['threads']:,} | {p['rss_mb']:.0f} MB "
            f"| {p['kb_per_stream']:.1f} kB "
            f"| {p['idle']['core_share'] * 100:.1f}% | {lat['p50_ms']:.1f} ms "
            f"| {lat['p99_ms']:.1f} ms | {lat['max_ms']:.1f} ms "
            f"| {lat['observations']:,} ({lat['missing']}) |"
        )
    lines.append("")
    lines.append(
        f"Base (Django loaded, listener up, 1 game's streams): {res['rss_base_mb']:.0f} MB, "
        f"{res['threads_base']} threads. "
        f"Moves: {args.rate:g}/s for {args.seconds:g} s; idle window {args.idle_seconds:g} s; "
        f"recheck every {args.recheck or 600} s, keep-alive every {res['keepalive']} s; "
        f"commit itself p50 {res['phases'][0]['latency']['commit_p50_ms']:.1f} ms."
    )
    ms = res["poll_cpu_ms"]
    lines += [
        "",
        "| the same pages polling | requests/s (visible, every 2 s) | hidden (15 s)"
        " | poll view CPU (cores, visible) |",
        "| ---: | ---: | ---: | ---: |",
    ]
    for p in res["phases"]:
        n = p["streams"]
        lines.append(f"| {n:,} | {n / 2:,.0f} | {n / 15:,.0f} | {n / 2 * ms / 1000:.2f} |")
    lines.append(f"\n(poll view: {ms:.2f} CPU ms per request in-process, Django's test client)")
    return "\n".join(lines)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, nargs="+", default=[2000, 10000])
    parser.add_argument("--rate", type=float, default=10.0, help="moves a second")
    parser.add_argument("--seconds", type=float, default=30.0, help="of moves per phase")
    parser.add_argument(
        "--idle-seconds", type=float, default=600.0, help="one recheck period (each stream's)"
    )
    parser.add_argument("--concurrency", type=int, default=100, help="streams opening at once")
    parser.add_argument("--poll-requests", type=int, default=300)
    parser.add_argument(
        "--recheck", type=int, help="the stream process's GEARTABLE_STREAM_RECHECK_SECONDS"
    )
    parser.add_argument(
        "--profile",
        metavar="FILE",
        help="py-spy (PY_SPY, default py-spy on PATH) records the stream process during the"
        " first phase's idle window into FILE (raw folded stacks)",
    )
    parser.add_argument("--json", default="/tmp/geartable-live-bench.json")
    return parser.parse_args()


def main() -> int:
    args = parse_args()
    most = max(args.streams)
    hard = raise_fd_limit(most + 500)
    log(f"open-files limit {hard}; loadavg {os.getloadavg()[0]:.1f}")
    env = {**os.environ, **ENV}
    create_database(env)
    if args.recheck:
        env["GEARTABLE_STREAM_RECHECK_SECONDS"] = str(args.recheck)
    server = StreamProcess(env, Path("/tmp/geartable-live-bench-stream.log"))
    env["GEARTABLE_STREAM_URL"] = server.env["GEARTABLE_STREAM_URL"]  # the writer's events on
    setup_django(env)
    from django.conf import settings

    keepalive = settings.GEARTABLE_STREAM_KEEPALIVE_SECONDS  # the stream process's too
    games = seed(-(-most // (PLAYERS + SPECTATORS)))
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    try:
        server.start()
        res = asyncio.run(run(args, games, server))
    finally:
        server.stop()
    res["keepalive"] = keepalive
    res["poll_cpu_ms"] = poll_cpu_ms(games[0], args.poll_requests)
    res["loadavg_end"] = os.getloadavg()
    Path(args.json).write_text(json.dumps(res, indent=1))
    print(report(res, args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
