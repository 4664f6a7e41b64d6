"""Issue 25: a move reaches the other player's open page through the stream process (the poll
blocked, so only the stream can bring it); with the stream blocked, the poll still brings it."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from tests import streams
from tests.e2e.helpers import DESKTOP, WAIT_MS, assert_not_reloaded, log_in, mark_page
from tests.support.games import advance, client_for, start_geared
from tests.support.users import PASSWORD

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def stream_process(request, live_server, transactional_db, tmp_path, settings):
    """A real stream process (tests/streams.py) that the live server's pages point to."""
    yield from streams.serve(request, tmp_path, settings)


def open_game(new_page, live_server, game, user: str, *, block: str):
    page = new_page(user, viewport=DESKTOP)
    page.route(block, lambda route: route.abort())
    log_in(page, live_server, user, PASSWORD)
    return page


def test_a_move_reaches_the_other_page_by_the_stream_alone(
    live_server, stream_process, new_page, problems, alice, bob
):
    game = start_geared([alice, bob], target=1000)
    problems.expected.append("/poll/")  # blocked on purpose: only the stream may bring news
    page = open_game(new_page, live_server, game, "bob", block="**/poll/**")
    with page.expect_response(lambda r: "/events/game/" in r.url) as opened:
        page.goto(f"{live_server.url}{game.get_absolute_url()}")
    assert opened.value.status == 200
    mark_page(page)
    version = page.locator("#game").get_attribute("data-version")

    started = time.monotonic()
    game = advance(game, 1)  # the other player's move, through the one write path
    expect(page.locator("#game")).to_have_attribute(
        "data-version", str(game.version), timeout=WAIT_MS
    )
    print(f"move -> visible on the other page: {(time.monotonic() - started) * 1000:.0f} ms")
    assert str(game.version) != version
    assert_not_reloaded(page)
    problems.assert_none()


def test_with_the_stream_blocked_the_poll_still_brings_the_move(
    live_server, stream_process, new_page, problems, alice, bob
):
    game = start_geared([alice, bob], target=1000)
    problems.expected.append("/events/")  # the stream process unreachable, on purpose
    page = open_game(new_page, live_server, game, "bob", block="**/events/**")
    page.goto(f"{live_server.url}{game.get_absolute_url()}")
    assert (
        page.locator("#live").get_attribute("data-stream-url").endswith(f"/events/game/{game.pk}/")
    )
    mark_page(page)
    game = advance(game, 1)
    expect(page.locator("#game")).to_have_attribute(
        "data-version", str(game.version), timeout=WAIT_MS
    )
    assert_not_reloaded(page)
    problems.assert_none()


@pytest.mark.stream_env(GEARTABLE_STREAMS_PER_USER="1")
def test_a_page_refused_for_too_many_streams_polls_and_still_gets_the_move(
    live_server, stream_process, new_page, problems, alice, bob
):
    """Issue 25.5: over the per-user limit the stream answers 429; the page polls instead."""
    game = start_geared([alice, bob], target=1000)
    held = stream_process.open("/events/me/", headers=session_cookie(bob))  # bob's one place
    assert held.status == 200
    problems.expected.append("/events/")  # the refused stream, on purpose
    page = new_page("bob", viewport=DESKTOP)
    log_in(page, live_server, "bob", PASSWORD)
    with page.expect_response(lambda r: "/events/game/" in r.url) as refused:
        page.goto(f"{live_server.url}{game.get_absolute_url()}")
    assert refused.value.status == 429
    mark_page(page)
    game = advance(game, 1)
    expect(page.locator("#game")).to_have_attribute(
        "data-version", str(game.version), timeout=WAIT_MS
    )
    assert_not_reloaded(page)
    problems.assert_none()
    held.close()


def session_cookie(user) -> dict:
    return {"Cookie": f"sessionid={client_for(user).cookies['sessionid'].value}"}
