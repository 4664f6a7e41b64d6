"""Geared's confirm step and keyboard play in the browser (issue 14, points 2 and 3): a whole turn
by keyboard alone, the focus on the next control that makes sense after every htmx swap; and a
preview shown on the table that commits nothing until Play, with Back and Cancel."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.actions.moves import submit_action
from games.engines.geared import engine
from games.models import Game, Move
from tests.e2e.helpers import assert_not_reloaded, give_cards, log_in, mark_page
from tests.support.games import seat_to_act, start_geared
from tests.support.users import PASSWORD

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

FRAME_1, WHEELS_2, HANDLEBARS_3 = 0, 57, 38

# What has the keyboard: enough to tell one control from another.
ACTIVE = """() => {
  const el = document.activeElement;
  const card = el.querySelector && el.querySelector("[data-card]");
  return {tag: el.tagName, cls: el.className, text: el.innerText.trim().slice(0, 80),
          card: card ? Number(card.dataset.card) : null, inGame: !!el.closest("#game")};
}"""


def active(page) -> dict:
    return page.evaluate(ACTIVE)


def moves(game_id: int) -> int:
    return Move.objects.filter(game_id=game_id).count()


def other_player_plays(game_id: int) -> None:
    """The other seat makes a play that touches only its own builds (a part to a new build)."""
    game = Game.objects.get(pk=game_id)
    seat = seat_to_act(game)
    legal = engine.legal_actions(game.state, seat.seat_id)
    action = next(a for a in legal if a["type"] == "play" and a["builds"] == ["new1"])
    submit_action(seat.user, game_id, game.version, action)


@pytest.fixture
def my_game(live_server, new_page, alice, bob):
    """A two-player game; the player to act holds a Level 1 Frame, a Level 2 Wheels and a
    Level 3 Handlebars; their page is open, marked to detect a reload."""
    game = start_geared([alice, bob], target=1000)
    seat = seat_to_act(game)
    give_cards(game.pk, {seat.seat_id: [FRAME_1, WHEELS_2, HANDLEBARS_3]})
    page = new_page(seat.user.username)
    log_in(page, live_server, seat.user.username, PASSWORD)
    page.goto(f"{live_server.url}{game.get_absolute_url()}")
    expect(page.locator("#game .turn-line")).to_contain_text("Your turn")
    mark_page(page)
    return game, seat, page


def test_a_whole_geared_turn_by_keyboard_alone(my_game, problems):
    game, seat, page = my_game
    before = moves(game.pk)

    # Tab from the top of the page to the hand: the first card is the Level 1 Frame.
    for _ in range(30):
        page.keyboard.press("Tab")
        if "hand-card" in active(page)["cls"]:
            break
    assert active(page)["card"] == FRAME_1
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") == "solid"

    # Space selects it; the first legal destination has the keyboard after the swap.
    page.keyboard.press("Space")
    expect(page.locator("#game a.destination").first).to_be_focused()
    assert active(page)["text"] == "a new build" and active(page)["inGame"]
    expect(page.locator("#game .hand-card:has([data-card='0'])")).to_have_attribute(
        "aria-pressed", "true"
    )

    # Enter chooses it: a preview, and Play has the keyboard. Nothing is played yet.
    page.keyboard.press("Enter")
    play = page.locator("#game form.confirm button")
    expect(play).to_be_focused()
    assert active(page)["text"] == "Play"
    expect(page.locator("#game .preview-sentence")).to_have_text(
        "Play Level 1 Frame to start a new build."
    )
    assert moves(game.pk) == before

    # Back (the next Tab) returns to the destinations, focus on the first one again.
    page.keyboard.press("Tab")
    expect(page.locator("#game .confirm-ways .back")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#game a.destination").first).to_be_focused()
    page.keyboard.press("Enter")
    expect(play).to_be_focused()

    # Enter plays. It is the other player's turn now: the turn line has the keyboard.
    page.keyboard.press("Enter")
    expect(page.locator("#game .turn-line")).to_contain_text("Waiting for")
    expect(page.locator("#game .turn-line")).to_be_focused()
    assert moves(game.pk) == before + 1
    assert Move.objects.filter(game_id=game.pk).latest("seq").action == {
        "type": "play",
        "cards": [FRAME_1],
        "builds": ["new1"],
    }

    # The other player plays; the live update brings my turn back, the keyboard on my hand.
    other_player_plays(game.pk)
    expect(page.locator("#game .turn-line")).to_contain_text("Your turn")
    expect(page.locator("#game .hand-card.tappable").first).to_be_focused()

    # Turn 2: Tab along the hand to the Level 2 Wheels, Enter, Tab to "a new build", Enter.
    for _ in range(6):
        if active(page)["card"] == WHEELS_2:
            break
        page.keyboard.press("Tab")
    assert active(page)["card"] == WHEELS_2
    page.keyboard.press("Enter")
    expect(page.locator("#game a.destination").first).to_be_focused()
    assert active(page)["text"] == "your build 1"
    page.keyboard.press("Tab")
    assert active(page)["text"] == "a new build"
    page.keyboard.press("Enter")
    expect(play).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#game .turn-line")).to_be_focused()
    expect(page.locator("#game .player.is-me .build")).to_have_count(2)

    # Turn 3: a rearrangement (G6). From the hand, Shift+Tab reaches the last part I may move,
    # the Wheels of build 2, past the other players' names (links to their pages, issue 27.1);
    # Enter, then the first destination (my build 1), then Move.
    other_player_plays(game.pk)
    expect(page.locator("#game .hand-card.tappable").first).to_be_focused()
    page.keyboard.press("Shift+Tab")
    for _ in range(3):
        if active(page)["card"] is not None:
            break
        assert page.evaluate("document.activeElement.getAttribute('href')").startswith(
            "/players/"
        ), active(page)
        page.keyboard.press("Shift+Tab")
    assert active(page)["card"] == WHEELS_2 and "slot" in active(page)["cls"]
    page.keyboard.press("Enter")
    expect(page.locator("#game a.destination").first).to_be_focused()
    assert active(page)["text"] == "your build 1"
    page.keyboard.press("Enter")
    expect(page.locator("#game form.confirm button")).to_be_focused()
    expect(page.locator("#game .preview-sentence")).to_have_text(
        "Move your Level 2 Wheels (build 2) to your build 1."
    )
    expect(page.locator("#game .slot.ghost [data-card='57']")).to_have_count(1)
    expect(page.locator("#game .slot.leaving [data-card='57']")).to_have_count(1)
    count = moves(game.pk)
    page.keyboard.press("Enter")

    # Moved; still my turn (a rearrangement does not end it): the keyboard is on my hand.
    expect(page.locator("#game .player.is-me .build")).to_have_count(1)
    expect(page.locator("#game .hand-card.tappable").first).to_be_focused()
    assert active(page)["inGame"] and "hand-card" in active(page)["cls"]
    assert moves(game.pk) == count + 1
    assert Move.objects.filter(game_id=game.pk).latest("seq").action["type"] == "rearrange"
    assert_not_reloaded(page)
    problems.assert_none()


def test_a_tap_previews_the_move_on_the_table_and_cancel_or_play_decide(my_game, problems):
    game, seat, page = my_game
    before = moves(game.pk)

    page.locator("#game .hand-card:has([data-card='57'])").click()
    expect(page.locator("#game form.confirm")).to_have_count(0)
    page.locator("#game .destinations").get_by_role("button", name="a new build").click()

    preview = page.locator("#game .preview")
    expect(preview.locator(".preview-sentence")).to_have_text(
        "Play Level 2 Wheels to start a new build."
    )
    expect(
        page.locator("#game .player.is-me .build.is-new .slot.ghost [data-card='57']")
    ).to_be_visible()
    expect(preview.get_by_role("button", name="Play")).to_be_visible()
    assert moves(game.pk) == before, "a preview plays nothing"

    # Cancel: back to the start of the turn, nothing played, no faint card left.
    preview.get_by_role("link", name="Cancel").click()
    expect(page.locator("#game .preview")).to_have_count(0)
    expect(page.locator("#game .slot.ghost")).to_have_count(0)
    expect(page.locator("#game .hand-card[aria-pressed='true']")).to_have_count(0)
    assert moves(game.pk) == before

    # Again, and Play: exactly that move is made.
    page.locator("#game .hand-card:has([data-card='57'])").click()
    page.locator("#game .destinations").get_by_role("button", name="a new build").click()
    page.locator("#game .preview").get_by_role("button", name="Play").click()
    expect(page.locator("#game .turn-line")).to_contain_text("Waiting for")
    expect(page.locator("#game .player.is-me .build [data-card='57']")).to_have_count(1)
    assert moves(game.pk) == before + 1
    assert Move.objects.filter(game_id=game.pk).latest("seq").action == {
        "type": "play",
        "cards": [WHEELS_2],
        "builds": ["new1"],
    }

    # Typing in the chat while the other player moves: the live update leaves the focus there.
    page.locator("#chat-text").fill("your move")
    other_player_plays(game.pk)
    expect(page.locator("#game .turn-line")).to_contain_text("Your turn")
    expect(page.locator("#chat-text")).to_be_focused()
    assert_not_reloaded(page)
    problems.assert_none()


def test_without_javascript_the_preview_and_play_work_by_links_and_a_form(
    live_server, new_page, problems, alice, bob
):
    game = start_geared([alice, bob], target=1000)
    seat = seat_to_act(game)
    give_cards(game.pk, {seat.seat_id: [FRAME_1]})
    page = new_page(seat.user.username, java_script_enabled=False)
    log_in(page, live_server, seat.user.username, PASSWORD)
    page.goto(f"{live_server.url}{game.get_absolute_url()}")
    page.locator("#game .hand-card:has([data-card='0'])").click()
    page.wait_for_url(re.compile(r"\?pick=0$"))
    page.locator("#game .destinations").get_by_role("button", name="a new build").click()
    page.wait_for_url(re.compile(r"\?pick=0&to=new1$"))
    expect(page.locator("#game .preview-sentence")).to_have_text(
        "Play Level 1 Frame to start a new build."
    )
    expect(page.locator("#game form.confirm button")).to_be_focused()  # autofocus
    assert moves(game.pk) == 0
    page.locator("#game form.confirm button").click()
    expect(page.locator("#game .turn-line")).to_contain_text("Waiting for")
    assert moves(game.pk) == 1
    problems.assert_none()
