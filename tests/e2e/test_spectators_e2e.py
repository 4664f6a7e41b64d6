"""A spectator in the browser: carol watches alice and bob's public game from the lobby; a move
and a chat message reach her page live; she has no hand, no move and no chat box."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.models import ChatMessage
from tests.e2e.helpers import DESKTOP, PHONE, log_in, shoot
from tests.support.games import advance, start_geared
from tests.support.users import PASSWORD

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_spectator_watches_live(
    live_server, new_page, problems, screenshot_dir, size, alice, bob, carol
):
    game = advance(start_geared([alice, bob], target=1000, public=True), 2)
    page = new_page("carol", viewport=size)
    log_in(page, live_server, "carol", PASSWORD)
    page.goto(f"{live_server.url}/lobby/")
    watch = page.locator("h2:text('Games to watch') + ul")
    watch.locator(f"a[href='{game.get_absolute_url()}']").click()
    expect(page.locator(".notice")).to_contain_text("You are watching this game")
    expect(page.locator(".hand")).to_have_count(0)
    expect(page.get_by_placeholder("Message the table…")).to_have_count(0)
    version = page.locator("#game").get_attribute("data-version")

    advance(game, 1)  # a move elsewhere: the page follows without a reload
    expect(page.locator("#game")).not_to_have_attribute("data-version", version, timeout=15_000)
    ChatMessage.objects.post(game, alice, "watch this")  # the message and the chat's count
    expect(page.locator("#chat-log")).to_contain_text("watch this", timeout=15_000)
    shoot(page, screenshot_dir / f"spectator-{size['width']}.png", full_page=True)
    problems.assert_none()
