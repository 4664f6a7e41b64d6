"""Playing Out of Gears through the views, with tasks run eagerly on commit: the advanced game
(O17), changing a program (O5), bots, and the game log (O18)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.actions import moves
from games.models import Move
from games.pages.outofgears_text import describe
from tests.support.games import client_for, greedy_program, seat_of, snapshot, start_oog
from tests.support.pages import page_version, text
from tests.views.outofgears.helpers import (
    checked,
    create_by_lobby,
    error_text,
    has_story_heading,
    join_by_link,
    offered,
    plain,
    post_program,
    program,
    resolve_moves,
    revealed,
    sentence,
    start_by_view,
    story_section,
    submitted_line,
)

COLOUR_NAMES = {1: "Red", 2: "Blue", 3: "Green", 4: "Yellow", 5: "Purple", 6: "Orange"}


def _log_sections(page: str) -> list[str]:
    return page.split('<section class="log-turn"')[1:]


@pytest.mark.django_db(transaction=True)
def test_o17_advanced_game_both_robots_are_programmed_in_one_form(alice, bob):
    clients = {"alice": client_for(alice), "bob": client_for(bob)}
    game = create_by_lobby(clients["alice"], seat_count=2, advanced="on", robots=[1, 2])
    assert game.options["advanced"] is True
    join_by_link(clients["bob"], game, robots=[5, 6])
    game = start_by_view(clients["alice"], game)
    assert {s.user.username: s.robots for s in game.seats.select_related("user")} == {
        "alice": [1, 2],
        "bob": [5, 6],
    }
    seats = {"alice": seat_of(game, alice), "bob": seat_of(game, bob)}

    for turn in (1, 2, 3):
        chosen = {}
        for name, client in clients.items():
            page = text(client.get(game.get_absolute_url()))
            robots = seats[name].robots
            # One form, one fieldset per robot, with the three Action cards and four numbers.
            assert set(offered(page)) == set(robots)
            assert all(
                o == {"actions": {"harvest", "attack", "trap"}, "numbers": {1, 2, 5, 6}}
                for o in offered(page).values()
            )
            assert "Your two robots must use different action cards." in page
            game.refresh_from_db()
            if name == "alice" and turn == 2:
                # One set of Action cards for two robots: the same card twice is refused.
                before = snapshot(game)
                same = program((1, "harvest", 5), (2, "harvest", 6))
                refused = post_program(client, game, same, page_version(page))
                assert refused.status_code == 400
                assert error_text(text(refused)) == (
                    "Your two robots share one set of Action cards: give them different actions."
                )
                assert snapshot(game) == before
            action = greedy_program(game, seats[name])
            response = post_program(client, game, action, page_version(page))
            assert response.status_code == 200
            for entry in action["programs"]:
                chosen[entry["robot"]] = entry
            if name == "alice":
                game.refresh_from_db()
                assert game.state["programs"][seats["alice"].seat_id] == action["programs"]
                assert [e["robot"] for e in action["programs"]] == [1, 2]
        game.refresh_from_db()
        assert game.turn == turn + 1
        assert resolve_moves(game) == turn
        assert [
            (e["robot"], e["action"], e["number"]) for e in game.state["story"][-1]["revealed"]
        ] == [(r, chosen[r]["action"], chosen[r]["number"]) for r in (1, 2, 5, 6)]
        # The response to the last program already shows the resolved turn.
        page = text(response)
        assert has_story_heading(story_section(page), turn)
        assert revealed(page) == [f"{r} {sentence(chosen[r])}" for r in (1, 2, 5, 6)]

    assert Move.objects.filter(game=game, kind=Move.Kind.ACTION).count() == 6


@pytest.mark.django_db
def test_o5_a_program_can_be_changed_until_the_last_one_is_in(
    alice, bob, django_capture_on_commit_callbacks
):
    game = start_oog([alice, bob], robots=[(3,), (8,)])
    alice_client, bob_client = client_for(alice), client_for(bob)
    first, second = program((3, "harvest", 3)), program((3, "trap", 8))

    assert post_program(alice_client, game, first, game.version).status_code == 200
    game.refresh_from_db()
    response = post_program(alice_client, game, second, game.version)

    assert response.status_code == 200
    game.refresh_from_db()
    alice_seat = seat_of(game, alice)
    assert game.state["programs"] == {alice_seat.seat_id: second["programs"]}
    # "Your turn" is now only bob's.
    assert {s.user.username: s.to_act for s in game.seats.select_related("user")} == {
        "alice": False,
        "bob": True,
    }
    assert Move.objects.filter(game=game, seat=alice_seat).count() == 2
    assert game.turn == 1
    page = text(alice_client.get(game.get_absolute_url()))
    assert submitted_line(page) == (
        "Submitted: 3 Trap junkyard 8 — you can change it until the last program is in."
    )
    assert checked(page) == {"robot-3-action": "trap", "robot-3-number": "8"}
    assert "Change my program" in page

    # Bob's program is the last: the turn is queued for resolution, not resolved in the request.
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = post_program(bob_client, game, program((8, "attack", 3)), game.version)
    assert response.status_code == 200
    assert len(callbacks) == 1, "the last program queues the resolution, once"
    game.refresh_from_db()
    assert game.turn == 1
    assert resolve_moves(game) == 0
    assert not game.seats.filter(to_act=True).exists()
    for client in (alice_client, bob_client, client_for(alice)):
        page = text(client.get(game.get_absolute_url()))
        assert "Every program is in — resolving turn 1…" in page
        assert 'name="program"' not in page, "nobody can change anything now"

    # The queued task resolves the turn with alice's second program.
    callbacks[0]()
    game.refresh_from_db()
    assert game.turn == 2
    assert resolve_moves(game) == 1
    assert [
        (e["robot"], e["action"], e["number"]) for e in game.state["story"][-1]["revealed"]
    ] == [
        (3, "trap", 8),
        (8, "attack", 3),
    ]
    page = text(alice_client.get(game.get_absolute_url()))
    assert revealed(page) == ["3 Trap junkyard 8", "8 Attack Green"]
    assert "Turn 2: program your robot" in page


@pytest.mark.django_db
def test_bots_program_when_the_game_starts_and_when_a_turn_begins(
    alice, django_capture_on_commit_callbacks
):
    client = client_for(alice)
    game = create_by_lobby(client, seat_count=3, bots=2, bot_kind="random", robots=[4])
    with django_capture_on_commit_callbacks(execute=True):
        game = start_by_view(client, game)
    game.refresh_from_db()
    bots = {s.seat_id for s in game.seats.filter(user=None)}
    alice_seat = seat_of(game, alice)
    assert set(game.state["programs"]) == bots, "both bots programmed turn 1, alice has not"
    assert {s.seat_id for s in game.seats.filter(to_act=True)} == {alice_seat.seat_id}
    page = text(client.get(game.get_absolute_url()))
    assert "Turn 1: program your robot" in page
    assert page.count("✓ in") == 2

    for turn in (1, 2):
        game.refresh_from_db()
        with django_capture_on_commit_callbacks(execute=True):
            response = post_program(client, game, greedy_program(game, alice_seat), game.version)
        assert response.status_code == 200
        game.refresh_from_db()
        assert game.turn == turn + 1
        assert resolve_moves(game) == turn
        assert set(game.state["programs"]) == bots, f"the bots programmed turn {turn + 1}"
    assert Move.objects.filter(game=game, kind=Move.Kind.ACTION, seat__user=None).count() == 6


@pytest.mark.django_db
def test_o18_the_log_lists_every_resolved_turn_with_its_revealed_programs(alice, bob, carol):
    game = start_oog([alice, bob, carol], robots=[(1,), (2,), (3,)], public=True)
    seats = [seat_of(game, u) for u in (alice, bob, carol)]
    for _turn in (1, 2, 3):
        game.refresh_from_db()
        for seat in seats:
            moves.submit_action(seat.user, game.pk, game.version, greedy_program(game, seat))
            game.refresh_from_db()
        assert moves.resolve_turn(game.pk, game.turn)
    game.refresh_from_db()
    # Turn 4 is under way: alice's program is in but not revealed.
    moves.submit_action(alice, game.pk, game.version, program((1, "trap", 3)))

    for client in (client_for(alice), client_for(carol), client_for(bob)):
        response = client.get(reverse("game_log", args=[game.pk]))
        assert response.status_code == 200
        sections = _log_sections(text(response))
        assert len(sections) == 3
        robot_names = {str(r): p for r, p in {1: "Alice", 2: "Bob", 3: "Carol"}.items()}
        # Oldest first, each turn under its heading with the time it resolved (issue 27.5).
        for section, story in zip(sections, game.state["story"], strict=True):
            assert re.search(rf">Turn {story['turn']} <time class=\"log-time\" datetime=", section)
            programs = " · ".join(
                f"{COLOUR_NAMES[e['robot']]}: {sentence(e)}" for e in story["revealed"]
            )
            assert f"Programs: {programs}" in plain(section)
            for event in story["events"]:
                assert describe(event, robot_names) in plain(section)
        assert "Turn 4" not in text(response)
