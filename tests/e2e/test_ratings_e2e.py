"""Ratings in the browser: after finished games, a player's page shows the rating, the games and
the chart, at phone and desktop widths, with no console error or CSP violation."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import DESKTOP, PHONE, log_in
from tests.support.games import start_geared
from tests.support.users import PASSWORD
from tests.web.helpers import advance

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_players_page_after_three_games(
    live_server, new_page, problems, screenshot_dir, alice, bob
):
    for _ in range(3):
        assert not advance(start_geared([alice, bob]), 2000).is_active
    for size in (PHONE, DESKTOP):
        page = new_page(f"alice-{size['width']}", viewport=size)
        log_in(page, live_server, "alice", PASSWORD)
        page.goto(f"{live_server.url}/accounts/profile/")
        page.get_by_role("link", name="Your ratings and statistics").click()
        expect(page.locator("h1")).to_have_text("Alice")
        section = page.locator("section", has_text="Geared: Build Your Bike")
        expect(section.locator("dt:text('Games') + dd")).to_have_text("3")
        expect(section.locator("svg[role=img] polyline")).to_have_count(1)
        box = section.locator("svg[role=img]").bounding_box()
        assert box and box["width"] <= size["width"]  # the chart fits the phone
        page.screenshot(path=screenshot_dir / f"player-{size['width']}.png", full_page=True)
    problems.assert_none()
