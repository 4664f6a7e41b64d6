"""The 96 cards of Geared (G2, G3): fixed ids, kinds, types and levels as module-level tables."""

from __future__ import annotations

PART_TYPES = ("frame", "handlebars", "wheels")
PART_NAMES = ("Frame", "Handlebars", "Wheels")
ACTION_TYPES = ("remove", "steal", "swap")
ACTION_NAMES = ("Remove", "Steal", "Swap")
LEVELS = (1, 2, 3, 4, 5)
COPIES_PER_LEVEL = (7, 6, 5, 4, 3)  # levels 1..5, per part type (G2)

DECK_SIZE = 96
FIRST_ACTION = 75  # 75..80 Remove, 81..86 Steal, 87..92 Swap
FIRST_WILD = 93  # 93 Wild Frame, 94 Wild Handlebars, 95 Wild Wheels
HAND_SIZE = 5


def part_value(level: int) -> int:
    """G3: the value of one part of this level when the bike is not a set."""
    return 20 * level


def set_value(level: int) -> int:
    """G3: the value of a complete set of this level."""
    return 100 * level


def _tables() -> tuple[tuple, tuple, tuple, tuple]:
    kind: list[str] = []
    part: list[int] = []  # 0, 1, 2 for a part type; -1 for action cards
    level: list[int] = []  # 1..5 for printed parts; 0 for wilds and actions
    action: list[int] = []  # 0, 1, 2 for Remove, Steal, Swap; -1 otherwise
    for t in range(3):
        for lv, copies in zip(LEVELS, COPIES_PER_LEVEL, strict=True):
            for _ in range(copies):
                kind.append("part")
                part.append(t)
                level.append(lv)
                action.append(-1)
    for a in range(3):
        for _ in range(6):
            kind.append("action")
            part.append(-1)
            level.append(0)
            action.append(a)
    for t in range(3):
        kind.append("wild")
        part.append(t)
        level.append(0)
        action.append(-1)
    return tuple(kind), tuple(part), tuple(level), tuple(action)


KIND, PART, LEVEL, ACTION = _tables()
assert len(KIND) == DECK_SIZE
IS_WILD = tuple(k == "wild" for k in KIND)
IS_PART = tuple(k != "action" for k in KIND)  # parts cards, wilds included
TYPE_BIT = tuple(1 << p if p >= 0 else 0 for p in PART)


def _card_dict(cid: int) -> dict:
    lv = LEVEL[cid] or None
    return {
        "id": cid,
        "kind": KIND[cid],
        "part": PART_TYPES[PART[cid]] if PART[cid] >= 0 else None,
        "action": ACTION_TYPES[ACTION[cid]] if ACTION[cid] >= 0 else None,
        "level": lv,
        "part_value": part_value(lv) if lv else None,
        "set_value": set_value(lv) if lv else None,
        "wild": IS_WILD[cid],
    }


_CARD_DICTS = tuple(_card_dict(c) for c in range(DECK_SIZE))


def card_dict(cid: int, level: int | None = None) -> dict:
    """The public description of a card; `level` is a placed wild's declared level."""
    d = dict(_CARD_DICTS[cid])
    if level is not None and IS_WILD[cid]:
        d["level"] = level
        d["part_value"] = part_value(level)
        d["set_value"] = set_value(level)
    return d


def card_name(cid: int, level: int | None = None) -> str:
    """'Level 3 Frame', 'Wild Wheels (Level 2)', 'Steal'."""
    if ACTION[cid] >= 0:
        return ACTION_NAMES[ACTION[cid]]
    name = PART_NAMES[PART[cid]]
    if IS_WILD[cid]:
        return f"Wild {name} (Level {level})" if level else f"Wild {name}"
    return f"Level {LEVEL[cid]} {name}"
