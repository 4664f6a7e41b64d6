"""The end of a game in the browser: the final standings above the board, at phone and desktop
widths, and a rematch with the same players in two clicks (one each)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.models import Game, Status
from tests.e2e.helpers import DESKTOP, PHONE, log_in, shoot
from tests.support.games import advance, start_geared
from tests.support.users import PASSWORD

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_end_screen_and_a_rematch_accepted_by_each_player(
    live_server, new_page, problems, screenshot_dir, alice, bob
):
    game = advance(start_geared([alice, bob], target=300), 900)
    assert game.status == Status.FINISHED
    pages = {}
    for user, size in ((alice, PHONE), (bob, DESKTOP)):
        page = new_page(user.username, viewport=size)
        log_in(page, live_server, user.username, PASSWORD)
        page.goto(f"{live_server.url}{game.get_absolute_url()}")
        expect(page.locator(".game-over h2")).to_have_text("Final standings")
        expect(page.locator(".standings li")).to_have_count(2)
        shoot(page, screenshot_dir / f"game-over-{size['width']}.png", full_page=True)
        pages[user.username] = page

    pages["alice"].get_by_role("button", name="Rematch with the same players").click()
    expect(pages["alice"].locator("h1")).to_contain_text("#")  # the new table's page
    rematch = Game.objects.get(rematch_of=game.pk)
    assert rematch.status == Status.OPEN

    bob = pages["bob"]
    bob.reload()
    expect(bob.locator(".rematch-offer")).to_contain_text("offers a rematch")
    bob.get_by_role("button", name="Accept the rematch").click()
    expect(bob.locator("#game")).to_be_visible()
    rematch.refresh_from_db()
    assert rematch.status == Status.ACTIVE
    assert bob.url.endswith(rematch.get_absolute_url())
    problems.assert_none()
