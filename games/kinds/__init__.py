"""Each game kind's set-up, what the write path needs of it: its lobby settings, the seat choice,
its start options; registered by kind as the engines are (games/engines/__init__.py). games/pages/
draws.

A third game adds an engine package, a module here, one in games/pages/ and one line below.
"""

from __future__ import annotations

import random
from typing import Protocol

from games.kinds import geared, outofgears
from games.models import Game, Seat

__all__ = ["KINDS", "GameKind", "game_kind"]


class GameKind(Protocol):
    """What each game kind's module provides."""

    def options(self, spec) -> dict: ...
    def seat_ranges(self) -> dict[str, list[int]]: ...
    def form_errors(self, data: dict) -> dict[str, str]: ...
    def spec_fields(self, data: dict) -> dict: ...
    def seat_choice(self, game: Game, robots, taken: set[int]) -> list[int]: ...
    def start_options(self, game: Game, seats: list[Seat], rng: random.Random) -> dict: ...


KINDS: dict[str, GameKind] = {"geared": geared, "outofgears": outofgears}


def game_kind(name: str) -> GameKind:
    return KINDS[name]
