"""The one interface both rules engines satisfy (and a third game's would): a pure engine, no
Django, no I/O. The web side calls engines only through it (games/engines/__init__.py is the
registry), so an editor's go-to-definition lands here and a test checks both engines against
it (tests/engines/test_interface.py).

States and actions are plain JSON-able dicts; every function is pure and leaves its input
untouched. `seat` is an engine seat id, "1", "2", … in play order; None views as a spectator.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from games.message_ids import Refused, gettext_noop  # noqa: F401 (the engines mark with it)


class Term:
    """One of a game's own words inside a refusal's parameters (a card, a part, a robot): what
    it is (`what`) and which one (`value`), for the edge to name in the reader's language;
    str() is its English name, so the English sentence reads as before."""

    __slots__ = ("english", "value", "what")

    def __init__(self, what: str, value: object, english: str) -> None:
        self.what = what
        self.value = value
        self.english = english

    def __str__(self) -> str:
        return self.english

    def __repr__(self) -> str:
        return f"Term({self.what!r}, {self.value!r}, {self.english!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Term) and (self.what, self.value) == (other.what, other.value)

    def __hash__(self) -> int:
        return hash((self.what, self.value))


class IllegalMove(Refused):
    """A move or an option the rules refuse. `msgid` is its sentence as a message id with
    `%(name)s` placeholders (marked with gettext_noop), `params` their values (numbers, text,
    or a Term the edge names); `message` (and str()) is the English sentence, filled in."""


@runtime_checkable
class Engine(Protocol):
    #: The rules' version, written into game records: bumped when a change would replay an old
    #: record differently.
    VERSION: int
    #: True when every seat acts at once in a turn (Out of Gears' programs): a seat may change
    #: its action until the last one is in, and only a new turn makes a page stale. False when
    #: seats take turns (Geared): any move makes a page stale.
    SIMULTANEOUS: bool
    #: The keys of a state that scores_now() reads (a list of games fetches only these).
    SCORE_KEYS: tuple[str, ...]
    #: The option keys new_game reads: an imported record keeps these and drops the rest.
    OPTIONS: frozenset[str]

    def seat_range(self, options: dict) -> tuple[int, int]:
        """The fewest and most seats a game with these options allows."""
        ...

    def new_game(self, seats: list[str], *, seed: int, options: dict | None = None) -> dict: ...

    def legal_actions(self, state: dict, seat: str) -> Sequence[dict]:
        """Every action `seat` may take now (empty if none), in a fixed order. Shared, read-only
        dicts, in a read-only sequence: a list, or (Geared) a lazy sequence that builds an
        action only when it is read, so that choosing one by index (`random.choice`) does not
        build them all. len, indexing, iteration, `in`, == with a list and bool work on both;
        for anything else (JSON, list methods) make it a list: `list(legal)`."""
        ...

    def apply(self, state: dict, seat: str, action: dict) -> dict:
        """The state after `seat` takes `action`; IllegalMove if the rules refuse it."""
        ...

    def view(self, state: dict, seat: str | None) -> dict:
        """What `seat` may see (None: a spectator): never another seat's hidden information."""
        ...

    def is_over(self, state: dict) -> bool: ...

    def result(self, state: dict) -> dict:
        """Of a finished game: at least "scores", "winners" and "ranking" (seat ids)."""
        ...

    def scores_now(self, parts: dict) -> dict[str, int]:
        """Each seat's points as the game stands (public), from the state's SCORE_KEYS."""
        ...

    def to_act(self, state: dict) -> frozenset[str]:
        """The seats that must act now: one in Geared, every unprogrammed one in Out of Gears,
        none while a turn waits for its resolution or once the game is over."""
        ...

    def turn(self, state: dict) -> int:
        """A number that changes whenever a new turn begins (deadlines, reminders, e-mails)."""
        ...

    def news_mark(self, state: dict) -> int:
        """The newest news every seat is shown (Geared: the last event's number; Out of Gears:
        the last resolved turn's): what a player has seen is remembered as this mark, so that
        their next visit shows what came since as new. Public: the same for every seat."""
        ...

    def needs_resolution(self, state: dict) -> bool:
        """True when the server must call resolve() before anyone can act (every program in)."""
        ...

    def resolve(self, state: dict) -> dict:
        """The state after the turn's resolution; IllegalMove unless needs_resolution()."""
        ...

    def timeout_actions(
        self, state: dict, rng: random.Random, *, last_chance: bool = False
    ) -> dict[str, dict]:
        """What the server plays for each seat in to_act() whose deadline passed (the rules'
        default for a missed turn). `last_chance`: this action must end the seat's turn."""
        ...
