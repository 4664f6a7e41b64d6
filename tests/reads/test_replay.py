"""A finished game replays step by step from its seed and its move log."""

import pytest
from django.urls import reverse

from games import engines
from games.actions import moves, tables
from games.models import Move, Seat, Status
from games.reads.replay import moves_of, replay
from tests.support.games import finished_geared

pytestmark = pytest.mark.django_db


def test_replaying_every_move_gives_the_stored_state(alice, bob):
    game = finished_geared(alice, bob)
    assert replay(game, moves_of(game)) == game.state


def test_the_replay_page_shows_each_step_as_the_visitor_saw_it(client, alice, bob, carol):
    game = finished_geared(alice, bob)
    steps = Move.objects.filter(game=game).count()
    client.force_login(alice)
    url = reverse("game_replay", args=[game.pk])
    start = client.get(url, {"step": 0})
    assert start.status_code == 200
    assert f"Step 0 of {steps}" in start.content.decode()
    assert "The cards are dealt." in start.content.decode()
    end = client.get(url, {"step": steps}).content.decode()
    assert f"Step {steps} of {steps}" in end and "won with" in end
    assert str(game.seed) not in end
    client.force_login(carol)  # private game, not hers
    assert client.get(url).status_code == 404


def test_a_game_in_play_cannot_be_replayed(client, alice, bob):
    game = tables.create_game(alice, tables.NewGame(kind="geared", seat_count=2, public=True))
    tables.join_game(bob, game.pk)
    tables.start_game(alice, game.pk)
    client.force_login(alice)
    assert client.get(reverse("game_replay", args=[game.pk])).status_code == 404


def test_an_out_of_gears_game_with_bots_replays_to_its_stored_state(
    alice, django_capture_on_commit_callbacks
):
    import random

    from games.engines.outofgears.bots import greedy_bot as oog_greedy

    game = tables.create_game(
        alice,
        tables.NewGame(kind="outofgears", seat_count=3, bots=("greedy", "random")),
    )
    with django_capture_on_commit_callbacks(execute=True):
        tables.start_game(alice, game.pk)  # the bots program on commit
    eng = engines.engine("outofgears")
    rng = random.Random(3)
    seat = Seat.objects.get(game=game, user=alice)
    for _ in range(60):
        game.refresh_from_db()
        if game.status != Status.ACTIVE:
            break
        legal = eng.legal_actions(game.state, seat.seat_id)
        action = oog_greedy(eng.view(game.state, seat.seat_id), legal, rng)
        with django_capture_on_commit_callbacks(execute=True):  # resolution and bots follow
            moves.submit_action(alice, game.pk, game.version, action)
    game.refresh_from_db()
    assert game.status == Status.FINISHED
    assert Move.objects.filter(game=game, kind=Move.Kind.RESOLVE).count() == game.state["turn"]
    assert replay(game, moves_of(game)) == game.state
