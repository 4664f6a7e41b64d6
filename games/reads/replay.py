"""Replaying a game from its seed, its engine options and its move log (the append-only Move
rows): the replay page, the admin and the tests use it to show or check any step of a game.

The replay page asks for one step at a time, and a step is the state after that many moves:
replayed from move 0 on every view, a long record cost seconds of CPU a view. `state_at` keeps
the state every GEARTABLE_REPLAY_CHECKPOINT moves in the cache, so a view replays at most that
many moves once the game's checkpoints are there (a game that is over never changes)."""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache

from games import engines
from games.models import Game, Move, Status

CHECKPOINT_SECONDS = 24 * 3600


def moves_of(game: Game) -> list[Move]:
    return list(Move.objects.filter(game=game).select_related("seat").order_by("seq"))


def replay(game: Game, moves: list[Move], upto: int | None = None) -> dict:
    """The engine state after the first `upto` moves (all of them when None)."""
    return _replay(game, _start(game), moves[:upto])


def state_at(game: Game, moves: list[Move], step: int) -> dict:
    """The state after `step` moves of a game that is over, from the nearest cached checkpoint
    at or before it (or the stored final state), caching the checkpoints it passes."""
    if step >= len(moves) and game.status == Status.FINISHED:
        return game.state  # the stored final state (tests/conftest.py checks they agree)
    every = settings.GEARTABLE_REPLAY_CHECKPOINT
    marks = list(range(0, step + 1, every))
    cached = cache.get_many([_key(game, mark) for mark in marks])
    start = next((m for m in reversed(marks) if _key(game, m) in cached), None)
    if start is None:
        start, state = 0, _start(game)
        new = {_key(game, 0): state}
    else:
        state, new = cached[_key(game, start)], {}
    eng = engines.engine(game.kind)
    for n in range(start, step):
        state = _apply(eng, state, moves[n])
        if (n + 1) % every == 0:
            new[_key(game, n + 1)] = state
    if new:
        cache.set_many(new, CHECKPOINT_SECONDS)
    return state


def _key(game: Game, step: int) -> str:
    # A game that is over never changes; the engine's version is in the key all the same.
    return f"replay:{game.pk}:{engines.VERSIONS[game.kind]}:{game.version}:{step}"


def _start(game: Game) -> dict:
    eng = engines.engine(game.kind)
    seats = sorted((s for s in game.table if s.position), key=lambda s: s.position)
    return eng.new_game([s.seat_id for s in seats], seed=game.seed, options=game.options)


def _replay(game: Game, state: dict, moves: list[Move]) -> dict:
    eng = engines.engine(game.kind)
    for move in moves:
        state = _apply(eng, state, move)
    return state


def _apply(eng, state: dict, move: Move) -> dict:
    if move.kind == Move.Kind.RESOLVE:
        return eng.resolve(state)
    return eng.apply(state, move.seat.seat_id, move.action)
