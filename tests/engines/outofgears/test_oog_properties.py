"""Seeded random games (hypothesis): the invariants of O3, O5, O15 and O18 after every step.

40 random games in `make test` (each checks every seat's view after every step: ~0.3 s a
game); OOG_EXAMPLES=100000 (`make deep-test`) gives the deep run.
"""

import json
import os
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st
from oog_helpers import all_keys

from games.engines.outofgears import engine as E
from games.engines.outofgears.common import COLOURS

EXAMPLES = int(os.environ.get("OOG_EXAMPLES", "40"))


def _illegal(state, seat, rng):
    """An action that seat may not submit now (or None when nothing sensible can be built)."""
    mine = state["seat_robots"][seat]
    legal = E.legal_actions(state, seat)
    base = json.loads(json.dumps(rng.choice(legal)))
    entries = base["programs"]
    others = [r for r in state["in_play"] if r not in mine]
    outside = [r for r in range(1, 9) if r not in state["in_play"]]
    kind = rng.randrange(9)
    if kind == 0:
        entries[0]["robot"] = rng.choice(others)
    elif kind == 1 and outside:
        entries[0]["number"] = rng.choice(outside)
    elif kind == 2:
        entries[0]["number"] = rng.choice([0, 9, -1, "3", None, 2.0])
    elif kind == 3:
        entries[0]["action"] = rng.choice(["defend", "HARVEST", "", None, 1])
    elif kind == 4 and len(entries) == 2:
        entries[1]["action"] = entries[0]["action"]
    elif kind == 5:
        entries.pop()
    elif kind == 6:
        entries[0]["extra"] = True
    elif kind == 7:
        base = {"type": "program", "programs": entries, "note": "x"}
    else:
        base = rng.choice([None, [], "program", {"type": "program"}, {"type": "pass"}])
    return base


def _check(state):
    assert json.loads(json.dumps(state)) == state
    # O3: every gear of every colour in play is in exactly one place, 11 per colour.
    places = Counter(state["reserve"])
    for gears in state["junkyards"].values():
        places.update(gears)
    for robot in state["robots"].values():
        places.update(robot["gears"])
        places.update(robot["circuit"])
    assert places == Counter({COLOURS[r]: 11 for r in state["in_play"]})
    # O18: a view holds no program but the viewer's own, and no secret.
    for seat in state["seats"] + [None]:
        v = E.view(state, seat)
        text = json.dumps(v)
        assert json.loads(text) == v
        assert not all_keys(v) & {"rng", "reserve", "seed", "programs"}
        assert state["rng"] not in text
        mine = state["programs"].get(seat)
        if seat is not None:
            assert v["my_program"] == mine
        for other, entries in state["programs"].items():
            if other != seat:
                for e in entries:
                    assert json.dumps(e) not in text


@settings(max_examples=EXAMPLES, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**64),
    players=st.integers(min_value=2, max_value=8),
    advanced=st.booleans(),
)
def test_random_games_keep_every_invariant(seed, players, advanced):
    if advanced:
        players = 2 + players % 3
    seats = [f"s{i}" for i in range(players)]
    state = E.new_game(seats, seed=seed, options={"advanced": advanced})
    rng = random.Random(seed)
    _check(state)
    steps = 0
    while not E.is_over(state):
        steps += 1
        assert steps < 2000
        if E.all_programmed(state):
            before = json.dumps(state, sort_keys=True)
            turn = state["turn"]
            state = E.resolve(state)
            assert state["over"] or state["turn"] == turn + 1
            assert state["story"][-1]["turn"] == turn
            assert json.loads(before) is not None
            _check(state)
            continue
        seat = rng.choice(seats)
        roll = rng.random()
        if roll < 0.25:
            action = _illegal(state, seat, rng)
            before = json.dumps(state, sort_keys=True)
            try:
                E.apply(state, seat, action)
            except E.IllegalMove as error:
                assert error.message
            else:
                raise AssertionError(f"accepted an illegal program {action!r}")
            assert json.dumps(state, sort_keys=True) == before
            continue
        if roll < 0.3:
            for s, action in E.timeout_actions(state).items():
                state = E.apply(state, s, action)
        else:
            before = json.dumps(state, sort_keys=True)
            state2 = E.apply(state, seat, rng.choice(E.legal_actions(state, seat)))
            assert json.dumps(state, sort_keys=True) == before
            state = state2
        _check(state)
    assert state["turn"] <= 50
    assert E.legal_actions(state, seats[0]) == []
    result = E.result(state)
    assert set(result["scores"]) == set(seats) and result["winners"]
    assert sorted(result["ranking"]) == sorted(seats)


@settings(max_examples=max(10, EXAMPLES // 6), deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32), players=st.integers(2, 4))
def test_replay_from_seed_and_moves_is_exact(seed, players):
    seats = [str(i) for i in range(players)]

    def run():
        state = E.new_game(seats, seed=seed, options={"advanced": seed % 2 == 0})
        rng = random.Random(seed)
        while not E.is_over(state):
            for seat in seats:
                state = E.apply(state, seat, rng.choice(E.legal_actions(state, seat)))
            state = E.resolve(state)
        return state

    assert run() == run()
