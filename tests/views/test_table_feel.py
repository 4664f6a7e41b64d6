"""The table's feel (issue 27.9): the last move highlighted for everyone from public cards only,
an Out of Gears story whose lines are all in the page (the script only paces them), labelled
card values, robot colours with their swatch."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.actions import moves, tables
from games.engines.geared import engine
from games.pages.geared import last_move_cards
from tests.support.games import advance, client_for, greedy_program, start_geared, start_oog
from tests.support.pages import text

pytestmark = pytest.mark.django_db

# The card of a highlighted slot or pile (its first data-card), the cards of a highlighted bike.
LAST_CARD = re.compile(
    r'class="(?:slot|pile)[^"]*\blast-move\b[^"]*"[^>]*>.*?data-card="(\d+)"', re.S
)
LAST_BIKE = re.compile(
    r'class="bike last-move"[^>]*>.*?<span class="bike-cards">(.*?)</span>\s*</div>', re.S
)


def highlighted(page: str) -> set[int]:
    cards = {int(c) for c in LAST_CARD.findall(page)}
    for bike in LAST_BIKE.findall(page):
        cards.update(int(c) for c in re.findall(r'data-card="(\d+)"', bike))
    return cards


def public_cards(state: dict) -> set[int]:
    """The cards the table draws: builds, bikes, the top of the discard pile."""
    cards = set(state["discard"][-1:])
    for seat in state["seats"]:
        cards.update(c for b in state["builds"][seat] for c in b["cards"])
        cards.update(c for b in state["bikes"][seat] for c in b["cards"])
    return cards


def test_issue_27_9_the_last_move_is_highlighted_for_everyone_from_public_cards_only(
    alice, bob, carol
):
    game = start_geared([alice, bob], target=1000, public=True)
    clients = {"alice": client_for(alice), "bob": client_for(bob), "carol": client_for(carol)}
    seen_a_highlight = False
    for _ in range(8):
        game = advance(game, 1)
        if not game.is_active:
            break
        state = game.state
        hands = {c for h in state["hands"].values() for c in h}
        for who, client in clients.items():
            page = text(client.get(game.get_absolute_url()))
            shown = highlighted(page)
            seat = {"alice": "1", "bob": "2"}.get(who)
            # The page draws exactly what the seat's view says, and the same for everyone.
            assert shown == last_move_cards(engine.view(state, seat)), who
            assert shown <= public_cards(state) and not shown & hands, who
            seen_a_highlight |= bool(shown)
        last_turn = [e for e in state["events"] if e["type"] not in ("drew", "reshuffled")]
        if last_turn and last_turn[-1]["type"] == "played":
            played = set(last_turn[-1]["cards"]) & public_cards(state)
            assert played <= shown, "the cards just played are highlighted"
    assert seen_a_highlight


def test_issue_27_9_a_card_that_left_the_table_or_was_drawn_is_never_highlighted():
    """A discarded card that was reshuffled into the draw pile, and drawn cards, are not on the
    table: the highlight names nothing that the table does not show."""
    view = {
        "discard": [],
        "players": {"1": {"builds": [], "bikes": []}, "2": {"builds": [], "bikes": []}},
        "events": [
            {"n": 1, "seat": "1", "type": "drew", "count": 5, "cards": [1, 2, 3, 4, 5]},
            {"n": 2, "seat": "2", "type": "discarded", "card": 40},
            {"n": 3, "seat": "2", "type": "reshuffled", "count": 20, "bikes": 1},
            {"n": 4, "seat": "2", "type": "drew", "count": 1, "cards": [7]},
        ],
    }
    assert last_move_cards(view) == set()
    view["discard"] = [{"id": 40}]
    assert last_move_cards(view) == {40}


def test_issue_27_9_the_story_is_all_in_the_page_and_the_robots_it_moved_are_marked(
    alice, bob, carol, django_capture_on_commit_callbacks
):
    game = start_oog([alice, bob, carol])
    alice_client = client_for(alice)
    alice_client.get(game.get_absolute_url())  # she has the table open before turn 1 resolves
    for seat in game.seats.select_related("user"):
        game.refresh_from_db()
        with django_capture_on_commit_callbacks(execute=True):  # the resolution follows
            moves.submit_action(seat.user, game.pk, game.turn_version, greedy_program(game, seat))
    game.refresh_from_db()
    assert game.turn == 2
    story = game.state["story"][-1]
    page = text(client_for(carol).get(game.get_absolute_url()))  # a spectator
    steps = re.search(r'<ol class="events steps" data-turn="1" data-new="0">(.*?)</ol>', page, re.S)
    assert steps, "the story's list names its turn for the script"
    assert steps.group(1).count("<li>") == len(story["events"])  # every line, none hidden
    assert "step-waiting" not in page
    gained = {
        int(r)
        for e in story["events"]
        if e["type"] in ("harvest", "trap", "attack")
        for r, got in e["took"].items()
        if got
    }
    marked = set(
        map(
            int,
            re.findall(
                r'class="robot robot-\w+[^"]*last-move">\s*<header[^>]*>\s*'
                r'<span class="robot-badge[^>]*>(\d+)<',
                page,
            ),
        )
    )
    assert gained <= marked
    alices = text(alice_client.get(game.get_absolute_url()))
    assert 'data-turn="1" data-new="1"' in alices  # new to her: the script plays it out
    again = text(alice_client.get(game.get_absolute_url()))
    assert 'data-turn="1" data-new="0"' in again  # once only


def test_issue_27_9_card_values_are_labelled_and_robots_show_their_colour(alice, bob):
    game = start_geared([alice, bob], target=1000)
    page = text(client_for(alice).get(game.get_absolute_url()))
    assert '<span class="sr-only">Part value </span>' in page
    assert '<abbr title="Set value" aria-hidden="true">S</abbr>' in page
    lobby = text(client_for(alice).get(reverse("lobby")))
    for colour in ("red", "blue", "white"):
        assert re.search(
            rf'<label class="robot-chip robot-{colour}" for="id_robots_\d">'
            r'<input type="checkbox"[^>]*><span class="swatch"',
            lobby,
        )
    table = tables.create_game(alice, tables.NewGame(kind="outofgears", seat_count=3))
    join = text(client_for(bob).get(table.get_absolute_url() + f"?token={table.join_token}"))
    assert re.search(r'class="robot-chip robot-green"><input[^>]*><span class="swatch"', join)
