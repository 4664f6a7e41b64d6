"""Bots for Out of Gears. A bot sees only what its seat sees: ``view`` and the legal programs."""

from __future__ import annotations

import random
from collections.abc import Callable

from .common import ATTACK, COLOURS, HARVEST, TRAP


def random_bot(view: dict, legal: list[dict], rng: random.Random) -> dict:
    """Any legal program, uniformly."""
    return rng.choice(legal)


def _value(robot: int, gears: list[str]) -> float:
    own = COLOURS[robot]
    return float(sum(2 if g == own else 1 for g in gears))


def _robot_options(view: dict, robot: int) -> dict[tuple[str, int], float]:
    """The expected worth of each (action, number) for ``robot`` this turn.

    With nothing known of the other players, each rival robot is taken to pick one of its
    3 x n programs evenly, a little more often a junkyard that shows its own colour.
    """
    robots = view["robots"]
    junkyards = view["junkyards"]
    mine = set(view["my_robots"])
    others = [int(k) for k in robots if int(k) not in mine]
    base = 1.0 / (3 * len(robots))
    me = robots[str(robot)]
    options: dict[tuple[str, int], float] = {}
    for key, gears in junkyards.items():
        n = int(key)
        worth = _value(robot, gears)
        p_free = 1.0  # no rival traps n
        p_alone = 1.0  # no rival harvests n
        for o in others:
            p = base * (1.5 if COLOURS[o] in gears else 1.0)
            p_free *= 1.0 - p
            p_alone *= 1.0 - p
        # Harvest: lost to a trap; a contested junkyard is shared (roughly halved).
        options[(HARVEST, n)] = worth * p_free * (p_alone + (1.0 - p_alone) * 0.5)
        # Trap: pays only when a rival harvests the junkyard.
        options[(TRAP, n)] = worth * (1.0 - p_alone)
    held = _value(robot, me["gears"])
    p_attacked = 1.0 - (1.0 - base) ** len(others)
    # Defend: keeps what the robot holds from attackers, and takes a gear from each.
    options[(ATTACK, robot)] = (held + 1.0) * p_attacked
    for o in others:
        loot = _value(robot, robots[str(o)]["gears"])
        # The target may defend (the attack then costs a gear); rich robots are worth the risk.
        options[(ATTACK, o)] = loot * (1.0 - base) - base
    for t in mine:
        if t != robot:
            options[(ATTACK, t)] = -1.0
    return options


def greedy_bot(view: dict, legal: list[dict], rng: random.Random) -> dict:
    """The program worth most by a simple estimate; ties broken at random."""
    values = {r: _robot_options(view, r) for r in view["my_robots"]}
    best: list[dict] = []
    best_score = float("-inf")
    for program in legal:
        entries = program["programs"]
        score = 0.0
        for e in entries:
            score += values[e["robot"]].get((e["action"], e["number"]), 0.0)
        if len(entries) == 2:
            a, b = entries
            if a["action"] == b["action"] == HARVEST or (
                a["action"] != ATTACK and b["action"] != ATTACK and a["number"] == b["number"]
            ):
                score -= 1.0  # team-mates splitting one junkyard, or trapping their own harvest
        if score > best_score + 1e-9:
            best, best_score = [program], score
        elif abs(score - best_score) <= 1e-9:
            best.append(program)
    return rng.choice(best)


BOTS: dict[str, Callable[[dict, list[dict], random.Random], dict]] = {
    "random": random_bot,
    "greedy": greedy_bot,
}
