"""Both engines satisfy the one engine interface (games/engines/interface.py), member by member and
signature by signature, and raise the one IllegalMove: the web side relies on nothing else."""

from __future__ import annotations

import inspect
import random

import pytest

from games.engines.geared import engine as geared
from games.engines.interface import Engine, IllegalMove
from games.engines.outofgears import engine as outofgears

ENGINES = {"geared": geared, "outofgears": outofgears}
MEMBERS = [
    name
    for name in dir(Engine)
    if not name.startswith("_") and name not in ("VERSION", "SIMULTANEOUS", "SCORE_KEYS")
]


@pytest.mark.parametrize("kind", ENGINES)
def test_each_engine_is_an_engine(kind):
    eng = ENGINES[kind]
    assert isinstance(eng, Engine)  # every member present
    assert isinstance(eng.VERSION, int) and isinstance(eng.SIMULTANEOUS, bool)
    assert eng.IllegalMove is IllegalMove


@pytest.mark.parametrize("kind", ENGINES)
@pytest.mark.parametrize("name", MEMBERS)
def test_each_function_takes_the_interfaces_parameters(kind, name):
    wanted = inspect.signature(getattr(Engine, name))
    given = inspect.signature(getattr(ENGINES[kind], name))
    want = [(p.name, p.kind) for p in wanted.parameters.values() if p.name != "self"]
    have = [(p.name, p.kind) for p in given.parameters.values()]
    assert have == want, f"{kind}.{name}{given} is not {name}{wanted}"


@pytest.mark.parametrize("kind", ENGINES)
def test_a_new_game_through_the_interface(kind):
    eng: Engine = ENGINES[kind]
    low, high = eng.seat_range({})
    seats = [str(n) for n in range(1, low + 1)]
    state = eng.new_game(seats, seed=7, options={})
    acting = eng.to_act(state)
    assert acting and acting <= set(seats)
    assert not eng.needs_resolution(state) and not eng.is_over(state)
    with pytest.raises(IllegalMove):
        eng.apply(state, next(iter(acting)), {"type": "nonsense"})
    turn = eng.turn(state)
    rng = random.Random(1)
    for _ in range(200):  # the missed-deadline actions alone always move the game on
        if eng.needs_resolution(state):
            state = eng.resolve(state)
        if eng.is_over(state) or eng.turn(state) > turn:
            break
        for seat, action in eng.timeout_actions(state, rng).items():
            state = eng.apply(state, seat, action)
    assert eng.is_over(state) or eng.turn(state) > turn
    assert set(eng.scores_now({k: state[k] for k in eng.SCORE_KEYS})) == set(seats)
