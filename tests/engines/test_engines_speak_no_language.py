"""The engines stay pure (pyproject.toml's import contracts, docs/i18n.md): they import nothing
of Django, not even to translate; their refusals are message ids marked by their own
gettext_noop, translated at the edge."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path

import games.engines
from games.engines.interface import IllegalMove, Term, gettext_noop


def test_importing_every_engine_module_loads_no_django():
    modules = [m.name for m in pkgutil.walk_packages(games.engines.__path__, "games.engines.")]
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "loaded = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.'))\n"
        "assert not loaded, loaded\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert len(modules) > 10


def test_the_import_contracts_hold():
    lint_imports = Path(sys.executable).parent / "lint-imports"
    done = subprocess.run([str(lint_imports), "--no-logo"], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-2000:]
    assert "The rules engines are pure" in done.stdout and " 0 broken" in done.stdout


def test_a_refusal_carries_its_message_id_and_reads_as_english():
    refused = IllegalMove(
        gettext_noop("%(robot)s was programmed twice."), robot=Term("robot", 1, "Red")
    )
    assert refused.msgid == "%(robot)s was programmed twice."
    assert refused.message == str(refused) == "Red was programmed twice."
    assert refused.params["robot"].value == 1
