"""The two facts about play that an account's rules need, handed in by the game side.

accounts/ is identity only and imports nothing of games (pyproject.toml's contract); games
may import accounts. So the game side answers here, once, in games/apps.py's `ready()`:
- `bot_names`: the labels of the site's own bots ("Random bot", ...): no player may take a
  name that passes for one of them (accounts/names.py);
- `has_played(user)`: has this account ever sat at a table (or been replaced at one)? Such an
  account cannot become a bot: its games and rating are a person's (accounts/bots.py).
Asked before the game side answered (no `games` app installed), it is an error, never a guess.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.core.exceptions import ImproperlyConfigured

from accounts.models import User


@dataclass(frozen=True)
class GameSide:
    bot_names: tuple[str, ...]
    has_played: Callable[[User], bool]


_answer: list[GameSide] = []


def register(*, bot_names: tuple[str, ...], has_played: Callable[[User], bool]) -> None:
    """The game side's answer (games/apps.py); registered again, the newer one holds."""
    _answer[:] = [GameSide(tuple(bot_names), has_played)]


def game_side() -> GameSide:
    if not _answer:
        raise ImproperlyConfigured("accounts asks the game side, which registers in its ready().")
    return _answer[0]
