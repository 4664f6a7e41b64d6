"""O6–O12: defends, attacks, traps, harvests and sharing, on explicit states."""

from collections import Counter

from games.engines.outofgears.rng import Rng
from games.engines.outofgears.sharing import share

THREE = {"a": [1], "b": [2], "c": [3]}  # red, blue, green
FOUR = {"a": [1], "b": [2], "c": [3], "d": [4]}  # + yellow
IDLE = ("trap", 3)  # a program that touches no robot (junkyard 3 has no harvester)


def test_o6_attack_with_own_number_is_defend(oog):
    state = oog.build(THREE, gears={2: ["blue", "green"]})
    state = oog.play(state, {1: ("attack", 1), 2: ("attack", 1), 3: ("trap", 3)})
    [event] = oog.events(state, "defend")
    assert event["defender"] == 1 and event["attacker"] == 2
    assert not oog.events(state, "attack")


def test_o8_defend_takes_own_colour_from_the_attacking_robot(oog):
    state = oog.build(THREE, gears={2: ["blue", "red", "green"]}, circuits={2: ["red"]})
    state = oog.play(state, {1: ("attack", 1), 2: ("attack", 1), 3: IDLE})
    assert oog.events(state, "defend") == [
        {"type": "defend", "defender": 1, "attacker": 2, "gear": "red", "source": "robot"}
    ]
    assert oog.held(state, 1) == ["red"]
    assert oog.held(state, 2) == ["blue", "green"] and oog.circuit(state, 2) == ["red"]


def test_o8_defend_takes_a_random_gear_when_no_own_colour(oog):
    state = oog.build(THREE, gears={2: ["blue", "green"]})
    state = oog.play(state, {1: ("attack", 1), 2: ("attack", 1), 3: IDLE})
    [event] = oog.events(state, "defend")
    assert event["gear"] in ("blue", "green") and event["source"] == "robot"
    assert sorted(oog.held(state, 1) + oog.held(state, 2)) == ["blue", "green"]
    assert oog.held(state, 1) == [event["gear"]]


def test_o8_defend_takes_from_the_circuit_when_the_attacker_holds_nothing(oog):
    state = oog.build(THREE, circuits={2: ["blue", "red"]})
    state = oog.play(state, {1: ("attack", 1), 2: ("attack", 1), 3: IDLE})
    [event] = oog.events(state, "defend")
    assert (event["gear"], event["source"]) == ("red", "circuit")
    assert oog.held(state, 1) == ["red"] and oog.circuit(state, 2) == ["blue"]


def test_o8_defend_against_an_attacker_with_nothing_takes_nothing(oog):
    state = oog.build(THREE, gears={1: ["red"]})
    state = oog.play(state, {1: ("attack", 1), 2: ("attack", 1), 3: IDLE})
    [event] = oog.events(state, "defend")
    assert (event["gear"], event["source"]) == (None, "none")
    assert oog.held(state, 1) == ["red"]


def test_o8_defend_against_two_attackers_takes_one_gear_from_each(oog):
    state = oog.build(THREE, gears={1: ["red"], 2: ["blue", "blue"], 3: ["green", "red"]})
    state = oog.play(state, {1: ("attack", 1), 2: ("attack", 1), 3: ("attack", 1)})
    defends = oog.events(state, "defend")
    assert [(e["attacker"], e["gear"]) for e in defends] == [(2, "blue"), (3, "red")]
    # Red took two gears and so holds three: Assemble moves two (its own colours) away.
    assert sorted(oog.held(state, 1) + oog.circuit(state, 1)) == ["blue", "red", "red"]
    assert oog.circuit(state, 1) == ["red", "red"]
    assert oog.held(state, 2) == ["blue"] and oog.held(state, 3) == ["green"]


def test_o8_defender_keeps_everything_it_holds(oog):
    state = oog.build(THREE, gears={1: ["blue", "green"], 2: ["blue"], 3: ["green"]})
    state = oog.play(state, {1: ("attack", 1), 2: ("attack", 1), 3: ("attack", 1)})
    assert not oog.events(state, "attack")
    # Red holds 4 -> assembled two, but none of its gears went to anyone.
    assert len(oog.held(state, 1) + oog.circuit(state, 1)) == 4
    assert oog.held(state, 2) == [] and oog.held(state, 3) == []


def test_o9_attack_takes_all_the_target_holds_but_not_its_circuit(oog):
    state = oog.build(THREE, gears={2: ["blue", "green"]}, circuits={2: ["blue", "blue"]})
    state = oog.play(state, {1: ("attack", 2), 2: IDLE, 3: IDLE})
    [event] = oog.events(state, "attack")
    assert event == {
        "type": "attack", "target": 2, "attackers": [1],
        "took": {"1": ["blue", "green"]}, "stayed": [],
    }  # fmt: skip
    assert oog.held(state, 1) == ["blue", "green"]
    assert oog.held(state, 2) == [] and oog.circuit(state, 2) == ["blue", "blue"]


def test_o9_o12_two_attackers_share_a_target(oog):
    state = oog.build(FOUR, gears={3: ["red", "blue", "green", "green", "green"]})
    state = oog.play(state, {1: ("attack", 3), 2: ("attack", 3), 3: ("trap", 4), 4: IDLE})
    [event] = oog.events(state, "attack")
    assert event["attackers"] == [1, 2]
    took = event["took"]
    assert len(took["1"]) == 2 and len(took["2"]) == 2 and len(event["stayed"]) == 1
    assert "red" in took["1"] and "blue" in took["2"]  # own colour first
    assert Counter(took["1"] + took["2"] + event["stayed"]) == Counter(
        ["red", "blue", "green", "green", "green"]
    )
    assert oog.held(state, 3) == event["stayed"]


def test_o9_o12_two_attackers_on_a_target_with_one_gear_get_nothing(oog):
    state = oog.build(THREE, gears={3: ["green"]})
    state = oog.play(state, {1: ("attack", 3), 2: ("attack", 3), 3: ("trap", 1)})
    [event] = oog.events(state, "attack")
    assert event["took"] == {"1": [], "2": []} and event["stayed"] == ["green"]
    assert oog.held(state, 3) == ["green"]


def test_o9_a_attacks_b_while_b_attacks_c(oog):
    state = oog.build(THREE, gears={1: ["red"], 2: ["blue"], 3: ["green", "green"]})
    state = oog.play(state, {1: ("attack", 2), 2: ("attack", 3), 3: ("trap", 1)})
    assert oog.held(state, 1) == ["blue", "red"]
    assert oog.held(state, 2) == ["green", "green"]
    assert oog.held(state, 3) == []


def test_o9_mutual_attacks_swap_what_they_hold(oog):
    state = oog.build(THREE, gears={1: ["green"], 2: ["red", "red"]})
    state = oog.play(state, {1: ("attack", 2), 2: ("attack", 1), 3: ("trap", 1)})
    assert oog.held(state, 1) == ["red", "red"] and oog.held(state, 2) == ["green"]


def test_o9_attacker_of_a_defender_pays_first_then_is_robbed(oog):
    state = oog.build(THREE, gears={2: ["green", "blue"]})
    state = oog.play(state, {1: ("attack", 2), 2: ("attack", 3), 3: ("attack", 3)})
    [defend] = oog.events(state, "defend")
    assert (defend["defender"], defend["attacker"], defend["gear"]) == (3, 2, "green")
    [attack] = oog.events(state, "attack")
    assert attack["target"] == 2 and attack["took"] == {"1": ["blue"]}
    assert oog.held(state, 1) == ["blue"] and oog.held(state, 2) == []
    assert oog.held(state, 3) == ["green"]


def test_o10_trap_blocks_a_harvest_and_takes_the_junkyard(oog):
    state = oog.build(THREE, junkyards={3: ["red", "blue"]})
    state = oog.play(state, {1: ("trap", 3), 2: ("harvest", 3), 3: ("attack", 3)})
    [trap] = oog.events(state, "trap")
    assert trap["blocked"] == [2] and trap["took"] == {"1": ["red", "blue"]}
    assert not oog.events(state, "harvest")
    assert oog.held(state, 1) == ["blue", "red"] and oog.held(state, 2) == []
    assert oog.yard(state, 3) == []


def test_o10_trap_without_a_harvest_gets_nothing(oog):
    state = oog.build(THREE, junkyards={3: ["red", "blue"]})
    state = oog.play(state, {1: ("trap", 3), 2: ("harvest", 1), 3: ("attack", 3)})
    [trap] = oog.events(state, "trap")
    assert trap["blocked"] == [] and trap["took"] == {"1": []}
    assert trap["stayed"] == ["red", "blue"]
    assert oog.held(state, 1) == [] and oog.yard(state, 3) == ["blue", "red"]


def test_o10_trap_cancels_every_harvest_and_two_trappers_share(oog):
    state = oog.build(FOUR, junkyards={4: ["red", "blue", "green", "yellow", "yellow"]})
    state = oog.play(state, {1: ("trap", 4), 2: ("trap", 4), 3: ("harvest", 4), 4: ("harvest", 4)})
    [trap] = oog.events(state, "trap")
    assert trap["trappers"] == [1, 2] and trap["blocked"] == [3, 4]
    assert "red" in trap["took"]["1"] and "blue" in trap["took"]["2"]
    assert len(trap["took"]["1"]) == len(trap["took"]["2"]) == 2 and len(trap["stayed"]) == 1
    assert oog.held(state, 3) == oog.held(state, 4) == []
    assert not oog.events(state, "harvest")


def test_o10_o17_trap_that_blocks_only_the_team_mates_harvest_succeeds(oog):
    state = oog.build({"a": [1, 2], "b": [3, 4]}, advanced=True, junkyards={2: ["green", "yellow"]})
    state = oog.play(
        state, {1: ("trap", 2), 2: ("harvest", 2), 3: ("attack", 3), 4: ("harvest", 1)}
    )
    [trap] = oog.events(state, "trap")
    assert trap["blocked"] == [2] and trap["took"] == {"1": ["green", "yellow"]}
    assert oog.held(state, 1) == ["green", "yellow"] and oog.held(state, 2) == []


def test_o11_single_harvester_takes_everything(oog):
    state = oog.build(THREE, junkyards={2: ["red", "blue", "green"]})
    state = oog.play(state, {1: ("harvest", 2), 2: ("trap", 1), 3: ("trap", 1)})
    [harvest] = oog.events(state, "harvest")
    assert harvest["harvesters"] == [1] and sorted(harvest["took"]["1"]) == [
        "blue", "green", "red"
    ]  # fmt: skip
    assert harvest["stayed"] == [] and oog.yard(state, 2) == []


def test_o11_harvest_of_an_empty_junkyard_is_recorded(oog):
    state = oog.build(THREE)
    state = oog.play(state, {1: ("harvest", 2), 2: ("trap", 1), 3: ("trap", 1)})
    [harvest] = oog.events(state, "harvest")
    assert harvest["took"] == {"1": []} and harvest["stayed"] == []


def test_o12_five_gears_two_robots(oog):
    state = oog.build(THREE, junkyards={3: ["green", "green", "green", "green", "green"]})
    state = oog.play(state, {1: ("harvest", 3), 2: ("harvest", 3), 3: ("trap", 1)})
    [harvest] = oog.events(state, "harvest")
    assert harvest["took"] == {"1": ["green", "green"], "2": ["green", "green"]}
    assert harvest["stayed"] == ["green"] and oog.yard(state, 3) == ["green"]


def test_o12_one_gear_two_robots_nobody_gets_any(oog):
    state = oog.build(THREE, junkyards={3: ["red"]})
    state = oog.play(state, {1: ("harvest", 3), 2: ("harvest", 3), 3: ("trap", 1)})
    [harvest] = oog.events(state, "harvest")
    assert harvest["took"] == {"1": [], "2": []} and harvest["stayed"] == ["red"]
    assert oog.held(state, 1) == oog.held(state, 2) == [] and oog.yard(state, 3) == ["red"]


def test_o12_own_colour_priority_up_to_the_share(oog):
    state = oog.build(THREE, junkyards={3: ["red", "red", "red", "blue", "green"]})
    state = oog.play(state, {1: ("harvest", 3), 2: ("harvest", 3), 3: ("trap", 1)})
    [harvest] = oog.events(state, "harvest")
    assert harvest["took"]["1"] == ["red", "red"]  # own colour, but only up to the share
    assert harvest["took"]["2"][0] == "blue" and len(harvest["took"]["2"]) == 2
    assert Counter(harvest["took"]["2"][1:] + harvest["stayed"]) == Counter(["red", "green"])


def test_o12_six_gears_three_robots(oog):
    gears = ["yellow"] * 6
    state = oog.build(FOUR, junkyards={4: gears})
    state = oog.play(
        state, {1: ("harvest", 4), 2: ("harvest", 4), 3: ("harvest", 4), 4: ("trap", 1)}
    )
    [harvest] = oog.events(state, "harvest")
    assert all(len(harvest["took"][r]) == 2 for r in "123") and harvest["stayed"] == []


def test_o12_team_mates_colour_has_no_priority():
    # Robot 1 (red) and robot 3 (green) share; blue (robot 1's team-mate) is not red's priority.
    took_blue = 0
    for seed in range(400):
        took, stayed = share(["blue", "green", "yellow", "yellow"], [1, 3], Rng(f"{seed:x}"))
        assert took[3][0] == "green" and len(took[1]) == 2
        took_blue += "blue" in took[1]
    assert 0.55 < took_blue / 400 < 0.78  # 2 of 3 gears drawn: P = 2/3


def test_o12_random_draws_are_uniform_over_gears_not_colours():
    # Red draws first, one gear of [green, yellow, yellow]: green with P 1/3 (not 1/2).
    n = 3000
    greens = 0
    for seed in range(n):
        took, stayed = share(["green", "yellow", "yellow"], [1, 2], Rng(f"{seed * 7919:x}"))
        assert len(took[1]) == len(took[2]) == 1 and len(stayed) == 1
        greens += took[1] == ["green"]
    assert 0.29 < greens / n < 0.38


def test_o12_share_leaves_its_input_alone():
    pool = ["red", "blue", "green"]
    took, stayed = share(pool, [1, 2], Rng("1"))
    assert pool == ["red", "blue", "green"]
    assert took[1] == ["red"] and took[2] == ["blue"] and stayed == ["green"]


def test_o7_order_defend_attack_trap_harvest(oog):
    # Blue defends against red's attack, taking red's gear; green harvests junkyard 1 while
    # yellow traps junkyard 2 with no harvest there.
    state = oog.build(FOUR, gears={1: ["red"]}, junkyards={1: ["green"], 2: ["blue"]})
    state = oog.play(state, {1: ("attack", 2), 2: ("attack", 2), 3: ("harvest", 1), 4: ("trap", 2)})
    kinds = [e["type"] for e in state["story"][-1]["events"]]
    assert kinds == ["defend", "trap", "harvest", "explore"]
    assert oog.held(state, 2) == ["red"] and oog.held(state, 3) == ["green"]
    assert oog.yard(state, 2) == ["blue"]
