"""Out of Gears as the write path sets it up: its settings in the lobby (the advanced mode),
the robots a joining player chooses, and the robots every seat gets at the start (O2)."""

from __future__ import annotations

import random

from django.utils.translation import gettext, ngettext

from games.engines.outofgears import engine
from games.errors import Conflict, GameError
from games.models import Game, Seat


def options(spec) -> dict:
    return {"advanced": spec.advanced}


def seat_ranges() -> dict[str, list[int]]:
    return {"outofgears": list(engine.SEATS), "advanced": list(engine.ADVANCED_SEATS)}


def form_errors(data: dict) -> dict[str, str]:
    advanced = bool(data.get("advanced"))
    low, high = engine.seat_range({"advanced": advanced})
    if "seat_count" in data and not low <= data["seat_count"] <= high:
        message = (
            gettext("Out of Gears in advanced mode is for %(low)s to %(high)s players.")
            if advanced
            else gettext("Out of Gears is for %(low)s to %(high)s players.")
        )
        return {"seat_count": message % {"low": low, "high": high}}
    return {}


def spec_fields(data: dict) -> dict:
    return {"target": 1000, "advanced": data["advanced"], "robots": tuple(data["robots"])}


def robots_per_seat(game: Game) -> int:
    return 2 if game.options.get("advanced") else 1


def seat_choice(game: Game, robots, taken: set[int]) -> list[int]:
    """The robots (colours) a joining player asked for; empty means at random at the start."""
    if not robots:
        return []
    robots = list(robots)
    per = robots_per_seat(game)
    if len(robots) != per or len(set(robots)) != len(robots):
        raise GameError(
            ngettext(
                "Choose %(count)s robot, or none.",
                "Choose %(count)s different robots, or none.",
                per,
            )
            % {"count": per}
        )
    if any(not isinstance(r, int) or not 1 <= r <= 8 for r in robots):
        raise GameError(gettext("Robots are numbered 1 to 8."))
    if set(robots) & set(taken):
        raise Conflict(gettext("Another player has already chosen that robot."))
    return robots


def start_options(game: Game, seats: list[Seat], rng: random.Random) -> dict:
    """The robots of every seat: those chosen, and free ones at random for the rest (O2)."""
    chosen = {r for s in seats for r in s.robots}
    free = [r for r in range(1, 9) if r not in chosen]
    rng.shuffle(free)
    per = robots_per_seat(game)
    robots = {}
    for seat in seats:
        mine = sorted(seat.robots) if seat.robots else sorted(free.pop() for _ in range(per))
        robots[seat.seat_id] = seat.robots = mine
    return {"robots": robots}
