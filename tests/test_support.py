"""The tests' own shape (issue 24, point 4): each shared helper is written once, in
tests/support, and no test sleeps and hopes: it waits for something it can observe."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).resolve().parent
SHARED = ("wait_for", "start_geared", "start_oog", "client_for", "celery_worker", "make_user")
# The only sleeps: the poll of the one wait, and the faults the fault stack injects on purpose.
SLEEPS_ALLOWED = {"support/waiting.py", "faults/worker_app.py"}


def modules():
    for path in sorted(TESTS.rglob("*.py")):
        yield path.relative_to(TESTS).as_posix(), ast.parse(path.read_text(), str(path))


def test_each_shared_helper_and_fixture_is_defined_once_in_tests_support():
    defined = defaultdict(list)
    for name, tree in modules():
        for node in tree.body:  # module level: methods such as Inbox.wait_for are their own
            if isinstance(node, ast.FunctionDef) and node.name in SHARED:
                defined[node.name].append(name)
    for helper in SHARED:
        assert len(defined[helper]) == 1, f"{helper} is defined in {defined[helper]}"
        assert defined[helper][0].startswith("support/"), f"{helper}: {defined[helper]}"


def is_fixture(node: ast.FunctionDef) -> bool:
    return any("fixture" in ast.unparse(decorator) for decorator in node.decorator_list)


def clears_the_cache(node: ast.AST) -> bool:
    return any(
        isinstance(call, ast.Call) and ast.unparse(call.func) == "cache.clear"
        for call in ast.walk(node)
    )


def test_one_fixture_empties_the_cache_and_with_it_the_rate_limits():
    clearing = [
        f"{name}:{node.name}"
        for name, tree in modules()
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef) and is_fixture(node) and clears_the_cache(node)
    ]
    assert clearing == ["support/cache.py:_fresh_cache"]


def test_no_test_sleeps_before_it_looks():
    sleeps = [
        f"{name}:{node.lineno}"
        for name, tree in modules()
        if name not in SLEEPS_ALLOWED
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and (
            (isinstance(node.func, ast.Attribute) and node.func.attr == "sleep")
            or (isinstance(node.func, ast.Name) and node.func.id == "sleep")
        )
        and not (
            isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "asyncio"  # tests/smtp.py: a slow server, on purpose
        )
    ]
    assert sleeps == [], f"wait for something observable (tests/support/waiting.py): {sleeps}"
