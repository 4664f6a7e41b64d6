"""O18: what a seat and a spectator see; nothing hidden leaks."""

import json

import pytest
from oog_helpers import all_keys

from games.engines.outofgears import engine as E
from games.pages.outofgears_text import describe

SECRET_KEYS = {"seed", "rng", "reserve", "programs"}


def _program_holders(value, path=""):
    """Paths of every dict in ``value`` that looks like one robot's program."""
    found = []
    if isinstance(value, dict):
        if {"robot", "action", "number"} <= set(value):
            found.append(path)
        for k, v in value.items():
            found += _program_holders(v, f"{path}/{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            found += _program_holders(v, f"{path}/{i}")
    return found


@pytest.fixture
def mid_turn():
    seats = ["a", "b", "c", "d"]
    state = E.new_game(
        seats,
        seed=77,
        options={
            "advanced": True,
            "robots": {"a": [1, 2], "b": [3, 4], "c": [5, 6], "d": [7, 8]},
            "names": {"a": "Alice", "b": "Bob"},
        },
    )
    # Distinctive programs: each seat's own numbers, so a leak is recognisable.
    programs = {
        "a": [(1, "trap", 8), (2, "attack", 7)],
        "b": [(3, "harvest", 6), (4, "trap", 5)],
        "c": [(5, "attack", 4), (6, "harvest", 3)],
    }
    for seat, entries in programs.items():
        state = E.apply(
            state,
            seat,
            {
                "type": "program",
                "programs": [{"robot": r, "action": a, "number": n} for r, a, n in entries],
            },
        )
    return state, programs


def test_o18_view_shows_only_the_viewers_own_program(mid_turn):
    state, programs = mid_turn
    for seat in ["a", "b", "c", "d", None]:
        v = E.view(state, seat)
        assert json.loads(json.dumps(v)) == v
        holders = _program_holders(v)
        if seat in programs:
            assert holders == ["/my_program/0", "/my_program/1"]
            assert [(e["robot"], e["action"], e["number"]) for e in v["my_program"]] == programs[
                seat
            ]
        else:
            assert holders == []
        if seat is None:
            assert "my_program" not in v and v["my_robots"] == []
        elif seat == "d":
            assert v["my_program"] is None and v["my_robots"] == [7, 8]
        text = json.dumps(v)
        for other, entries in programs.items():
            if other == seat:
                continue
            for r, a, n in entries:
                needle = json.dumps({"robot": r, "action": a, "number": n})
                assert needle not in text
        assert v["submitted"] == {"a": True, "b": True, "c": True, "d": False}


def test_o18_view_never_shows_seed_generator_or_reserve(mid_turn):
    state, _ = mid_turn
    for seat in ["a", "d", None]:
        v = E.view(state, seat)
        assert not (all_keys(v) & SECRET_KEYS)
        assert state["rng"] not in json.dumps(v)
        assert v["reserve_size"] == len(state["reserve"]) == 9 * 8


def test_o18_view_contents(mid_turn):
    state, _ = mid_turn
    v = E.view(state, "a")
    assert v["turn"] == 1 and v["advanced"] is True and not v["over"] and v["result"] is None
    assert v["seats"] == ["a", "b", "c", "d"] and v["my_robots"] == [1, 2]
    assert list(v["junkyards"]) == [str(n) for n in range(1, 9)]
    assert v["robots"]["1"] == {
        "colour": "red", "name": "Red", "seat": "a", "player": "Alice",
        "gears": [], "circuit": [], "points": 0, "own": 0,
    }  # fmt: skip
    assert v["scores"] == {"a": 0, "b": 0, "c": 0, "d": 0}
    assert v["last_story"] is None and v["story"] == [] and not v["all_programmed"]


def test_o18_programs_are_revealed_once_resolved(mid_turn):
    state, _ = mid_turn
    state = E.apply(state, "d", E.timeout_actions(state)["d"])
    v = E.view(state, "a")
    assert v["all_programmed"] and _program_holders(v) == ["/my_program/0", "/my_program/1"]
    state = E.resolve(state)
    v = E.view(state, None)
    assert v["turn"] == 2 and v["submitted"] == dict.fromkeys("abcd", False)
    story = v["last_story"]
    assert story["turn"] == 1 and len(story["revealed"]) == 8
    assert {"robot": 4, "seat": "b", "action": "trap", "number": 5} in story["revealed"]
    names = {r: robot["player"] for r, robot in v["robots"].items() if robot["player"]}
    for event in story["events"]:
        assert describe(event, names)


def test_o18_view_scores_if_it_ended_now():
    state = E.new_game(["a", "b"], seed=3, options={"robots": {"a": [1], "b": [2]}})
    state = dict(state, robots={
        "1": {"seat": "a", "gears": ["red", "blue"], "circuit": ["red"]},
        "2": {"seat": "b", "gears": [], "circuit": ["red"]},
    })  # fmt: skip
    v = E.view(state, "b")
    assert v["robots"]["1"]["points"] == 5 and v["robots"]["1"]["own"] == 2
    assert v["scores"] == {"a": 5, "b": 1}


def test_o18_finished_view_has_the_result():
    state = E.new_game(["a", "b"], seed=3, options={"max_turns": 1})
    for seat, action in E.timeout_actions(state).items():
        state = E.apply(state, seat, action)
    state = E.resolve(state)
    v = E.view(state, "a")
    assert v["over"] and v["result"] == E.result(state) and v["my_program"] is None
