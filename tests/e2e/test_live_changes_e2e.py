"""Issue 25.2 and 25.3 in Chromium, with the real stream process (tests/streams.py) and the
poll blocked, so that only the stream can bring the news: the tab says "(1) Your turn" once the
other player has moved, a vacation's pause and its end, a moderator's abort, a rematch offered
and accepted: each appears on the open pages without a reload. The times from the change to
the page are printed (reported, not asserted)."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.actions import moderation, tables, time_off
from games.models import Game, Status
from tests import streams
from tests.e2e.helpers import DESKTOP, WAIT_MS, assert_not_reloaded, log_in, mark_page
from tests.support.games import advance, seat_to_act, start_geared
from tests.support.users import PASSWORD, make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def stream_process(request, live_server, transactional_db, tmp_path, settings):
    yield from streams.serve(request, tmp_path, settings)


def open_page(new_page, live_server, game, user: str):
    """`user`'s page of the game, its poll blocked: what it learns, it learns by the stream."""
    page = new_page(user, viewport=DESKTOP)
    page.route("**/poll/**", lambda route: route.abort())
    log_in(page, live_server, user, PASSWORD)
    with page.expect_response(lambda r: "/events/game/" in r.url) as opened:
        page.goto(f"{live_server.url}{game.get_absolute_url()}")
    assert opened.value.status == 200
    mark_page(page)
    return page


def timed(what: str, started: float) -> None:
    print(f"{what} -> visible: {(time.monotonic() - started) * 1000:.0f} ms")


def test_your_turn_in_the_tab_a_vacation_and_an_abort_reach_the_open_pages(
    live_server, stream_process, new_page, problems, alice, bob, django_user_model
):
    moderator = make_user(django_user_model, "mod", is_staff=True, is_superuser=True)
    alice.turn_sound = True  # her profile's choice (off by default): a chime on her turn
    alice.save(update_fields=["turn_sound"])
    game = start_geared([alice, bob], target=1000, turn_seconds=86400)
    if seat_to_act(game).user == alice:
        game = advance(game, 1)  # bob to play: alice's turn comes with his move
    problems.expected.append("/poll/")  # blocked on purpose
    at_alice = open_page(new_page, live_server, game, "alice")
    at_bob = open_page(new_page, live_server, game, "bob")
    title = at_alice.title()
    assert "Your turn" not in title
    expect(at_alice.locator(".turn-line")).to_contain_text("· due")

    # 25.3: bob moves; alice's tab says it is her turn, in its title and on its icon.
    started = time.monotonic()
    game = advance(game, 1)
    assert seat_to_act(game).user == alice
    expect(at_alice).to_have_title(f"(1) Your turn — {title}", timeout=WAIT_MS)
    timed("move -> the title", started)
    expect(at_alice.locator('link[rel="icon"]')).to_have_attribute("data-badge", "1")
    assert (
        at_alice.locator('link[rel="icon"]')
        .get_attribute("href")
        .startswith("data:image/png;base64,")
    )
    expect(at_alice.locator("#nav-your-turn")).to_have_attribute("data-chimes", "1")
    assert at_bob.locator("#nav-your-turn").get_attribute("data-sound-url") is None, (
        "no sound unless the player chose it"
    )
    # A page that opens while her turn waits says so in its tab, and plays nothing.
    fresh = open_page(new_page, live_server, game, "alice")
    expect(fresh).to_have_title(f"(1) Your turn — {title}")
    assert fresh.locator("#nav-your-turn").get_attribute("data-chimes") is None
    fresh.close()

    # Alice goes away: both pages say the game is paused for her, instead of "due".
    started = time.monotonic()
    time_off.take(alice, timezone.localdate() + timedelta(days=5))
    expect(at_bob.locator(".turn-line")).to_contain_text(f"paused: {alice.name} is away until")
    timed("vacation -> the other's page", started)
    expect(at_alice.locator(".turn-line")).to_contain_text("paused: you are away until")
    expect(at_bob.locator(".turn-line")).not_to_contain_text("· due")
    alice.refresh_from_db()
    time_off.come_back(alice)
    expect(at_bob.locator(".turn-line")).to_contain_text("· due")
    expect(at_bob.locator(".turn-line")).not_to_contain_text("paused")

    # A moderator aborts it: both pages say so and why, and no move is offered any more.
    started = time.monotonic()
    moderation.abort_game(moderator, game.pk, "Reported as a duplicate table.")
    for page in (at_alice, at_bob):
        expect(page.locator(".turn-line")).to_contain_text("A moderator aborted this game.")
        expect(page.locator(".turn-line")).to_contain_text("Reported as a duplicate table.")
    timed("abort -> both pages", started)
    expect(at_alice.locator(".turn-line")).not_to_contain_text("Your turn")
    expect(at_alice).to_have_title(title, timeout=WAIT_MS)  # nothing waits for her now
    expect(at_alice.locator('link[rel="icon"]')).not_to_have_attribute("data-badge", "1")
    expect(at_alice.locator("#nav-your-turn")).to_have_attribute("data-chimes", "1")
    assert at_alice.locator('#game input[name="version"]').count() == 0
    for page in (at_alice, at_bob):
        assert_not_reloaded(page)
    problems.assert_none()


def test_with_the_stream_blocked_the_poll_still_tells_the_tab(
    live_server, stream_process, new_page, problems, alice, bob
):
    """The fallback (25.4): the poll's X-Your-Turn says it as the stream's event would."""
    game = start_geared([alice, bob], target=1000)
    if seat_to_act(game).user == alice:
        game = advance(game, 1)
    problems.expected.append("/events/")  # the stream process unreachable, on purpose
    page = new_page("alice", viewport=DESKTOP)
    page.route("**/events/**", lambda route: route.abort())
    log_in(page, live_server, "alice", PASSWORD)
    page.goto(f"{live_server.url}{game.get_absolute_url()}")
    mark_page(page)
    title = page.title()
    started = time.monotonic()
    game = advance(game, 1)
    expect(page).to_have_title(f"(1) Your turn — {title}", timeout=WAIT_MS)
    timed("move -> the title, by the poll", started)
    assert_not_reloaded(page)
    problems.assert_none()


def test_a_rematch_offered_and_accepted_reaches_the_open_end_screens(
    live_server, stream_process, new_page, problems, alice, bob
):
    game = advance(start_geared([alice, bob], target=300), 900)
    assert game.status == Status.FINISHED
    problems.expected.append("/poll/")
    at_alice = open_page(new_page, live_server, game, "alice")
    at_bob = open_page(new_page, live_server, game, "bob")
    expect(at_bob.get_by_role("button", name="Rematch with the same players")).to_be_visible()

    started = time.monotonic()
    tables.rematch(alice, game.pk)
    expect(at_bob.locator(".rematch-offer")).to_contain_text(f"{alice.name} offers a rematch")
    timed("rematch offer -> the other's end screen", started)
    expect(at_alice.locator(".rematch-state")).to_contain_text("You offered a rematch")

    started = time.monotonic()
    tables.rematch(bob, game.pk)
    expect(at_alice.locator(".rematch-state")).to_contain_text("the rematch has begun")
    timed("rematch accepted -> the offerer's end screen", started)
    expect(at_bob.get_by_role("link", name="Go to the rematch")).to_be_visible()
    for page in (at_alice, at_bob):
        assert_not_reloaded(page)
    problems.assert_none()


def test_my_games_and_the_lobby_follow_a_table_joined_started_and_aborted(
    live_server, stream_process, new_page, problems, alice, bob, carol, django_user_model
):
    """The site frame's stream (/events/me/): My games redraws its lists when a table of the
    player's is joined, starts or is aborted; the lobby (lobby=1) when a public table opens,
    fills, starts, ends."""
    moderator = make_user(django_user_model, "mod", is_staff=True, is_superuser=True)
    at_alice = new_page("alice", viewport=DESKTOP)
    log_in(at_alice, live_server, "alice", PASSWORD)
    at_carol = new_page("carol", viewport=DESKTOP)
    log_in(at_carol, live_server, "carol", PASSWORD)
    with at_carol.expect_response(lambda r: "/events/me/?lobby=1" in r.url) as opened:
        at_carol.goto(f"{live_server.url}/lobby/")
    assert opened.value.status == 200
    game = tables.create_game(
        alice, tables.NewGame(kind="geared", seat_count=2, public=True, target=1000)
    )
    with at_alice.expect_response(lambda r: "/events/me/" in r.url) as opened:
        at_alice.goto(f"{live_server.url}/games/")
    assert opened.value.status == 200
    for page in (at_alice, at_carol):
        mark_page(page)
    expect(at_alice.locator("#my-games")).to_contain_text("Not started yet")

    started = time.monotonic()
    tables.join_game(bob, game.pk)
    expect(at_alice.locator("#my-games")).to_contain_text(f"with {bob.name}")
    timed("a join -> My games", started)
    expect(at_carol.locator("#lobby-lists")).to_contain_text("2/2 players")

    started = time.monotonic()
    tables.start_game(alice, game.pk)
    expect(at_alice.locator("#my-games")).not_to_contain_text("Not started yet")
    timed("a start -> My games", started)
    # Alice's turn (after bob's move if he began): the redrawn lists keep what the tab says
    # (the page fetched for them has its own title, which must not replace the tab's).
    game = Game.objects.get(pk=game.pk)
    if seat_to_act(game).user != alice:
        game = advance(game, 1)
    mine = at_alice.locator("#my-games section", has_text="Your turn")
    expect(mine).to_contain_text(f"#{game.pk}")
    expect(at_alice).to_have_title("(1) Your turn — My games · Geartable")
    watch = at_carol.locator("#lobby-lists .game-list").nth(1)  # "Games to watch"
    expect(watch).to_contain_text(f"#{game.pk}")
    expect(watch).to_contain_text("in play")

    # A moderator aborts it: it goes to My games' finished ones, saying so, and off the lobby.
    started = time.monotonic()
    moderation.abort_game(moderator, game.pk, "Test table.")
    finished = at_alice.locator("#my-games section", has_text="Finished")
    expect(finished).to_contain_text("Aborted by a moderator")
    timed("an abort -> My games", started)
    expect(watch).not_to_contain_text(f"#{game.pk}")
    for page in (at_alice, at_carol):
        assert_not_reloaded(page)
    problems.assert_none()
