"""Issue 34.7 and 34.8 at the stream process's doors: a stranger cannot tell a private game
from a missing one there either, and a visitor's stream opened by the table's link ends at once
when the game starts and its link no longer opens it (access.game_reader, the live check's
own function, with the `access` event the start sends)."""

from __future__ import annotations

import pytest
from django.test import Client

from games.actions import tables
from tests.support.api import token_for
from tests.support.games import client_for, start_geared
from tests.support.pages import page_key
from tests.support.streams import PROMPTLY, cookie, is_revoked, stream_path

pytestmark = pytest.mark.django_db(transaction=True)


def test_34_7_and_8_the_stream_doors(stream_process, alice, bob, carol):
    game = start_geared([alice, bob], target=1000)
    missing = game.pk + 100_000
    carol_client = client_for(carol)

    def answer(path: str, headers: dict) -> tuple[int, bytes]:
        stream = stream_process.open(path, headers)
        found = stream.status, stream.body()
        stream.close()
        return found

    bearer = {"Authorization": f"Bearer {token_for(carol)}"}
    for headers in ({}, cookie(carol_client)):
        for query in ("", f"?t={game.join_token[:-1]}x", "?k=forged"):
            private = answer(f"/events/game/{game.pk}/{query}", headers)
            assert private[0] == 404
            assert private == answer(f"/events/game/{missing}/{query}", headers)
    api = answer(f"/api/v1/games/{game.pk}/stream", bearer)
    assert api[0] == 404 and api == answer(f"/api/v1/games/{missing}/stream", bearer)

    # 34.8: a visitor by the link of a table not watchable by it, its stream open by the key.
    spec = tables.NewGame(kind="geared", seat_count=2, watchable_by_link=False, target=1000)
    table = tables.create_game(alice, spec)
    visitor = Client()
    page = visitor.get(f"/games/{table.pk}/", {"token": table.join_token})
    key = page.content.decode().split('data-poll-key="', 1)[1].split('"', 1)[0]
    stream = stream_process.open(stream_path(table, k=key, t=table.join_token))
    assert stream.status == 200
    stream.event_where(lambda e: e.get("data", {}).get("kind") == "game")
    tables.join_game(bob, table.pk, token=table.join_token)
    tables.start_game(alice, table.pk)
    assert stream.event_where(is_revoked, PROMPTLY)["data"] == {"kind": "revoked"}
    assert stream.next_event(PROMPTLY).get("end")
    # A player's stream of it goes on.
    bob_stream = stream_process.open(stream_path(table, k=page_key(client_for(bob), table)))
    assert bob_stream.status == 200
    bob_stream.close()
