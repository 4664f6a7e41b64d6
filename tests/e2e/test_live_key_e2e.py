"""Issue 22: the live check's key lives minutes. A page left open longer than that keeps
following the game: its next check goes through the session, which hands it a fresh key, and
the page's script keeps that key for the checks after."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.live import cache as live
from tests.e2e.helpers import DESKTOP, assert_not_reloaded, log_in, mark_page
from tests.support.games import advance, start_geared
from tests.support.users import PASSWORD

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_page_open_longer_than_its_key_keeps_following_the_game(
    live_server, new_page, problems, alice, bob, monkeypatch
):
    game = start_geared([alice, bob], target=1000)
    page = new_page("alice", viewport=DESKTOP)
    log_in(page, live_server, "alice", PASSWORD)
    page.goto(f"{live_server.url}{game.get_absolute_url()}")
    mark_page(page)
    first_key = page.locator("#live").get_attribute("data-poll-key")
    assert first_key

    lifetime = live.KEY_MAX_AGE
    monkeypatch.setattr(live, "KEY_MAX_AGE", -1)  # the page's key is now too old
    expect(page.locator("#live")).not_to_have_attribute("data-poll-key", first_key, timeout=15_000)
    monkeypatch.setattr(live, "KEY_MAX_AGE", lifetime)  # the fresh key is good for minutes
    version = page.locator("#game").get_attribute("data-version")
    advance(game, 1)  # a move elsewhere: the page follows without a reload
    expect(page.locator("#game")).not_to_have_attribute("data-version", version, timeout=15_000)
    assert_not_reloaded(page)
    problems.assert_none()
