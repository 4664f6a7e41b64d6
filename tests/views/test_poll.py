"""The live-update check (poll) and "my games": what changed, whose turn, who won."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.actions import tables
from games.models import Kind, Status
from tests.support.games import advance, client_for, seat_to_act, start_geared
from tests.support.pages import poll, section, text

pytestmark = pytest.mark.django_db


# --- poll ------------------------------------------------------------------------------------


def test_poll_says_204_while_nothing_changed_and_200_once_something_did(alice, bob):
    game = start_geared([alice, bob], target=1000)
    client = client_for(alice)
    seen = game.version
    assert poll(client, game, seen).status_code == 204
    game = advance(game, 1)
    response = poll(client, game, seen)
    assert response.status_code == 200
    assert response["X-Game-Version"] == str(game.version)
    assert response["X-Chat-Seq"] == str(game.chat_seq)  # the page fetches only what is newer
    assert poll(client, game, game.version).status_code == 204


def test_poll_stops_polling_once_the_game_is_over_and_seen(alice, bob):
    game = start_geared([alice, bob])
    game.status = Status.FINISHED
    game.version += 1
    game.save(update_fields=["status", "version"])
    client = client_for(alice)
    assert poll(client, game, game.version - 1).status_code == 200  # the end is not seen yet
    assert poll(client, game, game.version).status_code == 286


@pytest.mark.parametrize("v", ["", "seven", "1.5", "-"])
def test_poll_refuses_a_version_that_is_not_an_integer(alice, bob, v):
    game = start_geared([alice, bob])
    assert poll(client_for(alice), game, v).status_code == 400
    assert client_for(alice).get(reverse("game_poll", args=[game.pk])).status_code == 400


def test_poll_hides_a_private_game_from_a_non_player(alice, bob, carol):
    game = start_geared([alice, bob])
    assert poll(client_for(carol), game, game.version).status_code == 404
    assert poll(Client(), game, game.version).status_code == 404
    assert poll(client_for(bob), game, game.version).status_code == 204


def test_poll_answers_anyone_for_a_public_game(alice, bob, carol):
    game = start_geared([alice, bob], public=True)
    assert poll(Client(), game, game.version).status_code == 204
    assert poll(client_for(carol), game, game.version - 1).status_code == 200


def test_poll_for_an_unknown_game_is_not_found(alice_client):
    assert alice_client.get(reverse("game_poll", args=[999999]), {"v": 1}).status_code == 404


# --- my games --------------------------------------------------------------------------------


def test_my_games_lists_the_game_where_it_is_my_turn_first(alice, bob, carol):
    waiting = start_geared([alice, bob], target=1000)
    if seat_to_act(waiting).user_id == alice.pk:
        waiting = advance(waiting, 1)
    mine = start_geared([alice, carol], target=1000)
    if seat_to_act(mine).user_id != alice.pk:
        mine = advance(mine, 1)
    assert seat_to_act(mine).user_id == alice.pk
    assert seat_to_act(waiting).user_id == bob.pk

    page = text(client_for(alice).get(reverse("my_games")))
    your_turn = section(page, "Your turn")
    assert page.index("<h2>Your turn") < page.index("<h2>Waiting for others")
    assert mine.get_absolute_url() in your_turn
    assert waiting.get_absolute_url() not in your_turn
    assert waiting.get_absolute_url() in section(page, "Waiting for others")
    assert 'class="badge badge-turn">1</span>' in your_turn
    assert re.search(r"Your turn · 1\s*</span>", page)

    bob_page = text(client_for(bob).get(reverse("my_games")))
    assert waiting.get_absolute_url() in section(bob_page, "Your turn")
    assert re.search(r"Your turn · 1\s*</span>", bob_page)


def test_the_nav_counts_no_turn_when_nothing_waits(alice, bob):
    game = start_geared([alice, bob])
    idle = bob if seat_to_act(game).user_id == alice.pk else alice
    page = text(client_for(idle).get(reverse("my_games")))
    assert "Your turn ·" not in page
    assert "Nothing waits for you." in page


def test_finished_games_say_who_won(alice, bob):
    game = advance(start_geared([alice, bob]), 500)
    assert game.status == Status.FINISHED
    winners = game.result["winners"]
    for user in (alice, bob):
        seat = game.seats.get(user=user)
        expected = (
            ("Won" if len(winners) == 1 else "Shared win") if seat.seat_id in winners else "Lost"
        )
        finished = section(text(client_for(user).get(reverse("my_games"))), "Finished")
        assert game.get_absolute_url() in finished
        assert f'<span class="outcome">{expected}</span>' in finished


def test_open_and_aborted_games_are_listed_apart(alice, bob):
    table = tables.create_game(alice, tables.NewGame(kind=Kind.GEARED, seat_count=2))
    gone = tables.create_game(alice, tables.NewGame(kind=Kind.GEARED, seat_count=2))
    tables.leave_game(alice, gone.pk)
    page = text(client_for(alice).get(reverse("my_games")))
    assert table.get_absolute_url() in section(page, "Not started yet")
    assert gone.get_absolute_url() not in page


def test_my_games_shows_the_latest_finished_games_and_links_to_all(client, alice, bob):
    from django.urls import reverse

    from games.models import Game, Status

    for _ in range(22):
        game = tables.create_game(alice, tables.NewGame(kind="geared", seat_count=2, public=True))
        tables.join_game(bob, game.pk)
        Game.objects.filter(pk=game.pk).update(status=Status.FINISHED, result={"winners": []})
    client.force_login(alice)
    page = client.get(reverse("my_games"))
    assert len(page.context["groups"]["finished"]) == 20
    assert reverse("finished_games") in page.content.decode()
    first = client.get(reverse("finished_games"))
    second = client.get(reverse("finished_games"), {"page": 2})
    assert first.context["page"].paginator.count == 22
    assert len(first.context["page"].object_list) == 22  # 25 a page
    assert "Lost" in first.content.decode() and second.status_code == 200


# --- the poll honours the session as the rest of the site does (issue 13, point 5) ------------


def test_poll_drops_a_session_after_a_password_change_like_the_rest_of_the_site(alice, bob):
    game = start_geared([alice, bob])
    client = client_for(alice)
    assert poll(client, game, game.version).status_code == 204
    alice.set_password("a-new-and-different-passphrase")
    alice.save()
    assert poll(client, game, game.version).status_code == 404
    assert client.get(game.get_absolute_url()).status_code == 404  # the page agrees


def test_poll_drops_the_session_of_a_deactivated_user(alice, bob):
    game = start_geared([alice, bob])
    client = client_for(alice)
    alice.is_active = False
    alice.save(update_fields=["is_active"])
    assert poll(client, game, game.version).status_code == 404
    assert poll(client_for(bob), game, game.version).status_code == 204


def test_poll_refuses_a_session_without_its_auth_hash(alice, bob):
    game = start_geared([alice, bob])
    client = client_for(alice)
    session = client.session
    del session["_auth_user_hash"]
    session.save()
    assert poll(client, game, game.version).status_code == 404
