"""Bots for Geared. A bot sees only its view and its legal actions, never the full state."""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.engines.geared.cards import IS_WILD, LEVEL, PART
from games.engines.geared.legal import LegalActions

REARRANGE_CHANCE = 0.05


def random_bot(view: dict, legal: Sequence[dict], rng: random.Random) -> dict:
    """Any legal action; rearranges only now and then, so a turn always ends."""
    if isinstance(legal, LegalActions):
        # The same choice as below without building the actions: the rearrangements are one
        # run of indices, and choosing from range(k) draws from `rng` as choosing from a list
        # of k does.
        skip = legal.rearranges
        k = len(legal) - len(skip)
        if k and rng.random() >= REARRANGE_CHANCE:
            i = rng.choice(range(k))
            return legal[i if i < skip.start else i + len(skip)]
        return rng.choice(legal)
    others = [a for a in legal if a["type"] != "rearrange"]
    if others and rng.random() >= REARRANGE_CHANCE:
        return rng.choice(others)
    return rng.choice(legal)


# --- greedy ------------------------------------------------------------------------------------


def _tables(view: dict) -> tuple[dict, dict]:
    """Per seat {build id: [(card, type, level)]}, and where each table part is."""
    builds: dict[str, dict[int, list[tuple[int, int, int]]]] = {}
    where: dict[int, tuple[str, int]] = {}
    for seat, player in view["players"].items():
        builds[seat] = {}
        for b in player["builds"]:
            parts = []
            for card in b["parts"].values():
                if card is not None:
                    parts.append((card["id"], PART[card["id"]], card["level"]))
                    where[card["id"]] = (seat, b["id"])
            builds[seat][b["id"]] = parts
    return builds, where


def _bike_points(parts: list[tuple[int, int, int]]) -> int:
    levels = {lv for _, _, lv in parts}
    if len(levels) == 1:
        return 100 * parts[0][2]
    return sum(20 * lv for _, _, lv in parts)


def _potential(parts: list[tuple[int, int, int]]) -> float:
    """What an incomplete build is worth to its owner: closer and richer is better."""
    n = len(parts)
    if n == 0:
        return 0.0
    levels = {lv for _, _, lv in parts}
    value = 100 * parts[0][2] if len(levels) == 1 else 30 * sum(lv for _, _, lv in parts)
    return value * (0.15 if n == 1 else 0.45)


def _value(parts: list[tuple[int, int, int]]) -> tuple[int, float]:
    """(points scored now, potential left) of a build after a change."""
    if len(parts) == 3:
        return _bike_points(parts), 0.0
    return 0, _potential(parts)


def _level_of(card: int, level: int | None) -> int:
    return level if IS_WILD[card] else LEVEL[card]


def _evaluate(view: dict, action: dict, builds: dict, where: dict) -> float:
    me = view["you"]
    mine = builds[me]
    kind = action["type"]
    target = view["target"]
    scores = {s: p["score"] for s, p in view["players"].items()}
    leader_weight = {s: 0.6 + 1.4 * scores[s] / target for s in scores}  # hurt the leader most

    def gain(changed: dict[int | str, list]) -> float:
        total = 0.0
        for bid, parts in changed.items():
            before = _potential(mine.get(bid, [])) if isinstance(bid, int) else 0.0
            points, pot = _value(parts)
            bonus = 10_000 if points and scores[me] + points >= target else 0
            total += 1.2 * points + pot - before + bonus
        return total

    if kind == "play":
        changed: dict = {}
        for card, dest in zip(action["cards"], action["builds"], strict=True):
            lv = _level_of(card, action.get("level"))
            base = changed.get(dest, list(mine.get(dest, [])) if isinstance(dest, int) else [])
            changed[dest] = base + [(card, PART[card], lv)]
        return gain(changed) + 8 * len(action["cards"])
    if kind == "rearrange":
        owner, source = where[action["card"]]
        lv = _level_of(action["card"], action.get("level"))
        parts = mine.get(action["to"], []) + [(action["card"], PART[action["card"]], lv)]
        if len(parts) < 3:
            return -1e9  # only rearrange to complete a bike: no loops
        return gain({action["to"]: parts}) + 1000
    if kind in ("remove", "steal"):
        owner, source = where[action["target"]]
        left = [p for p in builds[owner][source] if p[0] != action["target"]]
        hurt = _potential(builds[owner][source]) - _potential(left)
        if owner == me:
            return -hurt - 50
        score = hurt * leader_weight[owner] + 10
        if kind == "steal":
            lv = _level_of(action["target"], action.get("level"))
            dest = action["to"]
            parts = (mine.get(dest, []) if dest != "new" else []) + [
                (action["target"], PART[action["target"]], lv)
            ]
            score += gain({dest if dest != "new" else "new": parts}) + 5
        return score
    if kind == "swap":
        owner, their_build = where[action["theirs"]]
        _, my_build = where[action["mine"]]
        t_parts = builds[owner][their_build]
        m_parts = mine[my_build]
        m_card = next(p for p in m_parts if p[0] == action["mine"])
        t_card = next(p for p in t_parts if p[0] == action["theirs"])
        new_mine = [p for p in m_parts if p[0] != action["mine"]] + [t_card]
        new_theirs = [p for p in t_parts if p[0] != action["theirs"]] + [m_card]
        mine_delta = _potential(new_mine) - _potential(m_parts)
        their_delta = _potential(t_parts) - _potential(new_theirs)
        return mine_delta + their_delta * leader_weight[owner]
    if kind == "discard":
        return 0.0
    return 0.0


def greedy_bot(view: dict, legal: Sequence[dict], rng: random.Random) -> dict:
    """One-ply greedy: complete bikes (sets above all), hit the leader, feed nobody."""
    builds, where = _tables(view)
    best: list[dict] = []
    best_score = float("-inf")
    for action in legal:
        score = _evaluate(view, action, builds, where)
        if score > best_score + 1e-9:
            best, best_score = [action], score
        elif abs(score - best_score) <= 1e-9:
            best.append(action)
    return rng.choice(best)


BOTS = {"random": random_bot, "greedy": greedy_bot}
