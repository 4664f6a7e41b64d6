"""Issue 34.7: a stranger cannot tell a private game from a missing one. For someone who may
not read a game (access.may_read), every door answers a private game's id exactly as it answers
an id that was never used: the same status and the same bytes (the id itself, which the asker
typed, aside; and the CSRF token, which differs on every page). The stream process's doors
are checked in tests/live/test_rights.py."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from games.actions import tables
from games.models import ChatMessage, Game, Status
from tests.support.api import api_client, token_for
from tests.support.games import client_for, start_geared

pytestmark = pytest.mark.django_db

# Every door of the pages that names a game, as (method, path after /games/<id>/, data).
PAGE_DOORS = [
    ("get", "", {}),
    ("get", "fragment/", {}),
    ("get", "log/", {}),
    ("get", "poll/?v=0", {}),
    ("get", "poll/?v=0&c=0", {}),
    ("get", "replay/", {}),
    ("get", "replay/?step=1", {}),
    ("get", "record.json", {}),
    ("get", "chat/", {}),
    ("post", "join/", {}),
    ("post", "leave/", {}),
    ("post", "start/", {}),
    ("post", "invite/", {"who": "bob"}),
    ("post", "resign/", {}),
    ("post", "rematch/", {}),
    ("post", "move/", {"action": "{}", "version": "1"}),
    ("post", "move/", {"action": "not json", "version": "1"}),
    ("post", "chat/", {"text": "hello"}),
    ("post", "notes/", {"text": "a note"}),
    ("post", "chat/{message}/report/", {"reason": "rude"}),
]

API_DOORS = [
    ("get", "", None),
    ("get", "legal", None),
    ("get", "log", None),
    ("get", "chat", None),
    ("post", "actions", {"version": 1, "action": {}}),
    ("post", "chat", {"text": "hello"}),
    ("post", "join", {}),
    ("post", "start", None),
    ("post", "resign", None),
    ("post", "leave", None),
    ("post", "rematch", None),
    ("post", "invite", {"who": "bob"}),
]


@pytest.fixture
def private_games(alice, bob) -> list[Game]:
    """alice's private games (bob plays them too): a table waiting for players, a game in
    play, one over; each with a chat message (the report's door)."""
    table = tables.create_game(alice, tables.NewGame(kind="geared", seat_count=3))
    tables.join_game(bob, table.pk, token=table.join_token)
    playing, over = (start_geared([alice, bob], target=1000) for _ in range(2))
    Game.objects.filter(pk__in=[playing.pk, over.pk]).update(watchable_by_link=False)
    Game.objects.filter(pk=over.pk).update(status=Status.FINISHED)
    games = [table, playing, over]
    for game in games:
        game.message = ChatMessage.objects.post(game, alice, "hi").pk
    return games


# Ids never used: one near the games' own, and (for the pages) past PostgreSQL's bigint (the
# path takes any digits; the API's refuses an id out of its range with a 400 whatever it is).
UNUSED = 100_000
PAST_BIGINT = 2**63


def _normalised(response, game_id: int) -> tuple[int, str, str]:
    """(status, body, Location) with the asked id written ID and the CSRF tokens blanked."""
    body = b"".join(response) if response.streaming else response.content
    text = body.decode("utf-8", "replace")
    where = response.get("Location", "")

    def blank(value: str) -> str:
        value = re.sub(rf"(games/|games%2F){game_id}(?!\d)", r"\1ID", value)
        value = re.sub(r'("csrfmiddlewaretoken" value=")[^"]+', r"\1-", value)
        return re.sub(r'("X-CSRFToken": ")[^"]+', r"\1-", value)

    return response.status_code, blank(text), blank(where)


def _same_answers(ask, games: list[Game], offsets=(UNUSED, PAST_BIGINT)) -> None:
    """`ask(game, game_id)`'s answer for each private game is the one for ids never used;
    and nothing of the games changed."""
    before = list(Game.objects.filter(pk__in=[g.pk for g in games]).order_by("pk").values())
    for game in games:
        private = _normalised(ask(game, game.pk), game.pk)
        for offset in offsets:
            missing = game.pk + offset
            assert private == _normalised(ask(game, missing), missing), (game.status, offset)
    assert list(Game.objects.filter(pk__in=[g.pk for g in games]).order_by("pk").values()) == (
        before
    )


@pytest.mark.parametrize(("method", "path", "data"), PAGE_DOORS, ids=lambda d: str(d))
def test_34_7_a_stranger_gets_the_same_answer_from_every_page_door(
    private_games, carol, method, path, data
):
    def asker(client: Client, headers: dict):
        def ask(game: Game, game_id: int):
            url = f"/games/{game_id}/" + path.format(message=game.message)
            call = getattr(client, method)
            return call(url, data, headers=headers) if data else call(url, headers=headers)

        return ask

    for client in (client_for(carol), Client()):  # a stranger logged in, a visitor
        for headers in ({}, {"HX-Request": "true"}):
            _same_answers(asker(client, headers), private_games)


@pytest.mark.parametrize(("method", "path", "body"), API_DOORS, ids=lambda d: str(d))
def test_34_7_a_strangers_token_gets_the_same_answer_from_every_api_door(
    private_games, carol, method, path, body
):
    api = api_client(token_for(carol))

    def ask(game: Game, game_id: int):
        url = f"/api/v1/games/{game_id}" + (f"/{path}" if path else "")
        if method == "get":
            return api.get(url)
        payload = json.dumps(body) if body is not None else ""
        return api.post(url, payload, content_type="application/json")

    _same_answers(ask, private_games, offsets=(UNUSED,))
