"""Out of Gears rules engine: the interface the site, bots and tests use (pure; no Django, no I/O).

States, actions, views and events are plain JSON data. A state is never changed in place: every
function returns a new one, which may share unchanged parts with the old, so treat states as
read-only. See docs/engine-outofgears.md.
"""

from __future__ import annotations

import random

from .common import COLOURS, IllegalMove, gettext_noop
from .programs import all_programmed, legal_actions
from .programs import apply as _apply
from .programs import timeout_actions as _default_programs
from .resolve import resolve
from .scoring import standings
from .setup import new_game
from .viewing import view

VERSION = 1  # games/engines/interface.py: bump when old records would replay differently
# The options new_game reads; a game record keeps these and no others (games/reads/records.py).
OPTIONS = frozenset({"advanced", "max_turns", "names", "robots"})
SIMULTANEOUS = True  # every seat programs at once; only a new turn makes a page stale
SEATS, ADVANCED_SEATS = (2, 8), (2, 4)
SCORE_KEYS = ("robots", "seats", "seat_robots")

__all__ = [
    "COLOURS",
    "IllegalMove",
    "VERSION",
    "OPTIONS",
    "SIMULTANEOUS",
    "seat_range",
    "to_act",
    "turn",
    "needs_resolution",
    "SCORE_KEYS",
    "scores_now",
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
        raise IllegalMove(gettext_noop("The game is not over yet."))
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


def seat_range(options: dict) -> tuple[int, int]:
    return ADVANCED_SEATS if options.get("advanced") else SEATS


def to_act(state: dict) -> frozenset[str]:
    """Every seat whose program is missing; none while the turn waits for its resolution."""
    if state["over"] or all_programmed(state):
        return frozenset()
    return frozenset(seat for seat in state["seats"] if seat not in state["programs"])


def turn(state: dict) -> int:
    return int(state["turn"])


def news_mark(state: dict) -> int:
    story = state["story"]
    return story[-1]["turn"] if story else 0


def needs_resolution(state: dict) -> bool:
    """Every program is in: the turn must be resolved (O7) before anyone acts again."""
    return not state["over"] and all_programmed(state)


def timeout_actions(
    state: dict, rng: random.Random | None = None, *, last_chance: bool = False
) -> dict[str, dict]:
    """O19: the default program of every seat whose program is missing (no chance involved)."""
    return _default_programs(state)


def scores_now(parts: dict) -> dict[str, int]:
    """Each seat's points if the game ended now (O16-O17), from SCORE_KEYS of the state."""
    return standings(parts)["scores"]
