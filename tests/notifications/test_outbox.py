"""The outbox (docs/delivery.md), in-process: what a lost task leaves behind is found again by
the beat's sweep and done once; a broker that cannot be reached never fails a move; the sweep's
queries are indexed; the admin shows what is owed and re-queues it, audited. The same
guarantees with real worker processes, kill -9 and real outages: tests/faults."""

from __future__ import annotations

import logging
from datetime import timedelta

import pytest
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from config.celery import app as celery_app
from games.actions import deadlines, moves
from games.models import Game, Invitation, ModerationAction, Move, Notification, Status
from games.notifications import outbox
from games.reads import due
from tests.notifications.helpers import end_turn_choice, oog_program
from tests.smtp import free_port
from tests.support.games import client_for, seat_of, seat_to_act, start_geared, start_oog
from tests.views.outofgears.helpers import post_program

pytestmark = pytest.mark.django_db


def overdue(game: Game) -> None:
    """Time passes: the game has been owed its step for longer than the grace period."""
    Game.objects.filter(pk=game.pk).update(due_since=timezone.now() - timedelta(minutes=5))


def resolutions(game: Game) -> int:
    return Move.objects.filter(game=game, kind=Move.Kind.RESOLVE).count()


def test_a_lost_resolution_task_is_redone_by_the_sweep_once(
    alice, bob, django_capture_on_commit_callbacks
):
    game = start_oog([alice, bob])
    with django_capture_on_commit_callbacks(execute=False) as lost:  # the broker lost them
        for user in (alice, bob):
            game.refresh_from_db()
            moves.submit_action(
                user, game.pk, game.turn_version, oog_program(game, seat_of(game, user))
            )
    assert lost, "the resolution was queued on commit (and lost)"
    game.refresh_from_db()
    assert game.turn == 1 and game.due_since is not None, "the resolution is owed, in the row"
    assert outbox.sweep()["games"] == 0, "not within the grace period: its task may be on the way"

    overdue(game)
    assert outbox.sweep()["games"] == 1
    game.refresh_from_db()
    assert game.turn == 2 and resolutions(game) == 1
    assert game.due_since is None, "nothing is owed any more"
    assert outbox.sweep()["games"] == 0
    # The lost task turning up late changes nothing.
    assert moves.resolve_turn(game.pk, 1) is False
    assert moves.catch_up(game.pk) == 0
    assert resolutions(game) == 1


def test_a_lost_bot_task_is_redone_by_the_sweep(alice, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):
        game = start_geared([alice], bots=("greedy",), target=2000)
    game.refresh_from_db()
    if seat_to_act(game).user_id == alice.pk:  # alice starts: her move hands it to the bot
        with django_capture_on_commit_callbacks(execute=False):
            seat = seat_to_act(game)
            moves.submit_action(alice, game.pk, game.version, end_turn_choice(game, seat))
        game.refresh_from_db()
    assert seat_to_act(game).is_bot and game.due_since is not None
    overdue(game)
    outbox.sweep()
    game.refresh_from_db()
    assert seat_to_act(game).user_id == alice.pk, "the bot played"
    assert game.due_since is None


def test_a_deadline_on_a_turn_whose_programs_are_all_in_resolves_it(
    alice, bob, django_capture_on_commit_callbacks
):
    # Before: expire_turn did nothing here, the deadline stayed in the past, and the beat
    # queued it again every minute, for ever.
    game = start_oog([alice, bob], turn_seconds=86400)
    with django_capture_on_commit_callbacks(execute=False):
        for user in (alice, bob):
            game.refresh_from_db()
            moves.submit_action(
                user, game.pk, game.turn_version, oog_program(game, seat_of(game, user))
            )
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert deadlines.expire_turn(game.pk, 1) is True
    game.refresh_from_db()
    assert game.turn == 2 and resolutions(game) == 1
    assert game.deadline > timezone.now(), "the new turn has its own deadline"
    assert due.due_deadlines() == ([], [])
    assert not seat_of(game, alice).missed_deadlines, "nobody missed anything"


def test_a_claim_whose_worker_died_is_sent_again_after_the_timeout_with_its_message_id(
    mailoutbox, alice, bob, settings, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False):
        game = start_oog([alice, bob])  # bob is told it is his turn; alice started it
    note = Notification.objects.get(game=game)
    claimed = outbox.claim(Notification.objects.all(), note.pk)
    assert claimed is not None and claimed.state == "sending" and claimed.attempts == 1
    assert outbox.claim(Notification.objects.all(), note.pk) is None, "claimed once only"
    # ... and the worker dies here, before SMTP. Within the claim timeout nothing happens:
    assert outbox.sweep()["lost_claims"] == 0
    Notification.objects.filter(pk=note.pk).update(
        claimed=timezone.now() - timedelta(seconds=settings.OUTBOX_CLAIM_TIMEOUT + 1)
    )
    report = outbox.sweep()
    assert report["lost_claims"] == 1 and report["emails"] == 1
    note.refresh_from_db()
    assert note.state == "sent" and note.attempts == 2
    assert [m.extra_headers["Message-ID"] for m in mailoutbox] == [
        f"<notification-{note.pk}@testserver>"
    ]


def test_a_new_email_is_left_to_its_own_task_for_the_grace_period(
    alice, bob, django_capture_on_commit_callbacks, mailoutbox
):
    with django_capture_on_commit_callbacks(execute=False):
        game = start_oog([alice, bob])
    assert Notification.objects.filter(game=game, state="pending").count() == 1
    assert outbox.sweep()["emails"] == 0
    Notification.objects.update(next_attempt=timezone.now())
    assert outbox.sweep()["emails"] == 1
    assert len(mailoutbox) == 1
    assert outbox.sweep()["emails"] == 0


@pytest.mark.django_db(transaction=True)
def test_a_move_is_a_success_when_the_broker_cannot_be_reached(alice, bob, settings, caplog):
    game = start_oog([alice, bob])
    saved = celery_app.conf.broker_url, celery_app.conf.task_always_eager
    celery_app.conf.update(broker_url=f"redis://127.0.0.1:{free_port()}/0", task_always_eager=False)
    celery_app._after_fork()  # forget pooled connections
    try:
        client = client_for(bob)
        game.refresh_from_db()
        moves.submit_action(
            alice, game.pk, game.turn_version, oog_program(game, seat_of(game, alice))
        )
        game.refresh_from_db()
        action = oog_program(game, seat_of(game, bob))
        with caplog.at_level(logging.WARNING, logger="games.effects"):
            response = post_program(client, game, action, game.turn_version)
    finally:
        celery_app.conf.update(broker_url=saved[0], task_always_eager=saved[1])
        celery_app._after_fork()
    assert response.status_code == 200
    assert "resolving turn 1" in response.content.decode()
    game.refresh_from_db()
    assert set(game.state["programs"]) == {"1", "2"} and game.due_since is not None
    assert any("Could not queue games.tasks.resolve_turn" in r.getMessage() for r in caplog.records)
    # The sweep (once the broker is back: eager here) resolves it.
    overdue(game)
    outbox.sweep()
    assert Game.objects.get(pk=game.pk).turn == 2


def many_rows(alice) -> None:
    """A site that has been running a while: thousands of finished games and sent e-mails
    around the few rows the sweep is after, so that the planner's choice means something."""
    n = 4000
    games = Game.objects.bulk_create(
        Game(kind="geared", seat_count=2, status=status, creator=alice)
        for status in [Status.FINISHED, Status.ACTIVE] * (n // 2)
    )
    Notification.objects.bulk_create(
        Notification(kind="your_turn", user=alice, game=g, state="sent") for g in games
    )
    Invitation.objects.bulk_create(
        Invitation(game=g, inviter=alice, email="x@example.com", state="sent") for g in games
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE games_game, games_notification, games_invitation")


@pytest.mark.parametrize(
    ("index", "query"),
    [
        ("game_due_idx", lambda: outbox.overdue_games()),
        ("notification_state_idx", lambda: outbox.due_rows(Notification)),
        ("notification_state_idx", lambda: outbox.lost_claims(Notification)),
        ("invitation_outbox_idx", lambda: outbox.due_rows(Invitation)),
        ("invitation_outbox_idx", lambda: outbox.lost_claims(Invitation)),
    ],
)
def test_the_sweep_reads_each_kind_of_work_through_an_index(alice, index, query):
    many_rows(alice)
    plan = query().explain()
    assert index in plan and "Seq Scan" not in plan, plan


# --- the admin's outbox page ----------------------------------------------------------------


@pytest.fixture
def mod_client(client, django_user_model):
    moderator = django_user_model.objects.create_user(
        "mod", "mod@example.com", "pw", is_staff=True, is_superuser=True
    )
    client.force_login(moderator)
    return client


def test_the_outbox_page_shows_failed_and_waiting_emails_and_stuck_games(
    mod_client, alice, bob, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False):
        game = start_oog([alice, bob])
        for user in (alice, bob):
            game.refresh_from_db()
            moves.submit_action(
                user, game.pk, game.turn_version, oog_program(game, seat_of(game, user))
            )
    overdue(game)
    Notification.objects.update(state="failed", attempts=30, error="SMTPServerDisconnected('gone')")
    page = mod_client.get(reverse("admin:outbox")).content.decode()
    assert f"/admin/games/game/{game.pk}/change/" in page, "the stuck game is listed"
    assert "SMTPServerDisconnected" in page
    assert 'class="outbox-alert"' in page
    index = mod_client.get(reverse("admin:index")).content.decode()
    assert reverse("admin:outbox") in index


def test_requeue_from_the_outbox_page_sends_again_and_is_audited(
    mod_client, alice, bob, mailoutbox, django_capture_on_commit_callbacks
):
    game = start_oog([alice, bob])
    mailoutbox.clear()
    assert Notification.objects.filter(game=game).update(state="failed", attempts=30) == 1
    with django_capture_on_commit_callbacks(execute=True):
        response = mod_client.post(
            reverse("admin:outbox"), {"action": "requeue", "reason": "SMTP fixed"}
        )
    assert response.status_code == 302
    assert set(Notification.objects.values_list("state", flat=True)) == {"sent"}
    assert len(mailoutbox) == Notification.objects.count()
    record = ModerationAction.objects.get(action="re-queue e-mails")
    assert record.reason == "SMTP fixed" and record.details["notifications"] >= 1


def test_the_outbox_page_refuses_a_requeue_without_a_reason(mod_client):
    response = mod_client.post(reverse("admin:outbox"), {"action": "requeue", "reason": ""})
    assert response.status_code == 200
    assert "This field is required" in response.content.decode()
    assert not ModerationAction.objects.exists()


def test_the_outbox_page_is_for_staff_only(client, alice):
    client.force_login(alice)
    response = client.post(reverse("admin:outbox"), {"action": "sweep", "reason": "x"})
    assert response.status_code == 302 and "/login/" in response.url
    assert not ModerationAction.objects.exists()
    assert Game.objects.filter(status=Status.ACTIVE).count() == 0
