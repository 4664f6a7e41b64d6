"""Out of Gears through the views with a real Celery worker on Redis resolving every turn (O5)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.engines.outofgears import engine
from games.models import Game, Move, Seat, Status
from tests.support.games import client_for, greedy_program
from tests.support.pages import page_version, text
from tests.support.waiting import wait_for
from tests.views.outofgears.helpers import (
    create_by_lobby,
    has_story_heading,
    join_by_link,
    offered,
    post_program,
    resolve_moves,
    revealed,
    sentence,
    start_by_view,
    story_section,
    submitted_line,
    wait_for_turn_after,
)

# The worker reads committed rows from its own connection: no test-wrapping transaction.
pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_three_friends_play_a_whole_game_each_turn_resolved_by_the_worker(
    celery_worker, alice, bob, carol
):
    players = {"alice": alice, "bob": bob, "carol": carol}
    clients = {name: client_for(user) for name, user in players.items()}
    game = create_by_lobby(clients["alice"], seat_count=3, robots=[1])
    join_by_link(clients["bob"], game, robots=[4])
    join_by_link(clients["carol"], game, robots=[7])
    game = start_by_view(clients["alice"], game)

    seats = {s.user.username: s for s in game.seats.select_related("user")}
    assert {name: s.robots for name, s in seats.items()} == {
        "alice": [1],
        "bob": [4],
        "carol": [7],
    }
    assert game.state["seat_robots"] == {s.seat_id: s.robots for s in seats.values()}
    assert game.turn == 1

    while game.is_active:
        turn = game.turn
        chosen = {}
        for name, client in clients.items():
            page = text(client.get(game.get_absolute_url()))
            assert f"Turn {turn}: program your robot" in page
            game.refresh_from_db()
            action = greedy_program(game, seats[name])
            (entry,) = action["programs"]
            form = offered(page)[entry["robot"]]
            assert entry["action"] in form["actions"]
            assert entry["number"] in form["numbers"]
            # A browser without JavaScript: the form posts and the page reloads.
            response = post_program(client, game, action, page_version(page), htmx=False)
            assert response.status_code == 302
            assert response.url == game.get_absolute_url()
            chosen[entry["robot"]] = entry

        game = wait_for_turn_after(game, turn)
        assert resolve_moves(game) == turn, "each turn resolves exactly once"
        story = game.state["story"][-1]
        assert story["turn"] == turn
        assert [(e["robot"], e["action"], e["number"]) for e in story["revealed"]] == [
            (r, chosen[r]["action"], chosen[r]["number"]) for r in sorted(chosen)
        ]
        assert game.state["programs"] == {}
        expected = [f"{r} {sentence(chosen[r])}" for r in sorted(chosen)]
        for name, client in clients.items():
            page = text(client.get(game.get_absolute_url()))
            assert has_story_heading(story_section(page), turn), name
            assert revealed(page) == expected, name
            assert submitted_line(page) == "", "a new turn starts with no program in"

    assert game.status == Status.FINISHED
    assert game.finished is not None
    assert game.result == engine.result(game.state)
    assert game.result["winners"]
    assert not Seat.objects.filter(game=game, to_act=True).exists()
    assert game.turn >= 10, "O15: the earliest end is at the end of turn 10"
    last = game.state["story"][-1]
    assert last["events"][-1]["type"] == "end"
    page = text(clients["bob"].get(game.get_absolute_url()))
    assert "Game over." in page
    assert 'name="program"' not in page
    poll = clients["carol"].get(reverse("game_poll", args=[game.pk]), {"v": game.version})
    assert poll.status_code == 286, "a finished game that the page shows stops the polling"
    assert Move.objects.filter(game=game, kind=Move.Kind.ACTION).count() == 3 * game.turn


def test_bots_program_on_their_own_and_the_worker_resolves_the_turn(celery_worker, alice):
    client = client_for(alice)
    game = create_by_lobby(client, seat_count=3, bots=2, bot_kind="greedy", robots=[2])
    game = start_by_view(client, game)
    bots = list(game.seats.filter(user=None))
    assert len(bots) == 2

    # The worker's play_bots task programs both bots once the game starts.
    wait_for(
        lambda: all(s.seat_id in Game.objects.get(pk=game.pk).state["programs"] for s in bots),
        what="the bots to program",
    )
    page = text(client.get(game.get_absolute_url()))
    assert "Turn 1: program your robot" in page
    game.refresh_from_db()
    alice_seat = game.seats.get(user=alice)
    response = post_program(client, game, greedy_program(game, alice_seat), page_version(page))
    assert response.status_code == 200

    game = wait_for_turn_after(game, 1)
    assert game.turn == 2
    assert resolve_moves(game) == 1
    assert len(game.state["story"][-1]["revealed"]) == 3
    # And the bots program turn 2 by themselves, again through the worker.
    wait_for(
        lambda: len(Game.objects.get(pk=game.pk).state["programs"]) == 2,
        what="the bots to program turn 2",
    )
    game.refresh_from_db()
    assert set(game.state["programs"]) == {s.seat_id for s in bots}
    assert Move.objects.filter(game=game, kind=Move.Kind.ACTION, seat__in=bots).count() == 4
