"""What every game's page module is given (`Table`) and provides (`GamePage`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from games.models import Game


@dataclass(frozen=True)
class Table:
    """What a game page is drawn from: the game, what this visitor may see of it (`view`, the
    engine's view for their seat) and do (`legal`), and the page's own request parameters."""

    game: Game
    view: dict
    legal: Sequence[dict]  # engine.legal_actions: a list or a read-only sequence
    names: dict[str, str]
    me: str | None
    seen: int | None  # the newest event or story this player was shown, None for a visitor
    query: Any = field(default_factory=dict)  # the page's GET parameters (a QueryDict)
    refused: object = None  # the action just refused, to show what the player picked
    htmx: bool = False  # drawn as a fragment swapped in place (not a whole page)
    links: dict = field(default_factory=dict)  # seat -> its name linked (links.name_links)


class GamePage(Protocol):
    """What each game's module provides (see the module docstring)."""

    TURN_NOUN: str  # "turn" or "program": the e-mails' "your turn is due"
    MISSED: str  # what happens at a missed deadline, as a sentence's end
    NOTES_HINT: str  # the notes box's placeholder: what a player of this game might note

    def table_context(self, game: Game) -> dict: ...
    def context(self, table: Table) -> dict: ...
    def parse_move(self, post) -> dict | None: ...
    def refused_query(self, query) -> str: ...
    def log_context(
        self, game: Game, me: str | None, names: dict, links: dict | None = None
    ) -> dict: ...
    def email_context(
        self, note_kind: str, game: Game, me: str | None, names: dict, turn: int
    ) -> dict: ...
