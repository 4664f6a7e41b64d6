"""G1-G4: the deck, the values, the deal; determinism, JSON and immutability of states."""

import copy
import json
from collections import Counter

import pytest
from geared_helpers import check_invariants

from games.engines.geared import engine
from games.engines.geared.cards import (
    ACTION,
    IS_WILD,
    KIND,
    LEVEL,
    PART,
    card_dict,
    part_value,
    set_value,
)


def test_g2_deck_has_96_cards_75_parts_18_actions_3_wilds():
    assert len(KIND) == 96
    counts = Counter(KIND)
    assert counts == {"part": 75, "action": 18, "wild": 3}
    for t in range(3):
        per_level = Counter(LEVEL[c] for c in range(96) if KIND[c] == "part" and PART[c] == t)
        assert per_level == {1: 7, 2: 6, 3: 5, 4: 4, 5: 3}
    assert Counter(ACTION[c] for c in range(96) if KIND[c] == "action") == {0: 6, 1: 6, 2: 6}
    assert sorted(PART[c] for c in range(96) if IS_WILD[c]) == [0, 1, 2]


def test_g2_every_card_has_a_stable_identity():
    assert card_dict(0) == {
        "id": 0,
        "kind": "part",
        "part": "frame",
        "action": None,
        "level": 1,
        "part_value": 20,
        "set_value": 100,
        "wild": False,
    }
    assert card_dict(75)["action"] == "remove"
    assert card_dict(81)["action"] == "steal"
    assert card_dict(87)["action"] == "swap"
    wild = card_dict(95, 4)
    assert (wild["kind"], wild["part"], wild["level"], wild["wild"]) == ("wild", "wheels", 4, True)
    assert card_dict(95)["level"] is None


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_g3_part_and_set_values(level):
    assert part_value(level) == 20 * level
    assert set_value(level) == 100 * level


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_g1_g4_deal_five_each_rest_is_draw_pile(n):
    seats = [str(i + 1) for i in range(n)]
    state = engine.new_game(seats, seed=7)
    assert all(len(state["hands"][s]) == 5 for s in seats)
    assert len(state["draw"]) == 96 - 5 * n
    assert state["discard"] == []
    check_invariants(state)
    dealer = seats.index(state["dealer"])
    assert engine.current_seat(state) == seats[(dealer + 1) % n]


@pytest.mark.parametrize("n", [1, 7])
def test_g1_two_to_six_players(n):
    with pytest.raises(ValueError):
        engine.new_game([str(i) for i in range(n)], seed=1)


def test_g4_dealer_comes_from_the_seed():
    dealers = {engine.new_game(["1", "2", "3", "4"], seed=s)["dealer"] for s in range(40)}
    assert dealers == {"1", "2", "3", "4"}
    a = engine.new_game(["1", "2", "3"], seed=99)
    b = engine.new_game(["1", "2", "3"], seed=99)
    assert a == b


def test_g4_deal_one_at_a_time_from_the_dealers_left():
    import random

    seats = ["a", "b", "c"]
    state = engine.new_game(seats, seed=5)
    rng = random.Random(5)
    dealer = rng.randrange(3)
    deck = list(range(96))
    rng.shuffle(deck)
    first = seats[(dealer + 1) % 3]
    assert deck[-1] in state["hands"][first]
    assert deck[-4] in state["hands"][first]
    assert state["draw"] == deck[:-15]


def test_options_target_and_names():
    state = engine.new_game(["1", "2"], seed=1, options={"target": 500, "names": {"1": "Matt"}})
    assert state["target"] == 500
    assert state["names"] == {"1": "Matt", "2": "Player 2"}
    with pytest.raises(ValueError):
        engine.new_game(["1", "2"], seed=1, options={"target": 0})


def _play_out(seed, n=3, target=500, limit=400):
    import random

    state = engine.new_game([str(i + 1) for i in range(n)], seed=seed, options={"target": target})
    rng = random.Random(seed)
    actions = []
    states = [state]
    while not engine.is_over(state) and len(actions) < limit:
        seat = engine.current_seat(state)
        legal = engine.legal_actions(state, seat)
        plays = [a for a in legal if a["type"] != "rearrange"]
        action = rng.choice(plays if plays and rng.random() < 0.9 else legal)
        actions.append((seat, action))
        state = engine.apply(state, seat, action)
        states.append(state)
    return actions, states


def test_determinism_same_seed_and_actions_give_same_states():
    actions, states = _play_out(11)
    state = engine.new_game(["1", "2", "3"], seed=11, options={"target": 500})
    for (seat, action), expected in zip(actions, states[1:], strict=True):
        state = engine.apply(state, seat, action)
        assert state == expected


def test_json_round_trip_after_every_action():
    _, states = _play_out(12)
    for state in states:
        assert json.loads(json.dumps(state)) == state


def test_apply_never_mutates_its_input():
    actions, states = _play_out(13)
    for (seat, action), before in zip(actions, states, strict=False):
        frozen = copy.deepcopy(before)
        engine.apply(before, seat, action)
        assert before == frozen


def test_state_holds_no_tuples_sets_or_int_keys():
    _, states = _play_out(14)

    def walk(x):
        assert not isinstance(x, (tuple, set))
        if isinstance(x, dict):
            assert all(isinstance(k, str) for k in x)
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(states[-1])
