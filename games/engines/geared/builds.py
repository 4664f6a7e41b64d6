"""What a build may hold (G9, G12) and what a complete bike scores (G11): the one statement of
the placement rule, and the tables computed from it that the move generator and `apply` use.

A build is described here by entries: a list of (card id, level) pairs, where a wild's level is
its declared level. `placement_error` is the rule: why parts cannot join a build, in the words a
player reads, or None when they can. Everything else here is computed from it at import:

- a part is described by its *part key* (`part_key`): its type, its level (a wild's declared
  one) and whether it is a wild, 30 keys;
- a build by its *build key* (`build_key`): the types it holds, whether it holds a wild and the
  level its parts share (0: no part yet, 6: they differ);
- `FITS[build_key * 30 + part_key]` says whether that part may join that build;
  `JOINED[build_key * 30 + part_key]` is the build key after it has joined (parts join one at a
  time: a group fits exactly when each part fits the build holding the ones before it);
- `BESIDE[part_key * 30 + arriving]` says whether a swapped part may arrive beside the one part
  left in a build (G15, with the G12 ruling: an arriving wild takes that part's level);
  `BESIDE[ALONE * 30 + arriving]` (nothing left) is always true; `BESIDE_TYPES[left]` is the
  same row as a mask of types, when only the arriving part's type matters (-1 when not).
"""

from __future__ import annotations

from games.engines.geared.cards import (
    DECK_SIZE,
    FIRST_WILD,
    IS_PART,
    IS_WILD,
    LEVEL,
    LEVELS,
    PART,
    PART_NAMES,
    TYPE_BIT,
    part_value,
    set_value,
)
from games.engines.interface import IllegalMove, Term, gettext_noop

Entries = list[tuple[int, int]]

MIXED = 6  # a build key's level when its parts' levels differ
ALONE = 30  # BESIDE's row for a build that nothing is left in
NO_PART = -1  # the part key of an Action card


def common_level(entries: Entries) -> int | None:
    """The level shared by every entry, or None when they differ (or there are none)."""
    if not entries:
        return None
    level = entries[0][1]
    for _, lv in entries:
        if lv != level:
            return None
    return level


# "Your build already has a Frame.": one sentence per owner and part type, for the translators.
_ALREADY = {
    ("Your", 0): gettext_noop("Your build already has a Frame."),
    ("Your", 1): gettext_noop("Your build already has Handlebars."),
    ("Your", 2): gettext_noop("Your build already has a Wheels."),
    ("Their", 0): gettext_noop("Their build already has a Frame."),
    ("Their", 1): gettext_noop("Their build already has Handlebars."),
    ("Their", 2): gettext_noop("Their build already has a Wheels."),
}


def placement_error(
    existing: Entries, incoming: Entries, whose: str = "Your"
) -> IllegalMove | None:
    """Why `incoming` cannot join a build holding `existing` (G9, G12), or None if it can: the
    refusal (not raised)."""
    present = {PART[c]: c for c, _ in existing}
    for c, _ in incoming:
        t = PART[c]
        if t in present:
            if present[t] in dict(existing):
                return IllegalMove(_ALREADY[whose, t])
            return IllegalMove(
                gettext_noop("Two %(part)s parts cannot go into the same build."),
                part=Term("part", t, PART_NAMES[t]),
            )
        present[t] = c
    everything = existing + incoming
    if any(IS_WILD[c] for c, _ in everything) and common_level(everything) is None:
        old_wild = [lv for c, lv in existing if IS_WILD[c]]
        if old_wild:
            return IllegalMove(
                gettext_noop(
                    "That build holds a wild at Level %(level)s: every part in it must be "
                    "Level %(level)s."
                ),
                level=old_wild[0],
            )
        shared = common_level(existing)
        if shared is not None:
            return IllegalMove(
                gettext_noop("A wild in this build must be Level %(level)s."), level=shared
            )
        if existing:
            return IllegalMove(
                gettext_noop("A wild can only join a build whose parts all share one level.")
            )
        return IllegalMove(gettext_noop("A wild's build must have all of its parts at one level."))
    return None


def arrival_level(left: Entries, card: int, level: int) -> int | None:
    """G15 with the G12 ruling: the level part `card` (now at `level`) takes when a Swap moves
    it into a build where `left` stays: a wild takes the level the parts left there share (None
    when they differ), or keeps its level when it arrives alone; a printed part keeps its own."""
    if IS_WILD[card] and left:
        return common_level(left)
    return level


def score(entries: Entries) -> tuple[int, bool, int | None]:
    """G11: (points, is a set, the set's level or None) of a complete bike."""
    level = common_level(entries)
    if level is not None:
        return set_value(level), True, level
    return sum(part_value(lv) for _, lv in entries), False, None


# --- keys --------------------------------------------------------------------------------------

# A printed part's key; a wild's key at Level 1 (part_key adds 3 * (level - 1)).
PKEY = tuple(
    (15 + PART[c] if IS_WILD[c] else 3 * (LEVEL[c] - 1) + PART[c]) if IS_PART[c] else NO_PART
    for c in range(DECK_SIZE)
)
# The build key of a build holding only printed card c.
KEY1 = tuple(TYPE_BIT[c] | LEVEL[c] << 4 if IS_PART[c] else 0 for c in range(DECK_SIZE))


def part_key(c: int, level: int) -> int:
    """The key of part `c` at `level` (a printed part's own level; a wild's declared one)."""
    return PKEY[c] + 3 * (level - 1) if c >= FIRST_WILD else PKEY[c]


# A wild's part key at each level it may be declared at (and NO_PART while it is in no build).
_WILD_KEYS = tuple(
    {None: NO_PART, **{lv: part_key(c, lv) for lv in LEVELS}} for c in range(FIRST_WILD, DECK_SIZE)
)
_PRINTED_KEYS = PKEY[:FIRST_WILD]


def placed_keys(wl: list) -> tuple[int, ...]:
    """Each card's part key as the table shows it, indexed by card id: a printed part's own,
    a wild's at the level declared for it (`wl`: state["wild_levels"]; NO_PART for a wild in
    no build, and for an Action card): `part_key` for every card at once."""
    w0, w1, w2 = wl
    k0, k1, k2 = _WILD_KEYS
    return _PRINTED_KEYS + (k0[w0], k1[w1], k2[w2])


def key_parts(key: int) -> tuple[int, int, bool]:
    """(type, level, is a wild) of a part key."""
    wild = key >= 15
    k = key - 15 if wild else key
    return k % 3, k // 3 + 1, wild


def build_key(wl: list, cards: list[int]) -> int:
    """The key of a build holding `cards`; `wl` is state["wild_levels"]."""
    if len(cards) == 1 and cards[0] < FIRST_WILD:
        return KEY1[cards[0]]
    mask = wild = level = 0
    for c in cards:
        mask |= TYPE_BIT[c]
        if c >= FIRST_WILD:
            wild = 8
            lv = wl[c - FIRST_WILD]
        else:
            lv = LEVEL[c]
        if not level:
            level = lv
        elif level != lv:
            level = MIXED
    return mask | wild | level << 4


def entries_key(entries: Entries) -> int:
    """build_key of a build holding `entries`."""
    mask = wild = level = 0
    for c, lv in entries:
        mask |= TYPE_BIT[c]
        if IS_WILD[c]:
            wild = 8
        if not level:
            level = lv
        elif level != lv:
            level = MIXED
    return mask | wild | level << 4


def _example(key: int) -> Entries | None:
    """Entries of a build with this key; None when no build can have it (a wild among parts
    that do not share a level, a mixed level with fewer than two parts...)."""
    mask, wild, level = key & 7, key & 8, key >> 4
    types = [t for t in range(3) if mask >> t & 1]
    if not types:
        return [] if not wild and not level else None
    if not level or level > MIXED or (level == MIXED and (wild or len(types) < 2)):
        return None
    entries = []
    for i, t in enumerate(types):
        lv = level if level != MIXED else 1 + (i > 0)
        entries.append(_example_part(3 * (lv - 1) + t + (15 if wild and i == 0 else 0)))
    return entries


def _example_part(pk: int) -> tuple[int, int]:
    """A (card, level) entry with this part key."""
    t, lv, wild = key_parts(pk)
    return (FIRST_WILD + t if wild else PKEY.index(pk)), lv


def _tables() -> tuple[tuple, tuple, tuple]:
    fits = [False] * (128 * 30)
    joined = [0] * (128 * 30)
    for key in range(128):
        entries = _example(key)
        if entries is None:
            continue
        for pk in range(30):
            part = _example_part(pk)
            if placement_error(entries, [part]) is None:
                fits[key * 30 + pk] = True
                joined[key * 30 + pk] = entries_key([*entries, part])
    beside = [True] * ((ALONE + 1) * 30)
    for left in range(30):
        stays = [_example_part(left)]
        row = entries_key(stays) * 30
        for arriving in range(30):
            c, lv = _example_part(arriving)
            beside[left * 30 + arriving] = fits[row + part_key(c, arrival_level(stays, c, lv))]
    return tuple(fits), tuple(joined), tuple(beside)


FITS, JOINED, BESIDE = _tables()


def _beside_types(left: int) -> int:
    """The types that may arrive beside part `left` (a bit a type), when BESIDE's row for it
    depends only on the arriving part's type (so for a part that is not a wild); else -1."""
    row = BESIDE[left * 30 : left * 30 + 30]
    types = [row[t] for t in range(3)]
    if any(row[k] != types[k % 3] for k in range(30)):
        return -1
    return sum(1 << t for t in range(3) if types[t])


BESIDE_TYPES = tuple(_beside_types(left) for left in range(ALONE + 1))


def fits(existing: Entries, incoming: Entries) -> bool:
    """True exactly when placement_error(existing, incoming) is None, from the tables."""
    key = entries_key(existing)
    for c, lv in incoming:
        i = key * 30 + part_key(c, lv)
        if not FITS[i]:
            return False
        key = JOINED[i]
    return True
