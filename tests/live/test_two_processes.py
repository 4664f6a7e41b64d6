"""Issue 25.7: several stream processes (several machines in production), each with its own
LISTEN connection: one committed move reaches an open stream on every one of them."""

from __future__ import annotations

import subprocess

import pytest

from tests import streams
from tests.support.games import client_for, start_geared
from tests.support.pages import page_key
from tests.support.streams import (
    is_game_event,
    listening_backends,
    move_through_the_site,
    stream_path,
)
from tests.support.waiting import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def two_stream_processes(transactional_db, tmp_path, settings):
    started = []
    try:
        for name in ("stream-a", "stream-b"):
            started.append(streams.start_stream_process(tmp_path, name=name))
        # The writer sends its events once a stream URL is set; which one does not matter.
        settings.GEARTABLE_STREAM_URL = started[0][1].url
        yield [server for _process, server, _log in started]
    finally:
        for process, _server, log in started:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            log.close()


def test_one_move_reaches_an_open_stream_on_each_of_two_stream_processes(
    two_stream_processes, alice, bob
):
    game = start_geared([alice, bob], target=1000)
    first, second = two_stream_processes
    opened = [
        first.open(stream_path(game, k=page_key(client_for(alice), game))),
        second.open(stream_path(game, k=page_key(client_for(bob), game))),
    ]
    for stream in opened:
        assert stream.status == 200
        stream.event_where(is_game_event(game.version))  # the state it opened on
    # Two processes, two LISTEN connections: neither relays the other's events.
    wait_for(lambda: len(listening_backends()) == 2, what="a LISTEN connection per process")

    game = move_through_the_site(game)  # one commit, in this process (gunicorn's part)
    for stream in opened:
        event = stream.event_where(is_game_event(game.version))
        assert event["data"] == {
            "game": game.pk,
            "version": game.version,
            "chat": game.chat_seq,
            "kind": "game",
        }
        assert f"\nid: {game.version}.{game.chat_seq}\n".encode() in stream.raw.replace(b"\r", b"")
        stream.close()
