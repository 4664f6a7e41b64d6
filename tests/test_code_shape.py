"""The shape of the code that a reader (and the next Django release) relies on: written-out SQL
in one module, and none of Django's private attributes in the game's code."""

from __future__ import annotations

import ast
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


ACCOUNTS = GAMES.parent / "accounts"
# A URL read: a parser called, or a URL library imported.
URL_READERS = re.compile(
    r"\b(urlsplit|urlparse|urljoin|parse_url|prepare_url)\("
    r"|^\s*(from|import) (urllib3|urllib\.parse|rfc3986|requests\.models|requests\.utils)\b",
    re.M,
)
# Who may read a URL, and which: the push endpoints are accounts/push.py's alone.
URL_READING = {
    "accounts/push.py": "push endpoints: push_url, the outbound push URL right",
    "games/notifications.py": "SITE_URL's host, the e-mails' Message-ID domain",
}


def test_the_outbound_push_url_is_decided_in_one_place():
    """Issue 34.1: `accounts.push.push_url` is the one reading of a push endpoint, with the
    sender's parser; the subscribe door stores what it returns and the sender calls it again,
    on the request itself (`games.webpush.CheckedAdapter`). No other module reads a URL of its
    own (a second reading is how `\\` once meant one host to urlsplit and another to urllib3),
    and only games/webpush.py sends a push."""
    sources = {
        p.relative_to(GAMES.parent).as_posix(): p.read_text()
        for root in (GAMES, ACCOUNTS)
        for p in sorted(root.rglob("*.py"))
        if "migrations" not in p.parts
    }
    readers = {name for name, text in sources.items() if URL_READERS.search(text)}
    assert readers == set(URL_READING)
    assert "endpoint" not in sources["games/notifications.py"].replace("webpush", "")
    defined = [name for name, text in sources.items() if re.search(r"^def push_url\(", text, re.M)]
    assert defined == ["accounts/push.py"]
    senders = {name for name, text in sources.items() if re.search(r"\bwebpush\(", text)}
    assert senders == {"games/webpush.py"}
    sender = sources["games/webpush.py"]
    assert "push_url(" in sender and "requests_session=session" in sender
    assert sender.count("CheckedAdapter()") == 2  # https:// and http://
    assert "push.push_url(" in sources["games/views/push.py"]


def _calls_in(tree: ast.Module, name: str) -> set[str]:
    """The top-level functions of a module that call `name`."""
    return {
        f.name
        for f in tree.body
        if isinstance(f, ast.FunctionDef)
        for node in ast.walk(f)
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == name
    }


def test_geared_legality_is_the_move_generators():
    """Issue 35.6: what Geared's apply accepts, and the sentence it refuses with, is written in
    games/geared/legal.py beside the move generator (`checked`, `why_illegal`); engine.py only
    carries an accepted action out (its one IllegalMove is resolve's: a Geared turn has no
    resolution step). G6's re-declared-wild rule is one function, which the listing's count
    and walk and the refusal all ask."""
    geared = GAMES / "geared"
    raising = {
        p.name: p.read_text().count("raise IllegalMove(")
        for p in sorted(geared.glob("*.py"))
        if "raise IllegalMove(" in p.read_text()
    }
    assert set(raising) == {"engine.py", "legal.py"} and raising["engine.py"] == 1
    engine = ast.parse((geared / "engine.py").read_text())
    assert _calls_in(engine, "IllegalMove") == {"resolve"}
    assert "apply" in _calls_in(engine, "checked")
    legal = ast.parse((geared / "legal.py").read_text())
    assert _calls_in(legal, "to_new_levels") >= {"_counts", "_rearrange", "_check_rearrange"}
    assert _calls_in(legal, "play_levels") >= {"_combo_table", "_play_level"}
    sentence = "changes nothing."
    assert [p.name for p in sorted(geared.glob("*.py")) if sentence in p.read_text()] == [
        "legal.py"
    ]
