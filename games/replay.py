"""Replaying a game from its seed, its engine options and its move log (the append-only Move
rows): the replay page, the admin and the tests use it to show or check any step of a game."""

from __future__ import annotations

from games import engines
from games.models import Game, Move


def moves_of(game: Game) -> list[Move]:
    return list(Move.objects.filter(game=game).select_related("seat").order_by("seq"))


def replay(game: Game, moves: list[Move], upto: int | None = None) -> dict:
    """The engine state after the first `upto` moves (all of them when None)."""
    eng = engines.engine(game.kind)
    seats = sorted((s for s in game.seats.all() if s.position), key=lambda s: s.position)
    state = eng.new_game([s.seat_id for s in seats], seed=game.seed, options=game.options)
    for move in moves[:upto]:
        if move.kind == Move.Kind.RESOLVE:
            state = eng.resolve(state)
        else:
            state = eng.apply(state, move.seat.seat_id, move.action)
    return state
