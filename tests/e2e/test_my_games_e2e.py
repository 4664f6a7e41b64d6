"""My games in the browser, at phone and desktop sizes: each row names the game, whose turn it
is, the scores or my final place; every page visited has a visible title; no console error or
CSP violation. Screenshots in test-artifacts/screenshots/."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import DESKTOP, PHONE, log_in, shoot
from tests.support.games import advance, start_geared, start_oog
from tests.support.users import PASSWORD

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_my_games_rows_at_phone_and_desktop_sizes(
    live_server, new_page, problems, screenshot_dir, alice, bob, carol
):
    geared = advance(start_geared([alice, bob], target=1000), 6)
    oog = start_oog([alice, bob, carol])
    finished = advance(start_geared([alice, bob, carol], target=300), 2000)
    assert finished.is_over
    page = new_page("alice")
    log_in(page, live_server, "alice", PASSWORD)
    for size_name, size in (("390", PHONE), ("1280", DESKTOP)):
        page.set_viewport_size(size)
        page.goto(f"{live_server.url}/games/")
        expect(page.locator("h1")).to_have_text("My games")
        for game in (geared, oog, finished):
            expect(page.locator(f'a[href="{game.get_absolute_url()}"]')).to_contain_text(
                f"#{game.pk}"
            )
        # The row whose title links to the finished game (the link covers its card, issue 27.1).
        finished_row = page.locator(".row-card").filter(
            has=page.locator(f'a.row-link[href="{finished.get_absolute_url()}"]')
        )
        expect(finished_row.locator(".standing")).to_contain_text(" of 3 · ")
        shoot(page, screenshot_dir / f"my-games-{size_name}.png", full_page=True)
        overflow = page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0
        for game in (geared, oog):
            page.goto(f"{live_server.url}{game.get_absolute_url()}")
            expect(page.locator("h1")).to_be_visible()
            expect(page.locator("h1")).to_contain_text(f"#{game.pk}")
    problems.assert_none()
