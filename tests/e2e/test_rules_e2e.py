"""The Rules pages in the browser at phone and desktop sizes (issue 14.10, issue 27.10): the
quick start, drawn with the game's own cards and gears, fits about one phone screen; its rule
links open the collapsed section that holds the rule and land on it, highlighted, as a link from
another page (#G13) does; the contents, folded under the title, open from a section's "↑ Contents"
link and open the section they name. axe finds nothing critical or
serious; no console error or CSP violation. Screenshots in test-artifacts/screenshots/."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import DESKTOP, PHONE, shoot
from tests.support.browser import axe_problems

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Measured at 390 px: Geared's quick start is about 1070 px tall, Out of Gears' about 1185 (a
# phone screen is 844): "one screen or close", with room for a font a little larger.
QUICK_START_MAX_PX = 1.5 * PHONE["height"]


@pytest.mark.parametrize(
    ("game", "rule", "quick_rule", "section"),
    [("geared", "G13", "G5", "builds"), ("outofgears", "O12", "O8", "the-end")],
)
def test_the_rules_page_quick_start_and_sections(
    live_server, new_page, problems, screenshot_dir, game, rule, quick_rule, section
):
    """issue 27.10"""
    page = new_page("visitor")
    for size_name, size in (("390", PHONE), ("1280", DESKTOP)):
        page.set_viewport_size(size)
        page.goto(f"{live_server.url}/rules/{game}/")
        quick = page.locator("#quick-start")
        expect(quick.locator(".card, .gear").first).to_be_visible()
        height = quick.bounding_box()["height"]
        print(f"{game} {size_name}: quick start {height:.0f} px")
        if size is PHONE:
            assert height <= QUICK_START_MAX_PX, height
        shoot(quick, screenshot_dir / f"rules-quick-{game}-{size_name}.png")
        assert axe_problems(page) == []
        overflow = page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0

        # Every section starts collapsed: a rule the quick start cites is one tap away.
        expect(page.locator("details[open]")).to_have_count(0)
        quick.locator(f'a.rule-ref[href="#{quick_rule}"]').first.click()
        expect(page.locator(f"li#{quick_rule}")).to_be_in_viewport()
        # Back to the contents (folded under the title: the link opens them), and from there
        # to a section, which opens.
        page.locator(f"li#{quick_rule}").locator("xpath=ancestor::details").locator(
            ".to-contents a"
        ).click()
        expect(page.locator(".rules-toc nav")).to_be_in_viewport()
        page.locator(f'.rules-toc a[href="#{section}"]').click()
        expect(page.locator(f"details#{section}")).to_have_attribute("open", "")
        expect(page.locator(f"details#{section} li").first).to_be_in_viewport()
        shoot(page, screenshot_dir / f"rules-open-{game}-{size_name}.png")
        assert axe_problems(page) == []

        # A link from another page (an error, the in-game help) lands on its rule.
        page.goto(f"{live_server.url}/rules/{game}/#{rule}")
        expect(page.locator(f"li#{rule}")).to_be_in_viewport()
        shoot(page, screenshot_dir / f"rules-{game}-{size_name}.png", full_page=True)
    problems.assert_none()
