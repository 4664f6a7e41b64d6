"""engine.legal_actions is a lazy sequence (games/geared/legal.py): it counts the actions and
builds one when it is asked for by index. Its length and each action by index must be exactly
moves.listing's list, the reference enumeration, on any position: seeded games and made-up
positions (wilds in hand and in builds, three parts of one type, many builds)."""

from __future__ import annotations

import json
import random

import pytest
from geared_helpers import make_state
from hypothesis import given, settings
from hypothesis import strategies as st

from games.geared import engine, moves
from games.geared.bots import random_bot
from games.geared.cards import DECK_SIZE, FIRST_WILD, IS_PART, LEVEL, PART
from games.geared.legal import LegalActions


def check(state: dict, seat: str) -> list[dict]:
    """Every action by index (from a fresh sequence each time, so that none of them comes
    from the built list) equals the listing, and the sequence behaves as that list."""
    listed = moves.listing(state, seat)
    legal = engine.legal_actions(state, seat)
    assert isinstance(legal, LegalActions)
    assert len(legal) == len(listed)
    by_index = [engine.legal_actions(state, seat)[i] for i in range(len(listed))]
    assert json.dumps(by_index) == json.dumps(listed)  # key order too
    fresh = engine.legal_actions(state, seat)
    assert [fresh[i] for i in range(len(listed))] == listed  # one sequence, every index
    if listed:
        assert engine.legal_actions(state, seat)[-1] == listed[-1]
    kinds = [a["type"] for a in listed]
    r = legal.rearranges
    assert all(k == "rearrange" for k in kinds[r.start : r.stop])
    assert kinds.count("rearrange") == len(r)
    return listed


def test_seeded_games_index_as_listed():
    for seed in range(60):
        n = 2 + seed % 5
        seats = [str(i + 1) for i in range(n)]
        state = engine.new_game(seats, seed=seed, options={"target": 600})
        rng = random.Random(seed)
        while not engine.is_over(state):
            seat = engine.current_seat(state)
            check(state, seat)
            state = engine.apply(
                state, seat, random_bot({}, engine.legal_actions(state, seat), rng)
            )


def random_position(rng: random.Random, n: int) -> tuple[dict, str]:
    """Hands of up to 5 cards and up to 6 builds a seat of one or two parts of different
    types (a wild at a level, often its neighbour's), from a shuffled deck with extra wilds'
    weight so that they show up."""
    seats = [str(i + 1) for i in range(n)]
    deck = list(range(DECK_SIZE))
    rng.shuffle(deck)
    wilds = [c for c in deck if c >= FIRST_WILD]
    deck = [c for c in deck if c < FIRST_WILD]
    for w in wilds:  # wilds near the top, where hands and builds are dealt from
        deck.insert(rng.randrange(min(len(deck), 25)), w)
    hands = {s: sorted(deck.pop() for _ in range(rng.randint(0, 5))) for s in seats}
    builds: dict[str, list[list[int]]] = {s: [] for s in seats}
    wild_levels: dict[int, int] = {}
    for s in seats:
        for _ in range(rng.randint(0, 6)):
            first = next((c for c in deck if IS_PART[c]), None)
            if first is None:
                break
            deck.remove(first)
            cards = [first]
            if rng.random() < 0.5:
                other = next((c for c in deck if IS_PART[c] and PART[c] != PART[first]), None)
                if other is not None:
                    deck.remove(other)
                    cards.append(other)
            for c in cards:
                if c >= FIRST_WILD:
                    others = [LEVEL[x] for x in cards if x < FIRST_WILD]
                    same = others and rng.random() < 0.8
                    wild_levels[c] = others[0] if same else rng.randint(1, 5)
            builds[s].append(cards)
    seat = rng.choice(seats)
    state = make_state(hands, turn=seat, builds=builds, wild_levels=wild_levels, fill_draw=True)
    return state, seat


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(2, 6))
def test_made_up_positions_index_as_listed(seed, n):
    state, seat = random_position(random.Random(seed), n)
    check(state, seat)


@pytest.mark.parametrize("seed", range(40))
def test_three_of_one_type_and_wilds_in_hand(seed):
    """Hands chosen for the closed forms' corner cases: parts of one type and level, wilds."""
    rng = random.Random(seed)
    level = rng.randint(1, 3)
    same = [c for c in range(75) if PART[c] == seed % 3 and LEVEL[c] == level]
    hand = sorted(rng.sample(same, 3) + rng.sample(range(FIRST_WILD, DECK_SIZE), 2))
    state, seat = random_position(rng, 3)
    taken = {c for cards in state["builds"].values() for b in cards for c in b["cards"]}
    if taken & set(hand):
        return  # the made-up builds already use one of these cards
    hands = {s: (hand if s == seat else []) for s in state["seats"]}
    builds = {s: [b["cards"] for b in state["builds"][s]] for s in state["seats"]}
    wild_levels = {
        c: state["wild_levels"][c - FIRST_WILD]
        for s in state["seats"]
        for b in state["builds"][s]
        for c in b["cards"]
        if c >= FIRST_WILD
    }
    state = make_state(hands, turn=seat, builds=builds, wild_levels=wild_levels)
    check(state, seat)


def test_the_sequence_reads_as_a_list():
    state, seat = random_position(random.Random(3), 4)
    legal = engine.legal_actions(state, seat)
    listed = moves.listing(state, seat)
    assert legal and bool(legal) == bool(listed)
    assert legal == listed and listed == legal and legal == engine.legal_actions(state, seat)
    assert legal != listed[:-1] and legal != tuple(listed)
    assert listed[0] in legal and {"type": "nonsense"} not in legal
    assert list(legal) == listed and list(reversed(legal)) == listed[::-1]
    assert legal[1:3] == listed[1:3] and legal[-1] == listed[-1]
    assert legal.index(listed[2]) == listed.index(listed[2])
    assert repr(legal) == repr(listed)
    with pytest.raises(IndexError):
        legal[len(listed)]
    with pytest.raises(IndexError):
        engine.legal_actions(state, seat)[-len(listed) - 1]
    with pytest.raises(TypeError):
        legal["0"]
    with pytest.raises(TypeError):
        hash(legal)
    assert engine.legal_actions(state, str(int(seat) % 4 + 1)) == []  # not that seat's turn
