"""Web Push through the outbox (issue 26), against a real push service on loopback that checks
the VAPID JWT and whose pushes the test decrypts with the device's keys: what the phone shows.

Tasks run eagerly on commit (as in tests/notifications: `commit` runs a step and then what it queued
on commit, in the test's transaction); a retry is the outbox's sweep, run at the time the row is
due (`sweep(now=...)`), as the in-process e-mail tests do."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import PushSubscription
from games import vacation
from games.actions import tables, time_off
from games.models import Kind, Notification, Push, Seat, Status
from games.notifications import outbox
from tests.notifications.helpers import Note, notes, play_turn, submit_program
from tests.notifications.push.helpers import subscribe
from tests.support.games import advance, client_for, seat_to_act, start_geared, start_oog

pytestmark = pytest.mark.django_db

State = Notification.State


def the_next(game):
    mover = seat_to_act(game)
    return next(s for s in game.seats.select_related("user") if s.pk != mover.pk).user


def sweep_when_due(model=Push) -> dict:
    """The beat's sweep, at the time the earliest pending row of `model` is due."""
    due = model.objects.filter(state=State.PENDING).order_by("next_attempt").first()
    assert due is not None, f"no pending {model.__name__}"
    return outbox.sweep(now=due.next_attempt + timedelta(seconds=1))


def mails_to(mailoutbox, user) -> list:
    return [m for m in mailoutbox if m.to == [user.email]]


def test_your_turn_is_pushed_readable_and_the_email_is_not_needed(
    commit, push_service, mailoutbox, alice, bob
):
    game = commit(start_geared, [alice, bob], target=2000)
    waiting = the_next(game)
    phone = push_service.device("phone")
    subscribe(waiting, phone)
    mover = commit(play_turn, game)

    [push] = push_service.accepted("phone")
    assert push_service.errors == []
    shown = phone.decrypt(push.body)
    assert set(shown) == {"title", "body", "url", "tag", "waiting"}
    assert shown["title"] == f"Your turn in {game.get_kind_display()} #{game.pk}"
    assert shown["url"] == f"/games/{game.pk}/"
    assert shown["tag"] == f"game-{game.pk}" and shown["waiting"] == 1
    assert mover.user.name in shown["body"]  # what the mover did, as the player's page says it
    assert push.headers["ttl"] == "86400"
    assert push.headers["urgency"] == "high"
    assert push.headers["topic"] == f"game-{game.pk}"
    assert push.claims["aud"] == push_service.origin
    row = Push.objects.get()
    assert row.state == State.SENT
    assert PushSubscription.objects.get().last_success is not None

    # The e-mail waited for the push, and is not sent once one reached the player.
    note = notes(game, Note.YOUR_TURN, user=waiting).get()
    assert note.state == State.PENDING and note.next_attempt > timezone.now()
    assert mails_to(mailoutbox, waiting) == []
    sweep_when_due(Notification)
    note.refresh_from_db()
    assert note.state == State.SKIPPED
    assert note.error == "Not needed: a notification reached the player's device."
    assert mails_to(mailoutbox, waiting) == []


def test_without_a_device_the_email_goes_at_once_as_before(
    commit, push_service, mailoutbox, alice, bob
):
    game = commit(start_geared, [alice, bob], target=2000)
    waiting = the_next(game)
    commit(play_turn, game)
    assert not Push.objects.exists()
    assert len(mails_to(mailoutbox, waiting)) == 1
    assert push_service.received == []


def test_410_deletes_the_subscription_and_the_email_goes_at_once(
    commit, push_service, mailoutbox, alice, bob
):
    game = commit(start_geared, [alice, bob], target=2000)
    waiting = the_next(game)
    phone = push_service.device("gone")
    subscribe(waiting, phone)
    push_service.answers["/push/gone"] = 410
    commit(play_turn, game)

    assert [p.status for p in push_service.received] == [410]
    assert not PushSubscription.objects.exists()
    row = Push.objects.get()
    assert row.state == State.SKIPPED and "410" in row.error and row.subscription is None
    # No push reached the player: the e-mail did not wait for the fallback time.
    assert len(mails_to(mailoutbox, waiting)) == 1
    assert notes(game, Note.YOUR_TURN, user=waiting).get().state == State.SENT


def test_push_service_down_the_push_is_retried_and_delivered_once_when_it_returns(
    commit, push_service, mailoutbox, alice, bob
):
    game = commit(start_geared, [alice, bob], target=2000)
    waiting = the_next(game)
    phone = push_service.device("phone")
    subscribe(waiting, phone)
    push_service.stop()
    commit(play_turn, game)

    row = Push.objects.get()
    assert row.state == State.PENDING and row.attempts == 1 and row.error
    # Every push failed: the e-mail went at once (it is the fallback).
    assert len(mails_to(mailoutbox, waiting)) == 1

    sweep_when_due()  # still down: another failed attempt, pushed back further
    row.refresh_from_db()
    assert row.state == State.PENDING and row.attempts == 2

    push_service.start()  # back, on the same port
    sweep_when_due()
    row.refresh_from_db()
    assert row.state == State.SENT
    assert len(push_service.accepted("phone")) == 1
    assert phone.decrypt(push_service.accepted("phone")[0].body)["url"] == f"/games/{game.pk}/"
    # Nothing more is owed: later sweeps send nothing again.
    outbox.sweep(now=timezone.now() + timedelta(days=2))
    assert len(push_service.accepted("phone")) == 1
    assert len(mails_to(mailoutbox, waiting)) == 1


def test_a_push_given_up_after_a_day_is_failed_and_shown(
    commit, push_service, alice, bob, settings
):
    game = commit(start_geared, [alice, bob], target=2000)
    waiting = the_next(game)
    subscribe(waiting, push_service.device("phone"))
    push_service.stop()
    commit(play_turn, game)
    Push.objects.update(created=timezone.now() - timedelta(days=1, seconds=1))
    sweep_when_due()
    assert Push.objects.get().state == State.FAILED


def test_a_player_watching_the_game_is_sent_nothing(commit, push_service, mailoutbox, alice, bob):
    game = commit(start_geared, [alice, bob], target=2000)
    waiting = the_next(game)
    subscribe(waiting, push_service.device("phone"))
    client_for(waiting).get(f"/games/{game.pk}/poll/", {"v": game.version})
    assert Seat.objects.get(game=game, user=waiting).watched is not None
    commit(play_turn, game)

    assert push_service.received == []
    row = Push.objects.get()
    assert row.state == State.SKIPPED and row.error == "Not needed: the player had the game open."
    sweep_when_due(Notification)
    assert mails_to(mailoutbox, waiting) == []


def test_a_player_on_vacation_is_pushed_on_return_and_mailed_only_if_unreached(
    commit, push_service, mailoutbox, alice, bob
):
    game = commit(start_geared, [alice, bob], target=2000)
    waiting = the_next(game)
    phone = push_service.device("phone")
    subscribe(waiting, phone)
    commit(time_off.take, waiting, timezone.localdate() + timedelta(days=3))
    waiting.refresh_from_db()
    commit(play_turn, game)

    row = Push.objects.get()
    assert row.state == State.PENDING and row.error.startswith(vacation.HELD)
    assert row.next_attempt == waiting.away_ends
    assert push_service.received == []

    commit(time_off.come_back, waiting)
    assert Push.objects.get().state == State.SENT
    assert len(push_service.accepted("phone")) == 1
    sweep_when_due(Notification)
    assert mails_to(mailoutbox, waiting) == []


# --- no hidden information in any payload --------------------------------------------------------


def _scan(payloads: list[dict], game) -> None:
    game.refresh_from_db()
    state = game.state
    for shown in payloads:
        assert set(shown) == {"title", "body", "url", "tag", "waiting"}
        flat = json.dumps(shown)
        assert str(game.seed) not in flat
        assert not re.search(r"\b(seed|rng|hand|draw pile|deck)\b", flat, re.I), flat
        assert str(state.get("rng")) not in flat


def test_no_payload_carries_hidden_information(commit, push_service, alice, bob, carol):
    """G19, O18: a push says what the recipient's own page says: never a card in another
    hand, the draw order, an unrevealed program, the seed."""
    devices = {u.pk: push_service.device(u.username) for u in (alice, bob, carol)}
    for user in (alice, bob, carol):
        subscribe(user, devices[user.pk])
    geared = commit(start_geared, [alice, bob, carol], target=2000)
    for _ in range(9):
        commit(play_turn, geared)
    oog = commit(start_oog, [alice, bob, carol])
    for _ in range(2):
        for user in (alice, bob, carol):
            commit(submit_program, oog, user)
    by_path = {f"/push/{u.username}": (u, devices[u.pk]) for u in (alice, bob, carol)}
    shown = [by_path[p.path][1].decrypt(p.body) for p in push_service.accepted()]
    assert len(shown) >= 9 + 3  # a your turn a Geared move, a turn resolved for each in OOG
    _scan([s for s in shown if s["tag"] == f"game-{geared.pk}"], geared)
    _scan([s for s in shown if s["tag"] == f"game-{oog.pk}"], oog)
    # A Geared push names a card only as the recipient's page may: the others' hands are never
    # in it (each push is for one seat: the card names it shows are public or the seat's own).
    geared.refresh_from_db()
    for push in push_service.accepted():
        user, device = by_path[push.path]
        payload = device.decrypt(push.body)
        if payload["tag"] != f"game-{geared.pk}":
            continue
        # Another seat's draw is a number of cards, never which.
        assert not re.search(r"drew (?!\d+ cards?\b)", payload["body"]), payload


def test_a_failed_push_is_on_the_admins_outbox_and_sent_again_from_there(
    commit, push_service, alice, bob, django_user_model
):
    game = commit(start_geared, [alice, bob], target=2000)
    waiting = the_next(game)
    subscribe(waiting, push_service.device("phone"))
    push_service.stop()
    commit(play_turn, game)
    Push.objects.update(state=State.FAILED, error="ConnectionError('refused')")
    moderator = django_user_model.objects.create_user(
        "mod", "mod@example.com", "pw", is_staff=True, is_superuser=True
    )
    admin = client_for(moderator)
    page = admin.get("/admin/outbox/").content.decode()
    assert "Pushes to devices" in page and "/admin/games/push/" in page
    assert "ConnectionError" in admin.get("/admin/games/push/").content.decode()

    push_service.start()
    answer = commit(
        admin.post, "/admin/outbox/", {"action": "requeue", "reason": "push service back"}
    )
    assert answer.status_code == 302
    assert Push.objects.get().state == State.SENT
    assert len(push_service.accepted("phone")) == 1


def test_a_player_who_wants_no_turn_emails_still_gets_the_push(
    commit, push_service, mailoutbox, alice, bob
):
    """ "E-mail me when it is my turn" off is about e-mail: the device turned on is notified."""
    game = commit(start_geared, [alice, bob], target=2000)
    waiting = the_next(game)
    type(waiting).objects.filter(pk=waiting.pk).update(notify_turn=False)
    phone = push_service.device("phone")
    subscribe(waiting, phone)
    commit(play_turn, game)
    assert len(push_service.accepted("phone")) == 1
    push_service.stop()  # even when the push then fails, no e-mail: the player wants none
    commit(play_turn, game)
    commit(play_turn, game)
    outbox.sweep(now=timezone.now() + timedelta(hours=1))
    assert mails_to(mailoutbox, waiting) == []
    assert set(notes(game, Note.YOUR_TURN, user=waiting).values_list("state", flat=True)) == {
        State.SKIPPED
    }


def test_a_player_who_asked_for_both_gets_the_email_at_once_too(
    commit, push_service, mailoutbox, alice, bob
):
    game = commit(start_geared, [alice, bob], target=2000)
    waiting = the_next(game)
    type(waiting).objects.filter(pk=waiting.pk).update(email_with_push=True)
    subscribe(waiting, push_service.device("phone"))
    commit(play_turn, game)
    assert len(push_service.accepted("phone")) == 1
    assert len(mails_to(mailoutbox, waiting)) == 1


def test_a_push_whose_task_was_lost_is_sent_by_the_sweep_once(
    commit, push_service, alice, bob, django_capture_on_commit_callbacks
):
    game = commit(start_geared, [alice, bob], target=2000)
    waiting = the_next(game)
    subscribe(waiting, push_service.device("phone"))
    with django_capture_on_commit_callbacks(execute=False):  # the broker lost the task
        play_turn(game)
    assert Push.objects.get().state == State.PENDING and push_service.received == []
    sweep_when_due()
    assert Push.objects.get().state == State.SENT
    # A claim whose worker died mid-send is sent again after the claim timeout.
    Push.objects.update(state=State.SENDING, claimed=timezone.now(), sent=None)
    outbox.sweep(now=timezone.now() + outbox.seconds("OUTBOX_CLAIM_TIMEOUT") + timedelta(seconds=1))
    assert Push.objects.get().state == State.SENT
    assert len(push_service.accepted("phone")) == 2  # the documented double (docs/delivery.md)


# --- invitations and rematch offers -----------------------------------------------------------


def open_table(creator):
    return tables.create_game(creator, tables.NewGame(kind=Kind.OUTOFGEARS, seat_count=3))


def test_an_invitation_by_username_is_pushed_beside_its_email(
    commit, push_service, mailoutbox, alice, bob
):
    phone = push_service.device("phone")
    subscribe(bob, phone)
    table = commit(open_table, alice)
    commit(tables.invite, alice, table.pk, "bob")
    [push] = push_service.accepted("phone")
    shown = phone.decrypt(push.body)
    assert shown["title"] == f"“Alice” (alice) invites you: Out of Gears #{table.pk}"
    assert shown["url"] == f"/games/{table.pk}/" and shown["tag"] == f"game-{table.pk}"
    assert push.headers["urgency"] == "high" and push.headers["topic"] == f"game-{table.pk}"
    assert len(mails_to(mailoutbox, bob)) == 1  # the invitation's e-mail keeps its own rules
    assert Push.objects.get().invitation.user == bob


def test_an_invitation_taken_up_before_its_push_goes_is_not_pushed(
    commit, push_service, alice, bob, django_capture_on_commit_callbacks
):
    subscribe(bob, push_service.device("phone"))
    table = commit(open_table, alice)
    with django_capture_on_commit_callbacks(execute=False):  # its task lost
        tables.invite(alice, table.pk, "bob")
    commit(tables.join_game, bob, table.pk, token=table.join_token)
    sweep_when_due()
    row = Push.objects.get()
    assert row.state == State.SKIPPED and "taken up" in row.error
    assert push_service.received == []


def test_a_rematch_offer_is_pushed(commit, push_service, alice, bob):
    game = advance(commit(start_geared, [alice, bob], target=300), 900)
    assert game.status == Status.FINISHED
    phone = push_service.device("phone")
    subscribe(bob, phone)
    new = commit(tables.rematch, alice, game.pk)
    [push] = push_service.accepted("phone")
    assert phone.decrypt(push.body)["title"] == (
        f"“Alice” (alice) offers a rematch: Geared: Build Your Bike #{new.pk}"
    )
