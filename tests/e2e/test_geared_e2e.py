"""Geared in a real browser: two friends sign up, one creates a game and invites the other, who
joins from "My games"; they play by tapping cards, a destination and Play (the confirm step), and
a completed bike shows on both screens by the live update, without a reload."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.engines.geared import engine
from games.models import Game, Move, Status
from tests.e2e.helpers import (
    WAIT_MS,
    assert_not_reloaded,
    give_cards,
    mark_page,
    sign_up,
)
from tests.views.helpers import selection_for

pytestmark = [pytest.mark.e2e, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

FRAME_1, HANDLEBARS_1, WHEELS_1, OTHER_FRAME_1 = 0, 25, 50, 1
COMPLETED = re.compile(r"completed a .*\b(\d+) points")


def hand_card(page, card: int):
    return page.locator(f"#game .hand-card:has([data-card='{card}'])")


def tap(page, card: int):
    """Tap a card of my hand and wait for the page to show it selected."""
    link = hand_card(page, card)
    expect(link).to_have_class(re.compile(r"\btappable\b"), timeout=WAIT_MS)
    link.click()
    expect(hand_card(page, card)).to_have_attribute("aria-pressed", "true", timeout=WAIT_MS)


def choose(page, label: str):
    """Choose a destination by its label: the move is previewed, not made."""
    page.locator("#game .destinations").get_by_role("button", name=label, exact=True).click()
    expect(page.locator("#game form.confirm button")).to_be_visible(timeout=WAIT_MS)


def destination_for(page, action: dict):
    """The destination link that previews exactly this action."""
    return page.locator(f"#game a.destination[href$='{selection_for(action)}']")


def confirm(page, sentence: str | re.Pattern):
    """The preview says what will happen; Play makes it happen."""
    expect(page.locator("#game .preview-sentence")).to_have_text(sentence, timeout=WAIT_MS)
    page.locator("#game form.confirm").get_by_role("button", name="Play").click()


def test_two_friends_sign_up_play_by_tapping_and_both_see_the_bike_live(
    celery_worker, live_server, new_page, problems
):
    """Tasks (e-mails) run on a real worker, as in production, not inside the requests."""
    # One browser context each (closed by the fixture before the database is flushed).
    ann = new_page("ann")
    ben = new_page("ben")
    sign_up(ann, live_server, "ann")
    sign_up(ben, live_server, "ben")
    expect(ann.locator(".nav")).to_contain_text("Log out")

    # Ann creates a 2-player game to 300 points, no bots, no time limit.
    ann.goto(f"{live_server.url}/lobby/")
    ann.select_option("select[name=kind]", "geared")
    ann.select_option("select[name=seat_count]", "2")
    ann.select_option("select[name=target]", "300")
    ann.select_option("select[name=bots]", "0")
    ann.select_option("select[name=turn_seconds]", "0")
    ann.get_by_role("button", name="Create the game").click()
    ann.wait_for_url(re.compile(r"/games/\d+/$"), timeout=WAIT_MS)
    game_id = int(re.search(r"/games/(\d+)/$", ann.url).group(1))
    expect(ann.locator("main")).to_contain_text("1 of 2 seats taken")
    expect(ann.locator("main")).to_contain_text("first to 300 points")
    assert "<" not in ann.title(), f"the waiting room's title shows markup: {ann.title()!r}"

    # She invites Ben by username on the waiting-room page.
    ann.fill("#who", "ben")
    ann.get_by_role("button", name="Invite", exact=True).click()
    expect(ann.locator(".flash")).to_contain_text("Invitation sent to ben", timeout=WAIT_MS)

    # Ben finds the invitation in "My games" and joins.
    ben.goto(f"{live_server.url}/games/")
    invitation = ben.locator("section:has(h2:text-is('Invitations')) a")
    expect(invitation).to_contain_text("invites you")
    invitation.click()
    ben.get_by_role("button", name="Join this game").click()
    expect(ben.locator("main")).to_contain_text("2 of 2 seats taken", timeout=WAIT_MS)

    # Ann's waiting room notices by itself; she starts; Ben's waiting room follows.
    start = ann.get_by_role("button", name="Start the game")
    expect(start).to_be_enabled(timeout=WAIT_MS)
    start.click()
    expect(ann.locator("#game")).to_be_visible(timeout=WAIT_MS)
    expect(ben.locator("#game")).to_be_visible(timeout=WAIT_MS)
    game = Game.objects.get(pk=game_id)
    assert game.status == Status.ACTIVE
    assert game.state["target"] == 300

    # A short, deterministic game: whoever plays first gets three Level 1 parts, the other
    # a Level 1 Frame (swapped with the draw pile or the other hand, nothing lost).
    seats = {s.user.username: s.seat_id for s in game.seats.select_related("user")}
    first_seat = engine.current_seat(game.state)
    first, second = (ann, ben) if seats["ann"] == first_seat else (ben, ann)
    second_seat = next(s for s in seats.values() if s != first_seat)
    give_cards(
        game_id, {first_seat: [FRAME_1, HANDLEBARS_1, WHEELS_1], second_seat: [OTHER_FRAME_1]}
    )
    for page in (first, second):
        page.reload()
        expect(page.locator("#game")).to_be_visible()
        mark_page(page)
    expect(first.locator("#game .turn-line")).to_contain_text("Your turn")
    expect(second.locator("#game .turn-line")).to_contain_text("Waiting for")
    moves_before = Move.objects.filter(game_id=game_id).count()

    # Turn 1: the first player selects two Level 1 parts and starts one build with both.
    tap(first, FRAME_1)
    tap(first, HANDLEBARS_1)
    expect(hand_card(first, FRAME_1)).to_have_attribute("aria-pressed", "true")
    both = destination_for(
        first, {"type": "play", "cards": [FRAME_1, HANDLEBARS_1], "builds": ["new1", "new1"]}
    )
    expect(both).to_have_text(re.compile(r"^[^;]+→ a new build; [^;]+→ a new build$"))
    both.click()
    # Nothing is played yet: the two cards are drawn faint in a new build, until Play.
    expect(first.locator("#game .player.is-me .build.is-new .slot.ghost")).to_have_count(2)
    assert Move.objects.filter(game_id=game_id).count() == moves_before
    confirm(first, "Play Level 1 Frame and Level 1 Handlebars to start a new build.")
    expect(first.locator("#game .turn-line")).to_contain_text("Waiting for", timeout=WAIT_MS)
    expect(first.locator("#game .player.is-me .build")).to_have_count(1)

    # Turn 2: the other screen learns it is its turn by itself; a Level 1 Frame, a new build.
    expect(second.locator("#game .turn-line")).to_contain_text("Your turn", timeout=WAIT_MS)
    expect(second.locator("#game .player:not(.is-me) .build")).to_have_count(1)
    tap(second, OTHER_FRAME_1)
    choose(second, "a new build")
    confirm(second, "Play Level 1 Frame to start a new build.")
    expect(second.locator("#game .turn-line")).to_contain_text("Waiting for", timeout=WAIT_MS)

    # Turn 3: the Wheels complete the first player's build: a Level 1 set, scored at once.
    expect(first.locator("#game .turn-line")).to_contain_text("Your turn", timeout=WAIT_MS)
    tap(first, WHEELS_1)
    choose(first, "your build 1")
    confirm(first, "Play Level 1 Wheels on your build 1.")

    for page, me in ((first, True), (second, False)):
        story = page.locator("#game .story .events")
        expect(story).to_contain_text(COMPLETED, timeout=WAIT_MS)
        points = int(COMPLETED.search(story.inner_text()).group(1))
        assert points > 0
        whose = "#game .player.is-me" if me else "#game .player:not(.is-me)"
        score = page.locator(f"{whose} .score strong")
        expect(score).to_have_text(str(points), timeout=WAIT_MS)
        expect(page.locator(f"{whose} .bikes .bike")).to_have_count(1)
        assert_not_reloaded(page)

    game = Game.objects.get(pk=game_id)
    completed = [e for e in game.state["events"] if e["type"] == "completed"]
    assert [e["seat"] for e in completed] == [first_seat]
    assert game.state["scores"][first_seat] == completed[0]["points"] > 0
    assert Move.objects.filter(game_id=game_id).count() == moves_before + 3
    problems.assert_none()
