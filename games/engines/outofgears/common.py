"""Out of Gears: the names, colours and error shared by every module of the engine."""

from __future__ import annotations

from games.engines.interface import IllegalMove, Term, gettext_noop  # shared by both engines

__all__ = ["IllegalMove", "Term", "gettext_noop"]  # and the constants below

# O1: robot N has colour COLOURS[N].
COLOURS: dict[int, str] = {
    1: "red",
    2: "blue",
    3: "green",
    4: "yellow",
    5: "purple",
    6: "orange",
    7: "black",
    8: "white",
}
COLOUR_ORDER: dict[str, int] = {colour: robot for robot, colour in COLOURS.items()}
ROBOTS: tuple[int, ...] = tuple(COLOURS)

HARVEST = "harvest"
ATTACK = "attack"
TRAP = "trap"
ACTIONS: tuple[str, ...] = (HARVEST, ATTACK, TRAP)

GEARS_PER_COLOUR = 11  # O3
GEARS_PER_JUNKYARD_AT_SETUP = 2  # O3
GEARS_TO_CIRCUIT = 2  # O13
DEFAULT_MAX_TURNS = 50  # O15 ruling


def robot_name(robot: int) -> str:
    """The robot's display name: its colour, capitalised ("Red")."""
    return COLOURS[robot].capitalize()


def colour_sort_key(colour: str) -> int:
    return COLOUR_ORDER[colour]
