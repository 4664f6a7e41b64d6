"""Every legal action of the active player (G5-G8, G13-G16), in the order the page lists them:
plays, Action cards, rearrangements, then discard or pass."""

from __future__ import annotations

from itertools import combinations

from games.geared.builds import common_level, entries_ok
from games.geared.cards import ACTION, FIRST_WILD, IS_PART, IS_WILD, LEVEL, TYPE_BIT

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


def _plays(parts: list[int], infos: list, acts: list[dict]) -> None:
    for size in (1, 2, 3):
        if size > len(parts):
            break
        for combo in combinations(parts, size):
            printed = {LEVEL[c] for c in combo if not IS_WILD[c]}
            if len(printed) > 1:
                continue
            has_wild = any(IS_WILD[c] for c in combo)
            for level in printed or ALL_LEVELS:
                _assign(combo, level, has_wild, infos, acts)


def _assign(combo: tuple, level: int, has_wild: bool, infos: list, acts: list[dict]) -> None:
    """Every destination assignment of `combo`'s cards (all at `level`) with canonical labels."""
    n = len(combo)
    masks = {info[0]: info[1] for info in infos}
    new_masks = [0, 0, 0]
    dests: list = [None] * n

    def rec(i: int, used_new: int) -> None:
        if i == n:
            action = {"type": "play", "cards": list(combo), "builds": list(dests)}
            if has_wild:
                action["level"] = level
            acts.append(action)
            return
        c = combo[i]
        bit = TYPE_BIT[c]
        wild = IS_WILD[c]
        for bid, _, b_wild, b_level in infos:
            m = masks[bid]
            if m & bit:
                continue
            if (wild or b_wild) and b_level != level:
                continue
            masks[bid] = m | bit
            dests[i] = bid
            rec(i + 1, used_new)
            masks[bid] = m
        for k in range(min(used_new + 1, 3)):
            m = new_masks[k]
            if m & bit:
                continue
            new_masks[k] = m | bit
            dests[i] = NEW_LABELS[k]
            rec(i + 1, max(used_new, k + 1))
            new_masks[k] = m

    rec(0, 0)


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


def _swap_ok(wl: list, build: list[int], leaving: int, arriving: int, level: int) -> bool:
    others = _entries(wl, [c for c in build if c != leaving])
    if IS_WILD[arriving] and others:
        level = common_level(others)
        if level is None:
            return False
    others.append((arriving, level))
    return entries_ok(others)


def _swaps(state: dict, seat: str, wc: int, acts: list[dict]) -> None:
    wl = state["wild_levels"]
    mine_builds = state["builds"][seat]
    if not mine_builds:
        return
    for owner in state["seats"]:
        if owner == seat:
            continue
        for tb in state["builds"][owner]:
            for mb in mine_builds:
                for m in mb["cards"]:
                    m_level = wl[m - FIRST_WILD] if IS_WILD[m] else LEVEL[m]
                    for t in tb["cards"]:
                        t_level = wl[t - FIRST_WILD] if IS_WILD[t] else LEVEL[t]
                        if _swap_ok(wl, mb["cards"], m, t, t_level) and _swap_ok(
                            wl, tb["cards"], t, m, m_level
                        ):
                            acts.append({"type": "swap", "card": wc, "mine": m, "theirs": t})


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
