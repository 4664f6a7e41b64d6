"""Issue 27.6 and 27.9 in the browser, at 390 and 1280 px: a replay stepped by its arrows, keys
and autoplay without a page load (Back works; reduced motion still steps), the last move
highlighted, an Out of Gears resolution playing out line by line (at once with reduced motion),
the lobby's and the join form's robot swatches; axe at 0 critical and 0 serious on each, no
console error and no CSP violation. Screenshots in test-artifacts/screenshots/."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.actions import moves, tables
from games.models import Move
from tests.e2e.helpers import (
    DESKTOP,
    PHONE,
    assert_not_reloaded,
    log_in,
    mark_page,
    program_by_tapping,
    shoot,
)
from tests.support.browser import axe_problems
from tests.support.games import advance, greedy_program, start_geared, start_oog
from tests.support.users import PASSWORD

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SIZES = (("390", PHONE), ("1280", DESKTOP))


def harvest_anywhere(robot, values):
    return values[0]


def test_issue_27_6_and_27_9_replay_highlight_resolution_and_swatches(
    live_server, new_page, problems, screenshot_dir, alice, bob, carol
):
    # A finished game long enough to autoplay three steps: a deal can end a game to 300 in
    # two moves (a set at once), so such a short one is set aside for another.
    for _ in range(10):
        finished = advance(start_geared([alice, bob], target=300), 900)
        steps = Move.objects.filter(game=finished).count()
        if steps >= 4:
            break
    assert steps >= 4, "ten deals in a row ended a game to 300 within three moves"
    playing = advance(start_geared([alice, bob], target=1000), 3)
    oog = start_oog([alice, bob, carol])
    page = new_page("alice")
    log_in(page, live_server, "alice", PASSWORD)
    step = page.locator("#replay .replay-bar strong")
    found = []
    for size_name, size in SIZES:
        page.set_viewport_size(size)
        # --- the replay (27.6): it opens on the deal, no standings until the last step.
        page.emulate_media(reduced_motion="reduce" if size is PHONE else "no-preference")
        page.goto(f"{live_server.url}/games/{finished.pk}/replay/")
        expect(step).to_have_text(f"Step 0 of {steps}")
        expect(page.locator(".game-over")).to_have_count(0)
        mark_page(page)
        page.keyboard.press("ArrowRight")
        expect(step).to_have_text(f"Step 1 of {steps}")
        assert page.url.endswith("?step=1")
        page.keyboard.press("End")
        expect(step).to_have_text(f"Step {steps} of {steps}")
        expect(page.locator(".game-over")).to_be_visible()
        shoot(page, screenshot_dir / f"replay-end-{size_name}.png", full_page=True)
        found += [f"replay end {size_name}: {p}" for p in axe_problems(page)]
        page.keyboard.press("Home")
        expect(step).to_have_text(f"Step 0 of {steps}")
        page.go_back()  # to the end again, through htmx's history
        expect(step).to_have_text(f"Step {steps} of {steps}")
        page.get_by_role("link", name="Start").click()
        expect(step).to_have_text(f"Step 0 of {steps}")
        page.get_by_role("link", name="Next ▶").click()
        expect(step).to_have_text(f"Step 1 of {steps}")
        # Back may have loaded the whole page (htmx keeps no snapshot here): mark it again, so
        # that what follows shows that the autoplay's steps swap in place.
        mark_page(page)
        # Autoplay steps on by itself (with reduced motion too: only the fade is left out).
        play = page.locator("#replay button.autoplay")
        play.click()
        expect(play).to_have_attribute("aria-pressed", "true")
        expect(step).to_have_text(f"Step 3 of {steps}")
        shoot(page, screenshot_dir / f"replay-playing-{size_name}.png", full_page=True)
        found += [f"replay {size_name}: {p}" for p in axe_problems(page)]
        page.locator("#replay button.autoplay").click()
        expect(page.locator("#replay button.autoplay")).to_have_text("Play")
        paused_at = int(re.search(r"Step (\d+)", step.inner_text()).group(1))
        assert_not_reloaded(page)
        assert paused_at >= 3

        # --- the last move (27.9): highlighted on the board.
        page.emulate_media(reduced_motion="no-preference")
        page.goto(f"{live_server.url}{playing.get_absolute_url()}")
        expect(page.locator("#game .last-move").first).to_be_visible()
        shoot(page, screenshot_dir / f"last-move-{size_name}.png", full_page=True)
        found += [f"geared {size_name}: {p}" for p in axe_problems(page)]

        # --- an Out of Gears resolution, line by line (at once with reduced motion).
        page.emulate_media(reduced_motion="reduce" if size is PHONE else "no-preference")
        page.goto(f"{live_server.url}{oog.get_absolute_url()}")
        turn = oog.turn
        for seat in oog.seats.select_related("user").exclude(user=alice):
            oog.refresh_from_db()
            moves.submit_action(seat.user, oog.pk, oog.turn_version, greedy_program(oog, seat))
        program_by_tapping(page, "harvest", harvest_anywhere)
        expect(page.locator(".story h2")).to_contain_text(f"Turn {turn}")
        lines = page.locator("#game ol.steps li")
        if size is PHONE:  # reduced motion: every line at once, nothing waits
            assert page.locator("#game ol.steps li.step-waiting").count() == 0
        elif lines.count() >= 2:  # paced, then all shown (one line has nothing to pace)
            expect(page.locator("#game ol.steps")).to_have_attribute("data-played", "1")
        for i in range(lines.count()):
            expect(lines.nth(i)).to_be_visible()
        shoot(page, screenshot_dir / f"resolution-{size_name}.png", full_page=True)
        found += [f"oog {size_name}: {p}" for p in axe_problems(page)]
        oog.refresh_from_db()

        # --- robot swatches (27.9): the lobby's new-game form and the join form.
        page.goto(f"{live_server.url}/lobby/")
        page.select_option("select[name=kind]", "outofgears")
        chip = page.locator("label.robot-chip.robot-red")
        expect(chip.locator(".swatch")).to_be_visible()
        chip.click()
        expect(chip.locator("input")).to_be_checked()
        shoot(page.locator("#new-game"), screenshot_dir / f"lobby-robots-{size_name}.png")
        found += [f"lobby {size_name}: {p}" for p in axe_problems(page)]
    table = tables.create_game(bob, tables.NewGame(kind="outofgears", seat_count=3))
    page.goto(f"{live_server.url}{table.get_absolute_url()}?token={table.join_token}")
    expect(page.locator("label.robot-chip.robot-blue .swatch")).to_be_visible()
    shoot(page, screenshot_dir / "join-robots-1280.png", full_page=True)
    found += [f"join: {p}" for p in axe_problems(page)]
    assert not found, "\n".join(found)
    problems.assert_none()
