"""A change that leaves the server a step to take (a complete Out of Gears turn to resolve, a bot
to play) says so in its event (`due`), and a stream waits for that step's own event before it
reads and sends: the page fetches the resolved turn once, not the turn in between first (issue
36.5). The wait is bounded (GEARTABLE_STREAM_DUE_WAIT_MS): a step that does not come (a stopped
worker, repaired later by the sweep) leaves the stream sending what is, as for any event. A
`turns` event's read sends no version: it may fall between the last program's commit and the
resolution's (the race that made the live test below flaky)."""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest
from django.db import connection, transaction
from django.db.models import F
from django.test import RequestFactory
from django.utils import timezone

from games.actions import moves
from games.live import cache as live
from games.live import events, stream
from games.models import Game
from tests.support.games import client_for, greedy_program, seat_of, start_oog
from tests.support.pages import page_key
from tests.support.streams import is_game_event, stream_path
from tests.support.waiting import patience


def run(coro):
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, asyncio.wait_for(coro, 10)).result()


def game_event(version: int, due: str | None = None) -> dict:
    return {"game": 7, "version": version, "chat": 0, "due": due, "kind": "game"}


def test_an_event_with_no_step_owed_is_acted_on_at_once(settings):
    settings.GEARTABLE_STREAM_DUE_WAIT_MS = 60_000

    async def scenario():
        inbox = events.Inbox()
        inbox.put(game_event(4))
        settled = await stream.settle(inbox, game_event(3))
        assert settled == game_event(3)
        assert inbox.qsize() == 1  # nothing was read ahead

    run(scenario())


def test_a_step_owed_is_waited_for_and_the_events_between_are_covered_by_its_read(settings):
    settings.GEARTABLE_STREAM_DUE_WAIT_MS = 60_000

    async def scenario():
        inbox = events.Inbox()
        inbox.put({"users": [1], "kind": "turns"})  # the same commit's, read with the game
        inbox.put(game_event(5))  # the step's
        inbox.put(game_event(6))
        assert await stream.settle(inbox, game_event(4, due="2026-12-03T16:00:00+00:00")) == (
            game_event(5)
        )
        assert inbox.get_nowait() == game_event(6)

    run(scenario())


def test_an_access_event_during_the_wait_is_acted_on_at_once(settings):
    settings.GEARTABLE_STREAM_DUE_WAIT_MS = 60_000

    async def scenario():
        inbox = events.Inbox()
        revoked = {"users": [1], "game": None, "kind": "access"}
        inbox.put(revoked)
        assert await stream.settle(inbox, game_event(4, due="2026-12-03T16:00:00+00:00")) == revoked

    run(scenario())


def test_a_step_that_does_not_come_leaves_the_last_event_heard(settings):
    settings.GEARTABLE_STREAM_DUE_WAIT_MS = 50

    async def scenario():
        inbox = events.Inbox()
        due = "2026-12-03T16:00:00+00:00"
        inbox.put(game_event(5, due=due))  # a chat message, say: the step still owed
        assert await stream.settle(inbox, game_event(4, due=due)) == game_event(5, due=due)

    run(scenario())


def test_a_turns_event_read_while_a_step_is_owed_sends_no_version_of_its_own(settings, monkeypatch):
    """The race the live test below lost once in three clean runs: the `turns` event of alice's
    commit is read after bob's last program committed and before its resolution did. That read
    sees bob's version (the turn in between, a step owed); sent, every page fetched it, then
    the resolved one. A `turns` event says whose turn it is: the game's own change comes as
    its `game` event, which `settle` waits past. Here the reads are scripted, no timing."""
    settings.GEARTABLE_STREAM_DUE_WAIT_MS = 60_000
    due = "2026-12-03T16:00:00+00:00"
    # What each read finds: at the opening (the page's own version), at alice's game event,
    # at alice's turns event (bob's program committed, not yet resolved), after the wait.
    found = iter([2, 3, 4, 5])
    reads: list[int] = []

    async def game_viewer(request, game_id, fresh=False):
        version = next(found, 5)
        reads.append(version)
        return stream.Viewer(user_id=1, version=version, chat=0, your_turn=1)

    monkeypatch.setattr(stream, "game_viewer", game_viewer)
    request = RequestFactory().get("/events/game/7/?v=2&c=0")

    async def scenario():
        body = stream._game_stream(request, 7, 1)
        assert (await anext(body)).startswith("retry:")  # subscribed
        for event in (
            game_event(3),
            {"users": [1, 2], "kind": "turns"},  # alice's commit
            game_event(4, due=due),
            {"users": [1, 2], "kind": "turns"},  # bob's: a resolution owed
            game_event(5),
            {"users": [1, 2], "kind": "turns"},  # the resolution's
        ):
            events.HUB.publish(event)
        sent = []
        try:
            while 5 not in sent:
                frame = await anext(body)
                if frame.startswith("data:") or frame.startswith("id:"):
                    data = json.loads(frame.split("data: ", 1)[1])
                    if data.get("kind") == "game":
                        sent.append(data["version"])
        finally:
            await body.aclose()
        return sent

    assert run(scenario()) == [3, 5]
    assert 4 in reads  # the in-between turn was read, and not sent


@pytest.mark.django_db(transaction=True)
@pytest.mark.stream_env(GEARTABLE_STREAM_DUE_WAIT_MS="60000")
def test_the_last_program_reaches_every_page_as_the_resolved_turn(stream_process, alice, bob):
    """Bob's program completes the turn: its commit owes a resolution (here Celery runs eagerly,
    at the commit); the streams send the resolved turn's version and never the one between."""
    game = start_oog([alice, bob], robots=[(1,), (4,)])
    streams = {
        user: stream_process.open(stream_path(game, k=page_key(client_for(user), game)))
        for user in (alice, bob)
    }
    for opened in streams.values():
        opened.event_where(lambda e: e.get("event") == "turns")  # the state it opened on

    moves.submit_action(alice, game.pk, game.version, greedy_program(game, seat_of(game, alice)))
    game.refresh_from_db()
    alice_version = game.version
    for opened in streams.values():  # a program with another still to come: sent at once
        opened.event_where(is_game_event(alice_version))

    moves.submit_action(bob, game.pk, alice_version, greedy_program(game, seat_of(game, bob)))
    game.refresh_from_db()
    assert game.version == alice_version + 2  # bob's program, then the resolution
    assert game.turn == 2 and game.due_since is None
    resolved = is_game_event(game.version)
    for opened in streams.values():
        seen: list[dict] = []
        opened.event_where(lambda e, seen=seen: seen.append(e) or resolved(e))
        versions = [e["data"]["version"] for e in seen if e.get("data", {}).get("game")]
        assert versions == [game.version]
        assert b"due" not in opened.raw  # the event's `due` is never sent on
        opened.close()


@pytest.mark.django_db(transaction=True)
@pytest.mark.stream_env(GEARTABLE_STREAM_DUE_WAIT_MS="100")
def test_a_step_owed_that_does_not_come_is_sent_after_the_wait(stream_process, alice, bob):
    """A commit that owes a step whose task never runs (the sweep's to repair): the page still
    hears of the commit, once the wait is over."""
    game = start_oog([alice, bob], robots=[(1,), (4,)])
    opened = stream_process.open(stream_path(game, k=page_key(client_for(alice), game)))
    opened.event_where(lambda e: e.get("event") == "turns")
    with transaction.atomic():
        Game.objects.filter(pk=game.pk).update(version=F("version") + 1, due_since=timezone.now())
        live.forget_game(game.pk)
    opened.event_where(is_game_event(game.version + 1))
    opened.close()


@pytest.mark.django_db(transaction=True)
def test_the_last_programs_own_event_says_a_resolution_is_owed(settings, alice, bob):
    """The event that bob's completing program commits carries `due` (the write path builds it
    from the values it wrote, not from a read of the row): without it no stream would wait for
    the resolution, and every page would fetch the turn in between first."""
    settings.GEARTABLE_STREAM_URL = "http://127.0.0.1:9"  # events on; nobody needs to answer
    game = start_oog([alice, bob], robots=[(1,), (4,)])
    db = connection.settings_dict
    with psycopg.connect(
        host=db["HOST"] or None,
        port=db["PORT"] or None,
        user=db["USER"] or None,
        dbname=db["NAME"],
        autocommit=True,
    ) as listener:
        listener.execute(f"LISTEN {events.CHANNEL}")
        moves.submit_action(
            alice, game.pk, game.version, greedy_program(game, seat_of(game, alice))
        )
        game.refresh_from_db()
        alice_version = game.version
        moves.submit_action(bob, game.pk, alice_version, greedy_program(game, seat_of(game, bob)))
        game_events = {}
        for note in listener.notifies(timeout=20 * patience()):
            event = json.loads(note.payload)
            if event.get("kind") == "game":
                game_events[event["version"]] = event
            if alice_version + 2 in game_events:  # the resolution's (eager here, at the commit)
                break
    assert game_events[alice_version]["due"] is None, game_events  # another program to come
    assert game_events[alice_version + 1]["due"] is not None, game_events  # bob's: owed
    assert game_events[alice_version + 2]["due"] is None, game_events  # resolved: nothing owed
