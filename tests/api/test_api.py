"""Issue 28.1: the API is another door to the same rooms — the game as the seat sees it (the
page's view), its legal actions, a move through the one write path with the same refusals as
JSON, the log and the chat; every endpoint's scope; no session, no CSRF; a fixed query count."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from games import engines
from games.actions import moves
from games.api.calls import api
from games.engines.outofgears import engine as oog_engine
from games.models import ChatMessage, Game, Move
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
from tests.support.games import advance, client_for, start_geared, start_oog
from tests.support.users import make_user
from tests.views.outofgears.helpers import program

pytestmark = pytest.mark.django_db


def _schema_calls():
    """Every (method, path) of the API's own schema."""
    paths = api.get_openapi_schema(path_prefix=API)["paths"]
    return [(m.upper(), p) for p, methods in paths.items() for m in methods]


def test_28_1_a_game_read_and_played_through_the_api(alice, bob):
    game = start_geared([alice, bob], target=1000)
    clients = {u.pk: api_client(token_for(u)) for u in (alice, bob)}
    mover = api_mover(game, [alice, bob])
    other = bob if mover == alice else alice
    mine = clients[mover.pk].get(f"{API}/games").json()
    assert [(g["id"], g["your_turn"]) for g in mine] == [(game.pk, True)]
    assert clients[other.pk].get(f"{API}/games").json()[0]["your_turn"] is False
    answer = clients[mover.pk].get(f"{API}/games/{game.pk}")
    assert answer["Cache-Control"] == "private, no-store"
    assert "Set-Cookie" not in answer  # no session, no CSRF cookie
    seen = answer.json()
    eng = engines.engine(game.kind)
    # The page's view for that seat, nothing more and nothing less.
    assert seen["view"] == json.loads(json.dumps(eng.view(game.state, api_seat(game, mover))))
    assert seen["seat"] == api_seat(game, mover) and seen["your_turn"] is True
    version, action = api_greedy(clients[mover.pk], game.pk)
    answer = post_action(clients[mover.pk], game.pk, version, action)
    assert answer.status_code == 200, answer.content
    game.refresh_from_db()
    assert answer.json()["version"] == game.version > version
    assert Move.objects.filter(game=game).count() == 1
    log = clients[other.pk].get(f"{API}/games/{game.pk}/log").json()
    assert log["lines"] is None and log["turns"][0]["turn"] == 1 and log["turns"][0]["lines"]


def test_28_1_refusals_as_json_with_their_status_and_nothing_changed(alice, bob, carol):
    game = start_geared([alice, bob], target=1000)
    mover = api_mover(game, [alice, bob])
    other = bob if mover == alice else alice
    you, them = api_client(token_for(mover)), api_client(token_for(other))
    version, action = api_greedy(you, game.pk)
    url = f"{API}/games/{game.pk}/actions"
    cases = [
        (them, {"version": version, "action": action}, 409, "turn"),
        (you, {"version": version - 1, "action": action}, 409, "moved on"),
        (you, {"version": version, "action": {"type": "nonsense"}}, 400, ""),
        (you, {"version": version}, 400, "action"),
        (you, {"version": "x", "action": action}, 400, "version"),
        (you, {"version": version, "action": [1]}, 400, "action"),
        (api_client(token_for(carol)), {"version": version, "action": action}, 404, "no such"),
    ]
    for client, body, status, words in cases:
        answer = client.post(url, body, content_type="application/json")
        assert answer.status_code == status, (body, answer.content)
        assert words in answer.json()["detail"], answer.json()
    for raw, status in (("{", 400), ("[" * 60_000, 400), ("null", 400), ("[" * 70_000, 413)):
        answer = you.post(url, raw, content_type="application/json")
        assert answer.status_code == status, raw[:5]
        assert isinstance(answer.json()["detail"], str)
    assert (
        you.post(
            f"{API}/games/999999999/actions",
            {"version": 1, "action": action},
            content_type="application/json",
        ).status_code
        == 404
    )
    assert you.get(f"{API}/games/99999999999999999999").status_code == 400  # out of range
    game.refresh_from_db()
    assert (game.version, Move.objects.filter(game=game).count()) == (version, 0)
    # Carol sees none of this private game.
    for _method, path in _schema_calls():
        if "{game_id}" in path and _method == "GET":
            carol_api = api_client(token_for(carol))
            assert carol_api.get(path.replace("{game_id}", str(game.pk))).status_code == 404


def test_28_3_every_endpoint_checks_its_scope_and_a_session_opens_none(alice, bob):
    game = start_geared([alice, bob], target=1000)
    read_only = api_client(token_for(alice, scopes=("read",)))
    play_only = api_client(token_for(alice, scopes=("play",)))
    browser = client_for(alice)  # logged in, no token
    calls = _schema_calls()
    assert len(calls) >= 8
    for method, path in calls:
        url = path.replace("{game_id}", str(game.pk))
        lacking = play_only if method == "GET" else read_only
        body = {"version": game.version, "action": {}, "text": "hi"}
        send = getattr(lacking, method.lower())
        answer = send(url, body, content_type="application/json") if method == "POST" else send(url)
        assert answer.status_code == 403, (method, path)
        assert "scope" in answer.json()["detail"]
        sent = getattr(browser, method.lower())
        answer = sent(url, body, content_type="application/json") if method == "POST" else sent(url)
        assert answer.status_code == 401, (method, path)
    game.refresh_from_db()
    assert Move.objects.filter(game=game).count() == 0
    assert not ChatMessage.objects.exists()


def test_28_1_chat_read_and_post_under_the_pages_rules(alice, bob, carol):
    game = start_geared([alice, bob], target=1000, public=True)
    alice_api, carol_api = api_client(token_for(alice)), api_client(token_for(carol))
    url = f"{API}/games/{game.pk}/chat"
    said = alice_api.post(url, {"text": "  good luck  "}, content_type="application/json")
    assert said.status_code == 201 and said.json()["text"] == "good luck"
    assert alice_api.post(url, {"text": ""}, content_type="application/json").status_code == 400
    too_long = alice_api.post(url, {"text": "x" * 501}, content_type="application/json")
    assert too_long.status_code == 400
    # A spectator of a public game reads the chat, and cannot write in it.
    assert [m["text"] for m in carol_api.get(url).json()] == ["good luck"]
    assert carol_api.post(url, {"text": "hi"}, content_type="application/json").status_code == 404
    for n in range(10):
        answer = alice_api.post(url, {"text": f"m{n}"}, content_type="application/json")
        if answer.status_code == 429:
            assert int(answer["Retry-After"]) > 0
            break
    else:
        pytest.fail("the chat's rate was not applied")
    ChatMessage.objects.filter(text="good luck").update(hidden=True)
    first = carol_api.get(url).json()[0]
    assert (first["text"], first["hidden"]) == ("", True)


def test_28_1_get_game_has_a_fixed_query_count(alice, bob, django_assert_num_queries):
    game = start_geared([alice, bob], target=1000, public=True)
    carol = make_user(alice.__class__, "carol")
    clients = [api_client(token_for(u)) for u in (alice, carol)]
    for client in clients:
        client.get(f"{API}/games/{game.pk}")  # "last used" written once
    for _ in range(2):
        for client in clients:
            with django_assert_num_queries(2):  # the token with its user; the game with its seats
                assert client.get(f"{API}/games/{game.pk}").status_code == 200
        for _ in range(6):
            mover = api_mover(game, [alice, bob])
            moves.submit_action(
                mover, game.pk, game.version, api_greedy(api_client(token_for(mover)), game.pk)[1]
            )
            game.refresh_from_db()


# --- hidden information -------------------------------------------------------------------------


def _every_answer(client: Client, game_id: int) -> dict[str, str]:
    return {
        path: client.get(path).content.decode()
        for path in (
            f"{API}/me",
            f"{API}/games",
            f"{API}/games/{game_id}",
            f"{API}/games/{game_id}/legal",
            f"{API}/games/{game_id}/log",
            f"{API}/games/{game_id}/chat",
        )
    }


def test_28_1_no_api_answer_of_a_played_out_game_shows_what_is_hidden(alice, bob, carol):
    """A Geared game played to its end through the API: every answer to every seat and to a
    spectator, every few moves and at the end, names no card of another hand or of the draw
    pile, not the draw order, not the seed."""
    game = start_geared([alice, bob], target=300, public=True)
    clients = {u.pk: api_client(token_for(u)) for u in (alice, bob, carol)}
    viewers = [(alice, api_seat(game, alice)), (bob, api_seat(game, bob)), (carol, None)]
    for step in range(400):
        game.refresh_from_db()
        if step % 7 == 0 or not game.is_active:
            for user, me in viewers:
                for path, text in _every_answer(clients[user.pk], game.pk).items():
                    assert_api_hides(text, game, me, f"{user} {path} step {step}")
        if not game.is_active:
            break
        mover = api_mover(game, [alice, bob])
        version, action = api_greedy(clients[mover.pk], game.pk, step)
        answer = post_action(clients[mover.pk], game.pk, version, action)
        assert answer.status_code == 200, answer.content
        game.refresh_from_db()
        assert_api_hides(answer.content.decode(), game, api_seat(game, mover), f"move {step}")
    assert game.status == "finished"


def test_28_1_an_unrevealed_program_stays_hidden_from_the_api(alice, bob, carol):
    game = start_oog([alice, bob], robots=[(1,), (4,)], public=True)
    alice_api = api_client(token_for(alice))
    plan = program((1, "trap", 4))
    answer = post_action(alice_api, game.pk, game.version, plan)
    assert answer.status_code == 200, answer.content
    assert (
        answer.json()["view"]["my_program"]
        == oog_engine.view(Game.objects.get(pk=game.pk).state, api_seat(game, alice))["my_program"]
    )
    game.refresh_from_db()
    for user, me in ((bob, api_seat(game, bob)), (carol, None)):
        for path, text in _every_answer(api_client(token_for(user)), game.pk).items():
            assert_api_hides(text, game, me, f"{user} {path}")
            if not path.endswith("/legal"):  # bob's own choices name traps too
                assert "trap" not in text.lower(), path


def test_28_1_the_lobby_through_the_api(alice, bob, carol):
    """Open a table, find it in the lobby, join, start, invite and resign: the lobby's form and
    the table's write path, with their refusals."""
    host, guest = api_client(token_for(alice)), api_client(token_for(bob))
    made = host.post(
        f"{API}/games",
        {"kind": "geared", "seat_count": 3, "bots": 1, "public": True},
        content_type="application/json",
    )
    assert made.status_code == 201, made.content
    table = made.json()["id"]
    assert made.json()["status"] == "open" and made.json()["view"] is None
    refused = host.post(
        f"{API}/games", {"kind": "chess", "seat_count": 2}, content_type="application/json"
    )
    assert refused.status_code == 400 and refused.json()["detail"]
    listed = guest.get(f"{API}/lobby").json()
    assert [(t["id"], t["players"], t["host"]) for t in listed] == [
        (table, 2, "Alice")
    ]  # and a bot
    invited = host.post(
        f"{API}/games/{table}/invite", {"who": "carol"}, content_type="application/json"
    )
    assert invited.status_code == 201, invited.content
    joined = guest.post(f"{API}/games/{table}/join", {}, content_type="application/json")
    assert joined.status_code == 200, joined.content
    assert guest.post(f"{API}/games/{table}/start").status_code in (403, 404)
    started = host.post(f"{API}/games/{table}/start")
    assert started.status_code == 200, started.content
    assert started.json()["status"] == "active" and started.json()["view"]["you"]
    late = api_client(token_for(carol)).post(
        f"{API}/games/{table}/join", {}, content_type="application/json"
    )
    assert late.status_code == 409 and "started" in late.json()["detail"]
    before = Game.objects.get(pk=table).version
    resigned = guest.post(f"{API}/games/{table}/resign")
    assert resigned.status_code == 200, resigned.content
    assert resigned.json()["seat"] is None  # a bot plays the seat; bob reads as a spectator
    assert Game.objects.get(pk=table).version > before


def test_28_1_leaving_an_open_table_through_the_api(alice, bob, carol):
    """The table's "Leave" button: a guest's seat is free again, the host's leaving closes the
    table, and a game in play is refused (resign instead), changing nothing."""
    host, guest = api_client(token_for(alice)), api_client(token_for(bob))
    table = host.post(
        f"{API}/games",
        {"kind": "geared", "seat_count": 3, "public": True},
        content_type="application/json",
    ).json()["id"]
    joined = guest.post(f"{API}/games/{table}/join", {}, content_type="application/json")
    assert joined.status_code == 200, joined.content
    left = guest.post(f"{API}/games/{table}/leave")
    assert left.status_code == 200 and left.json()["detail"] == "You left the table."
    assert not Game.objects.get(pk=table).seats.filter(user=bob).exists()
    again = guest.post(f"{API}/games/{table}/leave")
    assert again.status_code == 404, again.content
    closed = host.post(f"{API}/games/{table}/leave")
    assert closed.status_code == 200
    assert Game.objects.get(pk=table).status == "aborted"
    assert guest.get(f"{API}/lobby").json() == []

    game = start_geared([alice, carol], target=1000)
    version = game.version
    refused = api_client(token_for(carol)).post(f"{API}/games/{game.pk}/leave")
    assert refused.status_code == 409 and "resign" in refused.json()["detail"]
    game.refresh_from_db()
    assert game.version == version and game.seats.filter(user=carol).exists()


def test_28_1_a_rematch_through_the_api(alice, bob):
    """The end screen's "Rematch" by the API: refused before the end; after it, the first call
    opens the same table with the other player invited, the other's call accepts, and the
    rematch starts by itself."""
    game = start_geared([alice, bob], target=300)
    first, second = api_client(token_for(alice)), api_client(token_for(bob))
    early = first.post(f"{API}/games/{game.pk}/rematch")
    assert early.status_code == 409 and "finished" in early.json()["detail"]
    assert advance(game, 900).status == "finished"
    offered = first.post(f"{API}/games/{game.pk}/rematch")
    assert offered.status_code == 200, offered.content
    rematch = offered.json()
    assert rematch["id"] != game.pk and rematch["status"] == "open"
    assert Game.objects.get(pk=rematch["id"]).rematch_of_id == game.pk
    assert [i["game"]["id"] for i in second.get(f"{API}/invitations").json()] == [rematch["id"]]
    accepted = second.post(f"{API}/games/{game.pk}/rematch")
    assert accepted.status_code == 200, accepted.content
    assert accepted.json()["id"] == rematch["id"] and accepted.json()["status"] == "active"
    assert Game.objects.filter(rematch_of=game).count() == 1


def test_37_5_the_api_answers_in_english_whatever_its_callers_language(alice, bob):
    """docs/api.md, "In English, always": an Italian player's token, asking in Italian, gets
    the same English refusal as anyone (the page would be Italian)."""
    game = start_geared([alice, bob], target=1000)
    mover = api_mover(game, [alice, bob])
    other = bob if mover == alice else alice
    type(other).objects.filter(pk=other.pk).update(language="it")
    them = api_client(token_for(other))
    version, action = api_greedy(api_client(token_for(mover)), game.pk)
    answer = them.post(
        f"{API}/games/{game.pk}/actions",
        {"version": version, "action": action},
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="it-IT,it;q=0.9",
    )
    assert answer.status_code == 409
    assert answer["Content-Language"] == "en"
    assert "turn" in answer.json()["detail"]
    read = them.get(f"{API}/games/{game.pk}", HTTP_ACCEPT_LANGUAGE="it")
    assert read.status_code == 200 and read["Content-Language"] == "en"
