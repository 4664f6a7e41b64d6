"""The admin's pages of a chat report in the browser: the reported message is highlighted among
the messages around it by a CSS class (an inline style would be blocked by the site's CSP and
reported as an error), and the pages load with no console error or CSP violation."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games.actions import moderation
from tests.e2e.helpers import DESKTOP, PHONE, log_in, shoot
from tests.support.games import start_geared
from tests.support.users import PASSWORD, make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_report_pages_highlight_the_message_without_a_csp_violation(
    live_server, new_page, problems, screenshot_dir, django_user_model, alice, bob
):
    make_user(django_user_model, "mod", is_staff=True, is_superuser=True)
    game = start_geared([alice, bob])
    moderation.post_chat(bob, game.pk, "hello")
    rude = moderation.post_chat(bob, game.pk, "you are a bad player")
    moderation.post_chat(alice, game.pk, "that is not nice")
    report = moderation.report_message(alice, rude.pk, "insult")

    page = new_page("mod")
    log_in(page, live_server, "mod", PASSWORD)
    for name, url in (
        ("report", reverse("admin:games_report_change", args=[report.pk])),
        ("report-handle", reverse("admin:games_report_handle", args=[report.pk])),
    ):
        for size_name, size in (("390", PHONE), ("1280", DESKTOP)):
            page.set_viewport_size(size)
            page.goto(f"{live_server.url}{url}")
            highlighted = page.locator(".chat-context tr.reported-message")
            expect(highlighted).to_have_count(1)
            expect(highlighted).to_contain_text("you are a bad player")
            cell = highlighted.locator("td").last
            weight = cell.evaluate("td => getComputedStyle(td).fontWeight")
            assert int(weight) >= 700, "the reported message stands out"
            assert page.locator("[style]").count() == 0, "no inline style (the CSP blocks them)"
            shoot(page, screenshot_dir / f"admin-{name}-{size_name}.png", full_page=True)
    problems.assert_none()
