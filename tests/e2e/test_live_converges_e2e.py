"""Issue 34.9: whatever the order and timing of events and answers, a live page converges on
the game's latest version. An Out of Gears page stayed on "resolving turn N…" after the game
ended, and a bot game's page on "Waiting for Greedy bot 1" once it was the player's turn again:
a burst of events while a fetch was in flight queued its fetch behind the first on htmx's one
queue, aimed at a #game that the first swap (or the move's own answer) had replaced, and it was
lost.

The page's EventSource is replaced by one the test feeds (out of order, duplicated, in bursts);
the server is real (the live server, PostgreSQL) and its answers are held by route handlers and
let go in the order each test chooses. The resolutions and the bot's moves are held too (no
task runs on commit): the test makes them when it wants, as a worker would."""

from __future__ import annotations

import time

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games import effects, engines
from games.actions import moves
from games.models import Status
from tests.e2e.helpers import DESKTOP, WAIT_MS, log_in
from tests.support.games import (
    client_for,
    greedy_choice,
    greedy_program,
    seat_of,
    start_geared,
    start_oog,
)
from tests.support.users import PASSWORD
from tests.views.helpers import selection_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# An EventSource that never connects: "open" at once (the page believes its stream healthy, so
# its poll is only the 5-minute safety net), and fed by the test through window.__emit.
FAKE_EVENT_SOURCE = """
(() => {
  const open = [];
  class FakeEventSource {
    constructor(url) {
      this.url = url;
      this.readyState = 0;
      this.listeners = {};
      open.push(this);
      setTimeout(() => { this.readyState = 1; if (this.onopen) this.onopen({}); }, 0);
    }
    addEventListener(name, fn) { (this.listeners[name] = this.listeners[name] || []).push(fn); }
    close() { this.readyState = 2; }
  }
  FakeEventSource.CONNECTING = 0;
  FakeEventSource.OPEN = 1;
  FakeEventSource.CLOSED = 2;
  window.EventSource = FakeEventSource;
  window.__emit = (events) => events.forEach((data) => open.forEach((source) => {
    if (source.readyState !== 1 || !source.onmessage) return;
    source.onmessage({ data: JSON.stringify(data) });
  }));
  // The move's answers the page has handled, swapped or not: "loadend" comes after htmx's own
  // "load" handler, even one that threw.
  window.__answered = 0;
  const send = XMLHttpRequest.prototype.send;
  const openRequest = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (method, url) {
    this.__url = String(url);
    return openRequest.apply(this, arguments);
  };
  XMLHttpRequest.prototype.send = function () {
    if (this.__url.indexOf("/move/") >= 0) {
      this.addEventListener("loadend", () => { window.__answered += 1; });
    }
    return send.apply(this, arguments);
  };
})();
"""


@pytest.fixture
def held_tasks(monkeypatch):
    """No task queued on commit runs (the bots, the resolutions, the e-mails): the test takes
    each step itself, when it wants, as a worker would, between the page's requests."""
    monkeypatch.setattr(effects, "after_commit", lambda *args: None)


@pytest.fixture
def game_page(live_server, settings, new_page, problems):
    """A function that opens `user`'s page at `path` with the fake stream, its poll blocked
    (only the test's events may bring news), and a Holder of its requests."""
    settings.GEARTABLE_STREAM_URL = "/"  # the page carries a stream URL; the fake takes it
    problems.expected.append("/poll/")

    def open_page(user: str, path: str):
        page = new_page(user, viewport=DESKTOP)
        page.add_init_script(FAKE_EVENT_SOURCE)
        page.route("**/poll/**", lambda route: route.abort())
        log_in(page, live_server, user, PASSWORD)
        page.goto(f"{live_server.url}{path}")
        return page, Holder(page)

    return open_page


class Holder:
    """Holds the first request to each path given (the others go on), until the test lets it
    go: so answers arrive in the order the test chooses."""

    def __init__(self, page) -> None:
        self.page = page
        self.held: dict[str, object] = {}

    def hold_first(self, part: str) -> None:
        def handler(route):
            if part in self.held:
                route.continue_()
            else:
                self.held[part] = route

        self.page.route(f"**/{part}/**", handler)

    def wait_held(self, part: str):
        """The held request, once the page has made it (its route handler runs while
        Playwright dispatches: the short waits let it)."""
        deadline = time.monotonic() + WAIT_MS / 1000
        while part not in self.held:
            assert time.monotonic() < deadline, f"the page made no {part} request"
            self.page.wait_for_timeout(20)
        return self.held[part]


def emit(page, *versions, chat: int = 0, game_id: int) -> None:
    events = [{"game": game_id, "version": v, "chat": chat, "kind": "game"} for v in versions]
    page.evaluate("events => window.__emit(events)", events)


def fragment_of(game, user) -> str:
    """The #game fragment as `user`'s page would fetch it now (htmx's request)."""
    response = client_for(user).get(
        reverse("game_fragment", args=[game.pk]), headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    return response.content.decode()


# --- Out of Gears: the last program, the resolution that ends the game ------------------------


def one_program_from_the_end(alice, bob):
    """An Out of Gears game whose next resolution ends it, alice's program in, bob's not yet:
    (game, bob's program). Turns are played and resolved here, the resolution held each time
    (held_tasks) and run by hand."""
    game = start_oog([alice, bob])
    eng = engines.engine(game.kind)
    for _ in range(300):
        game.refresh_from_db()
        assert game.status == Status.ACTIVE
        program = greedy_program(game, seat_of(game, alice))
        moves.submit_action(alice, game.pk, game.version, program)
        game.refresh_from_db()
        seat = seat_of(game, bob)
        last = greedy_program(game, seat)
        if eng.is_over(eng.resolve(eng.apply(game.state, seat.seat_id, last))):
            return game, last
        moves.submit_action(bob, game.pk, game.version, last)
        assert moves.resolve_turn(game.pk, game.turn)
    raise AssertionError("no end in 300 turns")


def test_a_burst_while_resolving_ends_on_the_game_over(held_tasks, game_page, problems, alice, bob):
    game, last = one_program_from_the_end(alice, bob)
    page, holder = game_page("alice", game.get_absolute_url())
    expect(page.locator("#game .turn-line")).to_contain_text("your program is in")
    before = game.version
    holder.hold_first("fragment")

    moves.submit_action(bob, game.pk, game.version, last)  # every program in: "resolving"
    game.refresh_from_db()
    resolving, turn = game.version, game.turn
    resolving_html = fragment_of(game, alice)
    assert f"resolving turn {turn}" in resolving_html
    emit(page, resolving, game_id=game.pk)
    first = holder.wait_held("fragment")  # its answer: "resolving…", let go below

    assert moves.resolve_turn(game.pk, turn)  # the worker's resolution: the game ends
    game.refresh_from_db()
    assert game.status == Status.FINISHED and game.version > resolving
    # The burst, as a stream and a reconnect may deliver it: newer, older, the same again.
    emit(page, game.version, resolving, before, game.version, game.version, game_id=game.pk)
    first.fulfill(status=200, content_type="text/html; charset=utf-8", body=resolving_html)

    expect(page.locator("#game")).to_have_attribute("data-version", str(game.version))
    expect(page.locator("#game .turn-line")).to_contain_text("Game over.")
    expect(page.locator("#game .turn-line")).not_to_contain_text("resolving")
    # Late and repeated events change nothing.
    emit(page, resolving, game.version, game_id=game.pk)
    expect(page.locator("#game")).to_have_attribute("data-version", str(game.version))
    problems.assert_none()


# --- Geared against a bot: the player's move, the bot's reply, the move's own answer ---------


@pytest.mark.parametrize("answer", ["first", "last"])
def test_the_bots_reply_is_not_undone_by_the_moves_own_answer(
    held_tasks, game_page, problems, alice, answer
):
    """The move's answer ("Waiting for Greedy bot 1") and the fragment fetched for the bot's
    reply ("Your turn") arrive in either order; the page ends on the reply either way."""
    game = start_geared([alice], bots=("greedy",), target=2000)
    if moves.play_bots(game.pk):  # the bot began: alice's turn now
        game.refresh_from_db()
    seat = seat_of(game, alice)
    action = greedy_choice(game, seat)
    page, holder = game_page("alice", game.get_absolute_url() + selection_for(action))
    expect(page.locator("#game .turn-line")).to_contain_text("Your turn")
    holder.hold_first("move")
    holder.hold_first("fragment")

    page.locator("#game form.confirm").get_by_role("button", name="Play").click()
    move = holder.wait_held("move")
    answered = move.fetch()  # the server makes the move now; its answer waits
    assert answered.status == 200
    game.refresh_from_db()
    moved = game.version
    assert "Waiting for" in answered.text()
    assert moves.play_bots(game.pk) >= 1  # the worker's bot replies
    game.refresh_from_db()
    assert game.status == Status.ACTIVE
    assert seat_of(game, alice).to_act and game.version > moved

    emit(page, moved, game_id=game.pk)
    fragment = holder.wait_held("fragment")  # asked while the page showed the old position
    emit(page, game.version, moved, game.version, game_id=game.pk)
    if answer == "first":
        move.fulfill(response=answered)
        page.wait_for_function("() => window.__answered === 1")
        fragment.continue_()
    else:
        fragment.continue_()
        expect(page.locator("#game")).to_have_attribute("data-version", str(game.version))
        move.fulfill(response=answered)
        page.wait_for_function("() => window.__answered === 1")

    expect(page.locator("#game")).to_have_attribute("data-version", str(game.version))
    expect(page.locator("#game .turn-line")).to_contain_text("Your turn")
    expect(page.locator("#nav-your-turn")).to_have_text("Your turn · 1")
    emit(page, moved, game_id=game.pk)  # a late, older event: nothing
    expect(page.locator("#game")).to_have_attribute("data-version", str(game.version))
    assert page.evaluate("window.__answered") == 1
    problems.assert_none()
