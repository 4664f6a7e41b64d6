"""Out of Gears in a real browser: three friends log in, one creates a table, the others join by
the link, and each programs a robot by tapping cards. When the last program is in, a real Celery
worker resolves the turn and every screen shows the turn's story without a reload."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.models import Game, Move, Status
from tests.e2e.helpers import WAIT_MS, assert_not_reloaded, log_in, mark_page, program_by_tapping
from tests.support.users import PASSWORD

# The worker and the live server read committed rows from their own connections.
pytestmark = [pytest.mark.e2e, pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_three_friends_program_by_tapping_and_all_see_the_resolved_turn_live(
    celery_worker, live_server, new_page, problems, alice, bob, carol
):
    pages = {}
    for user in (alice, bob, carol):
        page = new_page(user.username)
        log_in(page, live_server, user.username, PASSWORD)
        pages[user.username] = page
    host = pages["alice"]

    # Alice creates a basic 3-player table.
    host.goto(f"{live_server.url}/lobby/")
    host.select_option("select[name=kind]", "outofgears")
    host.select_option("select[name=seat_count]", "3")
    host.select_option("select[name=bots]", "0")
    host.select_option("select[name=turn_seconds]", "0")
    host.get_by_role("button", name="Create the game").click()
    host.wait_for_url(re.compile(r"/games/\d+/$"), timeout=WAIT_MS)
    game_id = int(re.search(r"/games/(\d+)/$", host.url).group(1))
    join_link = host.get_by_label("Join link").input_value()
    assert "token=" in join_link

    # Bob and Carol join by the link.
    for name in ("bob", "carol"):
        page = pages[name]
        page.goto(join_link)
        page.get_by_role("button", name="Join this game").click()
        expect(page.get_by_role("button", name="Leave the game")).to_be_visible(timeout=WAIT_MS)

    start = host.get_by_role("button", name="Start the game")
    expect(start).to_be_enabled(timeout=WAIT_MS)
    start.click()
    for page in pages.values():
        expect(page.locator("#game .turn-line")).to_contain_text(
            "Turn 1: program your robot", timeout=WAIT_MS
        )
        mark_page(page)
    assert Game.objects.get(pk=game_id).status == Status.ACTIVE

    # Each programs a robot by tapping cards: a harvest, a defend, a trap.
    def first_yard(robot, values):
        return values[0]

    def itself(robot, values):
        return robot

    plan = [
        ("alice", "harvest", first_yard),
        ("bob", "attack", itself),
        ("carol", "trap", first_yard),
    ]
    expected = []
    for i, (name, action, pick) in enumerate(plan):
        page = pages[name]
        expected.append(program_by_tapping(page, action, pick))
        if i < len(plan) - 1:
            expect(page.locator("#game .turn-line")).to_contain_text(
                "your program is in", timeout=WAIT_MS
            )
            expect(page.locator("#game .current-program")).to_contain_text(expected[-1])
            # The others see a tick for this player's robot, never what was programmed.
            other = pages[plan[i + 1][0]]
            expect(other.locator("#game .robot .tick.done")).to_have_count(i + 1, timeout=WAIT_MS)
            expect(other.locator("#game .table")).not_to_contain_text(expected[-1])

    # The worker resolves the turn; every screen shows its story and the revealed programs.
    for page in pages.values():
        story = page.locator("#game section.story")
        expect(story.locator("h2")).to_have_text(re.compile(r"^Turn 1\b"), timeout=WAIT_MS)
        revealed = story.locator(".revealed li")
        expect(revealed).to_have_count(3)
        for sentence in expected:
            expect(story.locator(".revealed")).to_contain_text(sentence)
        expect(story.locator(".events li")).not_to_have_count(0)
        expect(page.locator("#game .turn-line")).to_contain_text("Turn 2: program your robot")
        assert_not_reloaded(page)

    game = Game.objects.get(pk=game_id)
    assert game.turn == 2
    assert Move.objects.filter(game=game, kind=Move.Kind.RESOLVE).count() == 1
    problems.assert_none()
