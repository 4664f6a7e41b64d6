"""The end of an Out of Gears turn (issue 36.5): last program → the resolved turn on every page.

Run: make bench-turn   (= .venv/bin/python bench/turn_bench.py [options]; --help lists them)

1. Drops and creates its own database (`--db`, default geartable_bench_turn), migrates it,
   collects the static files, seeds `--games` Out of Gears 3-player games (states after random
   play, bench/web_seed.py), each player with a logged-in session.
2. Starts the stack as in production (README, Production), each process alone in its group and
   stopped on exit: gunicorn (`--gunicorn`), the turns worker (`--celery`: `-Q celery`, prefork,
   as many processes as cores) and the e-mail worker (`--mail-celery`, `-Q mail -c 1`) on Redis
   (`--broker`, flushed first), the live cache on Redis (`--cache`), and the stream process
   (uvicorn, config.stream_settings), with GEARTABLE_STREAM_URL set in every process.
3. For each game, opens its three players' pages as a browser would: GET the game page (its key,
   version and chat count), then its event stream (`/events/game/<id>/?v=…&c=…&k=…`, with the
   session cookie), each page on its own keep-alive connections. A page follows the rule of
   static/js/geartable.js (`startLive`): an event only announces a version; one fragment fetch at
   a time (`/games/<id>/fragment/`, as htmx asks it), again when it lands if a newer version
   was announced meanwhile; a POST's answer (the fragment) is swapped in unless older.
4. Plays turns: the first players' programs, then, once every page shows that version, the
   last program; the sample is from sending that POST to the moment the last of the three pages
   swapped in a fragment of the resolved turn. `--parallel` games are played at once.
5. Hop by hop: this process LISTENs on the site's channel (the commits of the program and of the
   resolution, as a listener hears them), and bench/turn_probe.py, loaded into gunicorn and the
   worker, writes when the task was published, received by the worker, started and ended.

Not part of make test; the figures go to docs/benchmarks.md ("Issue 36.5").
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.live_bench import StreamProcess  # noqa: E402
from bench.web_bench import CSRF, PG, Stack, free_port, log  # noqa: E402

PLAYERS = 3
GAME_TAG = re.compile(r'<[a-z]+\b[^>]*\bid="game"[^>]*>')
CHAT_TAG = re.compile(r'<[a-z]+\b[^>]*\bid="chat-log"[^>]*>')
KEY = re.compile(r'data-poll-key="([^"]*)"')


def number_in(html: str, tag: re.Pattern, attr: str) -> int | None:
    """geartable.js's numberIn: the number of a part's own attribute in an answer."""
    found = tag.search(html or "")
    value = found and re.search(rf'\b{attr}="(\d+)"', found[0])
    return int(value[1]) if value else None


def pct(values: list[float], p: float) -> float | None:
    if not values:
        return None
    values = sorted(values)
    return values[min(len(values) - 1, round(p / 100 * (len(values) - 1)))]


# --- the database -------------------------------------------------------------------------------


def create_database(env: dict, name: str) -> None:
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", [name]
        )
        conn.execute(f"DROP DATABASE IF EXISTS {name}")
        conn.execute(f"CREATE DATABASE {name}")
    log(f"database {name} created; migrating")
    for cmd in (["migrate", "--noinput", "-v", "0"], ["collectstatic", "--noinput", "-v", "0"]):
        subprocess.run([sys.executable, "manage.py", *cmd], cwd=ROOT, env=env, check=True)


def seed(games: int) -> list[dict]:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.db import connection

    from bench import web_seed as S
    from games.models import Seat

    users = S.make_users(0, games * PLAYERS)
    ids = S.make_games(
        "outofgears",
        [users[i : i + PLAYERS] for i in range(0, len(users), PLAYERS)],
        seed=36,
        played=True,
    )
    cookies = {u.pk: S.session_cookie(u) for u in users}
    seats: dict[int, dict[str, str]] = {}
    rows = Seat.objects.filter(game_id__in=ids).values_list("game_id", "position", "user_id")
    for gid, pos, uid in rows:
        seats.setdefault(gid, {})[str(pos)] = cookies[uid]
    with connection.cursor() as cur:
        cur.execute("ANALYZE")
    connection.close()
    log(f"seeded {len(ids)} Out of Gears 3-player games")
    return [{"id": gid, "cookies": seats[gid]} for gid in ids]


# --- a page, as geartable.js follows its game ---------------------------------------------------


class Page:
    def __init__(self, http, base: str, stream_base: str, game_id: int, seat: str, cookie: str):
        self.http, self.base, self.stream_base = http, base, stream_base
        self.game_id, self.seat, self.cookie = game_id, seat, cookie
        self.shown = -1
        self.wanted = -1
        self.fetching = False
        self.events: list[tuple[float, int]] = []  # (arrival, version) of each game event
        self.fetches: list[tuple[float, float, int]] = []  # (asked, answered, version shown)
        self.swaps: list[tuple[float, int]] = []  # (when, version) of every swap of #game
        self.changed = asyncio.Event()
        self.task: asyncio.Task | None = None

    def headers(self, **extra) -> dict:
        return {"Cookie": f"sessionid={self.cookie}; csrftoken={CSRF}", **extra}

    async def open(self) -> None:
        async with self.http.get(
            f"{self.base}/games/{self.game_id}/", headers=self.headers()
        ) as resp:
            html = await resp.text()
            if resp.status != 200:
                raise RuntimeError(f"game page {self.game_id}: {resp.status}")
        self.shown = self.wanted = number_in(html, GAME_TAG, "data-version")
        chat = number_in(html, CHAT_TAG, "data-seq")
        key = KEY.search(html)[1]
        query = f"v={self.shown}&k={key}" + ("" if chat is None else f"&c={chat}")
        url = f"{self.stream_base}/events/game/{self.game_id}/?{query}"
        ready = asyncio.get_running_loop().create_future()
        self.task = asyncio.create_task(self._listen(url, ready))
        await ready

    async def _listen(self, url: str, ready: asyncio.Future) -> None:
        async with self.http.get(url, headers=self.headers(), timeout=None) as resp:
            if resp.status != 200:
                ready.set_exception(RuntimeError(f"stream {url}: {resp.status}"))
                return
            ready.set_result(None)
            async for line in resp.content:
                if not line.startswith(b"data: "):
                    continue
                now = time.time()
                data = json.loads(line[6:])
                if data.get("kind") == "game" and isinstance(data.get("version"), int):
                    self.events.append((now, data["version"]))
                    self.announce(data["version"])

    def announce(self, version: int) -> None:
        if version > self.wanted:
            self.wanted = version
        self.converge()

    def converge(self) -> None:
        if self.fetching or self.wanted <= self.shown:
            return
        self.fetching = True
        asyncio.create_task(self._fetch(self.wanted))

    async def _fetch(self, asked: int) -> None:
        start = time.time()
        try:
            async with self.http.get(
                f"{self.base}/games/{self.game_id}/fragment/",
                headers=self.headers(**{"HX-Request": "true", "HX-Target": "game"}),
            ) as resp:
                html = await resp.text()
            version = number_in(html, GAME_TAG, "data-version")
            self.swap(version)
            self.fetches.append((start, time.time(), version or -1))
        finally:
            self.fetching = False
        if self.wanted > asked:
            self.converge()
        elif self.wanted > self.shown:  # the fetch failed: geartable.js tries again in 2 s
            await asyncio.sleep(2)
            self.converge()

    def swap(self, version: int | None) -> None:
        """htmx swaps #game unless the answer is older (keepNewest)."""
        if version is not None and version >= self.shown:
            self.shown = version
            self.swaps.append((time.time(), version))
            self.changed.set()

    async def until_shown(self, version: int, timeout: float = 15) -> bool:
        deadline = time.monotonic() + timeout
        while self.shown < version or self.fetching:
            self.changed.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), min(left, 0.05))
        return True

    async def program(self, version: int, action: dict) -> tuple[int, int | None, float]:
        """POST the program as htmx does; the answer (the fragment) is swapped in."""
        async with self.http.post(
            f"{self.base}/games/{self.game_id}/move/",
            data={"action": json.dumps(action), "version": str(version)},
            headers=self.headers(
                **{
                    "X-CSRFToken": CSRF,
                    "Origin": self.base,
                    "HX-Request": "true",
                    "HX-Target": "game",
                }
            ),
        ) as resp:
            html = await resp.text()
            answered = time.time()
            status = resp.status
        answer = number_in(html, GAME_TAG, "data-version")
        if status == 200:
            self.swap(answer)
        return status, answer, answered

    def close(self) -> None:
        if self.task:
            self.task.cancel()


# --- the run ------------------------------------------------------------------------------------


class Commits:
    """The site's channel as a listener hears it: when each (game, version) committed."""

    def __init__(self, dsn: str) -> None:
        self.dsn = dsn
        self.seen: dict[tuple[int, int], float] = {}

    async def run(self, ready: asyncio.Future) -> None:
        import psycopg

        async with await psycopg.AsyncConnection.connect(self.dsn, autocommit=True) as conn:
            await conn.execute("LISTEN geartable_live")
            ready.set_result(None)
            async for note in conn.notifies():
                now = time.time()
                try:
                    event = json.loads(note.payload)
                except ValueError:
                    continue
                if event.get("kind") == "game":
                    self.seen.setdefault((event["game"], event["version"]), now)


async def play(args, games: list[dict], base: str, stream_base: str, dsn: str) -> dict:
    import aiohttp
    import psycopg

    from games.engines.outofgears import engine as oog

    rng = random.Random(36)
    commits = Commits(dsn)
    ready = asyncio.get_running_loop().create_future()
    listener = asyncio.create_task(commits.run(ready))
    await ready
    samples: list[dict] = []
    failures: list[str] = []
    queue = list(games)
    db = await psycopg.AsyncConnection.connect(dsn, autocommit=True)
    db_lock = asyncio.Lock()

    async def read(game_id: int):
        async with db_lock:
            cur = await db.execute(
                "SELECT state, version, status, turn FROM games_game WHERE id = %s", [game_id]
            )
            return await cur.fetchone()

    async def one_game(game: dict) -> None:
        sessions = [
            aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar()) for _ in range(PLAYERS)
        ]
        pages = {
            seat: Page(sessions[i], base, stream_base, game["id"], seat, cookie)
            for i, (seat, cookie) in enumerate(sorted(game["cookies"].items()))
        }
        try:
            for page in pages.values():
                await page.open()
            while len(samples) < args.turns + args.warmup:
                state, version, status, turn = await read(game["id"])
                if status != "active":
                    return
                todo = [s for s in state["seats"] if s not in state["programs"]]
                if not todo:  # a turn being resolved (the sweep's, or one left over)
                    await asyncio.sleep(0.05)
                    continue
                for seat in todo[:-1]:
                    action = rng.choice(oog.legal_actions(state, seat))
                    code, answer, _ = await pages[seat].program(version, action)
                    if code != 200:
                        failures.append(f"program {game['id']} {seat}: {code}")
                        return
                    version = answer
                # Every page on that version, and quiet: the sample starts from rest.
                for page in pages.values():
                    if not await page.until_shown(version):
                        failures.append(f"game {game['id']}: a page stuck before v{version}")
                        return
                await asyncio.sleep(args.rest)
                seat = todo[-1]
                action = rng.choice(oog.legal_actions(state, seat))
                marks = {
                    p.seat: (len(p.events), len(p.fetches), len(p.swaps)) for p in pages.values()
                }
                sent = time.time()
                code, answer, answered = await pages[seat].program(version, action)
                if code != 200 or answer is None:
                    failures.append(f"last program {game['id']}: {code}")
                    return
                resolved = answer + 1
                shown = [await p.until_shown(resolved) for p in pages.values()]
                if not all(shown):
                    failures.append(f"game {game['id']}: turn {turn} not shown everywhere")
                    return
                per_page = []
                for p in pages.values():
                    e0, f0, s0 = marks[p.seat]
                    event = next((t for t, v in p.events[e0:] if v >= resolved), None)
                    swap = next(t for t, v in p.swaps[s0:] if v >= resolved)
                    fetch = next(
                        (
                            (a, b)
                            for a, b, v in p.fetches[f0:]
                            if v >= resolved and b <= swap + 1e-3
                        ),
                        None,
                    )
                    per_page.append(
                        {
                            "seat": p.seat,
                            "last": p.seat == seat,
                            "event": event,
                            "fetch": fetch,
                            "swap": swap,
                            "fetches": len(p.fetches) - f0,
                        }
                    )
                samples.append(
                    {
                        "game": game["id"],
                        "turn": turn,
                        "version": answer,
                        "sent": sent,
                        "answered": answered,
                        "pages": per_page,
                    }
                )
        except Exception as exc:  # noqa: BLE001 - counted and reported
            failures.append(f"game {game['id']}: {exc!r}"[:300])
        finally:
            for page in pages.values():
                page.close()
            for s in sessions:
                await s.close()

    async def worker() -> None:
        while queue and len(samples) < args.turns + args.warmup:
            await one_game(queue.pop(0))
            if len(samples) and len(samples) % 50 == 0:
                log(f"{len(samples)} turns")

    started = time.time()
    await asyncio.gather(*(worker() for _ in range(args.parallel)))
    await asyncio.sleep(0.5)  # the last commits heard
    listener.cancel()
    await db.close()
    log(f"{len(samples)} turns in {time.time() - started:.0f} s; {len(failures)} failures")
    # The first turns warm every process up (connections to the broker, the cache, templates):
    # a server in production is warm.
    samples = samples[args.warmup :]
    for f in failures[:5]:
        log("  " + f)
    return {"samples": samples, "commits": commits.seen, "failures": failures}


# The page records when its #game showed each version (epoch ms): geartable.js and htmx as
# they run, the swap included.
VERSIONS_SCRIPT = """
window.__versions = [];
new MutationObserver(function () {
  const game = document.getElementById("game");
  const v = game ? Number(game.dataset.version) : NaN;
  const last = window.__versions[window.__versions.length - 1];
  if (isFinite(v) && (!last || last[0] !== v)) {
    window.__versions.push([v, performance.timeOrigin + performance.now()]);
  }
}).observe(document, {subtree: true, childList: true, attributes: true,
                      attributeFilter: ["data-version"]});
"""


async def browser_walk(args, games: list[dict], base: str, dsn: str) -> list[float]:
    """The same turns with the three pages in Chromium (one context per player): the first
    programs and the last are POSTed from here, as in the Python walk; each page follows its
    stream with geartable.js; the time is until the last page's #game shows the resolved turn."""
    import aiohttp
    import psycopg
    from playwright.async_api import async_playwright

    from games.engines.outofgears import engine as oog
    from tests.e2e.helpers import CHROMIUM, CHROMIUM_FLAGS

    rng = random.Random(365)
    totals: list[float] = []
    db = await psycopg.AsyncConnection.connect(dsn, autocommit=True)
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        try:
            for game in games:
                if len(totals) >= args.browser:
                    break
                contexts, tabs, posters = [], {}, {}
                for seat, cookie in sorted(game["cookies"].items()):
                    context = await browser.new_context()
                    await context.add_cookies(
                        [
                            {"name": "sessionid", "value": cookie, "url": base},
                            {"name": "csrftoken", "value": CSRF, "url": base},
                        ]
                    )
                    await context.add_init_script(VERSIONS_SCRIPT)
                    tab = await context.new_page()
                    await tab.goto(f"{base}/games/{game['id']}/")
                    contexts.append(context)
                    tabs[seat] = tab
                    http = aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar())
                    posters[seat] = Page(http, base, "", game["id"], seat, cookie)
                try:
                    while len(totals) < args.browser:
                        cur = await db.execute(
                            "SELECT state, version, status FROM games_game WHERE id = %s",
                            [game["id"]],
                        )
                        state, version, status = await cur.fetchone()
                        todo = [x for x in state["seats"] if x not in state["programs"]]
                        if status != "active" or not todo:
                            break
                        for seat in todo[:-1]:
                            action = rng.choice(oog.legal_actions(state, seat))
                            _code, version, _ = await posters[seat].program(version, action)
                        shown = "v => Number(document.getElementById('game').dataset.version) >= v"
                        for tab in tabs.values():
                            await tab.wait_for_function(shown, arg=version, timeout=15_000)
                        await asyncio.sleep(args.rest)
                        action = rng.choice(oog.legal_actions(state, todo[-1]))
                        sent = time.time()
                        _code, answer, _ = await posters[todo[-1]].program(version, action)
                        seen = []
                        for tab in tabs.values():
                            await tab.wait_for_function(shown, arg=answer + 1, timeout=15_000)
                            marks = await tab.evaluate("window.__versions")
                            seen.append(next(t for v, t in marks if v >= answer + 1) / 1000)
                        totals.append(max(seen) - sent)
                finally:
                    for context in contexts:
                        await context.close()
                    for poster in posters.values():
                        await poster.http.close()
        finally:
            await browser.close()
            await db.close()
    ms = sorted(t * 1000 for t in totals)
    log(
        f"browser walk: {len(ms)} turns, p50 {pct(ms, 50):.0f} ms, p95 {pct(ms, 95):.0f} ms, "
        f"max {ms[-1]:.0f} ms"
    )
    return totals


HOPS = [
    ("total", "last program sent → resolved turn swapped in on every page"),
    ("post", "last program sent → its commit heard"),
    ("published", "program commit → task published (after commit)"),
    ("received", "published → the worker receives it"),
    ("started", "received → the task starts (pool)"),
    ("resolved", "task start → resolution commit heard"),
    ("event", "resolution commit → its event on the last page's stream"),
    ("asked", "event → that page asks the fragment (a fetch in flight first)"),
    ("fetch", "fragment asked → answered and swapped"),
    ("answer", "last program sent → its own answer (v+1)"),
    ("task", "task start → task end (worker)"),
    ("fetches", "fragment fetches per page per turn"),
]


def hops(res: dict, probe: Path) -> dict[str, list[float]]:
    probes: dict[tuple[int, int], dict[str, float]] = {}
    if probe.exists():
        for line in probe.read_text().splitlines():
            row = json.loads(line)
            if len(row["args"]) == 2:
                probes.setdefault(tuple(row["args"]), {}).setdefault(row["hop"], row["t"])
    commits = res["commits"]
    out: dict[str, list[float]] = {name: [] for name, _ in HOPS}
    for s in res["samples"]:
        last = max(s["pages"], key=lambda p: p["swap"])
        out["total"].append(last["swap"] - s["sent"])
        out["answer"].append(s["answered"] - s["sent"])
        out["fetches"] += [p["fetches"] for p in s["pages"]]
        c1 = commits.get((s["game"], s["version"]))
        c2 = commits.get((s["game"], s["version"] + 1))
        pr = probes.get((s["game"], s["turn"]), {})
        chain = [
            ("post", s["sent"], c1),
            ("published", c1, pr.get("published")),
            ("received", pr.get("published"), pr.get("received")),
            ("started", pr.get("received"), pr.get("prerun")),
            ("resolved", pr.get("prerun"), c2),
            ("task", pr.get("prerun"), pr.get("postrun")),
            ("event", c2, last["event"]),
            ("asked", last["event"], last["fetch"] and last["fetch"][0]),
            ("fetch", last["fetch"] and last["fetch"][0], last["swap"]),
        ]
        for name, a, b in chain:
            if a is not None and b is not None:
                out[name].append(b - a)
    return out


def report(figures: dict[str, list[float]], res: dict, args, load: tuple) -> str:
    lines = [
        f"{len(res['samples'])} turns, {args.parallel} game(s) at a time, "
        f"{len(res['failures'])} failures; load average {load[0]:.1f} → {os.getloadavg()[0]:.1f}",
        "",
        "| hop | n | p50 | p95 | p99 | max |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, label in HOPS:
        values = figures[name]
        if not values:
            continue
        if name == "fetches":
            lines.append(
                f"| {label} | {len(values)} | {pct(values, 50):.0f} | {pct(values, 95):.0f} "
                f"| {pct(values, 99):.0f} | {max(values):.0f} |"
            )
            continue
        ms = [v * 1000 for v in values]
        lines.append(
            f"| {label} | {len(ms)} | {pct(ms, 50):.1f} | {pct(ms, 95):.1f} "
            f"| {pct(ms, 99):.1f} | {max(ms):.1f} |"
        )
    if figures["total"]:
        lines.append(f"\n(mean of the total {statistics.fmean(figures['total']) * 1000:.1f} ms)")
    return "\n".join(lines)


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--turns", type=int, default=300, help="samples (resolved turns)")
    p.add_argument("--warmup", type=int, default=20, help="turns played first, not counted")
    p.add_argument("--games", type=int, default=150, help="Out of Gears games seeded")
    p.add_argument("--parallel", type=int, default=1, help="games played at once")
    p.add_argument("--rest", type=float, default=0.1, help="seconds of quiet before a sample")
    p.add_argument("--browser", type=int, default=0, help="turns of a Chromium walk, after")
    p.add_argument(
        "--due-wait-ms",
        help="the stream process's GEARTABLE_STREAM_DUE_WAIT_MS (0: no wait, as before 36.5)",
    )
    p.add_argument("--db", default="geartable_bench_turn")
    p.add_argument("--broker", default="redis://127.0.0.1:6379/13")
    p.add_argument("--cache", default="redis://127.0.0.1:6379/14")
    p.add_argument("--gunicorn", default="-w 4 -k gthread --threads 4 --keep-alive 5")
    p.add_argument("--celery", default="-Q celery -O fair", help="the turns worker's options")
    p.add_argument("--mail-celery", default="-Q mail -c 1", help="the e-mail worker's options")
    p.add_argument("--json", default=str(Path(tempfile.gettempdir()) / "geartable-turn-bench.json"))
    return p.parse_args()


def main() -> int:
    args = parse_args()
    load = os.getloadavg()
    port = free_port()
    tmp = Path(tempfile.mkdtemp(prefix="geartable-turn-bench-"))
    probe = tmp / "probe.jsonl"
    env = {
        **os.environ,
        "DEBUG": "false",
        "SECRET_KEY": "bench-turn-not-secret-" + "x" * 40,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SITE_URL": f"http://127.0.0.1:{port}",
        "DATABASE_URL": f"{PG}/{args.db}",
        "CELERY_BROKER_URL": args.broker,
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "CELERY_MAIL_QUEUE": "mail",
        "CACHE_URL": args.cache,
        "SECURE_SSL_REDIRECT": "false",
        "SESSION_COOKIE_SECURE": "false",
        "CSRF_COOKIE_SECURE": "false",
        "SECURE_HSTS_SECONDS": "0",
        "LOG_LEVEL": "WARNING",
        "BENCH_PORT": str(port),
        "BENCH_PROBE_FILE": str(probe),
        "PYTHONPATH": str(ROOT),
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    if args.due_wait_ms is not None:
        env["GEARTABLE_STREAM_DUE_WAIT_MS"] = args.due_wait_ms
    stream = StreamProcess(env, tmp / "stream.log")
    env["GEARTABLE_STREAM_URL"] = stream.env["GEARTABLE_STREAM_URL"]  # every writer notifies
    stack_args = argparse.Namespace(
        gunicorn=f"{args.gunicorn} -c python:bench.turn_probe",
        celery=f"{args.celery} --include bench.turn_probe",
        mail_celery=args.mail_celery,
    )
    stack = Stack(env, tmp, stack_args)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    try:
        import redis

        for url in (args.broker, args.cache):
            redis.Redis.from_url(url).flushdb()
        create_database(env, args.db)
        os.environ.update(env)
        games = seed(args.games)
        stack.start()
        stream.start()
        res = asyncio.run(
            play(args, games, stack.base, stream.env["GEARTABLE_STREAM_URL"], env["DATABASE_URL"])
        )
        if args.browser:
            res["browser"] = asyncio.run(
                browser_walk(args, games[::-1], stack.base, env["DATABASE_URL"])
            )
    finally:
        stream.stop()
        stack.stop()
        log(f"stopped; logs in {tmp}")
    figures = hops(res, probe)
    res["commits"] = {f"{g}:{v}": t for (g, v), t in res["commits"].items()}
    Path(args.json).write_text(json.dumps({"args": vars(args), **res, "hops": figures}))
    print(report(figures, res, args, load))
    if res.get("browser"):
        ms = [t * 1000 for t in res["browser"]]
        print(
            f"\nBrowser walk (Chromium, geartable.js): {len(ms)} turns, p50 {pct(ms, 50):.0f} ms,"
            f" p95 {pct(ms, 95):.0f} ms, p99 {pct(ms, 99):.0f} ms, max {max(ms):.0f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
