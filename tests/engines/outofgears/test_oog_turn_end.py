"""O13–O17: assemble, explore, the end, scoring, and the advanced game's scoring."""

import pytest

from games.engines.outofgears import engine as E

THREE = {"a": [1], "b": [2], "c": [3]}
DEFEND = {1: ("attack", 1), 2: ("attack", 2), 3: ("attack", 3)}


@pytest.mark.parametrize(
    "gears, to_circuit, left",
    [
        (["blue", "green"], None, 2),
        (["blue", "red", "green"], "red", 1),
        (["blue", "red", "red", "green", "green"], ["red", "red"], 3),
    ],
)
def test_o13_assemble_moves_two_when_holding_three_or_more(oog, gears, to_circuit, left):
    state = oog.play(oog.build(THREE, gears={1: gears}), DEFEND)
    assert len(oog.held(state, 1)) == left
    assert sorted(oog.held(state, 1) + oog.circuit(state, 1)) == sorted(gears)
    assemble = oog.events(state, "assemble")
    if to_circuit is None:
        assert assemble == [] and oog.circuit(state, 1) == []
    else:
        [event] = assemble
        assert event["robot"] == 1 and len(event["gears"]) == 2
        assert sorted(event["gears"]) == oog.circuit(state, 1)
        if isinstance(to_circuit, list):
            assert event["gears"] == to_circuit
        else:
            assert event["gears"][0] == to_circuit


def test_o14_explore_lays_one_gear_per_junkyard_in_order(oog):
    state = oog.build(THREE, junkyards={1: ["red"], 2: ["red"], 3: ["red"]},
                      reserve=["blue", "green", "red", "blue"])  # fmt: skip
    state = oog.play(state, DEFEND)
    [event] = oog.events(state, "explore")
    assert event == {
        "type": "explore", "laid": {"1": "blue", "2": "green", "3": "red"},
        "missed": [], "reserve_left": 1,
    }  # fmt: skip
    assert state["junkyards"] == {"1": ["red", "blue"], "2": ["red", "green"], "3": ["red", "red"]}
    assert state["reserve"] == ["blue"] and not state["over"] and state["turn"] == 2


def test_o14_o15_reserve_running_out_mid_way_then_the_end(oog):
    state = oog.build(THREE, junkyards={1: ["red"], 2: ["red"]}, reserve=["blue", "green"])
    state = oog.play(state, DEFEND)
    [event] = oog.events(state, "explore")
    assert event["laid"] == {"1": "blue", "2": "green"} and event["missed"] == [3]
    assert state["junkyards"]["3"] == [] and state["reserve"] == []
    assert state["over"] and oog.events(state, "end")[0]["reason"] == "reserve_empty"


def test_o15_reserve_empty_but_no_junkyard_empty_goes_on(oog):
    state = oog.build(THREE, junkyards={1: ["red"], 2: ["red"], 3: ["red"]}, reserve=[])
    state = oog.play(state, DEFEND)
    assert not state["over"] and state["turn"] == 2


def test_o15_junkyard_empty_but_reserve_not_goes_on(oog):
    state = oog.build(THREE, junkyards={1: ["red"]}, reserve=["blue", "blue", "blue", "blue"])
    state = oog.play(state, {1: ("harvest", 1), 2: ("attack", 2), 3: ("attack", 3)})
    assert not state["over"]


def test_o15_earliest_end_is_turn_ten():
    state = E.new_game(["a", "b", "c"], seed=9)
    for turn in range(1, 10):
        for seat in state["seats"]:
            r = state["seat_robots"][seat][0]
            state = E.apply(state, seat, {"type": "program", "programs": [
                {"robot": r, "action": "attack", "number": r}]})  # fmt: skip
        state = E.resolve(state)
        assert not state["over"] and state["turn"] == turn + 1
    assert state["reserve"] == [] and all(state["junkyards"].values())
    for seat in state["seats"]:
        r = state["seat_robots"][seat][0]
        state = E.apply(state, seat, {"type": "program", "programs": [
            {"robot": r, "action": "harvest", "number": r}]})  # fmt: skip
    state = E.resolve(state)
    assert state["over"] and state["turn"] == 10 and E.is_over(state)
    assert E.legal_actions(state, "a") == [] and E.timeout_actions(state) == {}


def test_o15_fifty_turn_cap_by_default():
    state = E.new_game(["a", "b"], seed=2)
    while not E.is_over(state):
        for seat, action in E.timeout_actions(state).items():  # everyone defends: nobody ends it
            state = E.apply(state, seat, action)
        state = E.resolve(state)
    assert state["turn"] == 50 and len(state["story"]) == 50
    assert state["story"][-1]["events"][-1]["reason"] == "max_turns"


def test_o15_max_turns_option(oog):
    state = oog.build(THREE, max_turns=2)
    state = oog.play(state, DEFEND)
    assert not state["over"]
    state = oog.play(state, DEFEND)
    assert state["over"] and oog.events(state, "end")[0]["reason"] == "max_turns"
    with pytest.raises(E.IllegalMove, match="over"):
        E.resolve(state)
    with pytest.raises(E.IllegalMove, match="over"):
        E.apply(state, "a", {"type": "program", "programs": [
            {"robot": 1, "action": "attack", "number": 1}]})  # fmt: skip


def test_o16_gears_go_to_the_circuit_and_own_colour_scores_two(oog):
    state = oog.build(
        THREE,
        max_turns=1,
        gears={1: ["red", "blue"]},
        circuits={1: ["red", "green"], 2: ["blue", "red", "red"], 3: ["red"]},
    )
    state = oog.play(state, DEFEND)
    assert state["robots"]["1"]["gears"] == [] and len(state["robots"]["1"]["circuit"]) == 4
    res = E.result(state)
    assert res["robot_scores"] == {"1": 6, "2": 4, "3": 1}
    assert res["scores"] == {"a": 6, "b": 4, "c": 1}
    assert res["winners"] == ["a"] and res["ranking"] == ["a", "b", "c"]
    assert res["places"] == {"a": 1, "b": 2, "c": 3}
    [end] = oog.events(state, "end")
    assert end["scores"] == res["scores"] and end["winners"] == ["a"]


def test_o16_tie_goes_to_most_own_colour_gears(oog):
    circuits = {1: ["red", "red", "blue", "blue"], 2: ["blue", "red", "red", "red", "red"]}
    state = oog.play(oog.build(THREE, max_turns=1, circuits=circuits), DEFEND)
    res = E.result(state)
    assert res["scores"]["a"] == res["scores"]["b"] == 6
    assert res["winners"] == ["a"] and res["ranking"][:2] == ["a", "b"]


def test_o16_tie_after_the_tie_break_is_shared(oog):
    circuits = {1: ["red", "blue"], 2: ["blue", "red"], 3: ["green"]}
    state = oog.play(oog.build(THREE, max_turns=1, circuits=circuits), DEFEND)
    res = E.result(state)
    assert res["winners"] == ["a", "b"] and res["places"] == {"a": 1, "b": 1, "c": 3}


def test_result_before_the_end_is_refused():
    with pytest.raises(E.IllegalMove):
        E.result(E.new_game(["a", "b"], seed=1))


ADV = {"a": [1, 2], "b": [3, 4]}
ADV_DEFEND = {1: ("attack", 1), 2: ("harvest", 2), 3: ("attack", 3), 4: ("harvest", 4)}


def test_o17_players_score_is_their_weaker_robot(oog):
    circuits = {
        1: ["red"] * 5,  # 10
        2: ["blue"],  # 2
        3: ["green", "green", "red"],  # 5
        4: ["yellow", "yellow", "yellow"],  # 6
    }
    state = oog.play(oog.build(ADV, advanced=True, max_turns=1, circuits=circuits), ADV_DEFEND)
    res = E.result(state)
    assert res["robot_scores"] == {"1": 10, "2": 2, "3": 5, "4": 6}
    assert res["scores"] == {"a": 2, "b": 5} and res["winners"] == ["b"]


def test_o17_advanced_tie_break_uses_the_weaker_robots_own_colour(oog):
    circuits = {
        1: ["red", "red", "blue"],  # 5, own 2
        2: ["blue", "red", "red", "red"],  # 5, own 1 -> the weaker of a's robots
        3: ["green", "green", "red"],  # 5, own 2
        4: ["yellow"] * 4,  # 8
    }
    state = oog.play(oog.build(ADV, advanced=True, max_turns=1, circuits=circuits), ADV_DEFEND)
    res = E.result(state)
    assert res["scores"] == {"a": 5, "b": 5}
    assert res["tiebreak"] == {"a": 1, "b": 2} and res["winners"] == ["b"]


def test_o17_same_number_different_actions_and_attacking_the_team_mate(oog):
    state = oog.build(ADV, advanced=True, gears={2: ["blue"]}, junkyards={3: ["green", "red"]})
    state = oog.play(
        state, {1: ("attack", 2), 2: ("harvest", 3), 3: ("trap", 3), 4: ("harvest", 3)}
    )
    [attack] = oog.events(state, "attack")
    assert attack["target"] == 2 and attack["took"] == {"1": ["blue"]}
    [trap] = oog.events(state, "trap")
    assert trap["blocked"] == [2, 4] and trap["took"] == {"3": ["green", "red"]}


def test_o17_defend_takes_from_each_attacking_robot(oog):
    state = oog.build(ADV, advanced=True, gears={3: ["red", "green"], 4: ["yellow", "red"]})
    state = oog.play(state, {1: ("attack", 1), 2: ("harvest", 2), 3: ("attack", 1), 4: ("trap", 1)})
    assert [(e["attacker"], e["gear"]) for e in oog.events(state, "defend")] == [(3, "red")]
    state = oog.build(ADV, advanced=True, gears={3: ["red", "green"], 4: ["yellow", "red"]})
    state = oog.play(state, {1: ("attack", 1), 2: ("harvest", 2), 3: ("trap", 1), 4: ("attack", 1)})
    assert [(e["attacker"], e["gear"]) for e in oog.events(state, "defend")] == [(4, "red")]
