"""The Rules pages in the browser at phone and desktop sizes: a link to a rule (#G13) lands on
it, highlighted; no console error or CSP violation. Screenshots in test-artifacts/screenshots/."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import DESKTOP, PHONE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(("game", "rule"), [("geared", "G13"), ("outofgears", "O12")])
def test_a_rule_link_lands_on_the_rule(live_server, new_page, problems, screenshot_dir, game, rule):
    page = new_page("visitor")
    for size_name, size in (("390", PHONE), ("1280", DESKTOP)):
        page.set_viewport_size(size)
        page.goto(f"{live_server.url}/rules/{game}/#{rule}")
        expect(page.locator("h1")).to_contain_text("the rules")
        expect(page.locator(f"li#{rule}")).to_be_in_viewport()
        page.screenshot(path=screenshot_dir / f"rules-{game}-{size_name}.png", full_page=True)
        overflow = page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0
    problems.assert_none()
