"""Out of Gears on a phone (issue 14, point 7) in a real browser: at 390 px the story of the last
turn is above the program form; in the advanced game an action card picked for one robot is
disabled for the other (O17); screenshots at 390 px and 1280 px; and the nav's "Your turn · N"
follows another game's move without a reload. No console error, no CSP violation."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.actions import moves
from tests.e2e.helpers import DESKTOP, PHONE, assert_not_reloaded, log_in, mark_page, shoot
from tests.support.games import advance, greedy_program, seat_to_act, start_geared, start_oog
from tests.support.users import PASSWORD

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def advanced_after_turn_1(alice, bob):
    """Advanced game (alice: robots 1 and 2, bob: 5 and 6), turn 1 resolved (tasks run eagerly
    here): a story to show, and a form of two robots."""
    game = start_oog([alice, bob], robots=[(1, 2), (5, 6)], advanced=True)
    for seat in game.seats.select_related("user"):
        game.refresh_from_db()
        moves.submit_action(seat.user, game.pk, game.turn_version, greedy_program(game, seat))
    game.refresh_from_db()
    assert game.is_active and game.turn == 2
    return game


def test_on_a_phone_the_story_is_above_the_form_and_screenshots(
    live_server, new_page, problems, screenshot_dir, alice, bob
):
    game = advanced_after_turn_1(alice, bob)
    page = new_page("alice")
    log_in(page, live_server, "alice", PASSWORD)
    for size_name, size in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(size)
        page.goto(f"{live_server.url}{game.get_absolute_url()}")
        story = page.locator("#game section.story")
        form = page.locator("#game form.program-form")
        board = page.locator("#game section.table")
        expect(story.locator("h2")).to_have_text("Turn 1")
        expect(form).to_be_visible()
        page.wait_for_load_state("networkidle")
        story_box, form_box, board_box = (
            story.bounding_box(),
            form.bounding_box(),
            board.bounding_box(),
        )
        assert story_box["y"] < form_box["y"], f"{size_name}: the story is not above the form"
        if size_name == "phone":
            assert form_box["y"] < board_box["y"], "phone: the form is not above the board"
        else:  # the side column, at the top beside the board
            assert story_box["x"] > board_box["x"] + board_box["width"] - 1
            assert story_box["y"] < board_box["y"] + 200
        path = screenshot_dir / f"outofgears-advanced-{size_name}.png"
        page.screenshot(path=str(path), full_page=True, animations="disabled")
        assert path.stat().st_size > 10_000
        overflow = page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, f"{size_name}: the page scrolls sideways by {overflow} px"
    problems.assert_none()


def test_o17_an_action_card_picked_for_one_robot_is_disabled_for_the_other(
    live_server, new_page, problems, screenshot_dir, alice, bob
):
    game = advanced_after_turn_1(alice, bob)
    page = new_page("alice")
    page.set_viewport_size(PHONE)
    log_in(page, live_server, "alice", PASSWORD)
    page.goto(f"{live_server.url}{game.get_absolute_url()}")
    form = page.locator("#game form.program-form")
    red_harvest = form.locator("input[name=robot-1-action][value=harvest]")
    blue_harvest = form.locator("input[name=robot-2-action][value=harvest]")
    expect(blue_harvest).to_be_enabled()

    form.locator("fieldset.program").nth(0).locator("label.pcard.action-harvest").click()
    expect(red_harvest).to_be_checked()
    expect(blue_harvest).to_be_disabled()
    expect(form.locator("input[name=robot-2-action][value=trap]")).to_be_enabled()
    expect(form.locator("input[name=robot-1-action][value=trap]")).to_be_enabled()
    shoot(form, str(screenshot_dir / "outofgears-advanced-form-phone.png"))

    # Red changes its mind: harvest is free for Blue again, trap is Red's now.
    form.locator("fieldset.program").nth(0).locator("label.pcard.action-trap").click()
    expect(blue_harvest).to_be_enabled()
    expect(form.locator("input[name=robot-2-action][value=trap]")).to_be_disabled()
    problems.assert_none()


def test_the_your_turn_badge_follows_another_games_move_without_a_reload(
    live_server, new_page, problems, alice, bob, carol
):
    watched = start_geared([alice, bob], target=1000)
    while seat_to_act(watched).user_id != bob.pk:
        watched = advance(watched, 1)
    other = start_geared([alice, carol], target=1000)
    while seat_to_act(other).user_id != carol.pk:
        other = advance(other, 1)

    page = new_page("alice")
    log_in(page, live_server, "alice", PASSWORD)
    page.goto(f"{live_server.url}{watched.get_absolute_url()}")
    badge = page.locator("#nav-your-turn")
    expect(badge).to_be_hidden()
    mark_page(page)

    # Carol plays in the other game: it now waits for alice; this page's poll says so.
    while seat_to_act(other).user_id != alice.pk:
        other = advance(other, 1)
    expect(badge).to_be_visible()
    expect(badge).to_have_text("Your turn · 1")
    assert_not_reloaded(page)
    problems.assert_none()
