"""The move endpoint and the game page refuse bad input plainly and change nothing."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from games.actions import tables
from games.engines.geared import engine
from games.models import Status
from tests.support.games import (
    advance,
    client_for,
    greedy_choice,
    seat_to_act,
    snapshot,
    start_geared,
)
from tests.support.pages import text
from tests.support.users import make_user
from tests.views.helpers import error_text, post_move

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice, bob):
    return start_geared([alice, bob], target=1000)  # a first-move set may already reach 300


@pytest.fixture
def player(game):
    """The seat to act and a client logged in as its player."""
    seat = seat_to_act(game)
    return seat, client_for(seat.user)


def other_seat(game, seat):
    return game.seats.exclude(pk=seat.pk).select_related("user").get()


def illegal_message(game, seat, action) -> str:
    with pytest.raises(engine.IllegalMove) as refused:
        engine.apply(game.state, seat.seat_id, action)
    return refused.value.message


@pytest.mark.parametrize("raw", ["{not json", "", "null", "[1, 2]", '"play"', "42"])
def test_it_refuses_an_action_that_is_not_a_json_object(game, player, raw):
    seat, client = player
    before = snapshot(game)
    response = post_move(client, game, raw, game.version, htmx=True)
    assert response.status_code == 400
    assert error_text(text(response)) == "That is not an action."
    assert snapshot(game) == before


def test_it_refuses_an_unknown_card_with_the_engines_message(game, player):
    seat, client = player
    action = {"type": "discard", "card": 999}
    message = illegal_message(game, seat, action)
    before = snapshot(game)
    response = post_move(client, game, action, game.version, htmx=True)
    assert response.status_code == 400
    assert error_text(text(response)) == message
    assert snapshot(game) == before


def test_it_refuses_another_players_card(game, player):
    seat, client = player
    theirs = game.state["hands"][other_seat(game, seat).seat_id][0]
    action = {"type": "play", "cards": [theirs], "builds": ["new1"]}
    message = illegal_message(game, seat, action)
    before = snapshot(game)
    response = post_move(client, game, action, game.version, htmx=True)
    assert response.status_code == 400
    assert error_text(text(response)) == message
    assert snapshot(game) == before


def test_it_refuses_a_move_out_of_turn_naming_whose_turn_it_is(game, player):
    seat, _client = player
    waiting = other_seat(game, seat)
    before = snapshot(game)
    response = post_move(client_for(waiting.user), game, {"type": "pass"}, game.version, htmx=True)
    assert response.status_code == 409
    assert error_text(text(response)) == f"It is {seat.name}'s turn."
    assert snapshot(game) == before


@pytest.mark.parametrize("offset", [-1, 1])
def test_it_refuses_a_stale_or_future_version(game, offset):
    game = advance(game, 1)
    seat = seat_to_act(game)
    client = client_for(seat.user)
    before = snapshot(game)
    action = greedy_choice(game, seat)
    response = post_move(client, game, action, game.version + offset, htmx=True)
    assert response.status_code == 409
    assert "The game has moved on" in error_text(text(response))
    assert snapshot(game) == before


@pytest.mark.parametrize("version", [None, "", "seven", "1.5"])
def test_it_refuses_a_missing_or_malformed_version(game, player, version):
    seat, client = player
    before = snapshot(game)
    data = {"action": json.dumps(greedy_choice(game, seat))}
    if version is not None:
        data["version"] = version
    response = client.post(reverse("game_move", args=[game.pk]), data, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert "missing the game's version" in error_text(text(response))
    assert snapshot(game) == before


def test_it_refuses_a_huge_body(game, player):
    seat, client = player
    before = snapshot(game)
    action = {"type": "play", "cards": [1] * 30000, "builds": ["new1"]}
    assert len(json.dumps(action)) > 64 * 1024
    for htmx in (False, True):
        response = post_move(client, game, action, game.version, htmx=htmx)
        assert response.status_code == 413  # Payload Too Large (issue 22)
    assert snapshot(game) == before


def test_it_refuses_a_move_in_a_finished_game(game, player):
    seat, client = player
    game.status = Status.FINISHED
    game.save(update_fields=["status"])
    before = snapshot(game)
    response = post_move(client, game, greedy_choice(game, seat), game.version, htmx=True)
    assert response.status_code == 409
    assert error_text(text(response)) == "This game is over."
    assert snapshot(game) == before


def test_it_hides_a_private_game_from_a_non_player_who_posts_a_move(game, player, carol):
    seat, _client = player
    before = snapshot(game)
    for htmx in (False, True):
        response = post_move(
            client_for(carol), game, greedy_choice(game, seat), game.version, htmx=htmx
        )
        assert response.status_code == 404
    assert snapshot(game) == before


def test_it_refuses_a_non_player_who_posts_a_move_in_a_public_game(alice, bob, carol):
    game = start_geared([alice, bob], public=True, target=1000)
    seat = seat_to_act(game)
    before = snapshot(game)
    response = post_move(
        client_for(carol), game, greedy_choice(game, seat), game.version, htmx=True
    )
    assert response.status_code == 404
    assert snapshot(game) == before


def test_it_sends_an_anonymous_move_to_the_login_page(game, player):
    seat, _client = player
    before = snapshot(game)
    response = post_move(Client(), game, greedy_choice(game, seat), game.version)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))
    assert snapshot(game) == before


def test_a_plain_post_error_comes_back_as_a_message_on_the_game_page(game, player):
    seat, client = player
    before = snapshot(game)
    response = post_move(client, game, "{not json", game.version)
    assert response.status_code == 302
    assert response["Location"] == game.get_absolute_url()
    page = text(client.get(response["Location"]))
    assert "That is not an action." in page
    assert snapshot(game) == before


def test_a_private_game_does_not_exist_for_a_non_player_or_a_visitor(game, carol):
    for client in (client_for(carol), Client()):
        for name in ("game", "game_fragment", "game_log"):
            assert client.get(reverse(name, args=[game.pk])).status_code == 404
        response = client.get(reverse("game_poll", args=[game.pk]), {"v": game.version})
        assert response.status_code == 404


def test_the_join_link_shows_an_open_private_game_with_a_join_button(alice, carol):
    from games.models import Kind

    game = tables.create_game(alice, tables.NewGame(kind=Kind.GEARED, seat_count=2))
    url = f"{game.get_absolute_url()}?token={game.join_token}"
    response = client_for(carol).get(url)
    assert response.status_code == 200
    page = text(response)
    assert "Join this game" in page
    assert f'name="token" value="{game.join_token}"' in page
    assert client_for(carol).get(game.get_absolute_url()).status_code == 404
    assert client_for(carol).get(game.get_absolute_url() + "?token=wrong").status_code == 404


SCRIPT = "<script>alert(1)</script>"


def test_a_display_name_with_markup_is_shown_escaped_everywhere(alice, bob, django_user_model):
    mallory = make_user(django_user_model, "mallory", display_name=SCRIPT)
    from games.models import Kind

    open_game = tables.create_game(
        mallory, tables.NewGame(kind=Kind.GEARED, seat_count=2, public=True)
    )
    game = start_geared([alice, mallory], target=1000)
    game = advance(game, 4)
    escaped = "&lt;script&gt;alert(1)&lt;/script&gt;"
    pages = {
        "game": client_for(alice).get(game.get_absolute_url()),
        "log": client_for(alice).get(reverse("game_log", args=[game.pk])),
        "table": client_for(bob).get(open_game.get_absolute_url()),
        "lobby": client_for(bob).get(reverse("lobby")),
        "my games": client_for(alice).get(reverse("my_games")),
        "own page": client_for(mallory).get(game.get_absolute_url()),
    }
    for name, response in pages.items():
        assert response.status_code == 200, name
        page = text(response)
        assert SCRIPT not in page, name
        assert escaped in page, name


@pytest.mark.parametrize(
    "query",
    [
        "pick=%C2%B2",  # "²": str.isdigit() says yes, int() says no
        "pick=999",
        "move=999",
        "card=999",
        "pick=1,2,3,4,5",
        "pick=-1&move=-5",
        "pick=99999999999999999999999",
        "card=81&target=999",
        "card=87&target=999",
        "move=95&pick=95,75",
        "pick=1&to=b99999999",
        "to=%C2%B2&level=%C2%B2",
        "to=pass,pass,pass,pass&level=9",
        "card=81&to=p999",
        "move=1&to=new1&level=0",
    ],
)
def test_a_crafted_selection_shows_the_page_not_an_error(game, player, query):
    seat, client = player
    for url in (game.get_absolute_url(), reverse("game_fragment", args=[game.pk])):
        response = client.get(f"{url}?{query}")
        assert response.status_code == 200, url
    assert client_for(other_seat(game, seat).user).get(f"{url}?{query}").status_code == 200
