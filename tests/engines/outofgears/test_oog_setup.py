"""O1–O4: components, players, setup; option checking; determinism."""

import json
from collections import Counter

import pytest

from games.engines.outofgears import engine as E
from games.engines.outofgears.common import COLOURS

SEATS = [str(i) for i in range(1, 9)]


def test_o1_robot_colours():
    assert COLOURS == {
        1: "red", 2: "blue", 3: "green", 4: "yellow",
        5: "purple", 6: "orange", 7: "black", 8: "white",
    }  # fmt: skip
    state = E.new_game(["a", "b"], seed=3, options={"robots": {"a": [1], "b": [8]}})
    robots = E.view(state, None)["robots"]
    assert robots["1"]["colour"] == "red" and robots["1"]["name"] == "Red"
    assert robots["8"]["colour"] == "white"


@pytest.mark.parametrize("n", range(2, 9))
def test_o2_basic_game_has_one_robot_per_player(n):
    state = E.new_game(SEATS[:n], seed=n)
    robots = [r for seat in state["seats"] for r in state["seat_robots"][seat]]
    assert all(len(state["seat_robots"][s]) == 1 for s in state["seats"])
    assert len(set(robots)) == n and set(robots) <= set(range(1, 9))
    assert state["in_play"] == sorted(robots)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_o2_advanced_game_has_two_robots_per_player(n):
    state = E.new_game(SEATS[:n], seed=n, options={"advanced": True})
    robots = [r for seat in state["seats"] for r in state["seat_robots"][seat]]
    assert all(len(state["seat_robots"][s]) == 2 for s in state["seats"])
    assert len(set(robots)) == 2 * n


@pytest.mark.parametrize(
    "seats, options",
    [
        (["1"], {}),
        (SEATS + ["9"], {}),
        (SEATS[:5], {"advanced": True}),
        (["1"], {"advanced": True}),
        (["1", "1"], {}),
        (["1", ""], {}),
        ("12", {}),
        (["1", "2"], {"robots": {"1": [3], "2": [3]}}),
        (["1", "2"], {"robots": {"1": [0], "2": [3]}}),
        (["1", "2"], {"robots": {"1": [9], "2": [3]}}),
        (["1", "2"], {"robots": {"1": [1, 2], "2": [3]}}),
        (["1", "2"], {"robots": {"1": [1], "2": [3], "3": [4]}}),
        (["1", "2"], {"robots": {"1": [1]}}),
        (["1", "2"], {"robots": {"1": ["1"], "2": [3]}}),
        (["1", "2"], {"robots": {"1": [True], "2": [3]}}),
        (["1", "2"], {"advanced": True, "robots": {"1": [1], "2": [3]}}),
        (["1", "2"], {"advanced": True, "robots": {"1": [1, 2], "2": [2, 3]}}),
        (["1", "2"], {"advanced": "yes"}),
        (["1", "2"], {"max_turns": 0}),
        (["1", "2"], {"max_turns": "50"}),
        (["1", "2"], {"names": {"1": 5}}),
        (["1", "2"], []),
    ],
)
def test_o2_bad_options_are_refused(seats, options):
    with pytest.raises(ValueError) as info:
        E.new_game(seats, seed=1, options=options)
    assert isinstance(info.value, E.IllegalMove) and info.value.message.endswith(".")


def test_o2_chosen_robots_are_used():
    state = E.new_game(["a", "b"], seed=1, options={"robots": {"a": [7], "b": [2]}})
    assert state["seat_robots"] == {"a": [7], "b": [2]} and state["in_play"] == [2, 7]
    state = E.new_game(
        ["a", "b"], seed=1, options={"advanced": True, "robots": {"a": [7, 1], "b": [2, 5]}}
    )
    assert state["seat_robots"] == {"a": [1, 7], "b": [2, 5]} and state["in_play"] == [1, 2, 5, 7]


@pytest.mark.parametrize("n", [2, 5, 8])
def test_o3_setup_lays_two_gears_per_junkyard_and_the_rest_in_reserve(n):
    state = E.new_game(SEATS[:n], seed=100 + n)
    in_play = state["in_play"]
    assert list(state["junkyards"]) == [str(r) for r in in_play]
    assert all(len(g) == 2 for g in state["junkyards"].values())
    assert len(state["reserve"]) == 9 * n
    everything = Counter(state["reserve"])
    for gears in state["junkyards"].values():
        everything.update(gears)
    assert everything == Counter({COLOURS[r]: 11 for r in in_play})
    assert all(not r["gears"] and not r["circuit"] for r in state["robots"].values())
    assert state["turn"] == 1 and not state["over"] and state["programs"] == {}


def test_o3_reserve_is_shuffled_by_the_seed():
    a = E.new_game(SEATS[:4], seed=1, options={"robots": {s: [int(s)] for s in SEATS[:4]}})
    b = E.new_game(SEATS[:4], seed=2, options={"robots": {s: [int(s)] for s in SEATS[:4]}})
    assert a["reserve"] != b["reserve"]
    assert Counter(a["reserve"] + sum(a["junkyards"].values(), [])) == Counter(
        b["reserve"] + sum(b["junkyards"].values(), [])
    )


def test_o4_hand_is_complete_every_turn():
    state = E.new_game(["a", "b", "c"], seed=1, options={"robots": {"a": [2], "b": [5], "c": [7]}})
    legal = E.legal_actions(state, "a")
    assert len(legal) == 3 * 3
    numbers = {p["programs"][0]["number"] for p in legal}
    assert numbers == {2, 5, 7}  # O6: numbers of robots in play, not 1..n
    assert {p["programs"][0]["action"] for p in legal} == {"harvest", "attack", "trap"}
    for seat in "abc":
        state = E.apply(state, seat, E.legal_actions(state, seat)[0])
    state = E.resolve(state)
    assert len(E.legal_actions(state, "a")) == 9  # cards returned to the hand


def test_o4_basic_eight_players_have_24_programs():
    state = E.new_game(SEATS, seed=4)
    assert all(len(E.legal_actions(state, s)) == 24 for s in SEATS)


def test_o4_advanced_programs_use_two_different_action_cards():
    state = E.new_game(["a", "b", "c", "d"], seed=4, options={"advanced": True})
    legal = E.legal_actions(state, "a")
    assert len(legal) == 6 * 8 * 8
    assert len({json.dumps(p, sort_keys=True) for p in legal}) == len(legal)
    assert all(p["programs"][0]["action"] != p["programs"][1]["action"] for p in legal)
    assert all([e["robot"] for e in p["programs"]] == state["seat_robots"]["a"] for p in legal)


def test_new_game_is_deterministic_and_json_safe():
    a = E.new_game(SEATS[:5], seed=42, options={"names": {"1": "Alice"}})
    b = E.new_game(SEATS[:5], seed=42, options={"names": {"1": "Alice"}})
    assert a == b
    assert json.loads(json.dumps(a)) == a
    assert E.new_game(SEATS[:5], seed=43) != a


def test_unknown_option_keys_are_ignored():
    state = E.new_game(["a", "b"], seed=1, options={"deadline_hours": 24})
    assert len(state["in_play"]) == 2
