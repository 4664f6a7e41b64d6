"""Out of Gears rules engine: the interface the site, bots and tests use (pure; no Django, no I/O).

States, actions, views and events are plain JSON data. A state is never changed in place: every
function returns a new one, which may share unchanged parts with the old, so treat states as
read-only. See docs/engine-outofgears.md.
"""

from __future__ import annotations

from .common import COLOURS, IllegalMove
from .programs import all_programmed, legal_actions, timeout_actions
from .programs import apply as _apply
from .resolve import resolve
from .setup import new_game
from .viewing import view

__all__ = [
    "COLOURS",
    "IllegalMove",
    "all_programmed",
    "apply",
    "is_over",
    "legal_actions",
    "new_game",
    "resolve",
    "result",
    "timeout_actions",
    "view",
]


def apply(state: dict, seat: str, action: dict) -> dict:
    """A new state with ``seat``'s program in; IllegalMove (input untouched) if it is refused."""
    return _apply(state, seat, action)


def is_over(state: dict) -> bool:
    return bool(state["over"])


def result(state: dict) -> dict:
    """Scores, robot scores, winners and ranking of a finished game (O16, O17)."""
    if not state["over"]:
        raise IllegalMove("The game is not over yet.")
    res = state["result"]
    return {
        "scores": dict(res["scores"]),
        "robot_scores": dict(res["robot_scores"]),
        "robot_own": dict(res["robot_own"]),
        "tiebreak": dict(res["tiebreak"]),
        "winners": list(res["winners"]),
        "ranking": list(res["ranking"]),
        "places": dict(res["places"]),
    }
