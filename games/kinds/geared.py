"""Geared as the write path sets it up: its settings in the lobby (checked), what a player
chooses of their seat (nothing), and what the start adds to its options (nothing)."""

from __future__ import annotations

import random

from django.utils.translation import gettext

from games.engines.geared import engine
from games.errors import GameError
from games.models import Game, Seat

TARGETS = (300, 500, 1000, 1500, 2000)


def options(spec) -> dict:
    if spec.advanced:
        raise GameError(gettext("Only Out of Gears has an advanced mode."))
    if spec.target not in TARGETS:
        raise GameError(gettext("Choose a target score from the list."))
    return {"target": spec.target}


def seat_ranges() -> dict[str, list[int]]:
    return {"geared": list(engine.SEATS)}


def form_errors(data: dict) -> dict[str, str]:
    errors = {}
    if data.get("advanced"):
        errors["advanced"] = gettext("Only Out of Gears has an advanced mode.")
    if data.get("robots"):
        errors["robots"] = gettext("Robots are for Out of Gears; Geared has none.")
    low, high = engine.SEATS
    if "seat_count" in data and not low <= data["seat_count"] <= high:
        errors["seat_count"] = gettext(
            "Geared: Build Your Bike is for %(low)s to %(high)s players."
        ) % {"low": low, "high": high}
    return errors


def spec_fields(data: dict) -> dict:
    return {"target": data["target"], "advanced": False, "robots": ()}


def seat_choice(game: Game, robots, taken: set[int]) -> list[int]:
    return []  # a Geared seat has nothing to choose


def start_options(game: Game, seats: list[Seat], rng: random.Random) -> dict:
    return {}
