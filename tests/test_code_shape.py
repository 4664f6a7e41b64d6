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


# --- every right decided once (issue 34) --------------------------------------------------------

# Public functions of the write path that take a user first and are not an action at a table.
NOT_ACTIONS = {
    "email_invitation_for",  # reads the invitation behind an e-mail's link: nothing changes
    "check_can_play",  # the door's own check
}


def test_every_action_of_the_write_path_goes_through_the_one_door(db):
    """Issue 34.6: who may act at a table is `services.acting`'s to decide (check_can_play on
    the acting user, before anything is read). Every public function of the write path whose
    first parameter is the acting user (a `User`, not a moderator: their actions are the
    admin's, behind its staff check) is wrapped by it; nobody else calls check_can_play."""
    import inspect

    from games import moderation, services

    missed = []
    for module in (services, moderation):
        for name, fn in inspect.getmembers(module, inspect.isfunction):
            if fn.__module__ != module.__name__ or name.startswith("_") or name in NOT_ACTIONS:
                continue
            params = list(inspect.signature(inspect.unwrap(fn)).parameters.values())
            takes_actor = params and params[0].annotation in ("User", "User | None")
            if takes_actor and params[0].name != "moderator" and not getattr(fn, "acting", 0):
                missed.append(f"{module.__name__}.{name}")
    assert missed == []
    callers = {
        p.relative_to(GAMES).as_posix()
        for p in _sources()
        if re.search(r"\bcheck_can_play\(", p.read_text())
    }
    assert callers == {"services.py"}  # its definition and `acting`'s call


def test_who_may_read_a_game_is_written_once():
    """Issue 34.8: `access.may_read` is the rule of who may read a game; no other module
    writes its own (the old copies: services.may_watch, the poll query's own clause, the
    session's hash compared in views/common.py)."""
    sources = {p.relative_to(GAMES).as_posix(): p.read_text() for p in _sources()}
    defines = {
        n for n, text in sources.items() if re.search(r"def (may_read|may_watch)\w*\(", text)
    }
    assert defines == {"access.py"}
    assert not [n for n, text in sources.items() if "may_watch" in text]
    # The poll's query reads the facts and decides nothing: no OR of the rule's clauses.
    assert " OR " not in sources["sql.py"].split("class PollQuery")[1].split("def __call__")[
        0
    ].replace("(s.{s_user} = %s OR s.{s_replaced} = %s)", "")
    # A session's hash is checked by access.session_is_valid only.
    hashes = {n for n, text in sources.items() if "get_session_auth_hash()" in text}
    assert hashes <= {"access.py", "live.py"}  # live.py: the key's tag of it, never a check
    asked = {n for n, text in sources.items() if re.search(r"\bmay_read(_game)?\(", text)}
    assert {"services.py", "views/common.py", "api.py"} <= asked
