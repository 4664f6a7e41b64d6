"""Helpers for the Geared engine tests: card ids by name and hand-built positions."""

from __future__ import annotations

import random

from games.engines.geared import engine
from games.engines.geared.cards import DECK_SIZE, FIRST_WILD, IS_PART, LEVEL, PART, PART_TYPES

WILD_FRAME, WILD_HANDLEBARS, WILD_WHEELS = 93, 94, 95


def part(kind: str, level: int, copy: int = 0) -> int:
    """The id of the `copy`-th printed part of this type and level."""
    t = PART_TYPES.index(kind)
    ids = [c for c in range(75) if PART[c] == t and LEVEL[c] == level]
    return ids[copy]


def remove(copy: int = 0) -> int:
    return 75 + copy


def steal(copy: int = 0) -> int:
    return 81 + copy


def swap(copy: int = 0) -> int:
    return 87 + copy


def make_state(
    hands: dict[str, list[int]],
    *,
    turn: str | None = None,
    draw: list[int] | None = None,
    discard: list[int] | None = None,
    builds: dict[str, list[list[int]]] | None = None,
    bikes: dict[str, list[list[int]]] | None = None,
    wild_levels: dict[int, int] | None = None,
    scores: dict[str, int] | None = None,
    target: int = 1000,
    names: dict[str, str] | None = None,
    fill_draw: bool = True,
) -> dict:
    """A position with the given hands, builds, bikes and piles. `draw` lists the cards in the
    order they will be drawn; every card not placed elsewhere goes under it unless `fill_draw`
    is False (then it is set aside in the discard pile's bottom)."""
    seats = list(hands)
    state = engine.new_game(seats, seed=0, options={"target": target, "names": names or {}})
    builds = builds or {}
    bikes = bikes or {}
    used: list[int] = []
    state["hands"] = {s: sorted(h) for s, h in hands.items()}
    used += [c for h in hands.values() for c in h]
    state["builds"] = {s: [] for s in seats}
    next_id = 1
    for s in seats:
        for cards in builds.get(s, []):
            state["builds"][s].append({"id": next_id, "cards": list(cards)})
            next_id += 1
            used += cards
    state["next_build_id"] = next_id
    wl = [None, None, None]
    for c, lv in (wild_levels or {}).items():
        wl[c - WILD_FRAME] = lv
    state["wild_levels"] = wl
    state["bikes"] = {s: [] for s in seats}
    state["scored"] = {s: [] for s in seats}
    from games.engines.geared.builds import score

    for s in seats:
        for cards in bikes.get(s, []):
            ent = [(c, wl[c - 93] if c >= 93 else LEVEL[c]) for c in cards]
            points, is_set, lv = score(ent)
            bike = {"cards": list(cards), "points": points, "set": is_set, "level": lv}
            state["bikes"][s].append(bike)
            state["scored"][s].append(bike)
            used += cards
    state["scores"] = {s: sum(b["points"] for b in state["scored"][s]) for s in seats}
    if scores:
        # Extra points from bikes scored before a reshuffle, recorded without cards.
        for s, pts in scores.items():
            extra = pts - state["scores"][s]
            if extra:
                state["scored"][s].append(
                    {"cards": [], "points": extra, "set": False, "level": None}
                )
            state["scores"][s] = pts
    discard = list(discard or [])
    used += discard
    top = list(draw or [])
    used += top
    assert len(used) == len(set(used)), "a card is placed twice"
    rest = [c for c in range(DECK_SIZE) if c not in set(used)]
    if fill_draw:
        state["draw"] = rest + top[::-1]
        state["discard"] = discard
    else:
        state["draw"] = top[::-1]
        state["discard"] = rest + discard
    state["turn"] = seats.index(turn or seats[0])
    state["events"] = []
    return state


def all_cards(state: dict) -> list[int]:
    cards = list(state["draw"]) + list(state["discard"])
    for s in state["seats"]:
        cards += state["hands"][s]
        for b in state["builds"][s]:
            cards += b["cards"]
        for bike in state["bikes"][s]:
            cards += bike["cards"]
    return cards


def check_invariants(state: dict) -> None:
    """All 96 cards exactly once; scores are the sums of scored bikes; wild levels coherent."""
    cards = all_cards(state)
    assert sorted(cards) == list(range(DECK_SIZE))
    for s in state["seats"]:
        assert state["scores"][s] == sum(b["points"] for b in state["scored"][s])
        for b in state["builds"][s]:
            assert 1 <= len(b["cards"]) <= 2
    on_table = {c for s in state["seats"] for b in state["builds"][s] for c in b["cards"]}
    for k, lv in enumerate(state["wild_levels"]):
        assert (lv is not None) == (93 + k in on_table)


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
