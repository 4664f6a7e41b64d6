"""O7–O16: resolving a turn once every program is in, and recording its story.

`resolve` runs the steps of O7 in order, one function each (`_defend` O8, `_attack` O9, `_trap`
O10, `_harvest` O11, `_assemble` O13, `_explore` O14, `_end` O15–O16); every step works on the
`_Table` the step before left and appends its events. O12 sharing lives in sharing.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .common import ATTACK, COLOURS, GEARS_TO_CIRCUIT, HARVEST, TRAP, IllegalMove, gettext_noop
from .programs import all_programmed
from .rng import Rng
from .scoring import standings
from .sharing import pick, share


@dataclass
class _Table:
    """The turn's working copy of what moves: gears held, circuits and junkyards, by number."""

    rng: Rng
    in_play: list[int]
    program: dict[int, tuple[str, int]]  # robot -> (action, number)
    gears: dict[int, list[str]]
    circuit: dict[int, list[str]]
    yards: dict[int, list[str]]
    events: list[dict] = field(default_factory=list)


def _took(took: dict[int, list[str]]) -> dict[str, list[str]]:
    return {str(r): gears for r, gears in took.items()}


def resolve(state: dict) -> dict:
    """Run the turn (O7–O16) and return the new state; IllegalMove unless every program is in."""
    if state["over"]:
        raise IllegalMove(gettext_noop("The game is over."))
    if not all_programmed(state):
        raise IllegalMove(gettext_noop("Not every program is in yet."))
    in_play: list[int] = state["in_play"]
    robots_in = state["robots"]
    program: dict[int, tuple[str, int]] = {}
    seat_of: dict[int, str] = {}
    for seat, entries in state["programs"].items():
        for e in entries:
            program[e["robot"]] = (e["action"], e["number"])
            seat_of[e["robot"]] = seat
    revealed = [
        {"robot": r, "seat": seat_of[r], "action": program[r][0], "number": program[r][1]}
        for r in in_play
    ]
    table = _Table(
        rng=Rng(state["rng"]),
        in_play=in_play,
        program=program,
        gears={r: list(robots_in[str(r)]["gears"]) for r in in_play},
        circuit={r: list(robots_in[str(r)]["circuit"]) for r in in_play},
        yards={n: list(state["junkyards"][str(n)]) for n in in_play},
    )

    # O7: defends, attacks, traps, harvests, assemble, explore, then the end.
    attacks = {r: n for r, (a, n) in program.items() if a == ATTACK and n != r}
    defending = _defend(table, attacks)
    _attack(table, attacks, defending)
    trappers, harvesters = _claims(table)
    _trap(table, trappers, harvesters)
    _harvest(table, trappers, harvesters)
    _assemble(table)
    reserve = _explore(table, state["reserve"])

    new = dict(state)
    new["robots"] = {
        str(r): {
            "seat": robots_in[str(r)]["seat"],
            "gears": table.gears[r],
            "circuit": table.circuit[r],
        }
        for r in in_play
    }
    new["junkyards"] = {str(n): table.yards[n] for n in in_play}
    new["reserve"] = reserve
    new["programs"] = {}
    turn = state["turn"]
    if not _end(table, new, state, reserve):
        new["turn"] = turn + 1
    new["rng"] = table.rng.state()
    new["story"] = state["story"] + [{"turn": turn, "revealed": revealed, "events": table.events}]
    return new


def _defend(t: _Table, attacks: dict[int, int]) -> set[int]:
    """O8 Defend: each attacker of a defender pays it one gear, from the robot if it holds any,
    else from its circuit, own colour first; those attacks are cancelled. Returns the defenders.
    """
    defenders = [r for r in t.in_play if t.program[r] == (ATTACK, r)]
    gears, circuit = t.gears, t.circuit
    for d in defenders:
        colour = COLOURS[d]
        for a in t.in_play:
            if attacks.get(a) != d:
                continue
            if gears[a]:
                source = "robot"
                taken, gears[a] = pick(gears[a], colour, 1, t.rng)
            elif circuit[a]:
                source = "circuit"
                taken, circuit[a] = pick(circuit[a], colour, 1, t.rng)
            else:
                source = "none"
                taken = []
            gears[d].extend(taken)
            t.events.append(
                {
                    "type": "defend",
                    "defender": d,
                    "attacker": a,
                    "gear": taken[0] if taken else None,
                    "source": source,
                }
            )
    return set(defenders)


def _attack(t: _Table, attacks: dict[int, int], defending: set[int]) -> None:
    """O9 Attack: the attackers of each non-defending target share what it holds (O12), all
    targets at once on the state after defends."""
    by_target: dict[int, list[int]] = {}
    for a in t.in_play:
        target = attacks.get(a)
        if target is not None and target not in defending:
            by_target.setdefault(target, []).append(a)
    if not by_target:
        return
    after = dict(t.gears)
    gains: dict[int, list[str]] = {}
    for target in t.in_play:
        attackers = by_target.get(target)
        if attackers is None:
            continue
        took, stayed = share(t.gears[target], attackers, t.rng)
        after[target] = stayed
        gains.update(took)
        t.events.append(
            {
                "type": "attack",
                "target": target,
                "attackers": attackers,
                "took": _took(took),
                "stayed": list(stayed),
            }
        )
    for a, got in gains.items():
        if got:
            after[a] = after[a] + got
    t.gears = after


def _claims(t: _Table) -> tuple[dict[int, list[int]], dict[int, list[int]]]:
    """(trappers, harvesters) by junkyard number, each list in robot order."""
    trappers: dict[int, list[int]] = {}
    harvesters: dict[int, list[int]] = {}
    for r in t.in_play:
        a, n = t.program[r]
        if a == TRAP:
            trappers.setdefault(n, []).append(r)
        elif a == HARVEST:
            harvesters.setdefault(n, []).append(r)
    return trappers, harvesters


def _trap(t: _Table, trappers: dict[int, list[int]], harvesters: dict[int, list[int]]) -> None:
    """O10 Trap: cancels every harvest on its junkyard; the trappers share the junkyard (O12)
    only if they cancelled at least one harvest."""
    for n in t.in_play:
        traps = trappers.get(n)
        if traps is None:
            continue
        blocked = harvesters.get(n, [])
        if blocked:
            took, t.yards[n] = share(t.yards[n], traps, t.rng)
            for r, got in took.items():
                t.gears[r].extend(got)
        else:
            took = {r: [] for r in traps}
        t.events.append(
            {
                "type": "trap",
                "junkyard": n,
                "trappers": traps,
                "blocked": blocked,
                "took": _took(took),
                "stayed": list(t.yards[n]),
            }
        )


def _harvest(t: _Table, trappers: dict[int, list[int]], harvesters: dict[int, list[int]]) -> None:
    """O11 Harvest: the harvesters of a junkyard no trap covers share its gears (O12)."""
    for n in t.in_play:
        harvest = harvesters.get(n)
        if harvest is None or n in trappers:
            continue
        took, t.yards[n] = share(t.yards[n], harvest, t.rng)
        for r, got in took.items():
            t.gears[r].extend(got)
        t.events.append(
            {
                "type": "harvest",
                "junkyard": n,
                "harvesters": harvest,
                "took": _took(took),
                "stayed": list(t.yards[n]),
            }
        )


def _assemble(t: _Table) -> None:
    """O13 Assemble: a robot holding 3+ gears moves two to its circuit, own colour first, then
    at random."""
    for r in t.in_play:
        if len(t.gears[r]) >= 3:
            moved, t.gears[r] = pick(t.gears[r], COLOURS[r], GEARS_TO_CIRCUIT, t.rng)
            t.circuit[r].extend(moved)
            t.events.append({"type": "assemble", "robot": r, "gears": moved})


def _explore(t: _Table, reserve: list[str]) -> list[str]:
    """O14 Explore: one gear per junkyard, in junkyard order, while the reserve lasts; returns
    the reserve left."""
    laid: dict[str, str] = {}
    missed: list[int] = []
    top = 0
    for n in t.in_play:
        if top < len(reserve):
            gear = reserve[top]
            top += 1
            t.yards[n].append(gear)
            laid[str(n)] = gear
        else:
            missed.append(n)
    reserve = reserve[top:]
    t.events.append(
        {"type": "explore", "laid": laid, "missed": missed, "reserve_left": len(reserve)}
    )
    return reserve


def _end(t: _Table, new: dict, state: dict, reserve: list[str]) -> bool:
    """O15 End (reserve empty and a junkyard empty, or the turn cap) and O16 Score: every robot
    moves its gears to its circuit. Finishes `new` and returns True if the game ends."""
    if not reserve and any(not t.yards[n] for n in t.in_play):
        reason = "reserve_empty"
    elif state["turn"] >= state["max_turns"]:
        reason = "max_turns"
    else:
        return False
    for r in t.in_play:
        t.circuit[r].extend(t.gears[r])
        t.gears[r] = []
    robots_in = state["robots"]
    new["robots"] = {
        str(r): {"seat": robots_in[str(r)]["seat"], "gears": [], "circuit": t.circuit[r]}
        for r in t.in_play
    }
    result = standings(new)
    new["over"] = True
    new["result"] = result
    t.events.append(
        {
            "type": "end",
            "reason": reason,
            "scores": dict(result["scores"]),
            "robot_scores": dict(result["robot_scores"]),
            "winners": list(result["winners"]),
            "winner_robots": {s: list(state["seat_robots"][s]) for s in result["winners"]},
        }
    )
    return True
