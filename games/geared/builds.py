"""What a build may hold (G9, G12) and what a complete bike scores (G11).

A build is described here by entries: a list of (card id, level) pairs, where a wild's level is
its declared level.
"""

from __future__ import annotations

from games.geared.cards import IS_WILD, PART, PART_NAMES, TYPE_BIT, part_value, set_value

Entries = list[tuple[int, int]]


def common_level(entries: Entries) -> int | None:
    """The level shared by every entry, or None when they differ (or there are none)."""
    if not entries:
        return None
    level = entries[0][1]
    for _, lv in entries:
        if lv != level:
            return None
    return level


def placement_ok(existing: Entries, incoming: Entries) -> bool:
    """True exactly when placement_error finds nothing to say (the fast path of apply)."""
    present = 0
    wild = False
    for c, _ in existing:
        present |= TYPE_BIT[c]
        if IS_WILD[c]:
            wild = True
    for c, _ in incoming:
        bit = TYPE_BIT[c]
        if present & bit:
            return False
        present |= bit
        if IS_WILD[c]:
            wild = True
    if wild:
        level = existing[0][1] if existing else incoming[0][1]
        for _, lv in existing:
            if lv != level:
                return False
        for _, lv in incoming:
            if lv != level:
                return False
    return True


def placement_error(existing: Entries, incoming: Entries, whose: str = "Your") -> str | None:
    """Why `incoming` cannot join a build holding `existing` (G9, G12), or None if it can."""
    present = {PART[c]: c for c, _ in existing}
    for c, _ in incoming:
        t = PART[c]
        if t in present:
            if present[t] in dict(existing):
                return f"{whose} build already has {_article(PART_NAMES[t])}."
            return f"Two {PART_NAMES[t]} parts cannot go into the same build."
        present[t] = c
    everything = existing + incoming
    if any(IS_WILD[c] for c, _ in everything) and common_level(everything) is None:
        old_wild = [lv for c, lv in existing if IS_WILD[c]]
        if old_wild:
            lv = old_wild[0]
            return f"That build holds a wild at Level {lv}: every part in it must be Level {lv}."
        shared = common_level(existing)
        if shared is not None:
            return f"A wild in this build must be Level {shared}."
        if existing:
            return "A wild can only join a build whose parts all share one level."
        return "A wild's build must have all of its parts at one level."
    return None


def _article(name: str) -> str:
    return f"a {name}" if name != "Handlebars" else "Handlebars"


def score(entries: Entries) -> tuple[int, bool, int | None]:
    """G11: (points, is a set, the set's level or None) of a complete bike."""
    level = common_level(entries)
    if level is not None:
        return set_value(level), True, level
    return sum(part_value(lv) for _, lv in entries), False, None
