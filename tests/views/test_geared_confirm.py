"""The confirm step of a Geared turn (issue 14, point 3): tapping cards and a destination are GET
links that only preview the move (faint cards on the table, a sentence, one Play button); only
the POST of that button changes the game, and a preview or a confirm gone stale says so."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from games.engines.geared import engine
from games.models import Game, Move
from tests.support.games import advance, client_for, greedy_choice, seat_to_act, start_geared
from tests.support.pages import page_version, text
from tests.views.helpers import choices_for, error_text, payloads, selection_for

pytestmark = pytest.mark.django_db


def stored(game: Game) -> tuple:
    game = Game.objects.get(pk=game.pk)
    return game.version, game.move_count, Move.objects.filter(game=game).count(), game.state


def confirm_form(page: str) -> tuple[str, dict]:
    """The preview's one form: where it posts, and its fields."""
    found = re.search(r'<form method="post" action="([^"]*)"[^>]*class="choice confirm"', page)
    assert found, "the page shows no Play button"
    fields = dict(re.findall(r'<input type="hidden" name="(version|action)" value="([^"]*)"', page))
    return html.unescape(found.group(1)), {k: html.unescape(v) for k, v in fields.items()}


def a_play(game: Game, seat, kind: str = "play") -> dict:
    """The first legal action of this kind that places no wild (its sentence names a level)."""
    legal = engine.legal_actions(game.state, seat.seat_id)
    return next(a for a in legal if a["type"] == kind and "level" not in a)


def until_legal(game: Game, *kinds: str, moves: int = 120) -> Game:
    """Play on greedily until the seat to act may make an action of each of these kinds that
    places no wild (what a_play picks)."""
    for _ in range(moves):
        seat = seat_to_act(game)
        legal = engine.legal_actions(game.state, seat.seat_id)
        if all(any(a["type"] == k and "level" not in a for a in legal) for k in kinds):
            return game
        game = advance(game, 1)
        assert game.is_active, f"the game ended before {kinds} came up"
    raise AssertionError(f"no {kinds} came up in {moves} moves")


@pytest.fixture
def game(alice, bob):
    return start_geared([alice, bob], target=1000)


def test_a_tapped_card_offers_its_destinations_as_links_that_commit_nothing(game):
    seat = seat_to_act(game)
    action = a_play(game, seat)
    client = client_for(seat.user)
    before = stored(game)

    page = text(client.get(game.get_absolute_url() + choices_for(action)))

    assert payloads(page) == [], "no move is one tap away"
    assert f"{selection_for(action)}" in html.unescape(page)
    assert 'class="button destination"' in page
    assert stored(game) == before


def test_g5_a_preview_shows_the_move_on_the_table_and_one_play_button_and_changes_nothing(game):
    seat = seat_to_act(game)
    action = a_play(game, seat)  # a part into a new build
    client = client_for(seat.user)
    before = stored(game)

    for url in (game.get_absolute_url(), reverse("game_fragment", args=[game.pk])):
        response = client.get(url + selection_for(action))
        assert response.status_code == 200
        page = text(response)
        assert payloads(page) == [action]
        assert re.search(r'<p class="prompt preview-sentence"[^>]*>Play Level \d \w+', page)
        assert "to start a new build" in page
        assert 'class="build is-target is-new"' in page
        assert page.count('class="slot ghost"') == len(action["cards"])
        assert ">Play</button>" in page
        assert ">Cancel</a>" in page and ">Back</a>" in page
        assert page_version(page) == game.version
    assert stored(game) == before, "a preview stores nothing"


def test_g5_the_play_button_applies_exactly_the_move_previewed(game):
    seat = seat_to_act(game)
    action = greedy_choice(game, seat)
    client = client_for(seat.user)
    expected = engine.apply(game.state, seat.seat_id, action)
    page = text(client.get(game.get_absolute_url() + selection_for(action)))
    url, fields = confirm_form(page)
    assert url.startswith(reverse("game_move", args=[game.pk]))

    response = client.post(url, fields)

    assert response.status_code == 302
    game.refresh_from_db()
    assert Move.objects.get(game=game).action == action
    assert game.state == expected
    assert game.version == int(fields["version"]) + 1


def test_g6_a_rearrangement_is_previewed_then_confirmed_and_the_turn_goes_on(game):
    game = until_legal(game, "rearrange")
    seat = seat_to_act(game)
    action = a_play(game, seat, "rearrange")
    client = client_for(seat.user)
    before = stored(game)

    choices = text(client.get(game.get_absolute_url() + choices_for(action)))
    assert payloads(choices) == []
    page = text(client.get(game.get_absolute_url() + selection_for(action)))
    assert payloads(page) == [action]
    assert re.search(r'id="preview-sentence">Move your Level \d \w+ \(build \d\) to ', page)
    assert 'class="slot filled tappable selected leaving"' in page
    assert ">Move</button>" in page
    assert stored(game) == before

    url, fields = confirm_form(page)
    response = client.post(url, fields, HTTP_HX_REQUEST="true")

    assert response.status_code == 200
    game.refresh_from_db()
    assert Move.objects.filter(game=game).latest("seq").action == action
    assert seat_to_act(game) == seat, "a rearrangement does not end the turn (G6)"
    assert payloads(text(response)) == [], "after the move, no preview is left standing"


def test_a_stale_confirm_is_refused_in_words_where_the_action_was_and_changes_nothing(game):
    game = until_legal(game, "rearrange", "play")
    seat = seat_to_act(game)
    client = client_for(seat.user)
    play = a_play(game, seat)
    page = text(client.get(game.get_absolute_url() + selection_for(play)))
    url, fields = confirm_form(page)
    # Meanwhile (another tab), the player moves a part: the preview's version is stale.
    other_client = client_for(seat.user)
    moved = a_play(game, seat, "rearrange")
    tab = text(other_client.get(game.get_absolute_url() + selection_for(moved)))
    assert other_client.post(*confirm_form(tab)).status_code == 302
    before = stored(game)

    response = client.post(url, fields, HTTP_HX_REQUEST="true")

    assert response.status_code == 409
    fragment = text(response)
    assert error_text(fragment) == (
        "The game has moved on since this page was loaded; here it is as it is now."
    )
    my_area = fragment[fragment.index('class="my-area"') :]
    assert my_area.index('class="error"') < my_area.index("Your hand</h2>"), "in my area"
    assert stored(game) == before

    # Without JavaScript: the same refusal as a message, back on the page at the same preview.
    response = client.post(url, fields)
    assert response.status_code == 302
    assert response["Location"] == game.get_absolute_url() + selection_for(play)
    assert stored(game) == before


@pytest.mark.parametrize("to", ["b999", "p95", "new3", "pass"])
def test_an_illegal_or_stale_preview_says_so_and_offers_no_move(game, to):
    seat = seat_to_act(game)
    action = a_play(game, seat)
    client = client_for(seat.user)
    before = stored(game)

    response = client.get(game.get_absolute_url() + choices_for(action) + f"&to={to}")

    assert response.status_code == 200
    page = text(response)
    assert "That move is not possible now: choose again." in page
    assert payloads(page) == []
    assert 'class="button destination"' in page, "the destinations are offered again"
    assert stored(game) == before


def test_a_preview_when_it_is_not_my_turn_says_so(game):
    seat = seat_to_act(game)
    action = a_play(game, seat)
    other = game.seats.exclude(pk=seat.pk).select_related("user").get()
    page = text(client_for(other.user).get(game.get_absolute_url() + selection_for(action)))
    assert "That move is not possible now: it is not your turn." in page
    assert payloads(page) == []
