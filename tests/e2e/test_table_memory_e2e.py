"""Issue 27, points 3-5 in the browser, at 390 and 1280 px: the "next game" link and its key N
(ignored while typing), the private notes saved in place, the log by turns with times and the
chat's times; axe finds nothing critical or serious, no console error or CSP violation.
Screenshots in test-artifacts/screenshots/table-memory-*.png."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.actions import moderation
from games.models import GameNote
from tests.e2e.helpers import DESKTOP, PHONE, log_in, shoot
from tests.support.browser import axe_problems
from tests.support.games import advance, seat_to_act, start_geared
from tests.support.users import PASSWORD

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_issue_27_3_4_5_next_game_notes_and_logs_at_both_sizes(
    live_server, new_page, problems, screenshot_dir, alice, bob, carol
):
    waiting = advance(start_geared([alice, bob], target=1000), 4)
    while seat_to_act(waiting).user_id == alice.pk:  # bob's turn here: alice waits
        waiting = advance(waiting, 1)
    mine = start_geared([alice, carol], target=1000)
    while seat_to_act(mine).user_id != alice.pk:  # and her turn there
        mine = advance(mine, 1)
    moderation.post_chat(bob, waiting.pk, "Your move soon?")
    page = new_page("alice")
    log_in(page, live_server, "alice", PASSWORD)
    for size_name, size in (("390", PHONE), ("1280", DESKTOP)):
        page.set_viewport_size(size)
        page.goto(f"{live_server.url}{waiting.get_absolute_url()}")
        next_link = page.locator("a[data-next-game]")
        expect(next_link).to_be_visible()
        expect(page.locator(".next-game kbd")).to_have_text("N")
        expect(page.locator(".chat-time").first).to_have_attribute(
            "datetime", re.compile(r"^\d{4}-\d\d-\d\dT")
        )

        # Notes: typing "n" in the box types it (no jump); saving says so in place. The box is
        # folded while it holds no note (issue 34.10), open once it does.
        notes = page.locator("details#notes")
        if notes.get_attribute("open") is None:
            notes.locator("summary").click()
        box = page.locator("#notes-text")
        box.fill("")
        box.press_sequentially(f"plan n{size_name}")
        expect(box).to_have_value(f"plan n{size_name}")
        assert page.url.endswith(waiting.get_absolute_url())
        page.get_by_role("button", name="Save notes").click()
        expect(page.locator("#notes-status")).to_have_text("Saved")
        assert GameNote.objects.get(game=waiting, user=alice).text == f"plan n{size_name}"
        assert axe_problems(page) == []
        shoot(page, screenshot_dir / f"table-memory-game-{size_name}.png", full_page=True)

        # N, away from any text box, follows the link to the game waiting for her.
        page.locator("h1").click()
        page.keyboard.press("n")
        expect(page).to_have_url(f"{live_server.url}{mine.get_absolute_url()}")
        expect(page.locator(".your-turn")).to_be_visible()
        expect(page.locator("a[data-next-game]")).to_have_count(0)  # her turn here: play it
        assert axe_problems(page) == []

        # The full log: turns as headings, oldest first, times in her zone (UTC, labelled).
        page.goto(f"{live_server.url}/games/{waiting.pk}/log/")
        expect(page.locator(".log-turn h2").first).to_contain_text("Turn 1 · ")
        expect(page.locator(".log-zone")).to_contain_text("UTC")
        expect(page.locator(".log-time").first).to_have_attribute(
            "datetime", re.compile(r"\+00:00$")
        )
        assert axe_problems(page) == []
        shoot(page, screenshot_dir / f"table-memory-log-{size_name}.png", full_page=True)
        overflow = page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0
    problems.assert_none()
