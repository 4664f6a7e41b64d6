"""O5, O6, O17, O19: submitting, changing and refusing programs; default programs."""

import copy
import json

import pytest

from games.engines.outofgears import engine as E


def prog(*entries):
    return {
        "type": "program",
        "programs": [{"robot": r, "action": a, "number": n} for r, a, n in entries],
    }


@pytest.fixture
def basic():
    return E.new_game(["a", "b", "c"], seed=1, options={"robots": {"a": [2], "b": [5], "c": [7]}})


@pytest.fixture
def advanced():
    return E.new_game(
        ["a", "b"], seed=1, options={"advanced": True, "robots": {"a": [1, 4], "b": [6, 8]}}
    )


def test_o5_program_may_change_until_the_last_is_in(basic):
    state = E.apply(basic, "a", prog((2, "harvest", 5)))
    state = E.apply(state, "a", prog((2, "trap", 7)))
    assert state["programs"]["a"] == [{"robot": 2, "action": "trap", "number": 7}]
    state = E.apply(state, "b", prog((5, "attack", 5)))
    assert not E.all_programmed(state)
    assert len(E.legal_actions(state, "a")) == 9  # still may change
    state = E.apply(state, "c", prog((7, "attack", 2)))
    assert E.all_programmed(state)
    assert all(E.legal_actions(state, s) == [] for s in "abc")
    assert E.timeout_actions(state) == {}
    with pytest.raises(E.IllegalMove) as info:
        E.apply(state, "a", prog((2, "harvest", 5)))
    assert info.value.message == "Every program is in; the turn is being resolved."
    state = E.resolve(state)
    assert state["programs"] == {} and state["turn"] == 2
    assert state["story"][0]["revealed"] == [
        {"robot": 2, "seat": "a", "action": "trap", "number": 7},
        {"robot": 5, "seat": "b", "action": "attack", "number": 5},
        {"robot": 7, "seat": "c", "action": "attack", "number": 2},
    ]


def test_o5_resolve_before_every_program_is_in_is_refused(basic):
    state = E.apply(basic, "a", prog((2, "harvest", 5)))
    with pytest.raises(E.IllegalMove, match="Not every program"):
        E.resolve(state)


def test_every_legal_action_is_accepted(basic, advanced):
    for state in (basic, advanced):
        for seat in state["seats"]:
            for action in E.legal_actions(state, seat):
                E.apply(state, seat, action)


def test_legal_actions_for_a_stranger_is_empty(basic):
    assert E.legal_actions(basic, "zz") == []


@pytest.mark.parametrize(
    "seat, action, words",
    [
        ("zz", prog((2, "harvest", 5)), "not playing"),
        ("a", "harvest", "must be an object"),
        ("a", {"type": "move", "programs": []}, "only move"),
        ("a", {"programs": [{"robot": 2, "action": "harvest", "number": 5}]}, "only move"),
        ("a", {**prog((2, "harvest", 5)), "extra": 1}, "no field 'extra'"),
        ("a", {"type": "program", "programs": "2"}, "needs a list"),
        ("a", {"type": "program", "robot": 2, "action": "harvest", "number": 5}, "no field"),
        ("a", {"type": "program", "programs": []}, "needs a program"),
        ("a", {"type": "program", "programs": [5]}, "must be an object"),
        ("a", prog((5, "harvest", 5)), "not your robot"),
        ("a", prog((3, "harvest", 5)), "not in this game"),
        ("a", prog((9, "harvest", 5)), "not in this game"),
        ("a", prog(("2", "harvest", 5)), "robot is given by its number"),
        ("a", prog((True, "harvest", 5)), "robot is given by its number"),
        ("a", prog((2, "defend", 2)), "not an action"),
        ("a", prog((2, "Harvest", 5)), "not an action"),
        ("a", prog((2, "harvest", 1)), "not a number in play"),
        ("a", prog((2, "harvest", "5")), "not a number in play"),
        ("a", prog((2, "harvest", 5.0)), "not a number in play"),
        ("a", prog((2, "harvest", None)), "not a number in play"),
        ("a", prog((2, "harvest", 5), (2, "trap", 5)), "programmed twice"),
        ("a", {"type": "program", "programs": [{"robot": 2, "action": "harvest"}]}, "'number'"),
        (
            "a",
            {
                "type": "program",
                "programs": [{"robot": 2, "action": "harvest", "number": 5, "x": 1}],
            },
            "no field 'x'",
        ),  # fmt: skip
    ],
)
def test_bad_programs_are_refused_and_leave_the_state_alone(basic, seat, action, words):
    before = copy.deepcopy(basic)
    with pytest.raises(E.IllegalMove) as info:
        E.apply(basic, seat, action)
    assert words in info.value.message
    assert basic == before


@pytest.mark.parametrize(
    "action, words",
    [
        (prog((1, "harvest", 1)), "needs a program too"),
        (prog((1, "harvest", 1), (4, "harvest", 4)), "different actions"),
        (prog((1, "attack", 1), (4, "attack", 6)), "different actions"),
        (prog((1, "harvest", 1), (6, "trap", 4)), "not your robot"),
        (prog((1, "harvest", 1), (4, "trap", 2)), "not a number in play"),
    ],
)
def test_o17_bad_advanced_programs_are_refused(advanced, action, words):
    before = json.dumps(advanced)
    with pytest.raises(E.IllegalMove, match=words):
        E.apply(advanced, "a", action)
    assert json.dumps(advanced) == before


def test_o17_both_robots_may_use_the_same_number(advanced):
    state = E.apply(advanced, "a", prog((4, "trap", 8), (1, "harvest", 8)))
    assert state["programs"]["a"] == [
        {"robot": 1, "action": "harvest", "number": 8},
        {"robot": 4, "action": "trap", "number": 8},
    ]


def test_o19_basic_default_is_defend(basic):
    state = E.apply(basic, "b", prog((5, "harvest", 2)))
    assert E.timeout_actions(state) == {"a": prog((2, "attack", 2)), "c": prog((7, "attack", 7))}
    for seat, action in E.timeout_actions(state).items():
        state = E.apply(state, seat, action)
    assert E.all_programmed(state)
    state = E.resolve(state)
    assert [(p["robot"], p["action"], p["number"]) for p in state["story"][0]["revealed"]] == [
        (2, "attack", 2), (5, "harvest", 2), (7, "attack", 7),
    ]  # fmt: skip


def test_o19_advanced_default_is_defend_then_harvest_own_number(advanced):
    actions = E.timeout_actions(advanced)
    assert actions == {
        "a": prog((1, "attack", 1), (4, "harvest", 4)),
        "b": prog((6, "attack", 6), (8, "harvest", 8)),
    }
    state = advanced
    for seat, action in actions.items():
        state = E.apply(state, seat, action)
    assert E.all_programmed(state)


def test_o19_default_order_respects_cards_already_taken():
    from games.engines.outofgears.programs import default_program

    assert default_program([3]) == prog((3, "attack", 3))
    assert default_program([3, 7]) == prog((3, "attack", 3), (7, "harvest", 7))


def test_apply_never_mutates_and_shares_nothing_it_changes(basic):
    before = json.dumps(basic, sort_keys=True)
    state = E.apply(basic, "a", prog((2, "harvest", 5)))
    assert json.dumps(basic, sort_keys=True) == before and basic["programs"] == {}
    assert json.loads(json.dumps(state)) == state
