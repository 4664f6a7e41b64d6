"""Rules engine for Geared: Build Your Bike (shared/rules/geared.md, G1-G19). Pure: no I/O.

The state is a plain JSON-safe dict; `apply` returns a new state and never mutates its input.
What is legal lives in games/engines/geared/legal.py, the move generator: `legal_actions` lists it,
and `apply` asks its `checked` (the same rules, one action at a time, with the refusal's sentence:
`why_illegal`) before carrying an action out here. Views are games/engines/geared/viewing.py; what a
build may hold (G9, G12) is games/engines/geared/builds.py.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.engines.geared.bots import greedy_bot
from games.engines.geared.builds import score
from games.engines.geared.cards import (
    ACTION,
    DECK_SIZE,
    FIRST_WILD,
    HAND_SIZE,
    IS_PART,
    IS_WILD,
    LEVEL,
    PART,
)
from games.engines.geared.legal import checked
from games.engines.geared.legal import legal_actions as _legal_actions
from games.engines.geared.viewing import view
from games.engines.interface import IllegalMove, gettext_noop

__all__ = [
    "OPTIONS",
    "IllegalMove",
    "VERSION",
    "SIMULTANEOUS",
    "seat_range",
    "SCORE_KEYS",
    "scores_now",
    "new_game",
    "legal_actions",
    "apply",
    "view",
    "is_over",
    "result",
    "current_seat",
    "canonical_action",
    "to_act",
    "turn",
    "needs_resolution",
    "resolve",
    "timeout_actions",
]

NEW_LABELS = ("new1", "new2", "new3")


VERSION = 1  # games/engines/interface.py: bump when old records would replay differently
# The options new_game reads; a game record keeps these and no others (games/reads/records.py).
OPTIONS = frozenset({"target", "names"})
SIMULTANEOUS = False  # players take turns: any move makes a page stale
SEATS = (2, 6)
SCORE_KEYS = ("scores",)


def scores_now(parts: dict) -> dict[str, int]:
    return dict(parts["scores"])


def seat_range(options: dict) -> tuple[int, int]:
    return SEATS


# --- setup -------------------------------------------------------------------------------------


def new_game(seats: list[str], *, seed: int, options: dict | None = None) -> dict:
    """A fresh game (G4): dealer from the seed, 5 cards each dealt from the dealer's left."""
    options = dict(options or {})
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise ValueError("seats must be a list of strings")
    if not 2 <= len(seats) <= 6 or len(set(seats)) != len(seats):
        raise ValueError("Geared needs 2 to 6 distinct seats (G1)")
    target = options.get("target", 1000)
    if isinstance(target, bool) or not isinstance(target, int) or target <= 0:
        raise ValueError("target must be a positive integer")
    names = {s: f"Player {s}" for s in seats}
    for s, name in (options.get("names") or {}).items():
        if s in names and isinstance(name, str) and name.strip():
            names[s] = name
    rng = random.Random(seed)
    n = len(seats)
    dealer = rng.randrange(n)
    deck = list(range(DECK_SIZE))
    rng.shuffle(deck)
    hands: dict[str, list[int]] = {s: [] for s in seats}
    for _ in range(HAND_SIZE):
        for k in range(n):
            hands[seats[(dealer + 1 + k) % n]].append(deck.pop())
    return {
        "game": "geared",
        "seats": list(seats),
        "names": names,
        "target": target,
        "dealer": seats[dealer],
        "turn": (dealer + 1) % n,
        "turn_number": 1,
        "hands": {s: sorted(h) for s, h in hands.items()},
        "draw": deck,  # the top of the pile is the end of the list
        "discard": [],  # the top of the pile is the end of the list
        "builds": {s: [] for s in seats},  # [{"id": int, "cards": [card ids]}]
        "bikes": {s: [] for s in seats},  # completed bikes on the table (G10)
        "scored": {s: [] for s in seats},  # every bike ever scored; survives reshuffles
        "scores": {s: 0 for s in seats},
        "wild_levels": [None, None, None],  # declared level of each wild while in a build
        "next_build_id": 1,
        "rng": rng.getrandbits(64),
        "events": [],
        "over": False,
        "winners": [],
    }


# --- queries -----------------------------------------------------------------------------------


def current_seat(state: dict) -> str | None:
    return None if state["over"] else state["seats"][state["turn"]]


def to_act(state: dict) -> frozenset[str]:
    """The one seat whose turn it is (none once the game is over)."""
    seat = current_seat(state)
    return frozenset() if seat is None else frozenset((seat,))


def turn(state: dict) -> int:
    """Counts every player's turn: it changes when the next player's turn begins."""
    return int(state["turn_number"])


def news_mark(state: dict) -> int:
    events = state["events"]
    return events[-1]["n"] if events else 0


def needs_resolution(state: dict) -> bool:
    return False  # a Geared move takes effect at once


def resolve(state: dict) -> dict:
    raise IllegalMove(gettext_noop("A Geared turn has no resolution step."))


def timeout_actions(
    state: dict, rng: random.Random | None = None, *, last_chance: bool = False
) -> dict[str, dict]:
    """A missed turn is played by the greedy bot, from what the seat may see (G19), one action
    at a time: a rearrangement first if it likes, but on the `last_chance` a real play."""
    seat = current_seat(state)
    if seat is None:
        return {}
    legal = legal_actions(state, seat)
    action = greedy_bot(view(state, seat), legal, rng or random.Random(0))
    if last_chance and action["type"] == "rearrange":
        action = next(a for a in legal if a["type"] != "rearrange")
    return {seat: action}


def is_over(state: dict) -> bool:
    return state["over"]


def result(state: dict) -> dict:
    seats = state["seats"]
    scores = dict(state["scores"])
    ranking = sorted(seats, key=lambda s: (-scores[s], seats.index(s)))
    return {"scores": scores, "winners": list(state["winners"]), "ranking": ranking}


def legal_actions(state: dict, seat: str) -> Sequence[dict]:
    """A read-only sequence (games/engines/geared/legal.py): counted at once, each action built when
    it is read; [] when it is not `seat`'s turn."""
    if state["over"] or seat != state["seats"][state["turn"]]:
        return []
    return _legal_actions(state, seat)


# --- apply -------------------------------------------------------------------------------------


def apply(state: dict, seat: str, action: dict) -> dict:
    """The state after `seat` takes `action`; raises IllegalMove and leaves `state` untouched.

    Whether the rules allow it, and the sentence when they do not, is the move generator's
    (legal.checked, whose refusals legal.why_illegal words); this only carries it out."""
    facts = checked(state, seat, action)
    return _EFFECTS[action["type"]](state, seat, action, facts)


def canonical_action(state: dict, seat: str, action: dict) -> dict:
    """The form legal_actions would list for an action that apply accepts.

    Cards of a play sorted by id with new-build labels renumbered in order of first appearance;
    an Action card (or a discarded card) replaced by the lowest-id copy of its kind in the hand.
    """
    a = dict(action)
    hand = state["hands"][seat]
    if a.get("type") == "play":
        pairs = sorted(zip(a["cards"], a["builds"], strict=True))
        labels: dict[str, str] = {}
        builds = []
        for _, dest in pairs:
            if isinstance(dest, str):
                dest = labels.setdefault(dest, NEW_LABELS[len(labels)])
            builds.append(dest)
        a["cards"] = [c for c, _ in pairs]
        a["builds"] = builds
    elif a.get("type") in ("remove", "steal", "swap") or (
        a.get("type") == "discard" and not IS_PART[a["card"]]
    ):
        a["card"] = min(c for c in hand if ACTION[c] == ACTION[a["card"]])
    return a


# `apply` works on a shallow copy of the state that shares every container (hands, builds,
# piles...) with the input until it is first written: callers treat states as read-only, so
# successive states share what did not change. Every write goes through the helpers below,
# which copy a container once per apply; the set of containers already copied is kept in the
# draft under the private key _OWN (not a string, so never a state field), removed at the end.
_OWN = object()


def _w(s: dict, key: str):
    """The top-level container `key` (a list or dict), writable."""
    own = s[_OWN]
    if key not in own:
        own.add(key)
        value = s[key]
        s[key] = value.copy()  # a list or a dict
    return s[key]


def _w_seat(s: dict, key: str, seat: str) -> list:
    """The list `s[key][seat]` ("hands", "bikes", "scored"), writable."""
    own = s[_OWN]
    mark = (key, seat)
    if mark not in own:
        own.add(mark)
        container = _w(s, key)
        container[seat] = container[seat].copy()
    return s[key][seat]


def _w_builds(s: dict, owner: str) -> list[dict]:
    """`owner`'s list of incomplete builds, writable (a build in it: _w_build)."""
    own = s[_OWN]
    mark = ("builds", owner)
    if mark not in own:
        own.add(mark)
        builds = _w(s, "builds")
        builds[owner] = builds[owner].copy()
    return s["builds"][owner]


def _w_build(s: dict, owner: str, build: dict) -> dict:
    """The writable copy of `build`, one of `owner`'s builds (found by its id) and its cards."""
    builds = _w_builds(s, owner)
    mark = ("build", build["id"])  # build ids are never reused
    own = s[_OWN]
    for i, b in enumerate(builds):
        if b["id"] == build["id"]:
            if mark not in own:
                own.add(mark)
                b = builds[i] = {"id": b["id"], "cards": b["cards"].copy()}
            return b
    raise AssertionError("build not found")  # pragma: no cover


def _level_of(s: dict, cid: int) -> int:
    return s["wild_levels"][cid - FIRST_WILD] if IS_WILD[cid] else LEVEL[cid]


def _entries(s: dict, cards: list[int]) -> list[tuple[int, int]]:
    return [(c, _level_of(s, c)) for c in cards]


# --- state changes -----------------------------------------------------------------------------


def _event(s: dict, seat: str | None, kind: str, **data: object) -> None:
    s["events"].append({"n": len(s["events"]) + 1, "seat": seat, "type": kind, **data})


def _new_build(s: dict, seat: str) -> dict:
    b = {"id": s["next_build_id"], "cards": []}
    s["next_build_id"] += 1
    _w_builds(s, seat).append(b)
    s[_OWN].add(("build", b["id"]))
    return b


def _take_from_build(s: dict, owner: str, build: dict, cid: int) -> None:
    """`build` must be writable (from _w_build / _w_builds)."""
    build["cards"].remove(cid)
    if not build["cards"]:
        s["builds"][owner] = [b for b in s["builds"][owner] if b is not build]


def _place(s: dict, build: dict, cid: int, level: int | None) -> None:
    build["cards"].append(cid)
    if IS_WILD[cid]:
        _w(s, "wild_levels")[cid - FIRST_WILD] = level


def _clear_wild(s: dict, cid: int) -> None:
    if IS_WILD[cid]:
        _w(s, "wild_levels")[cid - FIRST_WILD] = None


def _complete_if_full(s: dict, seat: str, build: dict) -> None:
    """G10, G11: score a complete build at once and set it aside as a bike."""
    if len(build["cards"]) < 3:
        return
    cards = sorted(build["cards"], key=lambda c: PART[c])
    points, is_set, level = score(_entries(s, cards))
    s["builds"][seat] = [b for b in s["builds"][seat] if b is not build]
    for c in cards:
        _clear_wild(s, c)
    bike = {"cards": cards, "points": points, "set": is_set, "level": level}
    _w_seat(s, "bikes", seat).append(bike)
    _w_seat(s, "scored", seat).append(bike)
    _w(s, "scores")[seat] += points
    events = s["events"]
    events.append(
        {
            "n": len(events) + 1,
            "seat": seat,
            "type": "completed",
            "build": build["id"],
            "cards": cards,
            "points": points,
            "set": is_set,
            "level": level,
        }
    )


def _reached_target(s: dict, seat: str) -> bool:
    """G18: the game ends at once when the active player reaches the target."""
    if s["scores"][seat] < s["target"]:
        return False
    _finish(s, seat, [seat])
    return True


def _finish(s: dict, seat: str | None, winners: list[str]) -> None:
    s["over"] = True
    s["winners"] = winners
    _event(s, seat, "game_over", winners=list(winners), scores=dict(s["scores"]))


def _reshuffle(s: dict, seat: str) -> bool:
    """G17: the discard pile and every completed bike become the new draw pile."""
    pile = list(s["discard"])
    bikes = 0
    all_bikes = _w(s, "bikes")
    for owner in s["seats"]:
        for bike in all_bikes[owner]:
            pile.extend(bike["cards"])
            bikes += 1
        all_bikes[owner] = []
        s[_OWN].add(("bikes", owner))
    if not pile:
        return False
    for c in pile:
        _clear_wild(s, c)
    s["discard"] = []
    s[_OWN].add("discard")
    rng = random.Random(s["rng"])
    rng.shuffle(pile)
    s["rng"] = rng.getrandbits(64)
    s["draw"] = pile
    s[_OWN].add("draw")
    _event(s, seat, "reshuffled", count=len(pile), bikes=bikes)
    return True


def _end_turn(s: dict, seat: str, draw_count: int) -> None:
    """G7: draw as many cards as were played, then the next seat in order plays."""
    draw = s["draw"]
    if 0 < draw_count <= len(draw):  # no reshuffle: take the top cards, top first
        drawn = draw[: -draw_count - 1 : -1]
        s["draw"] = draw[:-draw_count]
        s[_OWN].add("draw")
    else:
        drawn = []
        for _ in range(draw_count):
            if not s["draw"] and not _reshuffle(s, seat):
                break
            drawn.append(_w(s, "draw").pop())
    if drawn:
        _w(s, "hands")[seat] = sorted(s["hands"][seat] + drawn)
        s[_OWN].add(("hands", seat))
        events = s["events"]
        events.append(
            {
                "n": len(events) + 1,
                "seat": seat,
                "type": "drew",
                "count": len(drawn),
                "cards": drawn,
            }
        )
    s["turn"] = (s["turn"] + 1) % len(s["seats"])
    s["turn_number"] += 1
    # G8 corner (ruling): with every hand and the draw pile empty nobody can ever draw again.
    if not s["draw"] and not any(s["hands"].values()):
        best = max(s["scores"].values())
        _finish(s, None, [p for p in s["seats"] if s["scores"][p] == best])


def _discard_action_card(s: dict, seat: str, cid: int) -> None:
    _w_seat(s, "hands", seat).remove(cid)
    _w(s, "discard").append(cid)


# --- the actions -------------------------------------------------------------------------------
# One function per action, given the action once legal.checked has accepted it and what the
# check found (the facts: the parts located, the levels; see each legal._check_*): it builds the
# new state with copies of only what changes (the rest is shared with the input, see _w).


def _do_play(state: dict, seat: str, a: dict, facts: tuple) -> dict:
    """G5 (a), (b): one to three parts of one level, into existing or new builds; then G10
    completions, G18 and the G7 draw."""
    cards = a["cards"]
    if len(cards) == 1:  # the common case, without grouping
        level, wild, index, dest = facts
        return _play_one(state, seat, cards[0], index, dest, level, wild)
    level, wild, groups, order = facts
    mine = state["builds"][seat]
    wl = state["wild_levels"]
    new = state.copy()
    events = new["events"] = state["events"].copy()
    new["hands"] = state["hands"].copy()
    hand = state["hands"][seat]
    my_hand = [c for c in hand if c not in cards]
    my_builds = mine.copy()
    new["builds"] = builds = state["builds"].copy()
    builds[seat] = my_builds
    if wild:
        wl = new["wild_levels"] = wl.copy()
    next_id = state["next_build_id"]
    full = []
    for dest, (index, group) in groups.items():
        if index < 0:
            build = {"id": next_id, "cards": group.copy()}
            next_id += 1
            my_builds.append(build)
            order = [build["id"] if d == dest else d for d in order]
        else:
            b = mine[index]
            build = my_builds[index] = {"id": dest, "cards": [*b["cards"], *group]}
        if wild:
            for c in group:
                if IS_WILD[c]:
                    wl[c - FIRST_WILD] = level
        if len(build["cards"]) >= 3:
            full.append(build)
    if next_id != state["next_build_id"]:
        new["next_build_id"] = next_id
    events.append(
        {
            "n": len(events) + 1,
            "seat": seat,
            "type": "played",
            "cards": sorted(cards),
            "builds": order,
            "level": level if wild else None,
        }
    )
    return _close(new, state, seat, my_hand, full, len(cards))


def _play_one(state: dict, seat: str, c: int, index: int, dest: object, level: int, wild: bool):
    """_do_play's changes for one checked card `c` into `mine[index]` (-1: a new build)."""
    new = state.copy()
    events = new["events"] = state["events"].copy()
    new["hands"] = state["hands"].copy()
    my_hand = state["hands"][seat].copy()
    my_hand.remove(c)
    mine = state["builds"][seat]
    my_builds = mine.copy()
    new["builds"] = builds = state["builds"].copy()
    builds[seat] = my_builds
    if index < 0:
        bid = state["next_build_id"]
        build = {"id": bid, "cards": [c]}
        my_builds.append(build)
        new["next_build_id"] = bid + 1
    else:
        bid = dest
        build = my_builds[index] = {"id": bid, "cards": [*mine[index]["cards"], c]}
    if wild:
        wl = new["wild_levels"] = state["wild_levels"].copy()
        wl[c - FIRST_WILD] = level
    events.append(
        {
            "n": len(events) + 1,
            "seat": seat,
            "type": "played",
            "cards": [c],
            "builds": [bid],
            "level": level if wild else None,
        }
    )
    return _close(new, state, seat, my_hand, [build] if len(build["cards"]) >= 3 else [], 1)


def _close(new: dict, state: dict, seat: str, my_hand: list, full: list, n: int) -> dict:
    """The end of a play or steal: the completed builds `full` (G10, G11), G18, then the draw of
    n cards (G7). `new` holds copies of the hands and of whatever the action changed."""
    if not full and state["scores"][seat] < state["target"]:
        return _next_turn(new, state, seat, my_hand, n)
    new["hands"][seat] = my_hand
    new[_OWN] = set()  # the draft's helpers from here: they copy again what they change
    for build in full:
        _complete_if_full(new, seat, build)
    if not _reached_target(new, seat):
        _end_turn(new, seat, n)
    del new[_OWN]
    return new


def _next_turn(new: dict, state: dict, seat: str, my_hand: list, n: int) -> dict:
    """G7: draw n cards (the top of the pile, top first) into `my_hand`, the seat's hand after
    its action, then the next seat plays. A reshuffle (or nothing to draw) goes to _end_turn."""
    draw = state["draw"]
    if not 0 < n <= len(draw):
        new["hands"][seat] = my_hand
        new[_OWN] = set()
        _end_turn(new, seat, n)
        del new[_OWN]
        return new
    drawn = draw[: -n - 1 : -1]
    new["draw"] = draw[:-n]
    my_hand += drawn
    my_hand.sort()
    new["hands"][seat] = my_hand
    events = new["events"]
    events.append({"n": len(events) + 1, "seat": seat, "type": "drew", "count": n, "cards": drawn})
    new["turn"] = (state["turn"] + 1) % len(state["seats"])
    new["turn_number"] = state["turn_number"] + 1
    return new


def _spent(state: dict, seat: str, card: int) -> tuple[dict, list, list]:
    """The new state after an Action card: copies of the state, its events and hands, the seat's
    hand without `card` (returned) and the discard pile with it on top; (new, events, hand)."""
    new = state.copy()
    events = new["events"] = state["events"].copy()
    new["hands"] = state["hands"].copy()
    my_hand = state["hands"][seat].copy()
    my_hand.remove(card)
    new["discard"] = [*state["discard"], card]
    return new, events, my_hand


def _without(builds: dict, owner: str, index: int, build: dict, cid: int) -> None:
    """`owner`'s build at `index` without part cid (gone if it empties), in `builds`, the new
    state's copy of the builds."""
    owned = builds[owner] = builds[owner].copy()
    left = build["cards"].copy()
    left.remove(cid)
    if left:
        owned[index] = {"id": build["id"], "cards": left}
    else:
        del owned[index]


def _do_remove(state: dict, seat: str, a: dict, facts: tuple) -> dict:
    """G13: one part of any incomplete build goes to the discard pile."""
    card, (target, owner, index, build) = facts
    new, events, my_hand = _spent(state, seat, card)
    new["discard"].insert(-1, target)  # the part, then the Remove card
    builds = new["builds"] = state["builds"].copy()
    _without(builds, owner, index, build, target)
    if IS_WILD[target]:
        wl = new["wild_levels"] = state["wild_levels"].copy()
        target_level = wl[target - FIRST_WILD]
        wl[target - FIRST_WILD] = None
    else:
        target_level = LEVEL[target]
    events.append(
        {
            "n": len(events) + 1,
            "seat": seat,
            "type": "removed",
            "card": card,
            "target": target,
            "target_level": target_level,
            "owner": owner,
            "source": build["id"],
        }
    )
    return _next_turn(new, state, seat, my_hand, 1)


def _do_steal(state: dict, seat: str, a: dict, facts: tuple) -> dict:
    """G14: take an opponent's part into one of one's builds or a new build."""
    card, target, owner, index, source, level, wild, at, dest = facts
    builds = state["builds"]
    wl = state["wild_levels"]
    mine = builds[seat]
    new, events, my_hand = _spent(state, seat, card)
    builds = new["builds"] = builds.copy()
    _without(builds, owner, index, source, target)
    mine = builds[seat] = mine.copy()
    if at < 0:
        bid = state["next_build_id"]
        dest = {"id": bid, "cards": [target]}
        mine.append(dest)
        new["next_build_id"] = bid + 1
    else:
        dest = mine[at] = {"id": dest["id"], "cards": [*mine[at]["cards"], target]}
    if wild:
        target_level = wl[target - FIRST_WILD]
        wl = new["wild_levels"] = wl.copy()
        wl[target - FIRST_WILD] = level
    else:
        target_level = level
    events.append(
        {
            "n": len(events) + 1,
            "seat": seat,
            "type": "stole",
            "card": card,
            "target": target,
            "target_level": target_level,
            "level": level if wild else None,
            "owner": owner,
            "source": source["id"],
            "to": dest["id"],
        }
    )
    return _close(new, state, seat, my_hand, [dest] if len(dest["cards"]) >= 3 else [], 1)


def _do_swap(state: dict, seat: str, a: dict, facts: tuple) -> dict:
    """G15: exchange one of one's parts with an opponent's part."""
    card, (mine, _, my_index, my_build), (theirs, owner, their_index, their_build), levels = facts
    wl = state["wild_levels"]
    mine_level = wl[mine - FIRST_WILD] if IS_WILD[mine] else LEVEL[mine]
    theirs_level = wl[theirs - FIRST_WILD] if IS_WILD[theirs] else LEVEL[theirs]
    new, events, my_hand = _spent(state, seat, card)
    builds = new["builds"] = state["builds"].copy()
    for who, i, build, out, into in (
        (seat, my_index, my_build, mine, theirs),
        (owner, their_index, their_build, theirs, mine),
    ):
        owned = builds[who] = builds[who].copy()
        cards = build["cards"].copy()
        cards[cards.index(out)] = into
        owned[i] = {"id": build["id"], "cards": cards}
    if IS_WILD[theirs] or IS_WILD[mine]:
        wl = new["wild_levels"] = wl.copy()
        if IS_WILD[theirs]:
            wl[theirs - FIRST_WILD] = levels[0]
        if IS_WILD[mine]:
            wl[mine - FIRST_WILD] = levels[1]
    events.append(
        {
            "n": len(events) + 1,
            "seat": seat,
            "type": "swapped",
            "card": card,
            "mine": mine,
            "mine_level": mine_level,
            "theirs": theirs,
            "theirs_level": theirs_level,
            "owner": owner,
            "my_build": my_build["id"],
            "their_build": their_build["id"],
        }
    )
    return _next_turn(new, state, seat, my_hand, 1)


# Rearranging, discarding and passing (rare) change a draft of the state (see _w).


def _drafted(handler):
    """An action made of the draft's helpers: `handler(draft, seat, facts)` changes a draft."""

    def run(state: dict, seat: str, a: dict, facts: object) -> dict:
        new = state.copy()
        new[_OWN] = set()
        new["events"] = state["events"].copy()  # every action records an event
        handler(new, seat, facts)
        del new[_OWN]
        return new

    run.__doc__ = handler.__doc__
    return run


def _rearrange(s: dict, seat: str, facts: tuple) -> None:
    """G6: move one of one's parts to another of one's builds or a new build; free."""
    card, source, target, level = facts
    if target is not None:
        target = _w_build(s, seat, target)
    source = _w_build(s, seat, source)
    _take_from_build(s, seat, source, card)
    if target is None:
        target = _new_build(s, seat)
    _place(s, target, card, level)
    _event(
        s,
        seat,
        "rearranged",
        card=card,
        level=level if IS_WILD[card] else None,
        source=source["id"],
        to=target["id"],
    )
    _complete_if_full(s, seat, target)
    _reached_target(s, seat)


def _discard(s: dict, seat: str, card: int) -> None:
    """G8: with no legal play, discard one card and draw one."""
    _discard_action_card(s, seat, card)
    _event(s, seat, "discarded", card=card)
    _end_turn(s, seat, 1)


def _pass(s: dict, seat: str, facts: None) -> None:
    """G8: a player with an empty hand passes and draws nothing."""
    _event(s, seat, "passed")
    _end_turn(s, seat, 0)


_EFFECTS = {
    "play": _do_play,
    "rearrange": _drafted(_rearrange),
    "remove": _do_remove,
    "steal": _do_steal,
    "swap": _do_swap,
    "discard": _drafted(_discard),
    "pass": _drafted(_pass),
}
