"""Issue 34.4: what the API takes as a body is JSON in UTF-8 (config/middleware.py): a lone
surrogate was a 500 wherever it reached PostgreSQL, and any multipart body a 500 (the body read
as a form, gone for the API); now a 400 or 415 with a sentence in the API's shape, and nothing
changes."""

from __future__ import annotations

import pytest

from games.models import ChatMessage, Game
from tests.support.api import API, api_client, token_for
from tests.support.games import start_geared

pytestmark = pytest.mark.django_db

MULTIPART = b'--b\r\nContent-Disposition: form-data; name="text"\r\n\r\nhello\r\n--b--\r\n'


def _refusal(response, status: int, words: str) -> None:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    assert words in response.json()["detail"]


def test_34_4_a_lone_surrogate_is_a_400_and_a_pair_is_a_character(alice, bob):
    game = start_geared([alice, bob], target=1000)
    client = api_client(token_for(alice))
    chat = f"{API}/games/{game.pk}/chat"
    for body in (b'{"text": "\\ud800"}', b'{"text": "a\\udfffb"}', b'{"text": "\xed\xa0\x80"}'):
        response = client.generic("POST", chat, body, content_type="application/json")
        _refusal(response, 400, "UTF-8" if b"\xed" in body else "lone surrogate")
    assert not ChatMessage.objects.exists()
    said = client.generic(
        "POST", chat, b'{"text": "gg \\ud83d\\ude00"}', content_type="application/json"
    )
    assert said.status_code == 201 and said.json()["text"] == "gg \U0001f600"


@pytest.mark.parametrize(
    "content_type",
    [
        "multipart/form-data; boundary=b",
        "application/x-www-form-urlencoded",
        "text/plain",
        "application/json; charset=latin-1",
    ],
)
def test_34_4_a_body_other_than_json_is_a_415_on_every_post(alice, bob, content_type):
    game = start_geared([alice, bob], target=1000)
    client = api_client(token_for(alice))
    before = (Game.objects.count(), game.version)
    body = MULTIPART if content_type.startswith("multipart") else b'{"text": "hello"}'
    for tail in ("chat", "actions", "join", "start", "resign", "leave", "rematch", "invite"):
        response = client.generic(
            "POST", f"{API}/games/{game.pk}/{tail}", body, content_type=content_type
        )
        _refusal(response, 415, "application/json")
    _refusal(client.generic("POST", f"{API}/games", body, content_type=content_type), 415, "JSON")
    game.refresh_from_db()
    assert (Game.objects.count(), game.version) == before
    assert not ChatMessage.objects.exists()


def test_34_4_huge_and_nul_laden_bodies_are_refused_in_the_apis_shape(alice, bob):
    game = start_geared([alice, bob], target=1000)
    client = api_client(token_for(alice))
    chat = f"{API}/games/{game.pk}/chat"
    huge = b'{"text": "a"}' + b" " * 70_000
    _refusal(client.generic("POST", chat, huge, content_type="application/json"), 413, "large")
    nul = b'{"text": "a\\u0000b"}'
    _refusal(client.generic("POST", chat, nul, content_type="application/json"), 400, "NUL")
    deep = b"[" * 60_000
    _refusal(client.generic("POST", chat, deep, content_type="application/json"), 400, "JSON")
    # An empty body is a call without one, whatever it says it is (join, start, resign ...).
    empty = client.generic("POST", chat, b"", content_type="multipart/form-data; boundary=b")
    _refusal(empty, 400, "Bad input")
    assert not ChatMessage.objects.exists()


@pytest.mark.parametrize(
    "authorization", [None, "", "Bearer", "Bearer ", "Bearer   ", "Basic eA=="]
)
def test_a_call_without_a_token_is_a_401_whatever_its_body(alice, bob, authorization):
    """No bearer token (no header, an empty one, a bare scheme, another scheme) is a visitor:
    answered 401 before its body is read, a NUL or another type in it or not."""
    game = start_geared([alice, bob], target=1000)
    headers = {} if authorization is None else {"HTTP_AUTHORIZATION": authorization}
    client = api_client(None)
    for body, content_type in ((b'{"who": "\\u0000"}', "application/json"), (MULTIPART, "x/y")):
        response = client.generic(
            "POST", f"{API}/games/{game.pk}/chat", body, content_type=content_type, **headers
        )
        assert response.status_code == 401, (authorization, body, response.content)
    assert not ChatMessage.objects.exists()
