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


def test_an_invitation_is_declined_in_one_place():
    """services.decline_invitation is the one decline (issue 34.10): the table page's Decline
    and the e-mail's decline link both call it; no other module marks an invitation declined
    or puts an address on the suppression list for it."""
    writers = {
        p.relative_to(GAMES).as_posix()
        for p in _sources()
        if re.search(r"declined=|EmailSuppression\.add\(", p.read_text())
    }
    assert writers == {"services.py"}
    views = {name: (GAMES / "views" / name).read_text() for name in ("table.py", "invitations.py")}
    assert all("services.decline_invitation(" in text for text in views.values())


def test_the_admins_own_pages_draw_breadcrumbs_as_django_does():
    """Django 6's admin styles `ol.breadcrumbs` (one item a `li`): the old `div.breadcrumbs`
    of our own admin pages lost the bar's style (issue 34.10, the report's Handle page)."""
    admin = Path(__file__).resolve().parent.parent / "templates" / "admin"
    for page in admin.rglob("*.html"):
        text = page.read_text()
        if "{% block breadcrumbs %}" in text:
            assert '<ol class="breadcrumbs">' in text, page
            assert 'div class="breadcrumbs"' not in text, page
