"""Each game page mid-game at phone and desktop sizes: screenshots saved as test artifacts
(test-artifacts/screenshots/), no console error or failed request (a missing favicon, a CSP
violation), nothing wider than a phone's screen, and "whose turn" visible without scrolling."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.engines.geared import engine
from games.models import Move
from tests.e2e.helpers import DESKTOP, PHONE, geared_mid_game, log_in, outofgears_mid_game
from tests.support.games import seat_to_act
from tests.support.users import PASSWORD
from tests.views.helpers import selection_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(
    ("kind", "setup"), [("geared", geared_mid_game), ("outofgears", outofgears_mid_game)]
)
def test_game_page_at_phone_and_desktop_sizes(
    kind, setup, live_server, new_page, problems, screenshot_dir, alice, bob, carol
):
    game = setup(alice, bob, carol)
    page = new_page("alice")
    log_in(page, live_server, "alice", PASSWORD)
    for size_name, size in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(size)
        page.goto(f"{live_server.url}{game.get_absolute_url()}")
        expect(page.locator("#game")).to_be_visible()
        page.wait_for_load_state("networkidle")
        turn_line = page.locator("#game .turn-line")
        expect(turn_line).to_be_in_viewport()
        path = screenshot_dir / f"{kind}-{size_name}.png"
        page.screenshot(path=str(path), full_page=True, animations="disabled")
        assert path.stat().st_size > 10_000
        overflow = page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, f"{kind} at {size_name} size scrolls sideways by {overflow} px"
    problems.assert_none()


def test_geared_preview_at_phone_and_desktop_sizes(
    live_server, new_page, problems, screenshot_dir, alice, bob, carol
):
    """The confirm step mid-game: the sentence and Play on top, the cards drawn faint in the
    build they would join (an existing one when the player may, so the slot shows)."""
    game = geared_mid_game(alice, bob, carol)
    seat = seat_to_act(game)
    plays = [a for a in engine.legal_actions(game.state, seat.seat_id) if a["type"] == "play"]
    action = max(
        plays, key=lambda a: (sum(isinstance(b, int) for b in a["builds"]), len(a["cards"]))
    )
    moves = Move.objects.filter(game=game).count()
    page = new_page(seat.user.username)
    log_in(page, live_server, seat.user.username, PASSWORD)
    for size_name, size in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(size)
        page.goto(f"{live_server.url}{game.get_absolute_url()}{selection_for(action)}")
        expect(page.locator("#game .preview-sentence")).to_contain_text("Play ")
        expect(page.locator("#game .slot.ghost")).to_have_count(len(action["cards"]))
        play = page.locator("#game form.confirm button")
        expect(play).to_be_focused()
        expect(play).to_be_in_viewport()
        expect(page.locator("#game .turn-line")).to_be_in_viewport()
        page.wait_for_load_state("networkidle")
        path = screenshot_dir / f"geared-preview-{size_name}.png"
        page.screenshot(path=str(path), full_page=True, animations="disabled")
        assert path.stat().st_size > 10_000
        overflow = page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, f"the preview at {size_name} size scrolls sideways by {overflow} px"
    assert Move.objects.filter(game=game).count() == moves, "a preview plays nothing"
    problems.assert_none()
