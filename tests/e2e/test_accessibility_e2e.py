"""Accessibility: axe-core (vendored from npm in tests/e2e/assets/, MPL-2.0, its licence header
kept) run in Chromium on the main pages — the lobby, my games, both game pages mid-game, the log
and the profile — at phone and desktop sizes and in the dark colour scheme: no critical and no
serious violation, no console error and no CSP violation. Screenshots in
test-artifacts/screenshots/."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.e2e.helpers import (
    DESKTOP,
    PHONE,
    geared_mid_game,
    give_cards,
    log_in,
    outofgears_mid_game,
    shoot,
)
from tests.support.browser import axe_problems
from tests.support.games import advance_to_turn_of, seat_to_act
from tests.support.users import PASSWORD

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_main_pages_have_no_serious_accessibility_problem(
    live_server, new_page, problems, screenshot_dir, alice, bob, carol
):
    geared = geared_mid_game(alice, bob, carol)
    # Her hand as she plays: tappable cards, choices. A greedy move does not always end its
    # player's turn (failed once: bob still to act after one more move), so play on to hers.
    geared = advance_to_turn_of(geared, alice)
    # Action cards in her hand, whatever the deal: some she may play now and some she may not
    # (drawn flat then), so both looks are checked on every run, not only on a lucky deal.
    removes, steals, swaps = (tuple(range(first, first + 6)) for first in (75, 81, 87))
    give_cards(geared.pk, {seat_to_act(geared).seat_id: [removes, steals, swaps]})
    geared.refresh_from_db()
    oog = outofgears_mid_game(alice, bob, carol)
    pages = {
        "lobby": reverse("lobby"),
        "my-games": reverse("my_games"),
        "geared": geared.get_absolute_url(),
        "outofgears": oog.get_absolute_url(),
        "log": reverse("game_log", args=[geared.pk]),
        "log-outofgears": reverse("game_log", args=[oog.pk]),
        "profile": reverse("profile"),
    }
    page = new_page("alice")
    log_in(page, live_server, "alice", PASSWORD)
    found = []
    for scheme, size_name, size in (
        ("light", "390", PHONE),
        ("light", "1280", DESKTOP),
        ("dark", "1280", DESKTOP),
    ):
        page.emulate_media(color_scheme=scheme)
        page.set_viewport_size(size)
        for name, url in pages.items():
            page.goto(f"{live_server.url}{url}")
            expect(page.locator("h1")).to_be_visible()
            page.wait_for_load_state("networkidle")
            if name == "geared":  # a card of her hand selected: its destinations light up
                page.locator("#game .hand-card.tappable").first.click()
                expect(page.locator("#game .hand-card[aria-pressed=true]")).to_have_count(1)
            found += [f"{name}, {scheme}, {size_name} px: {p}" for p in axe_problems(page)]
            shot = f"a11y-{name}-{size_name}{'-dark' if scheme == 'dark' else ''}.png"
            shoot(page, screenshot_dir / shot, full_page=True)
    assert not found, "axe found:\n" + "\n".join(found)
    problems.assert_none()
