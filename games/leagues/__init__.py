"""A league's pure core (issue 38): its pairings, its standings and the end date's adjudication.

No Django and no I/O, like the engines (pyproject.toml's import contracts): the models, pages
and tasks call `schedule`, `games_count`, `check_league`, `standings` and `adjudicate`;
docs/leagues.md states the rules to players."""

from games.leagues.refusals import LeagueRefused
from games.leagues.schedule import MAX_GAMES, MAX_PLAYERS, check_league, games_count, schedule
from games.leagues.standings import Result, Row, adjudicate, standings

__all__ = [
    "MAX_GAMES",
    "MAX_PLAYERS",
    "LeagueRefused",
    "Result",
    "Row",
    "adjudicate",
    "check_league",
    "games_count",
    "schedule",
    "standings",
]
