"""One door to both rules engines, so that services, views and tasks treat the games alike."""

from __future__ import annotations

import random
from types import ModuleType

from games.geared import bots as geared_bots
from games.geared import engine as geared
from games.outofgears import bots as oog_bots
from games.outofgears import engine as outofgears
from games.outofgears.scoring import standings as oog_standings

ENGINES: dict[str, ModuleType] = {"geared": geared, "outofgears": outofgears}
# The rules' version per engine, written into game records (games/records.py): bump it when a
# change makes an old record replay differently, so that such a record is refused, not misread.
VERSIONS = {"geared": 1, "outofgears": 1}
BOTS = {"geared": geared_bots.BOTS, "outofgears": oog_bots.BOTS}

# Both engines raise their own IllegalMove; the web layer catches either.
IllegalMove = (geared.IllegalMove, outofgears.IllegalMove)


def engine(kind: str) -> ModuleType:
    return ENGINES[kind]


def seats_to_act(kind: str, state: dict) -> set[str]:
    """The engine seats that must act now (Geared: one; Out of Gears: who has not programmed)."""
    if state.get("over"):
        return set()
    if kind == "geared":
        seat = geared.current_seat(state)
        return {seat} if seat is not None else set()
    if outofgears.all_programmed(state):
        return set()
    return {seat for seat in state["seats"] if seat not in state["programs"]}


def bot_action(kind: str, bot: str, state: dict, seat: str, rng_seed: str) -> dict:
    """A bot's choice, from what the seat may see and do — never the full state."""
    eng = ENGINES[kind]
    choose = BOTS[kind][bot]
    return choose(eng.view(state, seat), eng.legal_actions(state, seat), random.Random(rng_seed))


def turn_number(kind: str, state: dict) -> int:
    """A number that changes whenever a new turn begins (deadlines, reminders, e-mails)."""
    return int(state["turn_number"] if kind == "geared" else state["turn"])


# The few keys of a state that scores_now() reads: a list of games fetches only these, not the
# whole state (a finished game's is 10-15 kB of events).
SCORE_KEYS = {"geared": ("scores",), "outofgears": ("robots", "seats", "seat_robots")}


def scores_now(kind: str, parts: dict) -> dict[str, int]:
    """Each seat's points as the game stands (Out of Gears: if it ended now, O16-O17), from the
    state's SCORE_KEYS[kind]; public information, as every player sees it on the table."""
    if any(parts.get(key) is None for key in SCORE_KEYS[kind]):
        return {}
    if kind == "geared":
        return dict(parts["scores"])
    return oog_standings(parts)["scores"]
