"""Issue 37 in Chromium: the words the scripts write (static/js, from the djangojs catalog the
frame loads as a static file: templates/_js_catalog.html) are in each player's language. An
Italian and an English player of the same game: the English one's tab says "(1) Your turn — …"
when it is his turn, and when the turn passes the live update writes "(1) Tocca a te — …" in the
Italian's tab, and the navigation's badge with the frame's own words; no problem in the console
(the CSP allows the catalog: it is one of the site's files).

Needs the frame to include templates/_js_catalog.html (skipped until it does) and the Italian
djangojs catalog with this area's translations."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import expect

from tests.e2e.helpers import DESKTOP, WAIT_MS, log_in
from tests.support.games import advance, seat_to_act, start_geared
from tests.support.users import PASSWORD

FRAME = Path(settings.BASE_DIR, "templates", "base.html").read_text()

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        "_js_catalog.html" not in FRAME, reason="the frame does not load the JS catalog yet"
    ),
]


def open_game(new_page, live_server, game, user: str):
    page = new_page(user, viewport=DESKTOP)
    log_in(page, live_server, user, PASSWORD)
    page.goto(f"{live_server.url}{game.get_absolute_url()}")
    return page


def test_each_player_reads_the_live_your_turn_in_their_own_language(
    live_server, new_page, problems, alice, bob
):
    alice.language, bob.language = "it", "en"
    for user in (alice, bob):
        user.save(update_fields=["language"])
    game = start_geared([alice, bob], target=1000, turn_seconds=86400)
    if seat_to_act(game).user == alice:
        game = advance(game, 1)  # bob to play
    at_alice = open_game(new_page, live_server, game, "alice")
    at_bob = open_game(new_page, live_server, game, "bob")
    assert at_alice.evaluate("typeof window.gettext") == "function"
    # bob's turn: his tab says so in English as the page opens (the script writes it).
    expect(at_bob).to_have_title(re.compile(r"^\(1\) Your turn — "), timeout=WAIT_MS)
    expect(at_bob.locator("#nav-your-turn")).to_have_text("Your turn · 1")
    title = at_alice.title()
    assert "Tocca a te" not in title

    advance(game, 1)  # bob moves: alice's turn, told by the live update in her words
    expect(at_alice).to_have_title(f"(1) Tocca a te — {title}", timeout=WAIT_MS)
    expect(at_alice.locator("#nav-your-turn")).to_have_text("Tocca a te · 1")
