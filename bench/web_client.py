"""Load client for the web benchmark's POSTs and Out of Gears resolution latency.

Started by bench/web_bench.py as its own process (GETs are loaded by wrk instead: a Python
client on 2 cores would measure itself). One thread per client, each with its own keep-alive
HTTP connection and its own games. A client chooses a legal action with the engine, outside
the measured request: Geared states are tracked locally (the engine is deterministic and every
move adds 1 to the version) and re-read from the database only after a refusal; Out of Gears
states are re-read before each program (turns are resolved by the Celery worker).

Run: .venv/bin/python bench/web_client.py MODE plan.json  (MODE: geared, outofgears, bare,
resolution); prints one JSON object with the figures.
"""

from __future__ import annotations

import http.client
import json
import random
import statistics
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlencode, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import psycopg  # noqa: E402

from games.engines.geared import engine as geared  # noqa: E402
from games.engines.outofgears import engine as oog  # noqa: E402


class Client:
    """One keep-alive connection; every request returns (status, seconds, headers)."""

    def __init__(self, base: str, csrf: str) -> None:
        parts = urlsplit(base)
        self.host, self.port, self.base, self.csrf = parts.hostname, parts.port, base, csrf
        self.conn = http.client.HTTPConnection(self.host, self.port, timeout=30)

    def request(self, method: str, path: str, cookie: str, body: dict | None = None, **hdr):
        headers = {"Cookie": f"sessionid={cookie}; csrftoken={self.csrf}", **hdr}
        data = None
        if body is not None:
            data = urlencode(body)
            headers.update(
                {
                    "Content-Type": "application/x-www-form-urlencoded",
                    "X-CSRFToken": self.csrf,
                    "Origin": self.base,
                    "HX-Request": "true",  # as htmx sends it: the answer is the game fragment
                }
            )
        for attempt in (1, 2):
            start = time.perf_counter()
            try:
                self.conn.request(method, path, body=data, headers=headers)
                resp = self.conn.getresponse()
                resp.read()
                return resp.status, time.perf_counter() - start, resp
            except (http.client.HTTPException, OSError):
                self.conn.close()  # the server closed an idle keep-alive connection: reconnect
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")


class Db:
    """A few shared connections for the clients' reads (never inside a measured request)."""

    def __init__(self, url: str, size: int = 4) -> None:
        self.pool = [psycopg.connect(url, autocommit=True) for _ in range(size)]
        self.locks = [threading.Lock() for _ in range(size)]

    def game(self, game_id: int) -> tuple[dict, int, int, str]:
        k = game_id % len(self.pool)
        with self.locks[k]:
            row = self.pool[k].execute(
                "SELECT state, version, chat_seq, status FROM games_game WHERE id = %s", [game_id]
            )
            return row.fetchone()


class Recorder:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.lat: list[float] = []
        self.statuses: dict[int, int] = {}
        self.extra: list[float] = []
        self.extra2: list[float] = []

    def add(self, status: int, seconds: float, measuring: bool) -> None:
        if not measuring:
            return
        with self.lock:
            self.statuses[status] = self.statuses.get(status, 0) + 1
            if status == 200:
                self.lat.append(seconds)


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q / 100 * (len(values) - 1))))]


def run_threads(plan: dict, target, rec: Recorder) -> float:
    """Run `target(client_index, stop, measuring)` in every client thread: warm-up, measure."""
    stop = threading.Event()
    measuring = threading.Event()
    threads = [
        threading.Thread(target=target, args=(i, stop, measuring), daemon=True)
        for i in range(plan["clients"])
    ]
    for t in threads:
        t.start()
    time.sleep(plan.get("warmup", 2))
    measuring.set()
    start = time.perf_counter()
    time.sleep(plan["seconds"])
    measuring.clear()
    elapsed = time.perf_counter() - start
    stop.set()
    for t in threads:
        t.join(timeout=30)
    return elapsed


def summary(rec: Recorder, elapsed: float) -> dict:
    return {
        "requests": len(rec.lat),
        "rps": len(rec.lat) / elapsed,
        "p50_ms": pct(rec.lat, 50) * 1000,
        "p99_ms": pct(rec.lat, 99) * 1000,
        "statuses": rec.statuses,
        "seconds": elapsed,
    }


def mine(plan: dict, i: int) -> list[dict]:
    return plan["games"][i :: plan["clients"]]


def geared_moves(plan: dict) -> dict:
    rec, db = Recorder(), Db(plan["database"])

    def client(i: int, stop, measuring) -> None:
        http_ = Client(plan["base"], plan["csrf"])
        games = mine(plan, i)
        local = {}
        for g in games:
            state, version, _, status = db.game(g["id"])
            local[g["id"]] = [state, version, status]
        k = 0
        while not stop.is_set():
            live = [g for g in games if local[g["id"]][2] == "active"]
            if not live:
                return
            g = live[k % len(live)]
            k += 1
            state, version, _ = local[g["id"]]
            seat = geared.current_seat(state)
            action = random.choice(geared.legal_actions(state, seat))
            status, secs, _ = http_.request(
                "POST",
                f"/games/{g['id']}/move/",
                g["cookies"][seat],
                {"action": json.dumps(action), "version": version},
            )
            rec.add(status, secs, measuring.is_set())
            if status == 200:
                new = geared.apply(state, seat, action)
                local[g["id"]] = [new, version + 1, "finished" if new["over"] else "active"]
            else:  # refused (should not happen): start again from what the database holds
                state, version, _, status = db.game(g["id"])
                local[g["id"]] = [state, version, status]

    elapsed = run_threads(plan, client, rec)
    return summary(rec, elapsed)


def oog_programs(plan: dict) -> dict:
    rec, db = Recorder(), Db(plan["database"], size=8)

    def client(i: int, stop, measuring) -> None:
        http_ = Client(plan["base"], plan["csrf"])
        games = mine(plan, i)
        k = 0
        idle = 0
        while not stop.is_set():
            g = games[k % len(games)]
            k += 1
            state, version, _, status = db.game(g["id"])
            todo = [s for s in state["seats"] if s not in state["programs"]]
            if status != "active" or not todo:
                # Over, or its turn is being resolved by the worker: after a round of the
                # client's games with nothing to do, wait a little (not a busy loop on the DB).
                idle += 1
                if idle >= len(games):
                    time.sleep(0.02)
                    idle = 0
                continue
            idle = 0
            seat = todo[0]
            action = random.choice(oog.legal_actions(state, seat))
            status, secs, _ = http_.request(
                "POST",
                f"/games/{g['id']}/move/",
                g["cookies"][seat],
                {"action": json.dumps(action), "version": version},
            )
            rec.add(status, secs, measuring.is_set())

    elapsed = run_threads(plan, client, rec)
    return summary(rec, elapsed)


def bare(plan: dict) -> dict:
    """/healthz/ from this same client: the reference for the POST ratios."""
    rec = Recorder()

    def client(i: int, stop, measuring) -> None:
        http_ = Client(plan["base"], plan["csrf"])
        while not stop.is_set():
            status, secs, _ = http_.request("GET", "/healthz/", "none")
            rec.add(status, secs, measuring.is_set())

    elapsed = run_threads(plan, client, rec)
    return summary(rec, elapsed)


def resolution(plan: dict) -> dict:
    """Out of Gears: every seat programs; from the last program's answer (and from its
    sending) until the poll says the game changed again (the resolved turn is visible)."""
    db = Db(plan["database"])
    after_answer: list[float] = []
    after_send: list[float] = []
    lock = threading.Lock()
    turns_each = plan["turns"] // plan["clients"]
    interval = plan["poll_interval"]

    def client(i: int) -> None:
        http_ = Client(plan["base"], plan["csrf"])
        games = mine(plan, i)
        done = 0
        k = 0
        while done < turns_each and games:
            g = games[k % len(games)]
            k += 1
            state, version, chat, status = db.game(g["id"])
            if status != "active":
                games.remove(g)
                continue
            todo = [s for s in state["seats"] if s not in state["programs"]]
            if not todo:
                time.sleep(0.01)
                continue
            for seat in todo:
                action = random.choice(oog.legal_actions(state, seat))
                sent = time.perf_counter()
                code, _, _ = http_.request(
                    "POST",
                    f"/games/{g['id']}/move/",
                    g["cookies"][seat],
                    {"action": json.dumps(action), "version": version},
                )
                answered = time.perf_counter()
                if code != 200:
                    break
                version += 1
                state = dict(state, programs={**state["programs"], seat: True})
            else:
                seat = todo[-1]
                while True:
                    code, _, _ = http_.request(
                        "GET",
                        f"/games/{g['id']}/poll/?v={version}&c={chat}&k={g['keys'][seat]}",
                        g["cookies"][seat],
                    )
                    if code == 200:
                        seen = time.perf_counter()
                        break
                    time.sleep(interval)
                with lock:
                    after_answer.append(seen - answered)
                    after_send.append(seen - sent)
                done += 1

    threads = [threading.Thread(target=client, args=(i,)) for i in range(plan["clients"])]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return {
        "turns": len(after_answer),
        "seconds": time.perf_counter() - start,
        "p50_ms": pct(after_answer, 50) * 1000,
        "p99_ms": pct(after_answer, 99) * 1000,
        "max_ms": max(after_answer, default=float("nan")) * 1000,
        "mean_ms": statistics.fmean(after_answer) * 1000 if after_answer else float("nan"),
        "from_send_p50_ms": pct(after_send, 50) * 1000,
        "from_send_p99_ms": pct(after_send, 99) * 1000,
        "poll_interval_ms": interval * 1000,
    }


MODES = {"geared": geared_moves, "outofgears": oog_programs, "bare": bare, "resolution": resolution}

if __name__ == "__main__":
    mode, plan_file = sys.argv[1], sys.argv[2]
    print(json.dumps(MODES[mode](json.loads(Path(plan_file).read_text()))))
