"""After resigning, in the browser: the page stays live (no 404 from its live check), the chat
stays, read only, and shows a new message of the table without a reload. Screenshots at phone
and desktop sizes."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.actions import moderation
from tests.e2e.helpers import DESKTOP, PHONE, assert_not_reloaded, log_in, mark_page, shoot
from tests.support.games import start_geared
from tests.support.users import PASSWORD

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_player_who_resigned_keeps_following_the_game(
    live_server, new_page, problems, screenshot_dir, alice, bob, carol
):
    game = start_geared([alice, bob, carol], target=1000)
    page = new_page("alice", viewport=PHONE)
    log_in(page, live_server, "alice", PASSWORD)
    page.goto(f"{live_server.url}{game.get_absolute_url()}")
    page.locator("details.resign summary").click()
    page.get_by_role("button", name="Resign from this game").click()
    expect(page.locator("#game .notice")).to_contain_text("You left this game")
    expect(page.locator(".chat")).to_contain_text("you can read the chat, not write in it")
    expect(page.locator("#chat-text")).to_have_count(0)

    mark_page(page)
    moderation.post_chat(bob, game.pk, "thanks for the game, Alice")
    expect(page.locator("#chat-log")).to_contain_text("thanks for the game, Alice")
    assert_not_reloaded(page)
    for size_name, size in (("390", PHONE), ("1280", DESKTOP)):
        page.set_viewport_size(size)
        shoot(page, screenshot_dir / f"resigned-{size_name}.png", full_page=True)
    problems.assert_none()
