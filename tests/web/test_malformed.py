"""Malformed input found by an attacker's probing: each one is a 4xx with a sentence, never a
500, and changes nothing (issue 13, point 3)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import services
from games.models import ChatMessage, Invitation, Kind, Move, Report, Seat
from tests.web.helpers import client_for, seat_to_act, start_geared, text

pytestmark = pytest.mark.django_db

NUL = "This request contains a NUL character"


@pytest.fixture
def game(alice, bob):
    return start_geared([alice, bob], target=1000)


@pytest.fixture
def table(alice):
    return services.create_game(alice, services.NewGame(kind=Kind.OUTOFGEARS, seat_count=3))


def counts() -> tuple[int, ...]:
    return tuple(m.objects.count() for m in (Move, Seat, Invitation, ChatMessage, Report))


def test_a_deeply_nested_action_is_not_an_action(game):
    seat = seat_to_act(game)
    before = counts()
    action = "[" * 10000 + "]" * 10000  # under the 64 kB body limit, form-encoded
    response = client_for(seat.user).post(
        reverse("game_move", args=[game.pk]),
        {"action": action, "version": game.version},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 400
    assert "That is not an action." in text(response)
    assert counts() == before


@pytest.mark.parametrize(
    "url",
    [
        "/games/{game}/?token=%00",
        "/games/{game}/poll/?v=1&t=%00",
        "/games/{game}/fragment/?pick=%00",
        "/invitations/ab%00cd/",
        "/accounts/unsubscribe/ab%00cd/",
    ],
)
def test_a_nul_in_a_query_string_or_url_token_is_400(game, url):
    before = counts()
    response = client_for(game.seats.first().user).get(url.format(game=game.pk))
    assert response.status_code == 400
    assert NUL in text(response)
    assert counts() == before


def test_a_nul_in_an_invitation_is_400_and_invites_nobody(table, alice):
    response = client_for(alice).post(
        reverse("game_invite", args=[table.pk]), {"who": "bob\x00@example.com"}
    )
    assert response.status_code == 400
    assert NUL in text(response)
    assert not Invitation.objects.exists()


def test_a_nul_in_a_report_reason_is_400_and_reports_nothing(game, alice, bob):
    from games import moderation

    message = moderation.post_chat(bob, game.pk, "hello")
    response = client_for(alice).post(
        reverse("chat_report", args=[game.pk, message.pk]), {"reason": "spam\x00"}
    )
    assert response.status_code == 400
    assert NUL in text(response)
    assert not Report.objects.exists()


def test_a_non_ascii_join_token_is_not_found_not_a_crash(table, carol):
    before = counts()
    response = client_for(carol).post(reverse("game_join", args=[table.pk]), {"token": "jéton"})
    assert response.status_code == 404
    assert counts() == before


@pytest.mark.parametrize("robot", ["²", "red", "-1", "1.5"])
def test_a_robot_that_is_not_a_number_is_400_with_a_sentence(table, carol, robot):
    before = counts()
    response = client_for(carol).post(
        reverse("game_join", args=[table.pk]), {"token": table.join_token, "robot": robot}
    )
    assert response.status_code == 400
    assert "Robots are numbered 1 to 8." in text(response)
    assert counts() == before


@pytest.mark.parametrize("param", ["pick", "card", "target", "move"])
def test_a_card_id_of_five_thousand_digits_is_ignored_not_a_crash(game, param):
    # Found by the fuzz test: int() refuses a string of over 4,300 digits with a ValueError.
    seat = game.seats.select_related("user").filter(user__isnull=False).first()
    client = client_for(seat.user)
    for url in (game.get_absolute_url(), reverse("game_fragment", args=[game.pk])):
        response = client.get(url, {param: "9" * 5000})
        assert response.status_code == 200
