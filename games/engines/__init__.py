"""The rules engines, pure (no Django, no I/O), and their registry: engines and bots by kind.

This module is the one door through which services, pages and tasks reach an engine, always as
the `Engine` interface (games/engines/interface.py). A third game adds one line here (and one in
games/pages/__init__.py)."""

from __future__ import annotations

import random

from games.engines.geared import bots as geared_bots
from games.engines.geared import engine as geared
from games.engines.interface import Engine, IllegalMove
from games.engines.outofgears import bots as oog_bots
from games.engines.outofgears import engine as outofgears

ENGINES: dict[str, Engine] = {"geared": geared, "outofgears": outofgears}
BOTS = {"geared": geared_bots.BOTS, "outofgears": oog_bots.BOTS}

# What records and lists read of every engine, by kind.
VERSIONS = {kind: eng.VERSION for kind, eng in ENGINES.items()}
SCORE_KEYS = {kind: eng.SCORE_KEYS for kind, eng in ENGINES.items()}

__all__ = ["ENGINES", "Engine", "IllegalMove", "bot_action", "engine"]


def engine(kind: str) -> Engine:
    return ENGINES[kind]


def bot_action(kind: str, bot: str, state: dict, seat: str, rng_seed: str) -> dict:
    """A bot's choice, from what the seat may see and do — never the full state."""
    eng = ENGINES[kind]
    choose = BOTS[kind][bot]
    return choose(eng.view(state, seat), eng.legal_actions(state, seat), random.Random(rng_seed))


def seats_to_act(kind: str, state: dict) -> frozenset[str]:
    return ENGINES[kind].to_act(state)


def turn_number(kind: str, state: dict) -> int:
    return ENGINES[kind].turn(state)


def scores_now(kind: str, parts: dict) -> dict[str, int]:
    """Each seat's points as the game stands, from the state's SCORE_KEYS only; {} if a key is
    missing (a list of games fetches just these, not a finished game's 10-15 kB state)."""
    if any(parts.get(key) is None for key in SCORE_KEYS[kind]):
        return {}
    return ENGINES[kind].scores_now(parts)
