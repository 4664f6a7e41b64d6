"""Play by web, part 1: a whole Geared game between three people, through the views alone."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.engines.geared import engine
from games.models import Game, Move, Status
from tests.support.games import client_for, greedy_choice, seat_to_act, start_geared
from tests.support.pages import page_version, text
from tests.views.helpers import payloads, post_move, selection_for

pytestmark = pytest.mark.django_db


def create_by_post(client) -> Game:
    response = client.post(
        reverse("create_game"),
        {
            "kind": "geared",
            "seat_count": 3,
            "target": 300,
            "turn_seconds": 0,
            "bots": 0,
            "bot_kind": "greedy",
        },
    )
    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == game.get_absolute_url()
    return game


def test_three_people_play_a_geared_game_to_the_end_through_the_views(alice, bob, carol):
    clients = {u.pk: client_for(u) for u in (alice, bob, carol)}
    game = create_by_post(clients[alice.pk])
    assert game.status == Status.OPEN and game.options["target"] == 300

    # bob joins with the link alice shares; carol joins through an invitation by username.
    table = text(clients[alice.pk].get(game.get_absolute_url()))
    assert f"?token={game.join_token}" in table
    link = f"{game.get_absolute_url()}?token={game.join_token}"
    assert "Join this game" in text(clients[bob.pk].get(link))
    response = clients[bob.pk].post(
        reverse("game_join", args=[game.pk]), {"token": game.join_token}
    )
    assert response.status_code == 302
    clients[alice.pk].post(reverse("game_invite", args=[game.pk]), {"who": "carol"})
    response = clients[carol.pk].post(reverse("game_join", args=[game.pk]))
    assert response.status_code == 302
    assert game.seats.count() == 3

    response = clients[alice.pk].post(reverse("game_start", args=[game.pk]))
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == Status.ACTIVE

    turns = 0
    while game.status == Status.ACTIVE:
        turns += 1
        assert turns < 400, "the game should end long before this"
        seat = seat_to_act(game)
        client = clients[seat.user_id]
        page = text(client.get(game.get_absolute_url()))
        assert "Your turn" in page
        version = page_version(page)
        assert version == game.version
        action = greedy_choice(game, seat)
        # The page offers this very action once the player has tapped the cards it needs.
        offered = payloads(text(client.get(game.get_absolute_url() + selection_for(action))))
        assert action in offered
        response = post_move(client, game, action, version)
        assert response.status_code == 302
        game.refresh_from_db()
        assert game.version == version + 1

    assert game.status == Status.FINISHED
    assert game.finished is not None
    result = game.result
    assert result == engine.result(game.state)
    assert result["winners"]
    assert any(result["scores"][w] >= 300 for w in result["winners"])
    assert not game.seats.filter(to_act=True).exists()

    moves = list(Move.objects.filter(game=game).order_by("seq").select_related("seat"))
    assert [m.seq for m in moves] == list(range(1, len(moves) + 1))
    assert game.move_count == len(moves) == turns

    state = engine.new_game(
        [str(p) for p in range(1, 4)], seed=game.seed, options=_start_options(game)
    )
    for m in moves:
        state = engine.apply(state, m.seat.seat_id, m.action)
    assert state == game.state

    finished = text(clients[alice.pk].get(game.get_absolute_url()))
    assert "Game over." in finished
    assert 'name="action"' not in finished


def _start_options(game: Game) -> dict:
    """The options start_game gave the engine: the stored ones and the seat names."""
    names = {s.seat_id: s.name for s in game.seats.all()}
    return {**{k: v for k, v in game.options.items() if k != "names"}, "names": names}


def test_an_htmx_move_answers_with_the_game_fragment_at_the_new_version(alice, bob):
    game = start_geared([alice, bob], target=1000)
    seat = seat_to_act(game)
    action = greedy_choice(game, seat)
    response = post_move(client_for(seat.user), game, action, game.version, htmx=True)
    assert response.status_code == 200
    fragment = text(response)
    assert fragment.lstrip().startswith('<div id="game"')
    assert "<html" not in fragment
    game.refresh_from_db()
    assert page_version(fragment) == game.version
    assert 'class="error"' not in fragment
    assert Move.objects.get(game=game).action == action
    assert "Waiting for" in fragment


def test_a_move_for_a_game_that_does_not_exist_is_not_found(alice_client):
    response = alice_client.post(
        reverse("game_move", args=[999999]), {"action": '{"type": "pass"}', "version": "1"}
    )
    assert response.status_code == 404
