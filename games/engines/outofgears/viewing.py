"""O18: what one seat (or a spectator) may see of a state."""

from __future__ import annotations

import copy

from .common import COLOURS, colour_sort_key, robot_name
from .programs import all_programmed
from .scoring import robot_points, standings


def _sorted(gears: list[str]) -> list[str]:
    return sorted(gears, key=colour_sort_key)


def view(state: dict, seat: str | None) -> dict:
    """Everything public, plus the viewer's own unresolved program; never the seed, the
    generator's state, the reserve's content, or another seat's unresolved program."""
    names = state["names"]
    robots = {}
    for key, robot in state["robots"].items():
        r = int(key)
        points, own = robot_points(r, robot["gears"], robot["circuit"])
        robots[key] = {
            "colour": COLOURS[r],
            "name": robot_name(r),
            "seat": robot["seat"],
            "player": names.get(robot["seat"]),
            "gears": _sorted(robot["gears"]),
            "circuit": _sorted(robot["circuit"]),
            "points": points,
            "own": own,
        }
    now = state["result"] if state["over"] else standings(state)
    story = copy.deepcopy(state["story"])
    out = {
        "game": "outofgears",
        "turn": state["turn"],
        "max_turns": state["max_turns"],
        "advanced": state["advanced"],
        "seats": list(state["seats"]),
        "names": dict(names),
        "seat_robots": {s: list(rs) for s, rs in state["seat_robots"].items()},
        "in_play": list(state["in_play"]),
        "robots": robots,
        "junkyards": {key: _sorted(gears) for key, gears in state["junkyards"].items()},
        "reserve_size": len(state["reserve"]),
        "submitted": {s: s in state["programs"] for s in state["seats"]},
        "all_programmed": all_programmed(state),
        "scores": dict(now["scores"]),
        "story": story,
        "last_story": story[-1] if story else None,
        "over": state["over"],
        "result": copy.deepcopy(state["result"]),
        "viewer": seat if seat in state["seat_robots"] else None,
    }
    if seat in state["seat_robots"]:
        mine = state["programs"].get(seat)
        out["my_program"] = copy.deepcopy(mine) if mine is not None else None
        out["my_robots"] = list(state["seat_robots"][seat])
    else:
        out["my_robots"] = []
    return out
