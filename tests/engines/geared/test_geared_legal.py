"""Legality is the move generator: engine.legal_actions lists exactly the actions apply accepts
(G5, G6, G8, G13-G16), each once and in its canonical form, in the page's order; apply refuses
with legal.why_illegal's sentence, None exactly for those listed; and the tables that both use
say what builds.placement_error, the one statement of G9 and G12, says."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from geared_helpers import WILD_WHEELS, make_state, part, random_position
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engines.geared import engine
from games.engines.geared.bots import random_bot
from games.engines.geared.builds import (
    ALONE,
    BESIDE,
    BESIDE_TYPES,
    NO_PART,
    arrival_level,
    entries_key,
    fits,
    part_key,
    placed_keys,
    placement_error,
)
from games.engines.geared.cards import DECK_SIZE, FIRST_WILD, IS_PART, IS_WILD, LEVEL, PART
from games.engines.geared.legal import LegalActions, has_play, why_illegal

# One part of each type, level and wildness (a wild at each declared level): every part key.
PARTS = [
    (next(c for c in range(FIRST_WILD) if PART[c] == t and LEVEL[c] == lv), lv)
    for lv in range(1, 6)
    for t in range(3)
] + [(FIRST_WILD + t, lv) for lv in range(1, 6) for t in range(3)]


def builds_of_up_to_two_parts():
    """Every build a table can hold (G9, G12 respected): empty, one part, two parts."""
    yield []
    for p in PARTS:
        yield [p]
    for p, q in itertools.combinations(PARTS, 2):
        if placement_error([p], [q]) is None:
            yield [p, q]


def test_g9_g12_the_tables_say_what_placement_error_says():
    """builds.fits (FITS and JOINED) accepts a part, or a play's group of up to three parts,
    exactly when placement_error finds nothing to say."""
    checked = 0
    for existing in builds_of_up_to_two_parts():
        for size in range(1, 4 - len(existing)):
            for incoming in itertools.product(PARTS, repeat=size):
                incoming = list(incoming)
                assert fits(existing, incoming) == (placement_error(existing, incoming) is None), (
                    existing,
                    incoming,
                )
                checked += 1
    assert checked > 10_000


def test_g9_a_build_takes_one_part_of_each_type_and_g12_a_wild_one_level():
    frame1, bars1, bars2 = PARTS[0], PARTS[1], PARTS[4]
    wild_wheels_at = {lv: (FIRST_WILD + 2, lv) for lv in range(1, 6)}
    assert fits([frame1], [bars2])  # G9: levels need not match
    assert not fits([frame1], [PARTS[3]])  # two Frames
    assert fits([frame1, bars1], [wild_wheels_at[1]])  # G12: the parts' level
    assert not fits([frame1, bars1], [wild_wheels_at[2]])
    assert not fits([frame1, bars2], [wild_wheels_at[1]])  # parts at two levels
    assert not fits([frame1, wild_wheels_at[1]], [bars2])  # a wild's build takes its level


def test_g15_g12_a_swapped_part_arrives_beside_the_part_that_stays():
    """BESIDE: a part arriving beside the one part left in a build (a wild takes that part's
    level, ruling), or alone (always)."""
    for left in range(30):
        stays = [PARTS[left]]
        for arriving in range(30):
            c, lv = PARTS[arriving]
            level = arrival_level(stays, c, lv)
            assert BESIDE[left * 30 + arriving] == (placement_error(stays, [(c, level)]) is None)
            assert BESIDE[ALONE * 30 + arriving]
        if BESIDE_TYPES[left] >= 0:
            for arriving in range(30):
                assert BESIDE[left * 30 + arriving] == bool(BESIDE_TYPES[left] >> arriving % 3 & 1)
    assert entries_key([]) == 0


# --- the listing is what apply accepts --------------------------------------------------------


def candidates(state: dict, seat: str):
    """Every action of every kind that names cards and builds of this position, legal or not
    (a superset of the legal ones): plays of 1-3 hand cards to any builds, labels and levels;
    every Action card on every part; every rearrangement; discards; pass."""
    hand = state["hands"][seat]
    mine = [b["id"] for b in state["builds"][seat]]
    table = [c for o in state["seats"] for b in state["builds"][o] for c in b["cards"]]
    own = [c for b in state["builds"][seat] for c in b["cards"]]
    levels = (None, 1, 2, 3, 4, 5)
    parts = [c for c in hand if IS_PART[c]]
    for size in (1, 2, 3):
        for cards in itertools.combinations(parts, size):
            for dests in itertools.product([*mine, "new1", "new2", "new3"], repeat=size):
                for lv in levels:
                    a = {"type": "play", "cards": list(cards), "builds": list(dests)}
                    if lv is not None:
                        a["level"] = lv
                    yield a
    for card in hand:
        yield {"type": "discard", "card": card}
        if IS_PART[card]:
            continue
        for t in table:
            yield {"type": "remove", "card": card, "target": t}
            for to in [*mine, "new"]:
                for lv in levels:
                    a = {"type": "steal", "card": card, "target": t, "to": to}
                    if lv is not None:
                        a["level"] = lv
                    yield a
            for m in table:
                yield {"type": "swap", "card": card, "mine": m, "theirs": t}
    for c in own:
        for to in [*mine, "new"]:
            for lv in levels:
                a = {"type": "rearrange", "card": c, "to": to}
                if lv is not None:
                    a["level"] = lv
                yield a
    yield {"type": "pass"}


ORDER = {"play": 0, "remove": 1, "steal": 2, "swap": 3, "rearrange": 4, "discard": 5, "pass": 5}


def check(state: dict, seat: str) -> list[dict]:
    legal = engine.legal_actions(state, seat)
    listed = list(legal)
    assert len(listed) == len(legal)  # the count is the walk's length
    by_index = [engine.legal_actions(state, seat)[i] for i in range(len(legal))]
    assert json.dumps(by_index) == json.dumps(listed)  # each built alone, key order too
    keys = [json.dumps(a, sort_keys=True) for a in listed]
    assert len(set(keys)) == len(keys), "an action is listed twice"
    for a in listed:
        assert engine.canonical_action(state, seat, a) == a, a
    accepted = set()
    for a in candidates(state, seat):
        why = why_illegal(state, seat, a)
        try:
            engine.apply(state, seat, a)
        except engine.IllegalMove as refusal:
            assert why == refusal.message, a  # apply refuses with the generator's reason
            continue
        assert why is None, (a, why)
        accepted.add(json.dumps(engine.canonical_action(state, seat, a), sort_keys=True))
    assert accepted == set(keys), (accepted - set(keys), set(keys) - accepted)
    kinds = [ORDER[a["type"]] for a in listed]
    assert kinds == sorted(kinds), "plays, Remove, Steal, Swap, rearrangements, then G8"
    # G8: a discard is offered (and accepted) exactly when nothing can be played.
    plays = [a for a in listed if ORDER[a["type"]] < 4]
    assert has_play(state, seat) == bool(plays)
    assert any(a["type"] == "discard" for a in listed) == (not plays and bool(state["hands"][seat]))
    return listed


def small(state: dict, seat: str) -> bool:
    """Few enough builds for the brute force to stay quick."""
    return len(state["builds"][seat]) <= 3


def test_seeded_games_list_what_apply_accepts():
    checked = 0
    for seed in range(12):
        seats = [str(i + 1) for i in range(2 + seed % 5)]
        state = engine.new_game(seats, seed=seed, options={"target": 300})
        rng = random.Random(seed)
        while not engine.is_over(state):
            seat = engine.current_seat(state)
            if small(state, seat) and rng.random() < 0.3:
                check(state, seat)
                checked += 1
            action = random_bot({}, engine.legal_actions(state, seat), rng)
            state = engine.apply(state, seat, action)
    assert checked > 60


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), n=st.integers(2, 6))
def test_made_up_positions_list_what_apply_accepts(seed, n):
    """Wilds in hand and in builds at many levels, parts of one type, many opponents."""
    state, seat = random_position(random.Random(seed), n)
    if not small(state, seat):
        keep = state["builds"][seat][:3]
        builds = {s: [b["cards"] for b in state["builds"][s]] for s in state["seats"]}
        builds[seat] = [b["cards"] for b in keep]
        moved = [c for b in state["builds"][seat][3:] for c in b["cards"]]
        wl = {
            FIRST_WILD + k: lv
            for k, lv in enumerate(state["wild_levels"])
            if lv is not None and FIRST_WILD + k not in moved
        }
        state = make_state(state["hands"], turn=seat, builds=builds, wild_levels=wl)
    check(state, seat)


@pytest.mark.parametrize("seed", range(12))
def test_three_of_one_type_and_wilds_in_hand_list_what_apply_accepts(seed):
    """G5 (b): parts of one type and level go to different builds; wilds take the play's level."""
    rng = random.Random(seed)
    level = rng.randint(1, 3)
    same = [c for c in range(75) if PART[c] == seed % 3 and LEVEL[c] == level]
    hand = sorted(rng.sample(same, 3) + rng.sample(range(FIRST_WILD, DECK_SIZE), 2))
    other = [c for c in range(75) if c not in hand]
    builds = {"A": [[other[0]], [other[30], other[60]]], "B": [[other[10]]]}
    if PART[other[30]] == PART[other[60]]:
        builds["A"][1] = [other[30]]
    state = make_state({"A": hand, "B": []}, builds=builds)
    listed = check(state, "A")
    assert any(len(a.get("cards", [])) == 3 for a in listed)
    assert all(not IS_WILD[c] or "level" in a for a in listed for c in a.get("cards", []))


def test_why_illegal_says_why_as_apply_does_and_changes_nothing():
    """The refusal a player reads is the move generator's, for a seat that may not act, for
    something that is not an action, and for each kind of action (G6's re-declared wild, G8)."""
    state = make_state(
        {"A": [part("frame", 2), part("wheels", 1)], "B": [part("frame", 3)]},
        builds={"A": [[part("handlebars", 2)], [WILD_WHEELS]]},
        wild_levels={WILD_WHEELS: 2},
    )
    before = json.dumps(state, sort_keys=True)
    wild_build = state["builds"]["A"][1]["id"]
    cases = [
        ("B", {"type": "pass"}, "It is Player A's turn."),
        ("C", {"type": "pass"}, "'C' is not a seat in this game."),
        ("A", [1], "An action must be an object with a type."),
        ("A", {"type": "zoom"}, "Unknown action type 'zoom'."),
        (
            "A",
            {"type": "discard", "card": part("frame", 2)},
            "You have a legal play, so you cannot discard.",
        ),
        ("A", {"type": "pass"}, "You can only pass when your hand is empty."),
        (
            "A",
            {"type": "rearrange", "card": WILD_WHEELS, "to": "new", "level": 2},
            "Moving the only part of a build to a new build changes nothing.",
        ),
        (
            "A",
            {
                "type": "play",
                "cards": [part("frame", 2), part("wheels", 1)],
                "builds": ["new1"] * 2,
            },
            "Parts played together must all be of the same level.",
        ),
        (
            "A",
            {"type": "play", "cards": [part("frame", 2)], "builds": [wild_build]},
            None,
        ),
    ]
    for seat, action, sentence in cases:
        assert why_illegal(state, seat, action) == sentence, action
        if sentence is None:
            engine.apply(state, seat, action)
        else:
            with pytest.raises(engine.IllegalMove) as refusal:
                engine.apply(state, seat, action)
            assert refusal.value.message == sentence
    redeclared = {"type": "rearrange", "card": WILD_WHEELS, "to": "new", "level": 3}
    assert why_illegal(state, "A", redeclared) is None  # G6: a move when the level changes
    assert json.dumps(state, sort_keys=True) == before


def test_the_sequence_reads_as_a_list():
    state, seat = random_position(random.Random(3), 4)
    legal = engine.legal_actions(state, seat)
    assert isinstance(legal, LegalActions)
    listed = [engine.legal_actions(state, seat)[i] for i in range(len(legal))]  # one by index
    assert json.dumps(list(legal)) == json.dumps(listed)  # key order too
    assert legal and bool(legal) == bool(listed)
    assert legal == listed and listed == legal and legal == engine.legal_actions(state, seat)
    assert legal != listed[:-1] and legal != tuple(listed)
    assert listed[0] in legal and {"type": "nonsense"} not in legal
    assert list(reversed(legal)) == listed[::-1]
    assert legal[1:3] == listed[1:3] and legal[-1] == listed[-1]
    assert legal.index(listed[2]) == listed.index(listed[2])
    assert repr(legal) == repr(listed)
    kinds = [a["type"] for a in listed]
    r = legal.rearranges
    assert all(k == "rearrange" for k in kinds[r.start : r.stop])
    assert kinds.count("rearrange") == len(r)
    with pytest.raises(IndexError):
        legal[len(listed)]
    with pytest.raises(IndexError):
        engine.legal_actions(state, seat)[-len(listed) - 1]
    with pytest.raises(TypeError):
        legal["0"]
    with pytest.raises(TypeError):
        hash(legal)
    assert engine.legal_actions(state, str(int(seat) % 4 + 1)) == []  # not that seat's turn


@pytest.mark.parametrize("levels", list(itertools.product([None, 1, 2, 3, 4, 5], repeat=3)))
def test_placed_keys_is_part_key_for_every_card(levels):
    """G12: the move generator's one table of the keys on the table (a wild's at its declared
    level) says what part_key says, card by card; a wild in no build and an Action card have
    no part key."""
    wl = list(levels)
    keys = placed_keys(wl)
    assert len(keys) == DECK_SIZE
    for c in range(DECK_SIZE):
        if not IS_PART[c]:
            assert keys[c] == NO_PART
        elif IS_WILD[c]:
            lv = wl[c - FIRST_WILD]
            assert keys[c] == (NO_PART if lv is None else part_key(c, lv))
        else:
            assert keys[c] == part_key(c, LEVEL[c])
