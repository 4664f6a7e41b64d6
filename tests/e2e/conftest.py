"""Browser tests: Debian's Chromium driven by pytest-playwright against pytest-django's
live_server (fixtures here; helpers in helpers.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# pytest-playwright's sync API keeps an event loop in the main thread: without this every ORM
# call made by a test (or a fixture) fails with SynchronousOnlyOperation.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

from playwright.sync_api import expect  # noqa: E402

from tests.e2e.helpers import CHROMIUM, CHROMIUM_FLAGS, SCREENSHOTS, WAIT_MS, Problems  # noqa: E402

expect.set_options(timeout=WAIT_MS)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip(f"{CHROMIUM} is missing: apt-get install -y chromium (make e2e-deps)")
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [*browser_type_launch_args.get("args", []), *CHROMIUM_FLAGS],
    }


@pytest.fixture(scope="session")
def screenshot_dir() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


@pytest.fixture
def problems() -> Problems:
    return Problems()


@pytest.fixture
def new_page(new_context, problems):
    """A page in a fresh browser context (its own cookies), watched for problems. The contexts
    close before the database is flushed, so no poll reaches an emptied database."""

    def make(who: str, **context_args):
        page = new_context(**context_args).new_page()
        page.set_default_timeout(WAIT_MS)
        return problems.watch(page, who)

    return make
