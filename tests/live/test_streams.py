"""The pages' event streams against a real stream process (uvicorn, config/stream_settings.py)
and the test's PostgreSQL: a change committed here reaches an open stream; a rollback sends
nothing; the stream says only what changed; it is authorized as the poll is (issue 25)."""

from __future__ import annotations

import json
import re
import socket
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection, transaction
from django.db.models import F

from games.actions import moderation, moves
from games.live import cache as live
from games.live import events
from games.models import Game
from tests.support.games import client_for, greedy_choice, seat_to_act, start_geared
from tests.support.pages import page_key
from tests.support.streams import (
    cookie,
    is_game_event,
    listening_backends,
    move_through_the_site,
    stream_path,
)
from tests.support.waiting import wait_for

pytestmark = pytest.mark.django_db(transaction=True)

ALLOWED_KEYS = {"game", "version", "chat", "kind", "your_turn"}


def test_a_move_reaches_the_other_players_open_stream(stream_process, alice, bob):
    game = start_geared([alice, bob], target=1000)
    bob_client = client_for(bob)
    key = page_key(bob_client, game)
    stream = stream_process.open(stream_path(game, k=key, v=game.version, c=game.chat_seq))
    assert stream.status == 200
    assert stream.headers["content-type"].startswith("text/event-stream")
    assert stream.headers["cache-control"] == "no-cache"
    assert stream.headers["x-accel-buffering"] == "no"
    first = stream.next_event()  # bob's count of games waiting for him, at once
    assert first["event"] == "turns"
    assert re.search(rb"\nretry: \d+\r?\n", stream.raw), stream.raw[:400]

    before = game.version
    game = move_through_the_site(game)
    event = stream.event_where(is_game_event(game.version))
    assert event["data"] == {
        "game": game.pk,
        "version": game.version,
        "chat": game.chat_seq,
        "kind": "game",
    }
    assert event["id"] == f"{game.version}.{game.chat_seq}"
    assert game.version > before
    stream.close()


def test_a_rollback_sends_nothing(stream_process, alice, bob):
    game = start_geared([alice, bob], target=1000)
    stream = stream_process.open(stream_path(game, k=page_key(client_for(bob), game)))
    stream.event_where(is_game_event(game.version))  # the state when it opened
    chat_before = game.chat_seq

    with pytest.raises(RuntimeError), transaction.atomic():
        moderation.post_chat(alice, game.pk, "never said")  # chat_seq + 1, then undone
        Game.objects.filter(pk=game.pk).update(version=F("version") + 5)
        live.forget_game(game.pk)
        raise RuntimeError("rolled back")

    # The next change that commits is the next thing the stream says: nothing came between.
    game = move_through_the_site(game)
    seen = []
    stream.event_where(lambda e: seen.append(e) or is_game_event(game.version)(e))
    game_events = [e["data"] for e in seen if e.get("data", {}).get("game")]
    assert game_events == [
        {"game": game.pk, "version": game.version, "chat": chat_before, "kind": "game"}
    ]
    stream.close()


def test_the_raw_stream_never_carries_a_hand_a_program_a_seed_or_a_card(stream_process, alice, bob):
    game = start_geared([alice, bob], target=1000)
    streams = [
        stream_process.open(stream_path(game, k=page_key(client_for(user), game)))
        for user in (alice, bob)
    ]
    for _ in range(4):
        game = move_through_the_site(game)
        if not game.is_active:
            break
    moderation.post_chat(alice, game.pk, "nice move")
    game.refresh_from_db()
    for stream in streams:
        stream.event_where(lambda e: e.get("data", {}).get("chat") == game.chat_seq)
        body = stream.raw.split(b"\r\n\r\n", 1)[1].decode()
        for word in ("hand", "program", "seed", "card", "deck", "state", "<", "nice move"):
            assert word not in body.lower(), body
        for data in re.findall(r"^data: (.*)$", body, re.M):
            fields = json.loads(data)
            assert set(fields) <= ALLOWED_KEYS, fields
            assert all(isinstance(v, int) or k == "kind" for k, v in fields.items()), fields
        stream.close()


def test_a_reconnect_recovers_what_it_missed_from_its_last_event_id(stream_process, alice, bob):
    game = start_geared([alice, bob], target=1000)
    key = page_key(client_for(bob), game)
    stream = stream_process.open(stream_path(game, k=key, v=game.version, c=game.chat_seq))
    game = move_through_the_site(game)
    last = stream.event_where(is_game_event(game.version))["id"]
    stream.close()
    game = move_through_the_site(game)  # while the page was away
    again = stream_process.open(stream_path(game, k=key, v=0), headers={"Last-Event-ID": last})
    assert again.event_where(lambda e: "version" in e.get("data", {}), 10)["data"]["version"] == (
        game.version
    )
    again.close()


def test_a_stranger_without_key_or_session_gets_nothing_of_a_private_game(
    stream_process, alice, bob, carol
):
    game = start_geared([alice, bob])
    assert stream_process.open(stream_path(game)).status == 404
    assert stream_process.open(stream_path(game), headers=cookie(client_for(carol))).status == 404
    assert stream_process.open(stream_path(game, k="forged")).status == 404
    alices_key = page_key(client_for(alice), game)
    other = start_geared([carol, bob])
    assert stream_process.open(stream_path(other, k=alices_key)).status == 404  # another game's
    assert stream_process.open("/events/me/").status == 403


def test_a_spectator_may_follow_a_public_game(stream_process, alice, bob):
    game = start_geared([alice, bob], public=True)
    stream = stream_process.open(stream_path(game))
    assert stream.status == 200
    assert stream.event_where(is_game_event(game.version))["data"]["game"] == game.pk
    stream.close()


def test_a_bad_key_falls_back_to_the_session(stream_process, alice, bob):
    game = start_geared([alice, bob], target=1000)
    stream = stream_process.open(stream_path(game, k="not-a-key"), headers=cookie(client_for(bob)))
    assert stream.status == 200
    game = move_through_the_site(game)
    stream.event_where(is_game_event(game.version))
    stream.close()


@pytest.mark.recheck(2)
def test_a_revoked_key_ends_the_stream(stream_process, alice, bob):
    game = start_geared([alice, bob], target=1000)
    stream = stream_process.open(stream_path(game, k=page_key(client_for(bob), game)))
    stream.event_where(is_game_event(game.version))
    bob.set_password("a-new-password-for-bob")
    bob.save()
    revoked = stream.event_where(lambda e: e.get("event") == "revoked", 15)
    assert revoked["data"] == {"kind": "revoked"}
    assert stream.next_event(10).get("end")


def test_the_site_frame_stream_follows_your_turn_count(stream_process, alice, bob):
    game = start_geared([alice, bob], target=1000)
    seat = seat_to_act(game)
    waiting = seat.user
    other = bob if waiting == alice else alice
    stream = stream_process.open("/events/me/", headers=cookie(client_for(other)))
    assert stream.status == 200
    assert stream.event_where(lambda e: e.get("event") == "turns")["data"]["your_turn"] == 0
    moves.submit_action(waiting, game.pk, game.version, greedy_choice(game, seat))
    event = stream.event_where(lambda e: e.get("event") == "turns")
    assert event["data"] == {"kind": "turns", "your_turn": 1}
    stream.close()


def test_a_page_from_another_origin_of_the_site_may_read_the_stream(stream_process, alice, bob):
    game = start_geared([alice, bob], public=True)
    ours = stream_process.open(stream_path(game), headers={"Origin": "http://testserver"})
    assert ours.headers["access-control-allow-origin"] == "http://testserver"
    theirs = stream_process.open(stream_path(game), headers={"Origin": "http://evil.example"})
    assert "access-control-allow-origin" not in theirs.headers
    ours.close()
    theirs.close()


def test_without_a_stream_url_no_event_is_sent(settings, alice, bob, django_assert_num_queries):
    settings.GEARTABLE_STREAM_URL = ""  # the default: pages poll, writers pay nothing
    game = start_geared([alice, bob])
    with django_assert_num_queries(0):
        events.game_changed(game.pk)
        events.turns_changed([alice.pk, bob.pk])
        events.lobby_changed()


def test_the_stream_process_keeps_the_sites_guard_and_reads_only_with_get(
    stream_process, alice, bob
):
    game = start_geared([alice, bob], public=True)
    huge = (
        f"POST {stream_path(game)} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 99999999\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\nConnection: close\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", stream_process.port), timeout=20) as s:
        s.sendall(huge.encode())
        assert s.recv(200).split(b" ", 2)[1] == b"413"  # refused unread (config/middleware.py)
    post = (
        f"POST {stream_path(game)} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n"
        "Connection: close\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", stream_process.port), timeout=20) as s:
        s.sendall(post.encode())
        assert s.recv(200).split(b" ", 2)[1] == b"405"


def test_a_listener_that_lost_postgresql_reconnects_and_no_change_is_lost(
    stream_process, alice, bob
):
    game = start_geared([alice, bob], target=1000)
    stream = stream_process.open(stream_path(game, k=page_key(client_for(bob), game)))
    stream.event_where(is_game_event(game.version))
    (listener,) = listening_backends()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [listener])
    game = move_through_the_site(game)  # most likely while nobody listens: NOTIFY keeps nothing
    stream.event_where(is_game_event(game.version), 30)  # the resync after the reconnect
    assert listening_backends() - {listener}
    game = move_through_the_site(game)  # and pushes go on
    stream.event_where(is_game_event(game.version))
    stream.close()


@pytest.mark.stream_env(GEARTABLE_STREAMS_PER_USER="2", GEARTABLE_STREAMS_PER_ADDRESS="3")
def test_a_stranger_cannot_hold_many_streams_one_more_is_429_and_a_closed_one_frees_its_place(
    stream_process, alice, bob
):
    """Issue 25.5: open streams per user and per client address are bounded; the one too many
    is refused at once, readably (the page then polls), and a stream's end gives its place back."""
    game = start_geared([alice, bob], public=True)
    key = page_key(client_for(bob), game)
    bobs = [
        stream_process.open(stream_path(game, k=key)),
        stream_process.open("/events/me/", headers=cookie(client_for(bob))),
    ]
    assert [s.status for s in bobs] == [200, 200]
    refused = stream_process.open(stream_path(game, k=key))  # bob's third: over his limit
    assert refused.status == 429
    assert refused.headers["content-type"].startswith("text/plain")
    assert b"Too many live pages" in refused.body()

    visitor = stream_process.open(stream_path(game))  # the address's third (no account)
    assert visitor.status == 200
    assert stream_process.open(stream_path(game)).status == 429  # the address's fourth

    bobs[0].close()  # a tab closed: the process notices the disconnect and frees its place
    again = wait_for(
        lambda: (s := stream_process.open(stream_path(game, k=key))).status == 200 and s,
        what="bob's freed place",
    )
    again.event_where(is_game_event(game.version))
    for stream in (again, bobs[1], visitor):
        stream.close()


def stream_process_connections(process) -> int:
    """The stream process's connections to the test's database (tests/live/stream_settings.py
    names them after its port: a stream process of an earlier test may still be closing its
    own)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND application_name = %s",
            [f"geartable-stream-{process.port}"],
        )
        return cursor.fetchone()[0]


@pytest.mark.stream_env(GEARTABLE_STREAM_READ_THREADS="2")
def test_many_streams_opening_at_once_hold_the_readers_connections_and_the_listeners_only(
    stream_process, alice, bob
):
    """Issue 25.8: a stream process's reads run on GEARTABLE_STREAM_READ_THREADS threads that
    keep their connection; 30 pages opening together never ask PostgreSQL for more (2,000
    did exhaust its max_connections when each read opened its own)."""
    game = start_geared([alice, bob], public=True)
    with ThreadPoolExecutor(30) as pool:  # the opening in threads, the counting here
        opened = [pool.submit(stream_process.open, stream_path(game)) for _ in range(30)]
        seen = [stream_process_connections(stream_process)]
        while not all(future.done() for future in opened):
            seen.append(stream_process_connections(stream_process))
    streams = [future.result() for future in opened]
    assert [s.status for s in streams] == [200] * 30
    for stream in streams:
        stream.event_where(is_game_event(game.version))
    assert max(seen) <= 2 + 1, seen  # the readers' and the listener's
    assert (
        stream_process_connections(stream_process) >= 2
    )  # a reader kept its connection for the next read
    for stream in streams:
        stream.close()
