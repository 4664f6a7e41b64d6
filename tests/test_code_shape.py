"""The shape of the code that a reader (and the next Django release) relies on: written-out SQL
in one module, and none of Django's private attributes in the game's code."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import grimp

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
    """Game.objects.locked (games/models/game.py) takes a game's row lock; every other module asks
    it, or actions.base.locked_game, which does."""
    found = [
        f"{p.relative_to(GAMES)}: {line.strip()}"
        for p in _sources()
        if p.relative_to(GAMES).as_posix() != "models/game.py"
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
# Who may read a URL, and which: the push endpoints are games/notifications/devices.py's alone.
URL_READING = {
    "games/notifications/devices.py": "push endpoints: push_url, the outbound push URL right",
    "games/notifications/email.py": "SITE_URL's host, the e-mails' Message-ID domain",
}


def test_the_outbound_push_url_is_decided_in_one_place():
    """Issue 34.1: `games.notifications.devices.push_url` is the one reading of a push endpoint,
    with the sender's parser; the subscribe door stores what it returns and the sender calls it
    again, on the request itself (`games.notifications.push.CheckedAdapter`). No other module reads
    a URL of its own (a second reading is how `\\` once meant one host to urlsplit and another to
    urllib3), and only games/notifications/push.py sends a push."""
    sources = {
        p.relative_to(GAMES.parent).as_posix(): p.read_text()
        for root in (GAMES, ACCOUNTS)
        for p in sorted(root.rglob("*.py"))
        if "migrations" not in p.parts
    }
    readers = {name for name, text in sources.items() if URL_READERS.search(text)}
    assert readers == set(URL_READING)
    for job in ("queueing", "email", "push_delivery", "digest"):
        assert "endpoint" not in sources[f"games/notifications/{job}.py"].replace("webpush", "")
    defined = [name for name, text in sources.items() if re.search(r"^def push_url\(", text, re.M)]
    assert defined == ["games/notifications/devices.py"]
    senders = {name for name, text in sources.items() if re.search(r"\bwebpush\(", text)}
    assert senders == {"games/notifications/push.py"}
    sender = sources["games/notifications/push.py"]
    assert "push_url(" in sender and "requests_session=session" in sender
    assert sender.count("CheckedAdapter()") == 2  # https:// and http://
    assert "devices.push_url(" in sources["games/views/push.py"]


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


def test_an_invitation_is_declined_in_one_place():
    """tables.decline_invitation is the one decline (issue 34.10): the table page's Decline
    and the e-mail's decline link both call it; no other module marks an invitation declined
    or puts an address on the suppression list for it."""
    writers = {
        p.relative_to(GAMES).as_posix()
        for p in _sources()
        if re.search(r"declined=|EmailSuppression\.add\(", p.read_text())
    }
    assert writers == {"actions/tables.py"}
    views = {name: (GAMES / "views" / name).read_text() for name in ("table.py", "invitations.py")}
    assert all("tables.decline_invitation(" in text for text in views.values())


def test_the_admins_own_pages_draw_breadcrumbs_as_django_does():
    """Django 6's admin styles `ol.breadcrumbs` (one item a `li`): the old `div.breadcrumbs`
    of our own admin pages lost the bar's style (issue 34.10, the report's Handle page)."""
    admin = Path(__file__).resolve().parent.parent / "templates" / "admin"
    for page in admin.rglob("*.html"):
        text = page.read_text()
        if "{% block breadcrumbs %}" in text:
            assert '<ol class="breadcrumbs">' in text, page
            assert 'div class="breadcrumbs"' not in text, page


# --- every right decided once (issue 34) --------------------------------------------------------

# Public functions of the write path that take a user first and are not an action at a table.
NOT_ACTIONS = {
    "check_can_play",  # the door's own check
    "import_record",  # a record becomes the importer's own finished game: no table to act at
    "follow",  # a player's own private list: no table
    "unfollow",
    "take",  # a player's own vacation, from the profile (games/actions/time_off.py): no table
    "come_back",
}


def test_every_action_of_the_write_path_goes_through_the_one_door(db):
    """Issue 34.6: who may act at a table is `base.acting`'s to decide (check_can_play on
    the acting user, before anything is read). Every public function of the write path whose
    first parameter is the acting user (a `User`, not a moderator: their actions are the
    admin's, behind its staff check) is wrapped by it; nobody else calls check_can_play."""
    import inspect

    from tests.support.code import action_modules

    missed = []
    for module in action_modules():
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
    assert callers == {"actions/base.py"}  # its definition and `acting`'s call


def test_who_may_read_a_game_is_written_once():
    """Issue 34.8: `access.may_read` is the rule of who may read a game; no other module
    writes its own (the old copies: services.may_watch, the poll query's own clause, the
    session's hash compared in views/common.py)."""
    sources = {p.relative_to(GAMES).as_posix(): p.read_text() for p in _sources()}
    defines = {
        n for n, text in sources.items() if re.search(r"def (may_read|may_watch)\w*\(", text)
    }
    assert defines == {"reads/access.py"}
    assert not [n for n, text in sources.items() if "may_watch" in text]
    # The poll's query reads the facts and decides nothing: no OR of the rule's clauses.
    assert " OR " not in sources["sql.py"].split("class PollQuery")[1].split("def __call__")[
        0
    ].replace("(s.{s_user} = %s OR s.{s_replaced} = %s)", "")
    # A session's hash is checked by access.session_is_valid only.
    hashes = {n for n, text in sources.items() if "get_session_auth_hash()" in text}
    # live/cache.py: the key's tag of it, never a check
    assert hashes <= {"reads/access.py", "live/cache.py"}
    asked = {n for n, text in sources.items() if re.search(r"\bmay_read(_game)?\(", text)}
    assert {"actions/base.py", "views/common.py", "api/calls.py"} <= asked


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
    games/engines/geared/legal.py beside the move generator (`checked`, `why_illegal`); engine.py
    only carries an accepted action out (its one IllegalMove is resolve's: a Geared turn has no
    resolution step). G6's re-declared-wild rule is one function, which the listing's count
    and walk and the refusal all ask."""
    geared = GAMES / "engines" / "geared"
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


def test_a_geared_boards_markup_has_one_copy_its_template():
    """A card, a build's slot and a card of the hand are drawn by templates only (issue 35.3):
    templates/games/_card.html draws a card, templates/games/geared.html its slot or hand
    link; no Python module of games/ writes that markup as well (games/pages/geared_html.py
    did, "keep these in step"). The card filter renders _card.html and keeps what it drew."""
    assert not (GAMES / "pages" / "geared_html.py").exists()
    markup = re.compile(r"""class=\\?["'](slot\b|hand-card|card\b)|data-card=""")
    found = [
        f"{p.relative_to(GAMES)}: {line.strip()}"
        for p in _sources()
        for line in p.read_text().splitlines()
        if markup.search(line)
    ]
    assert found == []


def test_no_circle_of_imports():
    """No module of games/, accounts/ or config/ reaches itself again through its imports (the
    import contracts' acyclic check is per package, and a package of games/ may span layers:
    pyproject.toml)."""
    graph = grimp.build_graph("games", "accounts", "config")
    edges = {m: graph.find_modules_directly_imported_by(m) for m in graph.modules}
    index, low, stack, on_stack, circles = {}, {}, [], set(), []

    def visit(module):  # Tarjan's strongly connected components
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for other in edges.get(module, ()):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == module:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for module in sorted(edges):
        if module not in index:
            visit(module)
    assert circles == []


# --- the rooms of games/ (issue 35) ---------------------------------------------------------

WRITES = re.compile(
    r"\.(save|create|update|delete|bulk_create|bulk_update|get_or_create|update_or_create|"
    r"select_for_update)\(|\btransaction\.|\bGame\.objects\.locked\("
)


def test_the_reads_and_the_kinds_write_nothing():
    """Issue 35.1: every change to the database is an action (games/actions/, each under the
    one lock where it changes a game); games/reads/ and games/kinds/ only read (the cache
    aside), so that a page or the API can read through them without touching the write path."""
    found = [
        f"{p.relative_to(GAMES)}: {line.strip()}"
        for folder in ("reads", "kinds")
        for p in sorted((GAMES / folder).rglob("*.py"))
        for line in p.read_text().splitlines()
        if WRITES.search(line) and not line.lstrip().startswith("#")
    ]
    assert found == []


def test_no_module_is_over_600_lines_outside_the_engines():
    """Issue 35: a module a newcomer can read; the rules engines (pure, timed) may be longer."""
    engines = {"geared", "outofgears", "engines", "migrations"}
    long = [
        f"{p.relative_to(GAMES)}: {n}"
        for p in _sources()
        if not engines & set(p.relative_to(GAMES).parts)
        and (n := len(p.read_text().splitlines())) > 600
    ]
    assert long == []


TESTS = Path(__file__).resolve().parent


def _test_sources():
    return sorted(p for p in TESTS.rglob("*.py") if "__pycache__" not in p.parts)


def test_no_test_module_imports_from_another_test_module():
    """Shared test helpers live in tests/support/ (or a folder's helpers module): a test module
    (test_*.py) or a conftest.py is never imported by another, so that moving or deleting a test
    never breaks a second one (issue 35.7). Fixtures reach tests through the conftest files."""
    found = []
    for path in _test_sources():
        for node in ast.walk(ast.parse(path.read_text())):
            names = (
                [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else []
            )
            for name in names:
                last = name.rsplit(".", 1)[-1]
                if name.startswith("tests.") and (last.startswith("test_") or last == "conftest"):
                    found.append(f"{path.relative_to(TESTS)}: {name}")
    assert found == []


# Names that are each module's own: a module's path, and the two `serve`s (gunicorn's and the
# stream process's: different servers, each called by its module's name).
OWN_NAMES = {"ROOT", "serve"}


def test_a_helper_of_tests_support_is_written_nowhere_else():
    """A function or constant tests/support/ defines is not defined again at the top of another
    test module: it is imported (issue 35.7 found `poll` four times, `snapshot` five)."""

    def top_level(path: Path) -> set[str]:
        names = set()
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Assign):
                names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        return names

    support = TESTS / "support"
    shared = {
        name: path.name
        for path in support.glob("*.py")
        for name in top_level(path)
        if not name.startswith("_") and name not in OWN_NAMES
    }
    found = [
        f"{path.relative_to(TESTS)}: {name} (tests/support/{shared[name]})"
        for path in _test_sources()
        if support not in path.parents
        for name in top_level(path) & shared.keys()
    ]
    assert found == []


def test_the_tests_folders_are_named_like_the_code():
    """Issue 35.7: a test of games/<package>/ lives in tests/<package>/ (views/outofgears/ for
    Out of Gears' own pages); the other folders are kinds of test that cross every package
    (real processes killed: faults/; a browser: e2e/), moderation/ (its actions and the admin
    together) and the shared helpers (support/)."""
    packages = {p.name for p in GAMES.iterdir() if (p / "__init__.py").exists()}
    others = {"faults", "e2e", "support", "moderation"}
    folders = {p.name for p in TESTS.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert folders - packages - others == set()
    assert {"engines", "views", "reads", "notifications", "live", "api"} <= folders
