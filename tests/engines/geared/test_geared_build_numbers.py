"""Issue 14, point 8: the log numbers builds the way the board does ("build 2" on both:
1-based, in the owner's order, as the table showed them when the move was made, G6)."""

from __future__ import annotations

import random

from games.engines.geared import engine
from games.engines.geared.text import with_build_numbers
from games.pages.geared_text import describe


def test_g6_a_rearrange_is_told_with_the_boards_build_numbers():
    history = [
        {"n": 1, "seat": "1", "type": "played", "cards": [0], "builds": [7]},
        {"n": 2, "seat": "2", "type": "played", "cards": [1], "builds": [8]},
        {"n": 3, "seat": "1", "type": "played", "cards": [2, 3], "builds": [9, 10]},
        {"n": 4, "seat": "1", "type": "rearranged", "card": 3, "source": 10, "to": 9},
        {"n": 5, "seat": "1", "type": "rearranged", "card": 0, "source": 7, "to": 11},
    ]
    numbered = with_build_numbers(history, history)
    # Alice's builds were 7, 9, 10 ("Build 1, 2, 3" on the board): 10 -> 9 is build 3 -> 2.
    assert describe(numbered[3], {"1": "Alice"}, None).endswith("from build 3 to build 2.")
    # Then 7, 9 (10 emptied): 7 to a new build is build 1 to a new build.
    assert describe(numbered[4], {"1": "Alice"}, None).endswith("from build 1 to a new build.")
    assert "build 10" not in describe(numbered[3], {"1": "Alice"}, None)


def test_g6_the_numbers_match_the_table_in_random_games():
    """Seeded random playouts: every rearrange's numbers are the positions (1-based) of its
    builds in the mover's list just before the move."""
    checked = sum(_rearranges_checked(seed) for seed in range(12))
    assert checked > 100


def _rearranges_checked(seed: int) -> int:
    rng = random.Random(seed)
    state = engine.new_game(["1", "2", "3"], seed=seed, options={"target": 300})
    seen = 0
    for _ in range(600):
        if state["over"]:
            break
        seat = engine.current_seat(state)
        legal = engine.legal_actions(state, seat)
        moves = [a for a in legal if a["type"] == "rearrange"]
        action = rng.choice(moves) if moves and rng.random() < 0.4 else rng.choice(legal)
        before = [b["id"] for b in state["builds"][seat]]
        state = engine.apply(state, seat, action)
        if action["type"] == "rearrange":
            event = next(e for e in reversed(state["events"]) if e["type"] == "rearranged")
            numbered = with_build_numbers([event], state["events"])[0]
            assert numbered["from_build"] == before.index(event["source"]) + 1
            expected = before.index(event["to"]) + 1 if event["to"] in before else None
            assert numbered["to_build"] == expected
            seen += 1
    return seen
