"""Programs the move view refuses (O5, O6, O17): a clear message, the right status, and nothing
changed — not the version, not the move log, not the stored programs."""

from __future__ import annotations

import json

import pytest
from django.conf import settings
from django.urls import reverse

from games.actions import moves
from tests.support.games import client_for, seat_of, snapshot, start_oog
from tests.support.pages import text
from tests.support.users import make_user
from tests.views.outofgears.helpers import (
    error_text,
    form_fields,
    post_program,
    program,
    submitted_line,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice, bob, carol):
    """Alice drives Red (1), Bob Blue (2), Carol Green (3); robots 4 to 8 are not in play."""
    return start_oog([alice, bob, carol], robots=[(1,), (2,), (3,)])


@pytest.fixture
def alice_client(alice):
    return client_for(alice)


def _with_bobs_program_in(game, bob):
    """Bob's program is in, so that the stored programs are not trivially empty."""
    moves.submit_action(bob, game.pk, game.version, program((2, "harvest", 2)))
    game.refresh_from_db()
    return game


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (program((2, "harvest", 1)), "Blue (robot 2) is not your robot."),
        (program((1, "fly", 2)), "'fly' is not an action; choose harvest, attack or trap."),
        (program((1, "trap", 7)), "7 is not a number in play; choose one of 1, 2, 3."),
        (program((1, "harvest", 1), (2, "trap", 2)), "Blue (robot 2) is not your robot."),
        (program((5, "attack", 1)), "Robot 5 is not in this game."),
        (program((1, "trap", 99)), "99 is not a number in play; choose one of 1, 2, 3."),
        (program((1, "attack", -1)), "-1 is not a number in play; choose one of 1, 2, 3."),
        (program((99, "attack", 1)), "Robot 99 is not in this game."),
    ],
    ids=[
        "not-my-robot",
        "unknown-action",
        "number-not-in-play",
        "two-robots",
        "robot-not-in-play",
        "number-no-robot-has",
        "number-negative",
        "robot-no-game-has",
    ],
)
def test_o6_a_bad_program_is_refused_with_400_and_nothing_changes(
    game, bob, alice_client, action, message
):
    game = _with_bobs_program_in(game, bob)
    before = snapshot(game)

    response = post_program(alice_client, game, action, game.version)

    assert response.status_code == 400
    assert error_text(text(response)) == message
    assert snapshot(game) == before
    assert submitted_line(text(response)) == "", "alice has no program in"


def test_the_same_refusal_comes_for_the_json_action_field(game, alice_client):
    before = snapshot(game)

    response = alice_client.post(
        reverse("game_move", args=[game.pk]),
        {"action": json.dumps(program((2, "harvest", 1))), "version": game.version},
        HTTP_HX_REQUEST="true",
    )

    assert response.status_code == 400
    assert error_text(text(response)) == "Blue (robot 2) is not your robot."
    assert snapshot(game) == before


@pytest.mark.parametrize(
    "fields",
    [
        {"robot-1-action": "harvest", "robot-1-number": "seven"},
        {"robot-1-action": "harvest"},
        {},
    ],
    ids=["number-not-a-number", "number-missing", "no-robot-fields"],
)
def test_a_malformed_program_form_is_refused_with_400(game, alice_client, fields):
    before = snapshot(game)

    response = alice_client.post(
        reverse("game_move", args=[game.pk]),
        {"version": game.version, "program": "1", **fields},
        HTTP_HX_REQUEST="true",
    )

    assert response.status_code == 400
    assert error_text(text(response)) == "That is not an action."
    assert snapshot(game) == before


def test_without_javascript_a_refusal_redirects_to_the_page_which_says_why(game, alice_client):
    before = snapshot(game)

    response = post_program(alice_client, game, program((1, "fly", 2)), game.version, htmx=False)

    assert response.status_code == 302
    assert response.url == game.get_absolute_url()
    page = text(alice_client.get(response.url))
    assert "&#x27;fly&#x27; is not an action; choose harvest, attack or trap." in page
    assert snapshot(game) == before


def test_o17_two_robots_with_the_same_action_card_are_refused(alice, bob):
    game = start_oog([alice, bob], robots=[(1, 2), (5, 6)], advanced=True)
    client = client_for(alice)
    before = snapshot(game)

    response = post_program(client, game, program((1, "trap", 5), (2, "trap", 6)), game.version)

    assert response.status_code == 400
    assert error_text(text(response)) == (
        "Your two robots share one set of Action cards: give them different actions."
    )
    assert snapshot(game) == before


def test_o17_a_program_for_only_one_of_my_two_robots_is_refused(alice, bob):
    game = start_oog([alice, bob], robots=[(1, 2), (5, 6)], advanced=True)
    before = snapshot(game)

    response = post_program(client_for(alice), game, program((1, "trap", 5)), game.version)

    assert response.status_code == 400
    assert error_text(text(response)) == "Blue (robot 2) needs a program too."
    assert snapshot(game) == before


def test_o5_no_program_is_taken_once_every_program_is_in(
    game, alice, bob, carol, alice_client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        for user, robot in ((alice, 1), (bob, 2), (carol, 3)):
            game.refresh_from_db()
            moves.submit_action(user, game.pk, game.version, program((robot, "harvest", 1)))
    assert len(callbacks) == 1, "the resolution is queued, and has not run"
    before = snapshot(game)

    response = post_program(alice_client, game, program((1, "attack", 2)), game.version)

    assert response.status_code == 409
    assert error_text(text(response)) == "Every program is in; the turn is being resolved."
    assert snapshot(game) == before
    assert game.state["programs"][seat_of(game, alice).seat_id] == [
        {"robot": 1, "action": "harvest", "number": 1}
    ]


def test_a_program_made_on_the_previous_turn_is_stale(game, alice, bob, carol, alice_client):
    turn_one_version = game.version
    for user, robot in ((alice, 1), (bob, 2), (carol, 3)):
        game.refresh_from_db()
        moves.submit_action(user, game.pk, game.version, program((robot, "attack", robot)))
    game.refresh_from_db()
    last_version_of_turn_one = game.version
    assert moves.resolve_turn(game.pk, 1)
    game.refresh_from_db()
    game = _with_bobs_program_in(game, bob)
    assert game.turn == 2
    before = snapshot(game)

    for stale in (turn_one_version, last_version_of_turn_one):
        response = post_program(alice_client, game, program((1, "harvest", 1)), stale)
        assert response.status_code == 409
        assert error_text(text(response)) == (
            "The game has moved on since this page was loaded; here it is as it is now."
        )
        assert snapshot(game) == before
        # The page that comes back is the current one, with the current version.
        assert f'name="version" value="{game.version}"' in text(response)


def test_a_version_from_the_future_or_none_is_refused(game, alice_client):
    before = snapshot(game)

    future = post_program(alice_client, game, program((1, "harvest", 1)), game.version + 1)
    fields = form_fields(program((1, "harvest", 1)), "")
    missing = alice_client.post(
        reverse("game_move", args=[game.pk]), fields, HTTP_HX_REQUEST="true"
    )

    assert future.status_code == 409
    assert missing.status_code == 400
    assert error_text(text(missing)) == "The form is missing the game's version; reload the page."
    assert snapshot(game) == before


def test_a_program_from_someone_not_in_the_game_is_not_found(game, django_user_model):
    dave = make_user(django_user_model, "dave", display_name="Dave")
    before = snapshot(game)

    for htmx in (True, False):
        response = post_program(
            client_for(dave), game, program((1, "harvest", 1)), game.version, htmx=htmx
        )
        assert response.status_code == 404
    assert snapshot(game) == before


def test_an_anonymous_program_is_sent_to_log_in(game, client):
    before = snapshot(game)

    response = post_program(client, game, program((1, "harvest", 1)), game.version)

    assert response.status_code == 302
    assert response.url.startswith(reverse(settings.LOGIN_URL))
    assert snapshot(game) == before


def test_a_program_for_a_game_that_does_not_exist_is_not_found(alice_client, game):
    response = alice_client.post(
        reverse("game_move", args=[game.pk + 1000]),
        form_fields(program((1, "harvest", 1)), 1),
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 404
