"""engine.apply plays most plays, Removes, Steals and Swaps with a fast path (_play_fast,
_remove_fast, ...: only the copies the action needs, no draft) and falls back to
engine._apply, the rules as written in the handlers, for anything it does not accept. Both must
give the same result for every action: the same state down to the order of the keys (as stored
in JSON), or the same IllegalMove message, and neither changes its input."""

from __future__ import annotations

import json
import random

from geared_helpers import WILD_FRAME, WILD_WHEELS, make_state, part
from hypothesis import given, settings
from hypothesis import strategies as st

from games.geared import engine, moves
from games.geared.bots import random_bot

JUNK = [None, "new", "new1", "new2", "new3", "new4", 0, 1, 2, 3, 5, 7, -1, 95, 96, True, 1.0, "x"]


def outcome(fn, state: dict, seat: str, action: dict) -> str:
    before = json.dumps(state)
    try:
        result = "state " + json.dumps(fn(state, seat, action))  # key order included
    except engine.IllegalMove as error:
        result = "illegal " + error.message
    assert json.dumps(state) == before, "the input state changed"
    return result


def same(state: dict, seat: str, action: dict) -> bool:
    fast = outcome(engine.apply, state, seat, action)
    slow = outcome(lambda s, x, a: engine._apply(s, x, a, a.get("type")), state, seat, action)
    assert fast == slow, (action, fast[:200], slow[:200])
    return fast.startswith("state")


def mutated(rng: random.Random, state: dict, seat: str, actions: list[dict]) -> list[dict]:
    hand = state["hands"][seat]
    table = [c for o in state["seats"] for b in state["builds"][o] for c in b["cards"]]
    out = []
    for base in rng.sample(actions, min(len(actions), 6)):
        a = json.loads(json.dumps(base))
        if a["type"] != "play":
            key = rng.choice([k for k in a if k != "type"] + ["level", "extra", "type"])
            if key == "type":
                a["type"] = rng.choice(["remove", "steal", "swap"])
            elif key == "extra" or rng.random() < 0.15:
                a[key] = 1
            elif rng.random() < 0.15:
                a.pop(key, None)
            else:
                a[key] = rng.choice([*JUNK, *hand, *table, *table])
            out.append(a)
            continue
        choice = rng.randrange(9)
        if choice == 0:
            a["cards"] = [rng.choice([*hand, rng.randrange(-1, 97), True]) for _ in a["cards"]]
        elif choice == 1:
            a["builds"] = [rng.choice(JUNK) for _ in a["builds"]]
        elif choice == 2:
            a["level"] = rng.choice([0, 1, 3, 5, 6, True, "2", None])
        elif choice == 3 and "level" in a:
            del a["level"]
        elif choice == 4:
            a["extra"] = 1
        elif choice == 5:
            del a[rng.choice(["cards", "builds"])]
        elif choice == 6:
            a["cards"] = a["cards"][::-1]  # any order is accepted
            a["builds"] = a["builds"][::-1]
        elif choice == 7:
            a["cards"] = a["cards"] + a["cards"][:1]
            a["builds"] = a["builds"] + ["new3"]
        elif choice == 8:
            a["builds"] = a["builds"][:-1] if len(a["builds"]) > 1 else "new1"
        out.append(a)
    return out


def test_seeded_games_actions_and_mutations():
    applied = 0
    for seed in range(20):
        seats = [str(i + 1) for i in range(2 + seed % 5)]
        state = engine.new_game(seats, seed=seed, options={"target": 400})
        rng = random.Random(seed)
        while not engine.is_over(state):
            seat = engine.current_seat(state)
            actions = moves.listing(state, seat)
            for action in rng.sample(actions, min(len(actions), 5)):
                applied += same(state, seat, action)
            for action in mutated(rng, state, seat, actions):
                same(state, seat, action)
            state = engine.apply(
                state, seat, random_bot({}, engine.legal_actions(state, seat), rng)
            )
    assert applied > 600


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_plays_that_complete_end_or_reshuffle(seed):
    """Positions where a play completes bikes (sets, wilds), reaches the target, or needs a
    reshuffle (the draw pile shorter than the play), which _play_fast hands to the rules' own
    end of turn."""
    rng = random.Random(seed)
    level = rng.randint(1, 5)
    other = rng.choice([lv for lv in range(1, 5) if lv != level])  # 4 copies or more
    frame, bars, wheels = (part(k, level) for k in ("frame", "handlebars", "wheels"))
    hand = [frame, part("frame", other, 1), bars, wheels, WILD_WHEELS]
    builds = {"A": [[part("handlebars", level, 1)], [part("wheels", level, 1), WILD_FRAME]]}
    builds["A"].append([part("frame", level, 2), part("handlebars", other, 2)])
    discard = [part("wheels", other, 3)] if rng.random() < 0.7 else []
    hands = {"A": sorted(hand), "B": [part("frame", other, 3)] if rng.random() < 0.8 else []}
    used = {*hand, *hands["B"], *discard, *(c for b in builds["A"] for c in b)}
    spare = [c for c in range(75) if c not in used]
    state = make_state(
        hands,
        builds=builds,
        wild_levels={WILD_FRAME: level},
        scores={"A": rng.choice([0, 350, 900, 990])},
        target=1000,
        draw=rng.sample(spare, rng.choice([0, 1, 2])),
        discard=discard,
        fill_draw=rng.random() < 0.4,  # else every other card is under the discard pile
    )
    plays = [a for a in moves.listing(state, "A") if a["type"] == "play"]
    for action in plays:
        assert same(state, "A", action)
    for action in mutated(rng, state, "A", plays):
        same(state, "A", action)
