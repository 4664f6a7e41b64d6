"""O16 and O17: robot scores, player scores, winners and ranking."""

from __future__ import annotations

from .common import COLOURS


def robot_points(robot: int, gears: list[str], circuit: list[str]) -> tuple[int, int]:
    """(points, own-colour gears) of a robot if its gears all went to its circuit now (O16)."""
    colour = COLOURS[robot]
    own = gears.count(colour) + circuit.count(colour)
    return own + len(gears) + len(circuit), own


def standings(state: dict) -> dict:
    """The result as it would be if the game ended now (O16, O17)."""
    robot_scores: dict[str, int] = {}
    robot_own: dict[str, int] = {}
    for key, robot in state["robots"].items():
        points, own = robot_points(int(key), robot["gears"], robot["circuit"])
        robot_scores[key] = points
        robot_own[key] = own
    scores: dict[str, int] = {}
    tiebreak: dict[str, int] = {}
    for seat in state["seats"]:
        # O17: the player's score is the lower robot; equal scores -> fewer own-colour gears.
        weakest = min(
            state["seat_robots"][seat],
            key=lambda r: (robot_scores[str(r)], robot_own[str(r)], r),
        )
        scores[seat] = robot_scores[str(weakest)]
        tiebreak[seat] = robot_own[str(weakest)]
    order = sorted(state["seats"], key=lambda s: (-scores[s], -tiebreak[s]))
    best = (scores[order[0]], tiebreak[order[0]])
    winners = [s for s in order if (scores[s], tiebreak[s]) == best]
    places: dict[str, int] = {}
    for i, seat in enumerate(order):
        if i and (scores[seat], tiebreak[seat]) == (scores[order[i - 1]], tiebreak[order[i - 1]]):
            places[seat] = places[order[i - 1]]
        else:
            places[seat] = i + 1
    return {
        "scores": scores,
        "robot_scores": robot_scores,
        "robot_own": robot_own,
        "tiebreak": tiebreak,
        "winners": winners,
        "ranking": order,
        "places": places,
    }
