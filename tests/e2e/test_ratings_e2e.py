"""Players' pages in the browser (issue 17.3, issue 27.1 and 27.2): after finished games, a name
in My games leads to the player's page (rating on the 1500 scale, chart with axes, recent
games), Follow and "Play a game with" work, and one's own page shows the chart and its table;
at phone and desktop widths, axe at 0 critical and 0 serious, no console error or CSP
violation. Screenshots in test-artifacts/screenshots/player-*.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import DESKTOP, PHONE, log_in, shoot
from tests.support.browser import axe_problems
from tests.support.games import advance, start_geared
from tests.support.users import PASSWORD

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_players_page_after_three_games(
    live_server, new_page, problems, screenshot_dir, alice, bob
):
    for _ in range(3):
        assert not advance(start_geared([alice, bob]), 2000).is_active
    for size in (PHONE, DESKTOP):
        width = size["width"]
        page = new_page(f"alice-{width}", viewport=size)
        log_in(page, live_server, "alice", PASSWORD)

        # issue 27.1: a name in My games' rows is a link to that player's page.
        page.goto(f"{live_server.url}/games/finished/")
        page.locator(".game-row .player-link", has_text="Bob").first.click()
        expect(page.locator("h1")).to_have_text("Bob")
        rating = page.locator("section.player-kind dd.rating")
        expect(rating).to_contain_text("?")  # provisional after three games
        value = int(rating.inner_text().rstrip("?"))
        assert 1200 < value < 1800
        expect(page.locator(".recent-game")).to_have_count(3)
        assert axe_problems(page) == []
        shoot(page, screenshot_dir / f"player-bob-{width}.png", full_page=True)

        # issue 27.2: follow, then play a game with him (the lobby's form, him ticked).
        page.get_by_role("button", name="Follow").click()
        expect(page.locator(".flash-success")).to_contain_text("You follow Bob")
        expect(page.get_by_role("button", name="Unfollow")).to_be_visible()
        page.get_by_role("link", name="Play a game with Bob").click()
        expect(page.locator(".invite-picks input[value=bob]")).to_be_checked()
        assert axe_problems(page) == []
        shoot(page, screenshot_dir / f"player-lobby-invite-{width}.png", full_page=True)
        page.go_back()
        page.get_by_role("button", name="Unfollow").click()
        expect(page.get_by_role("button", name="Follow")).to_be_visible()

        # One's own page, from the profile: the chart with its axes and its table.
        page.goto(f"{live_server.url}/accounts/profile/")
        page.get_by_role("link", name="Your ratings and statistics").click()
        expect(page.locator("h1")).to_have_text("Alice (you)")
        section = page.locator("section.player-kind", has_text="Geared: Build Your Bike")
        expect(section.locator("dt:text('Games') + dd")).to_have_text("3")
        expect(section.locator("svg[role=img] polyline")).to_have_count(1)
        expect(section.locator("svg[role=img] .chart-axis")).to_have_count(2)
        box = section.locator("svg[role=img]").bounding_box()
        assert box and box["width"] <= width  # the chart fits the phone
        section.get_by_text("The rating game by game").click()
        expect(section.locator(".rating-table tbody tr")).to_have_count(3)
        section.get_by_text("How the rating is worked out").click()
        assert axe_problems(page) == []
        shoot(page, screenshot_dir / f"player-{width}.png", full_page=True)
    problems.assert_none()
