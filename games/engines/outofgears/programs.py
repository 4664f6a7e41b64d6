"""O5, O6, O17, O19: which programs a seat may submit, checking one, and the default programs."""

from __future__ import annotations

from functools import lru_cache

from .common import ACTIONS, ATTACK, HARVEST, TRAP, IllegalMove, Term, gettext_noop, robot_name

_ACTION_KEYS = {"type", "programs"}
_ENTRY_KEYS = {"robot", "action", "number"}


def _robot(robot: int) -> Term:
    """A robot in a refusal: its name in the reader's language at the edge ("Red")."""
    return Term("robot", robot, robot_name(robot))


def all_programmed(state: dict) -> bool:
    """O5: every program of this turn is in (the turn must now be resolved)."""
    return not state["over"] and len(state["programs"]) == len(state["seats"])


def legal_actions(state: dict, seat: str) -> list[dict]:
    """Every program ``seat`` may submit now; [] when over, every program is in, or not a seat.

    The list is new on every call, but the programs in it are shared between calls, seats and
    games (see _programs): callers read them, as they read states, and never change them."""
    if state["over"] or seat not in state["seat_robots"] or all_programmed(state):
        return []
    return list(_programs(tuple(state["seat_robots"][seat]), tuple(state["in_play"])))


@lru_cache(maxsize=256)
def _programs(robots: tuple[int, ...], numbers: tuple[int, ...]) -> tuple[dict, ...]:
    """Every program of a seat with these robots when these robots are in play (O6, O17).

    They depend on nothing else and never change during a game, so they are built once: an
    advanced seat has 6 x n x n of them (384 at four players), and listing them anew for every
    seat of every turn cost more than resolving the turn. The entries ({robot, action, number})
    are shared between the programs that hold them, which keeps a cached advanced listing near
    100 kB."""
    entries = {
        r: {(a, n): {"robot": r, "action": a, "number": n} for a in ACTIONS for n in numbers}
        for r in robots
    }
    if len(robots) == 1:
        mine = entries[robots[0]]
        return tuple(
            {"type": "program", "programs": [mine[a, n]]} for a in ACTIONS for n in numbers
        )
    first, second = entries[robots[0]], entries[robots[1]]
    return tuple(
        {"type": "program", "programs": [first[a1, n1], second[a2, n2]]}
        for a1 in ACTIONS
        for a2 in ACTIONS
        if a1 != a2
        for n1 in numbers
        for n2 in numbers
    )


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_program(state: dict, seat: str, action: object) -> list[dict]:
    """The seat's program, normalised (one entry per robot, in robot order), or IllegalMove."""
    if state["over"]:
        raise IllegalMove(gettext_noop("The game is over."))
    if seat not in state["seat_robots"]:
        raise IllegalMove(gettext_noop("Seat %(seat)r is not playing in this game."), seat=seat)
    if all_programmed(state):
        raise IllegalMove(gettext_noop("Every program is in; the turn is being resolved."))
    if not isinstance(action, dict):
        raise IllegalMove(
            gettext_noop("A move must be an object like {'type': 'program', 'programs': [...]}.")
        )
    if action.get("type") != "program":
        raise IllegalMove(
            gettext_noop("The only move in Out of Gears is a program (type 'program').")
        )
    extra = set(action) - _ACTION_KEYS
    if extra:
        raise IllegalMove(gettext_noop("A program has no field %(field)r."), field=sorted(extra)[0])
    entries = action.get("programs")
    mine = state["seat_robots"][seat]
    if not isinstance(entries, list):
        raise IllegalMove(
            gettext_noop("A program needs a list 'programs' with one entry per robot.")
        )
    in_play = state["in_play"]
    program: dict[int, dict] = {}
    for entry in entries:
        if not isinstance(entry, dict):
            raise IllegalMove(
                gettext_noop("Each robot's program must be an object with robot, action, number.")
            )
        if set(entry) != _ENTRY_KEYS:
            missing = _ENTRY_KEYS - set(entry)
            if missing:
                raise IllegalMove(
                    gettext_noop("A robot's program needs its %(field)r."),
                    field=sorted(missing)[0],
                )
            raise IllegalMove(
                gettext_noop("A robot's program has no field %(field)r."),
                field=sorted(set(entry) - _ENTRY_KEYS)[0],
            )
        robot, act, number = entry["robot"], entry["action"], entry["number"]
        if not _is_int(robot):
            raise IllegalMove(gettext_noop("A robot is given by its number, 1 to 8."))
        if robot not in state["in_play"]:
            raise IllegalMove(gettext_noop("Robot %(number)s is not in this game."), number=robot)
        if robot not in mine:
            raise IllegalMove(
                gettext_noop("%(robot)s (robot %(number)s) is not your robot."),
                robot=_robot(robot),
                number=robot,
            )
        if robot in program:
            raise IllegalMove(gettext_noop("%(robot)s was programmed twice."), robot=_robot(robot))
        if act not in ACTIONS:
            raise IllegalMove(
                gettext_noop("%(action)r is not an action; choose harvest, attack or trap."),
                action=act,
            )
        if not _is_int(number) or number not in in_play:
            numbers = ", ".join(str(n) for n in in_play)
            raise IllegalMove(
                gettext_noop("%(number)r is not a number in play; choose one of %(numbers)s."),
                number=number,
                numbers=numbers,
            )
        program[robot] = {"robot": robot, "action": act, "number": number}
    for robot in mine:
        if robot not in program:
            raise IllegalMove(
                gettext_noop("%(robot)s (robot %(number)s) needs a program too."),
                robot=_robot(robot),
                number=robot,
            )
    if len(mine) == 2 and program[mine[0]]["action"] == program[mine[1]]["action"]:
        raise IllegalMove(
            gettext_noop(
                "Your two robots share one set of Action cards: give them different actions."
            )
        )
    return [program[r] for r in mine]


def apply(state: dict, seat: str, action: dict) -> dict:
    """A new state with ``seat``'s program in (replacing an earlier one, O5); never mutates."""
    program = check_program(state, seat, action)
    new = dict(state)
    programs = dict(state["programs"])
    programs[seat] = program
    new["programs"] = programs
    return new


def default_program(robots: list[int]) -> dict:
    """O19: Defend; in the advanced game the next robot takes the first of Defend, Harvest its own
    number, Trap its own number that the player's remaining Action cards allow."""
    used: set[str] = set()
    entries = []
    for robot in robots:
        for act in (ATTACK, HARVEST, TRAP):
            if act not in used:
                used.add(act)
                entries.append({"robot": robot, "action": act, "number": robot})
                break
    return {"type": "program", "programs": entries}


def timeout_actions(state: dict) -> dict[str, dict]:
    """O19: for each seat whose program is missing, the program its robots get by default."""
    if state["over"] or all_programmed(state):
        return {}
    return {
        seat: default_program(state["seat_robots"][seat])
        for seat in state["seats"]
        if seat not in state["programs"]
    }
