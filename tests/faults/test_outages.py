"""Outages with real parts: the broker stopped during a move, the SMTP server down for longer
than the old retry horizon, a worker killed around an e-mail's SMTP conversation, a game row
locked while its e-mails go out. The move stands, and every turn and e-mail gets through once,
with no manual step (docs/delivery.md)."""

from __future__ import annotations

import json
import time
from collections import Counter

import psycopg
import pytest
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from config.celery import app as celery_app
from games.actions import moves, tables
from games.models import Game, Invitation, Move, Notification
from tests.notifications.helpers import end_turn_choice
from tests.support.games import (
    client_for,
    greedy_program,
    seat_of,
    seat_to_act,
    start_geared,
    start_oog,
)
from tests.support.waiting import wait_for
from tests.views.outofgears.helpers import post_program

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

BOUND = 30.0
Note = Notification.Kind
SENT = Notification.State.SENT


def sent_rows(rows) -> bool:
    return not rows.exclude(state=SENT).exists()


def message_ids(inbox) -> Counter:
    return Counter(str(m["Message-ID"]) for m in inbox.messages)


def row_message_id(row) -> str:
    return f"<{row._meta.model_name}-{row.pk}@testserver>"


@pytest.mark.parametrize("broker", ["redis"], indirect=True)
def test_broker_down_during_the_last_program_the_move_stands_and_the_turn_resolves_after(
    stack, broker, alice, bob
):
    stack.worker()
    stack.beat()
    game = start_oog([alice, bob])
    clients = {user: client_for(user) for user in (alice, bob)}
    game.refresh_from_db()
    response = post_program(
        clients[alice], game, greedy_program(game, seat_of(game, alice)), game.turn_version
    )
    assert response.status_code == 200

    stack.wait_idle()  # the stack is up (the beat queues sweeps, a worker runs them), and idle
    broker.stop()  # kill -9: Redis keeps nothing on disk, whatever was queued is gone too
    started = time.monotonic()
    response = post_program(
        clients[bob], game, greedy_program(game, seat_of(game, bob)), game.turn_version
    )
    answered = time.monotonic() - started
    assert response.status_code == 200, response.content.decode()
    assert "resolving turn 1" in response.content.decode()
    game.refresh_from_db()
    assert game.turn == 1 and set(game.state["programs"]) == {"1", "2"}, "the program is saved"
    assert game.due_since is not None, "the resolution is owed, in the database"

    stack.wait_failed_sweep()  # the beat's sweeps fail to queue meanwhile
    broker.start()
    wait_for(
        lambda: Game.objects.get(pk=game.pk).turn == 2,
        seconds=BOUND,
        what=lambda: f"the turn to resolve after the broker came back\n{stack.logs()}",
    )
    assert Move.objects.filter(game=game, kind=Move.Kind.RESOLVE).count() == 1
    rows = Notification.objects.filter(game=game, kind=Note.TURN_RESOLVED, turn=2)
    assert rows.count() == 2
    wait_for(lambda: sent_rows(rows), seconds=BOUND, what="the turn's e-mails")
    assert sorted(m["To"] for m in stack.inbox.messages if "resolved" in m["Subject"]) == [
        "alice@example.com",
        "bob@example.com",
    ]
    print(f"the program POST answered in {answered:.2f} s with the broker down")


@pytest.mark.parametrize("broker", ["redis"], indirect=True)
def test_broker_down_during_a_geared_move_the_bot_plays_after_and_the_player_is_told(
    stack, broker, alice
):
    stack.worker()
    stack.beat()
    game = start_geared([alice], bots=("greedy",), target=2000)
    wait_for(lambda: seat_to_act(game).user_id == alice.pk, seconds=BOUND, what="alice's turn")
    stack.wait_idle()  # a catch-up queued while the bot played must not play its next turn now
    seat = seat_to_act(game)
    client = client_for(alice)

    broker.stop()
    response = client.post(
        reverse("game_move", args=[game.pk]),
        {"action": json.dumps(end_turn_choice(game, seat)), "version": str(game.version)},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200, response.content.decode()
    game.refresh_from_db()
    turn = game.turn
    assert seat_to_act(game).is_bot and game.due_since is not None

    stack.wait_failed_sweep()
    broker.start()
    wait_for(
        lambda: seat_to_act(game).user_id == alice.pk,
        seconds=BOUND,
        what=lambda: f"the bot to play after the broker came back\n{stack.logs()}",
    )
    game.refresh_from_db()
    rows = Notification.objects.filter(game=game, user=alice, kind=Note.YOUR_TURN, turn=game.turn)
    assert game.turn > turn and rows.count() == 1
    wait_for(lambda: sent_rows(rows), seconds=BOUND, what="alice's 'your turn' e-mail")
    assert message_ids(stack.inbox)[row_message_id(rows.get())] == 1


@pytest.mark.parametrize("broker", ["redis"], indirect=True)
def test_smtp_down_longer_than_the_old_retry_horizon_every_email_arrives_once_after(
    stack, smtp_control, alice, bob, carol
):
    stack.worker()
    stack.beat()
    games = [start_geared([alice, bob], target=2000) for _ in range(3)]
    wait_for(lambda: sent_rows(Notification.objects.all()), seconds=BOUND, what="start mails")
    smtp_control.stop()
    before = len(stack.inbox.messages)

    for game in games:  # one "your turn" each, for the turn that stays current
        seat = seat_to_act(game)
        moves.submit_action(seat.user, game.pk, game.version, end_turn_choice(game, seat))
    table = tables.create_game(alice, tables.NewGame("geared", 3))
    tables.invite(alice, table.pk, "dan@example.net")
    rows = list(Notification.objects.filter(kind=Note.YOUR_TURN, turn=2)) + list(
        Invitation.objects.all()
    )
    assert len(rows) == 4
    # The old code gave up after six attempts (about 155 s); here the sweep keeps trying, about
    # every three seconds with the fault stack's settings.
    wait_for(
        lambda: all(type(r).objects.get(pk=r.pk).attempts >= 7 for r in rows),
        seconds=2 * BOUND,
        what=lambda: f"seven failed attempts of each e-mail\n{stack.logs()}",
    )
    assert not any(type(r).objects.get(pk=r.pk).state == "failed" for r in rows), "given up"

    smtp_control.start()
    wait_for(
        lambda: all(type(r).objects.get(pk=r.pk).state == "sent" for r in rows),
        seconds=BOUND,
        what="every e-mail after the server came back",
    )
    stack.wait_settled()  # a sweep or two more, and what they queued: nothing is sent again
    counts = message_ids(stack.inbox)
    assert [counts[row_message_id(r)] for r in rows] == [1, 1, 1, 1]
    assert len(stack.inbox.messages) == before + 4


def test_a_worker_killed_after_claiming_an_email_and_before_smtp_sends_it_later_once(
    stack, alice, bob
):
    worker = stack.worker(FAULT_SLOW_BUILD=3)
    game = start_oog([alice, bob])
    (row,) = Notification.objects.filter(game=game)  # "your turn" to the one who did not start
    stack.wait_marker("building")
    stack.kill(worker)
    assert Notification.objects.get(pk=row.pk).state == "sending", "claimed, not sent"
    stack.worker()
    stack.beat()
    wait_for(
        lambda: sent_rows(Notification.objects.filter(pk=row.pk)),
        seconds=BOUND,
        what=lambda: f"the claimed e-mail to be sent after its claim timed out\n{stack.logs()}",
    )
    assert message_ids(stack.inbox) == Counter({row_message_id(row): 1})


def test_a_worker_killed_between_smtp_and_marking_sent_is_the_one_recognisable_double(
    stack, alice, bob
):
    # The one window no outbox closes: the SMTP server said 250, the worker died before its
    # commit. The row is sent again after the claim timeout (rather than risk losing it), with
    # the same Message-ID, so the copy is recognisable (mail clients fold it into one).
    worker = stack.worker(FAULT_SLOW_SEND=3)
    game = start_oog([alice, bob])
    (row,) = Notification.objects.filter(game=game)
    stack.wait_marker("sent")
    stack.kill(worker)
    stack.worker()
    stack.beat()
    wait_for(
        lambda: sent_rows(Notification.objects.filter(pk=row.pk)),
        seconds=BOUND,
        what=lambda: f"the row to be marked sent\n{stack.logs()}",
    )
    assert message_ids(stack.inbox) == Counter({row_message_id(row): 2})
    row.refresh_from_db()
    assert row.attempts == 2 and "same Message-ID" in row.error


@pytest.mark.parametrize("broker", ["redis"], indirect=True)
def test_two_emails_of_a_game_go_out_while_a_bot_turn_holds_the_game(stack, alice, bob):
    # The old delivery locked the game row with the e-mail's (a join under FOR UPDATE ...
    # SKIP LOCKED) and skipped the e-mail for good whenever a bot's move or a resolution held
    # the game. Here another transaction holds the game row, exactly as a bot's move does,
    # while two e-mails of the same game are sent: they lock only their own rows.
    stack.worker(concurrency=2)
    game = start_geared([alice, bob], bots=("greedy",), target=2000)
    wait_for(lambda: sent_rows(Notification.objects.all()), seconds=BOUND, what="start mails")
    received = len(stack.inbox.messages)
    rows = [
        Notification.objects.create(
            kind=Note.REMINDER, user=user, game=game, turn=game.turn, next_attempt=timezone.now()
        )
        for user in (alice, bob)
    ]
    holder = psycopg.connect(
        dbname=connection.settings_dict["NAME"], host="127.0.0.1", user="postgres"
    )
    try:
        holder.execute("SELECT id FROM games_game WHERE id = %s FOR UPDATE", [game.pk])
        for row in rows:
            celery_app.tasks["games.tasks.send_notification"].delay(row.pk)
        wait_for(
            lambda: len(stack.inbox.messages) == received + 2,
            seconds=BOUND,
            what=lambda: f"both e-mails while the game row is locked\n{stack.logs()}",
        )
    finally:
        holder.close()
    wait_for(
        lambda: sent_rows(Notification.objects.filter(kind=Note.REMINDER)),
        seconds=BOUND,
        what="the rows marked sent",
    )
