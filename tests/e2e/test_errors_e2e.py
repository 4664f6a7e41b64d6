"""A refused move shows the engine's sentence where the action was, inside #game, in place: no
navigation, no bare status code, nothing stored. And the Invite button of the waiting room."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from games.actions import tables
from games.models import Game, Invitation, Kind, Move
from tests.e2e.helpers import assert_not_reloaded, log_in, mark_page
from tests.support.games import seat_to_act, start_geared
from tests.support.users import PASSWORD

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def stored(game_id: int) -> tuple:
    game = Game.objects.get(pk=game_id)
    return game.version, game.move_count, Move.objects.filter(game=game).count(), game.state


def tamper(page, field: str, value: str) -> None:
    """Change a hidden input of the Play form, as a hand-edited page would."""
    page.locator("#game form.choice").first.evaluate(
        "(form, [field, value]) => { form.elements[field].value = value; }", [field, value]
    )


@pytest.fixture
def my_turn(live_server, new_page, alice, bob):
    """A started Geared game and the logged-in page of the player whose turn it is, with a card
    tapped and a destination chosen, so that the preview and its Play button show."""
    game = start_geared([alice, bob])
    user = seat_to_act(game).user
    page = new_page(user.username)
    log_in(page, live_server, user.username, PASSWORD)
    page.goto(f"{live_server.url}{game.get_absolute_url()}")
    expect(page.locator("#game .turn-line")).to_contain_text("Your turn")
    mark_page(page)
    page.locator("#game .hand-card.tappable").first.click()
    page.locator("#game a.destination").first.click()
    expect(page.locator("#game form.choice").first).to_be_visible()
    return game, user, page


def test_a_card_not_in_my_hand_is_refused_in_place(my_turn, live_server, problems):
    game, user, page = my_turn
    problems.expected.append("/move/")  # the refusal's 4xx is the point of this test
    url = page.url
    before = stored(game.pk)
    seat = seat_to_act(game).seat_id
    foreign = next(c for c in game.state["draw"] if c < 75)  # a part card nobody holds
    assert foreign not in game.state["hands"][seat]
    action = {"type": "play", "cards": [foreign], "builds": ["new1"]}
    tamper(page, "action", json.dumps(action))

    page.locator("#game form.choice button").first.click()

    error = page.locator("#game .error")
    expect(error).to_contain_text(f"You do not hold card {foreign}.")
    expect(page.locator("#game .turn-line")).to_contain_text("Your turn")
    assert page.url == url
    assert_not_reloaded(page)
    assert stored(game.pk) == before
    problems.assert_none()


def test_a_stale_version_is_refused_in_place(my_turn, live_server, problems):
    game, user, page = my_turn
    problems.expected.append("/move/")
    url = page.url
    before = stored(game.pk)
    tamper(page, "version", str(game.version - 1))

    page.locator("#game form.choice button").first.click()

    expect(page.locator("#game .error")).to_contain_text("moved on since this page was loaded")
    assert page.url == url
    assert_not_reloaded(page)
    assert stored(game.pk) == before
    problems.assert_none()


def test_inviting_by_username_on_the_waiting_room_page_sends_the_invitation(
    live_server, new_page, problems, mailoutbox, alice, bob
):
    """Tasks run inside the request here (eager, as `make run` does without a broker). This
    once answered 500: send_invitation locked a row over a nullable join (FOR UPDATE on the
    nullable side of an outer join is refused by PostgreSQL)."""
    game = tables.create_game(alice, tables.NewGame(kind=Kind.GEARED, seat_count=2))
    page = new_page("alice")
    log_in(page, live_server, "alice", PASSWORD)
    page.goto(f"{live_server.url}{game.get_absolute_url()}")
    page.fill("#who", "bob")
    page.get_by_role("button", name="Invite", exact=True).click()
    expect(page.locator(".flash")).to_contain_text("Invitation sent to bob")
    assert Invitation.objects.get(game=game, user=bob).sent is not None
    assert [m.to for m in mailoutbox] == [[bob.email]]
    problems.assert_none()
