"""Every legal action of the active player (G5-G8, G13-G16), in the order the page lists them:
plays, Action cards, rearrangements, then discard or pass."""

from __future__ import annotations

from itertools import combinations, product

from games.geared.builds import common_level
from games.geared.cards import ACTION, FIRST_WILD, IS_PART, IS_WILD, LEVEL, PART, TYPE_BIT

NEW_LABELS = ("new1", "new2", "new3")
ALL_LEVELS = (1, 2, 3, 4, 5)


def _entries(wl: list, cards: list[int]) -> list[tuple[int, int]]:
    return [(c, wl[c - FIRST_WILD] if IS_WILD[c] else LEVEL[c]) for c in cards]


def _mask(cards: list[int]) -> int:
    m = 0
    for c in cards:
        m |= TYPE_BIT[c]
    return m


def _build_info(wl: list, build: dict) -> tuple[int, int, bool, int | None]:
    """(id, type mask, holds a wild, the level all its parts share or None)."""
    cards = build["cards"]
    return (
        build["id"],
        _mask(cards),
        any(IS_WILD[c] for c in cards),
        common_level(_entries(wl, cards)),
    )


def legal_actions(state: dict, seat: str) -> list[dict]:
    hand = state["hands"][seat]
    wl = state["wild_levels"]
    acts: list[dict] = []
    infos = [_build_info(wl, b) for b in state["builds"][seat]]
    parts = [c for c in hand if IS_PART[c]]
    if parts:
        _plays(parts, infos, acts)
    _action_cards(state, seat, hand, acts)
    can_play = bool(acts)
    _rearranges(state, seat, infos, acts)
    if not hand:
        acts.append({"type": "pass"})
    elif not can_play:
        for c in _lowest_copies(hand):
            acts.append({"type": "discard", "card": c})
    return acts


def has_play(state: dict, seat: str) -> bool:
    """G8: whether a play (Parts or Action card) is legal in the position as it stands."""
    hand = state["hands"][seat]
    if any(IS_PART[c] for c in hand):
        return True
    acts: list[dict] = []
    _action_cards(state, seat, hand, acts)
    return bool(acts)


def _lowest_copies(hand: list[int]) -> list[int]:
    """Each Parts card, and the lowest-id copy of each kind of Action card."""
    seen: set[int] = set()
    out = []
    for c in hand:  # hands are sorted
        a = ACTION[c]
        if a >= 0:
            if a in seen:
                continue
            seen.add(a)
        out.append(c)
    return out


# Restricted growth strings: every way to spread k cards over new builds, labels in order.
_NEW_PATTERNS = {
    0: ((),),
    1: ((0,),),
    2: ((0, 0), (0, 1)),
    3: ((0, 0, 0), (0, 0, 1), (0, 1, 0), (0, 1, 1), (0, 1, 2)),
}
_NEW = -1


def _plays(parts: list[int], infos: list, acts: list[dict]) -> None:
    for size in (1, 2, 3):
        if size > len(parts):
            break
        for combo in combinations(parts, size):
            printed = {LEVEL[c] for c in combo if not IS_WILD[c]}
            if len(printed) > 1:
                continue
            has_wild = any(IS_WILD[c] for c in combo)
            clashes = [
                (i, j)
                for i in range(size)
                for j in range(i + 1, size)
                if TYPE_BIT[combo[i]] == TYPE_BIT[combo[j]]
            ]
            for level in printed or ALL_LEVELS:
                _assign(combo, level, has_wild, clashes, infos, acts)


def _assign(
    combo: tuple, level: int, has_wild: bool, clashes: list, infos: list, acts: list[dict]
) -> None:
    """Every destination assignment of `combo`'s cards (all at `level`) with canonical labels.

    All cards of a play share one level, so whether a card may join an existing build depends
    only on that build as it stands; the one interaction is two parts of a type in one build."""
    candidates = []
    for c in combo:
        bit = TYPE_BIT[c]
        wild = IS_WILD[c]
        candidates.append(
            [
                bid
                for bid, mask, b_wild, b_level in infos
                if not mask & bit and (not (wild or b_wild) or b_level == level)
            ]
            + [_NEW]
        )
    cards = list(combo)
    for choice in product(*candidates):
        fresh = [i for i, d in enumerate(choice) if d == _NEW]
        for pattern in _NEW_PATTERNS[len(fresh)]:
            dests: list = list(choice)
            for k, i in enumerate(fresh):
                dests[i] = NEW_LABELS[pattern[k]]
            if clashes and any(dests[i] == dests[j] for i, j in clashes):
                continue
            action = {"type": "play", "cards": cards[:], "builds": dests}
            if has_wild:
                action["level"] = level
            acts.append(action)


def _action_cards(state: dict, seat: str, hand: list[int], acts: list[dict]) -> None:
    copies = {}
    for c in hand:
        a = ACTION[c]
        if a >= 0 and a not in copies:
            copies[a] = c
    if not copies:
        return
    builds = state["builds"]
    if 0 in copies:
        rc = copies[0]
        for owner in state["seats"]:
            for b in builds[owner]:
                for t in b["cards"]:
                    acts.append({"type": "remove", "card": rc, "target": t})
    if 1 in copies:
        _steals(state, seat, copies[1], acts)
    if 2 in copies:
        _swaps(state, seat, copies[2], acts)


def _steals(state: dict, seat: str, sc: int, acts: list[dict]) -> None:
    wl = state["wild_levels"]
    infos = [_build_info(wl, b) for b in state["builds"][seat]]
    for owner in state["seats"]:
        if owner == seat:
            continue
        for b in state["builds"][owner]:
            for t in b["cards"]:
                bit = TYPE_BIT[t]
                if IS_WILD[t]:
                    for bid, m, _, b_level in infos:
                        if not m & bit and b_level is not None:
                            acts.append(
                                {
                                    "type": "steal",
                                    "card": sc,
                                    "target": t,
                                    "to": bid,
                                    "level": b_level,
                                }
                            )
                    for lv in ALL_LEVELS:
                        acts.append(
                            {"type": "steal", "card": sc, "target": t, "to": "new", "level": lv}
                        )
                else:
                    lv = LEVEL[t]
                    for bid, m, b_wild, b_level in infos:
                        if not m & bit and (not b_wild or b_level == lv):
                            acts.append({"type": "steal", "card": sc, "target": t, "to": bid})
                    acts.append({"type": "steal", "card": sc, "target": t, "to": "new"})


def _fits_beside(other: tuple | None, arriving: tuple) -> bool:
    """G9, G12 for a swapped part arriving beside the one part left in a build (or alone).
    Incomplete builds hold at most two parts, so at most one stays; an arriving wild takes its
    level (ruling), so only a non-wild arriving beside a wild must match the wild's level."""
    if other is None:
        return True
    o_card, o_type, o_level = other
    a_card, a_type, a_level = arriving
    if o_type == a_type:
        return False
    return not IS_WILD[o_card] or IS_WILD[a_card] or a_level == o_level


def _parts(wl: list, build: dict) -> list[tuple[int, int, int]]:
    return [(c, PART[c], wl[c - FIRST_WILD] if IS_WILD[c] else LEVEL[c]) for c in build["cards"]]


def _swaps(state: dict, seat: str, wc: int, acts: list[dict]) -> None:
    wl = state["wild_levels"]
    mine = [_parts(wl, b) for b in state["builds"][seat]]
    if not mine:
        return
    mine_pairs = []  # (my part, the part that stays beside it)
    for parts in mine:
        for i, p in enumerate(parts):
            mine_pairs.append((p, parts[1 - i] if len(parts) == 2 else None))
    for owner in state["seats"]:
        if owner == seat:
            continue
        for build in state["builds"][owner]:
            parts = _parts(wl, build)
            for j, t in enumerate(parts):
                t_other = parts[1 - j] if len(parts) == 2 else None
                for m, m_other in mine_pairs:
                    if _fits_beside(m_other, t) and _fits_beside(t_other, m):
                        acts.append({"type": "swap", "card": wc, "mine": m[0], "theirs": t[0]})


def _rearranges(state: dict, seat: str, infos: list, acts: list[dict]) -> None:
    wl = state["wild_levels"]
    builds = state["builds"][seat]
    for src in builds:
        single = len(src["cards"]) == 1
        for c in src["cards"]:
            bit = TYPE_BIT[c]
            if IS_WILD[c]:
                for bid, m, _, b_level in infos:
                    if bid != src["id"] and not m & bit and b_level is not None:
                        acts.append({"type": "rearrange", "card": c, "to": bid, "level": b_level})
                current = wl[c - FIRST_WILD]
                for lv in ALL_LEVELS:
                    if not single or lv != current:
                        acts.append({"type": "rearrange", "card": c, "to": "new", "level": lv})
            else:
                lv = LEVEL[c]
                for bid, m, b_wild, b_level in infos:
                    if bid != src["id"] and not m & bit and (not b_wild or b_level == lv):
                        acts.append({"type": "rearrange", "card": c, "to": bid})
                if not single:
                    acts.append({"type": "rearrange", "card": c, "to": "new"})
