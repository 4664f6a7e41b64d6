"""Malformed input found by an attacker's probing: each one is a 4xx with a sentence, never a
500, and changes nothing (issue 13, point 3)."""

from __future__ import annotations

import pytest
from django.core.exceptions import BadRequest
from django.test import Client
from django.urls import reverse

from games.actions import tables
from games.models import ChatMessage, Invitation, Kind, Move, Report, Seat
from tests.support.games import client_for, seat_to_act, start_geared
from tests.support.pages import text

pytestmark = pytest.mark.django_db

NUL = "This request contains a NUL character"


@pytest.fixture
def game(alice, bob):
    return start_geared([alice, bob], target=1000)


@pytest.fixture
def table(alice):
    return tables.create_game(alice, tables.NewGame(kind=Kind.OUTOFGEARS, seat_count=3))


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
    from games.actions import moderation

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


# --- bodies Django cannot parse (issue 22, point 1) ----------------------------------------------

CSRF = "a" * 32  # a well-formed CSRF secret: the CSRF check then reads the form


def csrf_client(user=None) -> Client:
    """A browser as an attacker drives it: the CSRF check is on, and a csrftoken cookie is set
    (without one the check refuses before it reads the form)."""
    client = Client(enforce_csrf_checks=True, raise_request_exception=False)
    client.cookies["csrftoken"] = CSRF
    if user is not None:
        client.force_login(user)
    return client


# "nonsense": Django reads a charset it does not know as UTF-8 (a fuzzed leave with a body in
# one left its table); the site refuses it as it refuses one it knows.
@pytest.mark.parametrize(
    "charset", ["latin-1", "utf-16", "ascii", "cp1252", "iso-8859-15", "nonsense", "x-unknown"]
)
@pytest.mark.parametrize("url", ["/lobby/", "/games/import/", "/", "/accounts/login/"])
def test_a_form_in_another_charset_is_400_with_a_sentence_anywhere(url, charset, carol):
    before = counts()
    for client in (csrf_client(), csrf_client(carol)):
        response = client.generic(
            "POST",
            url,
            f"csrfmiddlewaretoken={CSRF}&record=x".encode(),
            content_type=f"application/x-www-form-urlencoded; charset={charset}",
        )
        assert response.status_code == 400, (url, charset, response.status_code)
        assert "send a form encoded in UTF-8" in text(response)
    assert counts() == before


@pytest.mark.parametrize(
    "content_type",
    ["multipart/form-data", "multipart/form-data; boundary=", "multipart/form-data; boundary=\x7f"],
)
def test_a_multipart_body_without_a_boundary_is_400_with_a_sentence(content_type, carol):
    response = csrf_client(carol).generic(
        "POST", "/games/import/", b"--x\r\n\r\n", content_type=content_type
    )
    assert response.status_code == 400
    assert "send a form encoded in UTF-8" in text(response)


def test_a_nul_in_a_multipart_field_name_is_400(carol):
    body = (
        f'--b\r\nContent-Disposition: form-data; name="csrfmiddlewaretoken"\r\n\r\n{CSRF}\r\n'
        '--b\r\nContent-Disposition: form-data; name="rec\x00ord"\r\n\r\n{}\r\n--b--\r\n'
    ).encode()
    response = csrf_client(carol).generic(
        "POST", "/games/import/", body, content_type="multipart/form-data; boundary=b"
    )
    assert response.status_code == 400
    assert NUL in text(response)


def test_the_400_page_never_fails_itself(rf, monkeypatch):
    from config import errors

    request = rf.post(
        "/lobby/", b"a=b", content_type="application/x-www-form-urlencoded; charset=latin-1"
    )
    request.COOKIES["csrftoken"] = CSRF
    response = errors.bad_request(request, BadRequest("x"))  # Django's own raised here
    assert response.status_code == 400 and "malformed" in text(response)

    def broken(*args, **kwargs):
        raise RuntimeError("the template failed")

    monkeypatch.setattr(errors, "render", broken)
    response = errors.bad_request(request, BadRequest("x"))
    assert response.status_code == 400 and "malformed" in text(response)
