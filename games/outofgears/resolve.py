"""O7–O16: resolving a turn once every program is in, and recording its story."""

from __future__ import annotations

from .common import ATTACK, COLOURS, GEARS_TO_CIRCUIT, HARVEST, TRAP, IllegalMove
from .programs import all_programmed
from .rng import Rng
from .scoring import standings
from .sharing import pick, share


def _took(took: dict[int, list[str]]) -> dict[str, list[str]]:
    return {str(r): gears for r, gears in took.items()}


def resolve(state: dict) -> dict:
    """Run the turn (O7–O16) and return the new state; IllegalMove unless every program is in."""
    if state["over"]:
        raise IllegalMove("The game is over.")
    if not all_programmed(state):
        raise IllegalMove("Not every program is in yet.")
    rng = Rng(state["rng"])
    in_play: list[int] = state["in_play"]
    robots_in = state["robots"]
    gears = {r: list(robots_in[str(r)]["gears"]) for r in in_play}
    circuit = {r: list(robots_in[str(r)]["circuit"]) for r in in_play}
    yards = {n: list(state["junkyards"][str(n)]) for n in in_play}

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
    events: list[dict] = []

    defenders = [r for r in in_play if program[r] == (ATTACK, r)]
    defending = set(defenders)
    attacks = {r: n for r, (a, n) in program.items() if a == ATTACK and n != r}

    # O8 Defend: each attacker of a defender pays it one gear; those attacks are cancelled.
    for d in defenders:
        colour = COLOURS[d]
        for a in in_play:
            if attacks.get(a) != d:
                continue
            if gears[a]:
                source = "robot"
                taken, gears[a] = pick(gears[a], colour, 1, rng)
            elif circuit[a]:
                source = "circuit"
                taken, circuit[a] = pick(circuit[a], colour, 1, rng)
            else:
                source = "none"
                taken = []
            gears[d].extend(taken)
            events.append(
                {
                    "type": "defend",
                    "defender": d,
                    "attacker": a,
                    "gear": taken[0] if taken else None,
                    "source": source,
                }
            )

    # O9 Attack: all at once on the state after defends.
    by_target: dict[int, list[int]] = {}
    for a in in_play:
        t = attacks.get(a)
        if t is not None and t not in defending:
            by_target.setdefault(t, []).append(a)
    if by_target:
        after = dict(gears)
        gains: dict[int, list[str]] = {}
        for t in in_play:
            attackers = by_target.get(t)
            if attackers is None:
                continue
            took, stayed = share(gears[t], attackers, rng)
            after[t] = stayed
            gains.update(took)
            events.append(
                {
                    "type": "attack",
                    "target": t,
                    "attackers": attackers,
                    "took": _took(took),
                    "stayed": list(stayed),
                }
            )
        for a, got in gains.items():
            if got:
                after[a] = after[a] + got
        gears = after

    trappers: dict[int, list[int]] = {}
    harvesters: dict[int, list[int]] = {}
    for r in in_play:
        a, n = program[r]
        if a == TRAP:
            trappers.setdefault(n, []).append(r)
        elif a == HARVEST:
            harvesters.setdefault(n, []).append(r)

    # O10 Trap: cancels every harvest on its junkyard; pays only if it cancelled one.
    for n in in_play:
        traps = trappers.get(n)
        if traps is None:
            continue
        blocked = harvesters.get(n, [])
        if blocked:
            took, yards[n] = share(yards[n], traps, rng)
            for r, got in took.items():
                gears[r].extend(got)
        else:
            took = {r: [] for r in traps}
        events.append(
            {
                "type": "trap",
                "junkyard": n,
                "trappers": traps,
                "blocked": blocked,
                "took": _took(took),
                "stayed": list(yards[n]),
            }
        )

    # O11 Harvest: the harvests no trap cancelled.
    for n in in_play:
        harvest = harvesters.get(n)
        if harvest is None or n in trappers:
            continue
        took, yards[n] = share(yards[n], harvest, rng)
        for r, got in took.items():
            gears[r].extend(got)
        events.append(
            {
                "type": "harvest",
                "junkyard": n,
                "harvesters": harvest,
                "took": _took(took),
                "stayed": list(yards[n]),
            }
        )

    # O13 Assemble: 3+ gears -> two to the circuit, own colour first, then at random.
    for r in in_play:
        if len(gears[r]) >= 3:
            moved, gears[r] = pick(gears[r], COLOURS[r], GEARS_TO_CIRCUIT, rng)
            circuit[r].extend(moved)
            events.append({"type": "assemble", "robot": r, "gears": moved})

    # O14 Explore: one gear per junkyard, in junkyard order, while the reserve lasts.
    reserve = state["reserve"]
    laid: dict[str, str] = {}
    missed: list[int] = []
    top = 0
    for n in in_play:
        if top < len(reserve):
            gear = reserve[top]
            top += 1
            yards[n].append(gear)
            laid[str(n)] = gear
        else:
            missed.append(n)
    reserve = reserve[top:]
    events.append({"type": "explore", "laid": laid, "missed": missed, "reserve_left": len(reserve)})

    new = dict(state)
    new["robots"] = {
        str(r): {"seat": robots_in[str(r)]["seat"], "gears": gears[r], "circuit": circuit[r]}
        for r in in_play
    }
    new["junkyards"] = {str(n): yards[n] for n in in_play}
    new["reserve"] = reserve
    new["programs"] = {}

    # O15 End: reserve empty and a junkyard empty, or the turn cap.
    turn = state["turn"]
    reason = None
    if not reserve and any(not yards[n] for n in in_play):
        reason = "reserve_empty"
    elif turn >= state["max_turns"]:
        reason = "max_turns"
    if reason is not None:
        # O16: every robot moves its gears to its circuit, then scores.
        for r in in_play:
            circuit[r].extend(gears[r])
            gears[r] = []
        new["robots"] = {
            str(r): {"seat": robots_in[str(r)]["seat"], "gears": [], "circuit": circuit[r]}
            for r in in_play
        }
        result = standings(new)
        new["over"] = True
        new["result"] = result
        events.append(
            {
                "type": "end",
                "reason": reason,
                "scores": dict(result["scores"]),
                "robot_scores": dict(result["robot_scores"]),
                "winners": list(result["winners"]),
                "winner_robots": {s: list(state["seat_robots"][s]) for s in result["winners"]},
            }
        )
    else:
        new["turn"] = turn + 1
    new["rng"] = rng.state()
    new["story"] = state["story"] + [{"turn": turn, "revealed": revealed, "events": events}]
    return new
