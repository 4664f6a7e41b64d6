"""The shape of the code that a reader (and the next Django release) relies on: written-out SQL
in one module, and none of Django's private attributes in the game's code."""

from __future__ import annotations

import re
from pathlib import Path

GAMES = Path(__file__).resolve().parent.parent / "games"
PRIVATE = ("_result_cache", "_prefetched_objects_cache", "_apply_rel_filters", "_cached_user")


def _sources():
    return sorted(GAMES.rglob("*.py"))


def test_written_out_sql_lives_in_one_module():
    """sql.py holds the SQL the ORM cannot say (the poll's query, the insert-once, the NOTIFY
    a change sends: PostgreSQL's pg_notify has no ORM form); no other module of games/ opens
    a cursor or sends SQL of its own."""
    sources = {p.relative_to(GAMES).as_posix(): p.read_text() for p in _sources()}
    users = {name for name, text in sources.items() if "cursor()" in text}
    assert users == {"sql.py"}
    raw = {name for name, text in sources.items() if re.search(r"\.(raw|extra)\(|RawSQL", text)}
    assert raw == set()


def test_no_private_attribute_of_django_is_used_in_games():
    found = [
        f"{p.relative_to(GAMES)}: {name}"
        for p in _sources()
        for name in PRIVATE
        if re.search(rf"\b{name}\b", p.read_text())
    ]
    assert found == []


def test_a_game_is_locked_in_one_place():
    """Game.objects.locked (games/models.py) takes a game's row lock; every other module asks
    it, or services.locked_game, which does."""
    found = [
        f"{p.relative_to(GAMES)}: {line.strip()}"
        for p in _sources()
        if p.name != "models.py"
        for line in p.read_text().splitlines()
        if ("select_for_update" in line and "Game" in line) or "FOR UPDATE" in line
    ]
    assert found == []


ROOT = GAMES.parent
ADDRESS_READ = re.compile(
    r"REMOTE_ADDR|HTTP_X_FORWARDED_FOR|[\"']x-forwarded-for[\"']|get_client_ip_from_xff|"
    r"[\"']client[\"']\]",  # an ASGI scope's peer
    re.IGNORECASE,
)


def test_the_clients_address_is_read_in_one_place():
    """Issue 34.3: config/addresses.py's `client_address` is the client's address for every
    limit (log-in, API, streams), with the proxy rule decided there once; no other module of
    the site reads the connecting address or X-Forwarded-For (allauth asks it through
    accounts/adapter.py's get_client_ip)."""
    found = [
        f"{path.relative_to(ROOT)}: {line.strip()}"
        for folder in ("games", "accounts", "config")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if path.relative_to(ROOT).as_posix() != "config/addresses.py"
        for line in path.read_text().splitlines()
        if ADDRESS_READ.search(line) and not line.lstrip().startswith("#")
    ]
    assert found == []


def test_a_password_is_checked_in_one_place():
    """Issue 34.2: outside allauth's log-in, only accounts/logins.py reads a password, under
    the account's log-in lock; any other door (the bot form's owner password) asks it."""
    found = [
        f"{path.relative_to(ROOT)}: {line.strip()}"
        for folder in ("games", "accounts", "config")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if path.relative_to(ROOT).as_posix() != "accounts/logins.py"
        for line in path.read_text().splitlines()
        if re.search(r"(?<!logins)\.check_password\(|\bauthenticate\(request\b", line)
    ]
    assert found == []
