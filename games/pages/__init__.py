"""How each game is drawn, registered by kind as the engines are (games/engines/__init__.py).

Each module (games/pages/geared.py, games/pages/outofgears.py) holds what only its game draws:
the table's and the game page's context, the move form's parsing, the log and e-mail sentences,
the story. What the write path needs of a game kind (its lobby settings, the seat choice, its
start options) is games/kinds/, which this package never needs and never imports back. Views, the
API and notifications keep only what both games share and call the module through `page(kind)`,
never by testing the kind. A third game adds an engine package, a module here and one in
games/kinds/, its templates and one line below.
"""

from __future__ import annotations

from games.pages import geared, outofgears
from games.pages.base import GamePage, Table

__all__ = ["PAGES", "GamePage", "Table", "page"]

PAGES: dict[str, GamePage] = {"geared": geared, "outofgears": outofgears}


def page(kind: str) -> GamePage:
    return PAGES[kind]
