"""Issue 28.2: the API's NDJSON streams (games/api/streams.py) against a real stream process and
the test's PostgreSQL: an account stream and a game stream through a played game, what they
refuse, and a token revoked or expired ending an open one."""

from __future__ import annotations

import copy
import json
from types import SimpleNamespace

import pytest
from django.utils import timezone

from accounts import tokens
from accounts.models import ApiToken
from games import engines
from tests.support.api import (
    API,
    api_client,
    api_greedy,
    api_mover,
    api_seat,
    assert_api_hides,
    post_action,
    token_for,
)
from tests.support.games import client_for, start_geared, start_oog
from tests.views.outofgears.helpers import program

pytestmark = pytest.mark.django_db(transaction=True)

END = {"end": True}


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def until_version(stream, version: int, seen: list) -> dict:
    """The game stream's lines up to the one showing `version` (each kept in `seen`)."""
    while True:
        line = stream.next_line()
        assert line != END, f"the stream ended first: {stream.raw[-300:]!r}"
        seen.append(line)
        if line["version"] >= version:
            assert line["version"] == version, (line["version"], version)
            return line


def test_28_2_a_played_game_on_the_account_and_game_streams(stream_process, alice, bob):
    """The first lines (a yourTurn for the player to act; the game as GET /games/{id} answers
    it), then each move: a line on both players' game streams and a yourTurn for the next
    player on their account stream; at the game's end a gameOver, and the game streams end
    after the line that shows it. Every game line is exactly the engine's view for that seat
    at that version, and names nothing hidden (another's hand, the draw pile, the seed)."""
    game = start_geared([alice, bob], target=300)
    users = [alice, bob]
    token = {u.pk: token_for(u) for u in users}
    api = {u.pk: api_client(token[u.pk]) for u in users}
    states = {game.version: copy.deepcopy(game.state)}  # each version's state, for the scan

    account = {
        u.pk: stream_process.open(f"{API}/stream/account", bearer(token[u.pk])) for u in users
    }
    games = {
        u.pk: stream_process.open(f"{API}/games/{game.pk}/stream", bearer(token[u.pk]))
        for u in users
    }
    for stream in (*account.values(), *games.values()):
        assert stream.status == 200, stream.raw
        assert stream.headers["content-type"] == "application/x-ndjson"
        assert stream.headers["cache-control"] == "private, no-store"
        assert stream.headers["x-accel-buffering"] == "no"
        assert "set-cookie" not in stream.headers
    mover = api_mover(game, users)
    assert account[mover.pk].next_line() == {
        "type": "yourTurn",
        "game": {"id": game.pk, "kind": "geared", "version": game.version},
    }
    seen = {u.pk: [] for u in users}
    for user in users:
        first = until_version(games[user.pk], game.version, seen[user.pk])
        answer = api[user.pk].get(f"{API}/games/{game.pk}").json()
        assert first == {"type": "game", **answer}  # the same function builds both

    moves = 0
    while game.is_active:
        mover = api_mover(game, users)
        version, action = api_greedy(api[mover.pk], game.pk, moves)
        answer = post_action(api[mover.pk], game.pk, version, action)
        assert answer.status_code == 200, answer.content
        moves += 1
        game.refresh_from_db()
        states[game.version] = copy.deepcopy(game.state)
        for user in users:
            until_version(games[user.pk], game.version, seen[user.pk])
        if game.is_active:
            nxt = api_mover(game, users)
            assert account[nxt.pk].line_where(lambda line: line["type"] == "yourTurn") == {
                "type": "yourTurn",
                "game": {"id": game.pk, "kind": "geared", "version": game.version},
            }
        assert moves < 200
    assert game.status == "finished"

    eng = engines.engine(game.kind)
    for user in users:
        assert games[user.pk].next_line() == END  # after the line that shows the game over
        assert seen[user.pk][-1]["status"] == "finished" and seen[user.pk][-1]["result"]
        me = api_seat(game, user)
        versions = [line["version"] for line in seen[user.pk]]
        assert versions == sorted(set(versions)), versions
        for line in seen[user.pk]:
            state = states[line["version"]]
            assert line["view"] == json.loads(json.dumps(eng.view(state, me)))
            at = SimpleNamespace(kind=game.kind, seed=game.seed, state=state)
            assert_api_hides(json.dumps(line), at, me, f"{user} v{line['version']}")
        gone = account[user.pk].line_where(lambda line: line["type"] != "yourTurn")
        assert gone == {"type": "gameOver", "game": {"id": game.pk, "kind": "geared"}}
    for stream in (*account.values(), *games.values()):
        assert b"seed" not in stream.raw and str(game.seed).encode() not in stream.raw
        stream.close()


@pytest.mark.stream_env(GEARTABLE_STREAMS_PER_USER="2")
def test_28_2_streams_refuse_and_end_with_their_token(stream_process, alice, bob, carol):
    """Only a bearer token with the scope read opens a stream (no token, a session cookie, a
    mistyped token: 401; a play-only token: 403); a private game not yours is not there
    (404); one user holds at most GEARTABLE_STREAMS_PER_USER streams (429); a program in
    progress stays hidden from the other seat's stream; the account stream says gameStart and
    invitation; and a token revoked, or made to expire, ends its open streams."""
    game = start_oog([alice, bob], robots=[(1,), (4,)])
    alice_token, bob_token = token_for(alice), token_for(bob)
    paths = [f"{API}/stream/account", f"{API}/games/{game.pk}/stream"]
    session = {"Cookie": f"sessionid={client_for(alice).cookies['sessionid'].value}"}
    play_only = token_for(alice, scopes=("play",))
    carol_token = token_for(carol)

    def refused(path: str, headers: dict) -> tuple[int, str, str]:
        stream = stream_process.open(path, headers)
        answer = stream.status, json.loads(stream.body())["detail"]
        stream.close()
        return *answer, stream.headers.get("www-authenticate", "")

    for path in paths:
        for headers in ({}, session, {"Authorization": alice_token}):  # not a Bearer: none
            assert refused(path, headers) == (401, tokens.MISSING, "Bearer"), headers
        assert refused(path, bearer(alice_token + "x"))[:2] == (401, tokens.NOT_VALID)
        assert refused(path, bearer(play_only))[:2] == (403, tokens.missing_scope("read"))
    for game_id in (game.pk, 987654):
        where = f"{API}/games/{game_id}/stream"
        assert refused(where, bearer(carol_token)) == (404, "There is no such game.", "")

    # Bob's streams: his game, his account; alice programs her robot: his line has no trace.
    bob_game = stream_process.open(paths[1], bearer(bob_token))
    first = bob_game.next_line()
    assert first["type"] == "game" and first["version"] == game.version
    bob_account = stream_process.open(paths[0], bearer(bob_token))
    assert bob_account.next_line() == {
        "type": "yourTurn",
        "game": {"id": game.pk, "kind": "outofgears", "version": game.version},
    }
    plan = program((1, "trap", 4))
    moved = post_action(api_client(alice_token), game.pk, game.version, plan)
    assert moved.status_code == 200, moved.content
    game.refresh_from_db()
    line = bob_game.next_line()
    assert line["version"] == game.version
    assert_api_hides(json.dumps(line), game, api_seat(game, bob), "bob's stream")
    assert "trap" not in json.dumps(line["view"]).lower()

    # A third stream of bob's is one too many (the pages' own streams count too).
    assert refused(paths[0], bearer(bob_token))[0] == 429

    # A new game of bob's, and an invitation to another table: on his account stream.
    host = api_client(alice_token)
    made = host.post(
        f"{API}/games",
        {"kind": "geared", "seat_count": 2, "bots": 1, "public": False},
        content_type="application/json",
    )
    assert made.status_code == 201, made.content
    table = made.json()["id"]
    invited = host.post(
        f"{API}/games/{table}/invite", {"who": "bob"}, content_type="application/json"
    )
    assert invited.status_code == 201, invited.content
    assert bob_account.line_where(lambda line: line["type"] == "invitation") == {
        "type": "invitation",
        "game": {"id": table, "kind": "geared"},
        "from": "alice",
    }
    started = start_geared([bob, carol], target=1000)
    assert bob_account.line_where(lambda line: line["type"] == "gameStart") == {
        "type": "gameStart",
        "game": {"id": started.pk, "kind": "geared"},
    }

    # Revoked: both of bob's streams end, at the revocation's event (no periodic recheck).
    row = ApiToken.objects.get(user=bob)
    assert tokens.revoke(bob, row.pk)
    for stream in (bob_game, bob_account):
        while (line := stream.next_line(20)) != END:
            assert line.get("type") in ("yourTurn", "invitation", "gameStart"), line
        stream.close()

    # Made to expire (in the admin, say): the same.
    carol_stream = stream_process.open(paths[0], bearer(carol_token))
    assert carol_stream.status == 200
    row = ApiToken.objects.get(key=carol_token.split("_")[1])
    row.expires = timezone.now()
    row.save()
    while (line := carol_stream.next_line(20)) != END:
        assert line["type"] == "yourTurn", line
    carol_stream.close()
