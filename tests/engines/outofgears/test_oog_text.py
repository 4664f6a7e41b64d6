"""The turn story as English sentences."""

from games.pages.outofgears_text import describe


def test_defend_sentences():
    event = {"type": "defend", "defender": 1, "attacker": 2, "gear": "blue", "source": "robot"}
    assert describe(event, {}) == "Red defended and took a blue gear from Blue"
    assert describe(event, {"1": "Alice"}) == "Red (Alice) defended and took a blue gear from Blue"
    event = dict(event, source="circuit")
    assert describe(event, {}) == "Red defended and took a blue gear from Blue's circuit"
    event = dict(event, gear=None, source="none")
    assert describe(event, {}) == "Red defended against Blue, who had no gear to give"


def test_harvest_sentences():
    event = {
        "type": "harvest", "junkyard": 4, "harvesters": [3, 4],
        "took": {"3": ["red", "red"], "4": ["blue", "green"]}, "stayed": ["red"],
    }  # fmt: skip
    assert describe(event, None) == (
        "Green and Yellow harvested junkyard 4 and took 2 gears each; 1 stayed"
    )
    event = dict(event, took={"3": [], "4": []}, stayed=["red"])
    assert "nobody got any" in describe(event, {})
    event = dict(event, harvesters=[3], took={"3": ["red", "blue"]}, stayed=[])
    assert describe(event, {}) == "Green harvested junkyard 4 and took 2 gears (red, blue)"


def test_other_sentences():
    attack = {"type": "attack", "target": 2, "attackers": [1], "took": {"1": []}, "stayed": []}
    assert describe(attack, {}) == "Red attacked Blue but there was nothing to take"
    trap = {"type": "trap", "junkyard": 3, "trappers": [5], "blocked": [], "took": {"5": []},
            "stayed": ["red"]}  # fmt: skip
    assert "blocked no harvest" in describe(trap, {})
    trap = dict(trap, blocked=[1, 2], took={"5": ["red"]}, stayed=[])
    assert describe(trap, {}) == (
        "Purple trapped junkyard 3, blocking Red and Blue and took 1 gear (red)"
    )
    assemble = {"type": "assemble", "robot": 8, "gears": ["white", "red"]}
    assert describe(assemble, {}) == "White moved white and red to its internal circuit"
    explore = {"type": "explore", "laid": {"1": "red"}, "missed": [2], "reserve_left": 0}
    assert "ran out before junkyard 2" in describe(explore, {})
    end = {"type": "end", "reason": "reserve_empty", "scores": {"a": 9, "b": 9},
           "robot_scores": {"1": 9, "2": 9}, "winners": ["a", "b"],
           "winner_robots": {"a": [1], "b": [2]}}  # fmt: skip
    assert "Red and Blue share the win with 9 points" in describe(end, {})
