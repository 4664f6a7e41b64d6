"""Vacation in the browser: a player sets "away until" on their profile, and their opponent's
game page says the game is paused for them until that date — with no console error and no CSP
violation. Screenshots at phone and desktop sizes in test-artifacts/screenshots/."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.e2e.helpers import DESKTOP, PHONE, log_in, shoot
from tests.support.games import seat_to_act, start_geared
from tests.support.users import PASSWORD

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_vacation_set_on_the_profile_pauses_the_opponents_game(
    live_server, new_page, problems, screenshot_dir, alice, bob
):
    game = start_geared([alice, bob], target=1000)
    away = seat_to_act(game).user
    other = bob if away == alice else alice
    until = timezone.localdate() + timedelta(days=6)

    page = new_page(away.username, viewport=PHONE)
    log_in(page, live_server, away.username, PASSWORD)
    page.goto(f"{live_server.url}/accounts/profile/")
    page.get_by_label("Away until").fill(until.isoformat())
    page.get_by_role("button", name="Go on vacation").click()
    expect(page.locator("#vacation-status")).to_contain_text(
        f"You are away until {until.day} {until:%b %Y}"
    )
    expect(page.locator("#vacation-allowance")).to_contain_text("vacation days left")
    for size_name, size in (("390", PHONE), ("1280", DESKTOP)):
        page.set_viewport_size(size)
        shoot(page, screenshot_dir / f"vacation-profile-{size_name}.png", full_page=True)

    opponent = new_page(other.username, viewport=PHONE)
    log_in(opponent, live_server, other.username, PASSWORD)
    opponent.goto(f"{live_server.url}{game.get_absolute_url()}")
    expect(opponent.locator("#game .game-head .paused")).to_have_text(
        f"· paused: {away.name} is away until {until.day} {until:%b}"
    )
    for size_name, size in (("390", PHONE), ("1280", DESKTOP)):
        opponent.set_viewport_size(size)
        shoot(opponent, screenshot_dir / f"vacation-game-{size_name}.png", full_page=True)
    problems.assert_none()
