"""One home per game on the web side, registered by kind as the engines are (games/engines/).

Each module (games/pages/geared.py, games/pages/outofgears.py) holds what only its game has:
its settings in the lobby, what a player chooses of their seat, the game page's context, the
move form's parsing, the log and e-mail sentences, the story. Views, services and notifications
keep only what both games share and call the module through `page(kind)`, never by testing the
kind. A third game adds an engine package, a module here, its templates and one line below.
"""

from __future__ import annotations

from games.pages import geared, outofgears
from games.pages.base import GamePage, Table

__all__ = ["PAGES", "GamePage", "Table", "page"]

PAGES: dict[str, GamePage] = {"geared": geared, "outofgears": outofgears}


def page(kind: str) -> GamePage:
    return PAGES[kind]
