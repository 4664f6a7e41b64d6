"""Seeding for the web benchmark (bench/web_bench.py): users, sessions and games, in bulk.

Games are written as games.actions.tables.start_game writes them (positions, robots, names, the
engine's new_game state, version 1, Seat.to_act) but with bulk_create, so that 110,000 games
take seconds. Finished games carry a result like the one services._after_change records.
Call after django.setup() with DATABASE_URL pointing at the bench database.
"""

from __future__ import annotations

import json
import random
from datetime import timedelta

from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.hashers import make_password
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection, transaction
from django.utils import timezone

from accounts.models import User
from games import engines
from games.models import Game, Seat, Status

PASSWORD = "bench-password-not-secret"  # noqa: S105


def make_users(start: int, count: int) -> list[User]:
    """Users bench0000… with a usable password (one hash computed once, reused)."""
    hashed = make_password(PASSWORD)
    users = [
        User(
            username=f"bench{n:04d}",
            email=f"bench{n:04d}@bench.invalid",
            password=hashed,
            display_name=f"Bench {n}",
        )
        for n in range(start, start + count)
    ]
    User.objects.bulk_create(users, batch_size=2000)
    return list(User.objects.filter(username__in=[u.username for u in users]).order_by("pk"))


def session_cookie(user: User) -> str:
    """A logged-in session (what django.contrib.auth.login stores) and its cookie value."""
    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return store.session_key


def _state(kind: str, seat_ids: list[str], seed: int, options: dict) -> dict:
    return engines.engine(kind).new_game(seat_ids, seed=seed, options=options)


_PLAYED: dict[tuple, list[dict]] = {}


def played_state(kind: str, seat_ids: list[str], options: dict, rng: random.Random, *, to_end):
    """A state after random play: to the end (a finished game's state, with its whole event
    log) or a random number of turns in (an active game's). A pool of 40 per kind, seat count
    and stage, reused with the right names: real stored games are this big, not new_game's."""
    key = (kind, len(seat_ids), to_end)
    pool = _PLAYED.setdefault(key, [])
    if len(pool) < 40:
        eng = engines.engine(kind)
        state = eng.new_game(seat_ids, seed=rng.getrandbits(62), options=options)
        steps = 10_000 if to_end else rng.randrange(1, 40)
        for _ in range(steps):
            if state["over"]:
                break
            seats = engines.seats_to_act(kind, state)
            for seat in sorted(seats):
                state = eng.apply(state, seat, rng.choice(eng.legal_actions(state, seat)))
            if kind == "outofgears" and eng.all_programmed(state):
                state = eng.resolve(state)
        if state["over"] != to_end:  # an active game must not be over yet, and vice versa
            return played_state(kind, seat_ids, options, rng, to_end=to_end)
        pool.append(state)
        return state
    return dict(rng.choice(pool), names=options["names"])


def _robots(rng: random.Random, seat_ids: list[str]) -> dict[str, list[int]]:
    free = list(range(1, 9))
    rng.shuffle(free)
    return {sid: [free.pop()] for sid in seat_ids}


def make_games(
    kind: str,
    players: list[list[User]],
    *,
    status: str = Status.ACTIVE,
    seed: int = 1,
    public: bool = False,
    batch_size: int = 2000,
    played: bool = False,
) -> list[int]:
    """One game per entry of `players` (the users in seat order); returns the new game ids.
    `played`: states after random play (see played_state) rather than fresh ones."""
    rng = random.Random(seed)
    now = timezone.now()
    ids: list[int] = []
    for start in range(0, len(players), batch_size):
        chunk = players[start : start + batch_size]
        games, seat_rows = [], []
        for users in chunk:
            seat_ids = [str(p) for p in range(1, len(users) + 1)]
            names = {sid: u.name for sid, u in zip(seat_ids, users, strict=True)}
            options: dict = {"target": 1000} if kind == "geared" else {"advanced": False}
            game = Game(
                kind=kind,
                seat_count=len(users),
                public=public,
                creator=users[0],
                status=status,
            )
            robots = _robots(rng, seat_ids) if kind == "outofgears" else {}
            if status != Status.OPEN:
                options["names"] = names
                if robots:
                    options["robots"] = robots
                game.seed = rng.getrandbits(62)
                if played and status == Status.FINISHED:
                    # The state and result are copied from the pool by the database itself
                    # afterwards (fill_finished_states): 100,000 x 10 kB of JSON through Python
                    # would take minutes.
                    game.state = None
                elif played:
                    game.state = played_state(
                        kind, seat_ids, options, rng, to_end=status == Status.FINISHED
                    )
                    if robots:
                        robots = {sid: game.state["seat_robots"][sid] for sid in seat_ids}
                        options["robots"] = robots
                else:
                    game.state = _state(kind, seat_ids, game.seed, options)
                game.version = game.turn_version = 1
                game.turn = engines.turn_number(kind, game.state) if game.state else 0
                game.started = now
            if status == Status.FINISHED:
                if not played:
                    winner = rng.choice(seat_ids)
                    scores = {sid: rng.randrange(0, 1500) for sid in seat_ids}
                    game.state = dict(game.state, over=True, winners=[winner])
                    if kind == "outofgears":
                        game.state["result"] = {"winners": [winner], "scores": scores}
                    game.result = {
                        "scores": scores,
                        "winners": [winner],
                        "ranking": sorted(seat_ids, key=lambda s: -scores[s]),
                    }
                game.move_count = rng.randrange(30, 150)
                game.version = game.move_count + 1
                game.finished = now
            game.options = options
            to_act = engines.seats_to_act(kind, game.state) if status == Status.ACTIVE else set()
            games.append(game)
            seat_rows.append(
                [
                    Seat(
                        user=u,
                        position=int(sid) if status != Status.OPEN else None,
                        robots=robots.get(sid, []),
                        to_act=sid in to_act,
                        seen_version=game.version,
                    )
                    for sid, u in zip(seat_ids, users, strict=True)
                ]
            )
        with transaction.atomic():
            Game.objects.bulk_create(games, batch_size=batch_size)
            for game, seats in zip(games, seat_rows, strict=True):
                for seat in seats:
                    seat.game = game
            Seat.objects.bulk_create([s for seats in seat_rows for s in seats], batch_size=5000)
        ids.extend(g.pk for g in games)
    return ids


def fill_finished_states(rng: random.Random) -> None:
    """Finished games inserted with `played` and no state get one of 40 real finished states
    (and its result) for their kind and seat count, copied by PostgreSQL in one UPDATE. The
    names inside those states are the pool's, not the seats' (no measured page reads them)."""
    with connection.cursor() as cur:
        cur.execute(
            "SELECT DISTINCT kind, seat_count FROM games_game "
            "WHERE status = 'finished' AND state IS NULL"
        )
        keys = cur.fetchall()
        cur.execute(
            "CREATE TEMPORARY TABLE bench_pool (kind text, n int, idx int, state jsonb, "
            "result jsonb)"
        )
        for kind, n in keys:
            seat_ids = [str(p) for p in range(1, n + 1)]
            options = {"names": {s: f"Player {s}" for s in seat_ids}}
            if kind == "geared":
                options["target"] = 1000
            for idx in range(40):
                state = played_state(kind, seat_ids, dict(options), rng, to_end=True)
                cur.execute(
                    "INSERT INTO bench_pool VALUES (%s, %s, %s, %s, %s)",
                    [
                        kind,
                        n,
                        idx,
                        json.dumps(state),
                        json.dumps(engines.engine(kind).result(state)),
                    ],
                )
        cur.execute(
            "UPDATE games_game g SET state = p.state, result = p.result FROM bench_pool p "
            "WHERE g.status = 'finished' AND g.state IS NULL AND p.kind = g.kind "
            "AND p.n = g.seat_count AND p.idx = g.id % 40"
        )
        cur.execute("DROP TABLE bench_pool")


def age_finished_games(days: int = 365) -> None:
    """Spread the finished games' dates over the past year (auto_now wrote "now" on insert)."""
    with connection.cursor() as cur:
        cur.execute(
            "UPDATE games_game SET updated = now() - random() * %s, "
            "created = now() - random() * %s WHERE status = 'finished'",
            [timedelta(days=days), timedelta(days=days)],
        )
        cur.execute("UPDATE games_game SET finished = updated WHERE status = 'finished'")
        cur.execute("ANALYZE")


def pick_players(rng: random.Random, users: list[User], count: int, seats: int) -> list[list]:
    return [rng.sample(users, seats) for _ in range(count)]
