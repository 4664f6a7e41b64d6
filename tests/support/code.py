"""The modules of the code that tests walk through (the write path's, for its one door)."""

from __future__ import annotations

import importlib
import pkgutil

import games.actions


def action_modules() -> list:
    """Every module of the write path (games/actions/), imported."""
    return [
        importlib.import_module(f"games.actions.{info.name}")
        for info in pkgutil.iter_modules(games.actions.__path__)
    ]
