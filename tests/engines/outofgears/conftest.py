"""Helpers for Out of Gears engine tests: explicit scenario states and a checked turn runner."""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

import pytest

from games.engines.outofgears import engine as E

# oog_helpers is importable whatever pytest's import mode is.
if str(Path(__file__).parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).parent))


def _json(value):
    return json.dumps(value, sort_keys=True)


def build(
    robots: dict[str, list[int]],
    *,
    advanced: bool = False,
    junkyards: dict[int, list[str]] | None = None,
    gears: dict[int, list[str]] | None = None,
    circuits: dict[int, list[str]] | None = None,
    reserve: list[str] | None = None,
    turn: int = 1,
    max_turns: int = 50,
    seed: int = 1,
) -> dict:
    """A state with exactly these robots (seat -> robot numbers), junkyards, gears and reserve.

    Junkyards, robots and circuits not given are empty; the reserve defaults to plenty of gears
    (so that the turn does not end the game); reserve[0] is drawn first.
    """
    state = copy.deepcopy(
        E.new_game(
            list(robots),
            seed=seed,
            options={"advanced": advanced, "robots": robots, "max_turns": max_turns},
        )
    )
    in_play = state["in_play"]
    junkyards = junkyards or {}
    gears = gears or {}
    circuits = circuits or {}
    state["junkyards"] = {str(n): list(junkyards.get(n, [])) for n in in_play}
    for r in in_play:
        state["robots"][str(r)]["gears"] = list(gears.get(r, []))
        state["robots"][str(r)]["circuit"] = list(circuits.get(r, []))
    if reserve is None:
        reserve = [E.COLOURS[in_play[i % len(in_play)]] for i in range(5 * len(in_play))]
    state["reserve"] = list(reserve)
    state["turn"] = turn
    assert json.loads(json.dumps(state)) == state
    return state


def program_all(state: dict, plan: dict[int, tuple[str, int]]) -> dict:
    """Submit every seat's program from ``plan`` (robot -> (action, number)); checks purity."""
    for seat in state["seats"]:
        entries = [
            {"robot": r, "action": plan[r][0], "number": plan[r][1]}
            for r in state["seat_robots"][seat]
        ]
        before = _json(state)
        new = E.apply(state, seat, {"type": "program", "programs": entries})
        assert _json(state) == before, "apply mutated its input"
        assert json.loads(json.dumps(new)) == new
        state = new
    return state


def play(state: dict, plan: dict[int, tuple[str, int]]) -> dict:
    """Program every robot by ``plan`` and resolve the turn; checks purity and JSON round-trip."""
    state = program_all(state, plan)
    assert E.all_programmed(state)
    before = _json(state)
    new = E.resolve(state)
    assert _json(state) == before, "resolve mutated its input"
    assert json.loads(json.dumps(new)) == new
    return new


def events(state: dict, kind: str) -> list[dict]:
    """The last resolved turn's events of one kind."""
    return [e for e in state["story"][-1]["events"] if e["type"] == kind]


def held(state: dict, robot: int) -> list[str]:
    return sorted(state["robots"][str(robot)]["gears"])


def circuit(state: dict, robot: int) -> list[str]:
    return sorted(state["robots"][str(robot)]["circuit"])


def yard(state: dict, n: int) -> list[str]:
    """A junkyard's gears before this turn's Explore added one (the last explore is undone)."""
    gears = list(state["junkyards"][str(n)])
    laid = events(state, "explore")[0]["laid"] if state["story"] else {}
    if str(n) in laid:
        gears.remove(laid[str(n)])
    return sorted(gears)


class Helpers:
    build = staticmethod(build)
    play = staticmethod(play)
    program_all = staticmethod(program_all)
    events = staticmethod(events)
    held = staticmethod(held)
    circuit = staticmethod(circuit)
    yard = staticmethod(yard)


@pytest.fixture
def oog() -> type[Helpers]:
    return Helpers
