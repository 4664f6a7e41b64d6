"""Seeded random games for 2-6 seats checking the engine's invariants after every action."""

import copy
import json
import os
import random

from geared_helpers import check_invariants
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines.geared import engine

EXAMPLES = int(os.environ.get("GEARED_EXAMPLES", "60"))
CARD_KEYS = ("card", "target", "mine", "theirs")


def view_card_ids(v) -> set[int]:
    """Every card id anywhere in a view: card dicts and the card fields of events."""
    ids: set[int] = set()

    def walk(x):
        if isinstance(x, dict):
            if "kind" in x and "id" in x:
                ids.add(x["id"])
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk({k: v for k, v in v.items() if k != "events"})
    for e in v["events"]:
        for key in CARD_KEYS:
            if key in e:
                ids.add(e[key])
        ids.update(e.get("cards", []))
    return ids


def public_cards(state) -> set[int]:
    cards = set(state["discard"])
    for s in state["seats"]:
        for b in state["builds"][s]:
            cards.update(b["cards"])
        for bike in state["bikes"][s]:
            cards.update(bike["cards"])
    return cards


def random_action(rng: random.Random, state, seat, legal) -> dict:
    """A mutated or made-up action that may or may not be legal."""
    base = dict(rng.choice(legal)) if legal else {"type": "pass"}
    choice = rng.randrange(8)
    hand = state["hands"][seat]
    any_card = rng.randrange(-1, 97)
    if choice == 0:
        base["type"] = rng.choice(
            ["play", "remove", "steal", "swap", "rearrange", "discard", "pass", "zoom"]
        )
    elif choice == 1 and "card" in base:
        base["card"] = any_card
    elif choice == 2 and "cards" in base:
        base["cards"] = [rng.choice(hand + [any_card]) for _ in base["cards"]]
    elif choice == 3:
        key = rng.choice(["to", "level", "target", "mine", "theirs", "builds"])
        base[key] = rng.choice([None, "new", "new1", "new2", 1, 2, 3, 5, 7, [1], "x", True])
    elif choice == 4 and len(base) > 1:
        del base[rng.choice([k for k in base if k != "type"])]
    elif choice == 5 and "builds" in base:
        base["builds"] = [rng.choice(["new1", "new2", "new3", 1, 2, 3]) for _ in base["builds"]]
    elif choice == 6:
        base = {
            "type": "play",
            "cards": rng.sample(hand, min(len(hand), rng.randint(1, 3))),
            "builds": ["new1", "new1", "new2"][: min(len(hand), 3)],
        }
        if rng.random() < 0.5:
            base["level"] = rng.randint(0, 6)
    return base


def run_game(seed: int, n: int, target: int, check_views: bool = True) -> dict:
    rng = random.Random(seed)
    seats = [str(i + 1) for i in range(n)]
    state = engine.new_game(seats, seed=seed, options={"target": target})
    seen_in_hand = {s: set(state["hands"][s]) for s in seats}
    ever_public: set[int] = set()
    steps = 0
    while not engine.is_over(state):
        steps += 1
        assert steps < 5000, "the game did not end"
        seat = engine.current_seat(state)
        legal = engine.legal_actions(state, seat)
        assert legal, "the active seat always has an action"
        for other in seats:
            if other != seat:
                assert engine.legal_actions(state, other) == []
        listed = {json.dumps(a, sort_keys=True) for a in legal}  # json tells True from 1
        assert len(listed) == len(legal)
        if rng.random() < 0.3:
            candidate = random_action(rng, state, seat, legal)
            frozen = copy.deepcopy(state)
            try:
                after = engine.apply(state, seat, candidate)
            except engine.IllegalMove as error:
                assert error.message
                assert json.dumps(candidate, sort_keys=True) not in listed
                assert state == frozen
            else:
                canonical = engine.canonical_action(state, seat, candidate)
                assert json.dumps(canonical, sort_keys=True) in listed
                assert state == frozen
                state = after
        else:
            plays = [a for a in legal if a["type"] != "rearrange"]
            action = rng.choice(plays if plays and rng.random() < 0.9 else legal)
            state = engine.apply(state, seat, action)
        check_invariants(state)
        assert json.loads(json.dumps(state)) == state
        ever_public |= public_cards(state)
        for e in state["events"][-12:]:
            if e["type"] != "drew":
                ever_public |= view_card_ids({"events": [e]})
        for s in seats:
            seen_in_hand[s] |= set(state["hands"][s])
        if check_views:
            for s in [*seats, None]:
                v = engine.view(state, s)
                text = json.dumps(v)
                assert '"rng"' not in text and "seed" not in text and '"draw"' not in text
                allowed = ever_public | (seen_in_hand[s] if s else set())
                assert view_card_ids(v) <= allowed
                if s is not None:
                    assert [c["id"] for c in v["hand"]] == state["hands"][s]
                    others = set().union(*(state["hands"][o] for o in seats if o != s))
                    # cards in another hand that were never public never show up
                    hidden = (others | set(state["draw"])) - ever_public - seen_in_hand[s]
                    assert not view_card_ids(v) & hidden
    result = engine.result(state)
    best = max(result["scores"].values())
    assert all(result["scores"][w] == best for w in result["winners"])
    assert result["ranking"][0] in result["winners"]
    return state


@settings(max_examples=EXAMPLES, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(2, 6), target=st.sampled_from([300, 400, 500]))
def test_random_games_keep_every_invariant(seed, n, target):
    run_game(seed, n, target)


@settings(max_examples=max(3, EXAMPLES // 20), deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(2, 6))
def test_random_games_to_1000_end(seed, n):
    run_game(seed, n, 1000, check_views=False)


@settings(max_examples=max(5, EXAMPLES // 6), deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(2, 4))
def test_every_legal_action_applies_and_replay_is_exact(seed, n):
    rng = random.Random(seed)
    seats = [str(i + 1) for i in range(n)]
    state = engine.new_game(seats, seed=seed, options={"target": 400})
    log = []
    for _ in range(60):
        if engine.is_over(state):
            break
        seat = engine.current_seat(state)
        legal = engine.legal_actions(state, seat)
        for action in legal:
            engine.apply(state, seat, action)  # never raises
        action = rng.choice(legal)
        log.append((seat, action))
        state = engine.apply(state, seat, action)
    replay = engine.new_game(seats, seed=seed, options={"target": 400})
    for seat, action in log:
        replay = engine.apply(replay, seat, action)
    assert replay == state
