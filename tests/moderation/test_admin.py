"""The admin: staff only; each moderator action, its effect on the game and players, and its
audit record; the report queue; the dashboard's figures in a fixed number of queries."""

import json
from datetime import timedelta

import pytest
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from games import engines
from games.actions import deadlines, moves, tables
from games.models import ChatMessage, Game, ModerationAction, Move, Report, Seat, Status
from tests.support.games import start_geared

pytestmark = pytest.mark.django_db


def admin_urls(game, report, user):
    return [
        reverse("admin:index"),
        reverse("admin:games_game_changelist"),
        reverse("admin:games_game_change", args=[game.pk]),
        reverse("admin:games_game_moderate", args=[game.pk]),
        reverse("admin:games_report_changelist"),
        reverse("admin:games_report_handle", args=[report.pk]),
        reverse("admin:accounts_user_change", args=[user.pk]),
        reverse("admin:accounts_user_suspend", args=[user.pk]),
        reverse("admin:games_moderationaction_changelist"),
    ]


@pytest.fixture
def report(alice, bob, geared_game):
    message = ChatMessage.objects.post(geared_game, bob, "you are terrible")
    return Report.objects.create(message=message, reporter=alice, reason="insult")


def test_staff_see_every_admin_page(mod_client, geared_game, report, bob):
    for url in admin_urls(geared_game, report, bob):
        assert mod_client.get(url).status_code == 200, url


def test_non_staff_and_anonymous_get_no_admin_page(client, alice, geared_game, report, bob):
    for url in admin_urls(geared_game, report, bob):
        response = client.get(url)
        assert response.status_code == 302 and "/admin/login/" in response.url, url
    client.force_login(alice)
    for url in admin_urls(geared_game, report, bob):
        response = client.get(url)
        assert response.status_code == 302 and "/admin/login/" in response.url, url


def test_non_staff_cannot_moderate(client, alice, geared_game):
    client.force_login(alice)
    url = reverse("admin:games_game_moderate", args=[geared_game.pk])
    client.post(url, {"action": "abort", "reason": "because"})
    assert Game.objects.get(pk=geared_game.pk).status == Status.ACTIVE
    assert not ModerationAction.objects.exists()


def test_game_page_shows_each_players_view_but_never_the_seed(mod_client, geared_game):
    body = mod_client.get(reverse("admin:games_game_change", args=[geared_game.pk])).content
    body = body.decode()
    assert "state as each player sees it" in body.lower()
    assert str(geared_game.seed) not in body
    assert '"rng"' not in body


def moderate(client, game, **data):
    return client.post(reverse("admin:games_game_moderate", args=[game.pk]), data)


def test_abort_a_game_tells_the_players_and_is_recorded(
    mod_client, moderator, geared_game, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = moderate(mod_client, geared_game, action="abort", reason="abandoned")
    assert response.status_code == 302
    game = Game.objects.get(pk=geared_game.pk)
    assert game.status == Status.ABORTED and game.deadline is None
    assert not Seat.objects.filter(game=game, to_act=True).exists()
    assert sorted(m.to[0] for m in mail.outbox) == ["alice@example.com", "bob@example.com"]
    assert "stopped" in mail.outbox[0].subject
    record = ModerationAction.objects.get()
    assert (record.moderator, record.action, record.reason, record.game) == (
        moderator,
        "abort game",
        "abandoned",
        game,
    )


def test_replace_a_seat_with_a_bot(mod_client, moderator, bob, geared_game):
    seat = Seat.objects.get(game=geared_game, user=bob)
    response = moderate(mod_client, geared_game, action="replace", seat=seat.pk, reason="gone")
    assert response.status_code == 302
    seat.refresh_from_db()
    assert (seat.bot, seat.user, seat.replaced_user) == ("greedy", None, bob)
    record = ModerationAction.objects.get()
    assert (record.action, record.user, record.reason) == ("replace seat with bot", bob, "gone")
    game = Game.objects.get(pk=geared_game.pk)
    assert game.status == Status.ACTIVE  # the game goes on, the bot plays its turns


def test_extend_the_deadline(mod_client, geared_game):
    before = geared_game.deadline
    moderate(mod_client, geared_game, action="extend", hours=48, reason="holiday")
    game = Game.objects.get(pk=geared_game.pk)
    assert abs((game.deadline - before).total_seconds() - 48 * 3600) < 5
    assert ModerationAction.objects.get().action == "extend deadline"


def test_a_refused_action_says_why_and_changes_nothing(mod_client, alice, bob):
    game = start_geared(
        [alice, bob], public=True, target=1000
    )  # no time per turn: no deadline to extend
    response = moderate(mod_client, game, action="extend", hours=5, reason="x")
    assert response.status_code == 200
    assert "no deadline running" in response.content.decode()
    assert not ModerationAction.objects.exists()


def test_resolve_a_stuck_turn_again(mod_client, alice, bob, django_capture_on_commit_callbacks):
    game = tables.create_game(alice, tables.NewGame(kind="outofgears", seat_count=2, public=True))
    tables.join_game(bob, game.pk)
    tables.start_game(alice, game.pk)
    game.refresh_from_db()
    eng = engines.engine("outofgears")
    # Every program in, but the resolution task never ran (the worker died): a stuck turn.
    with django_capture_on_commit_callbacks(execute=False):
        for user in (alice, bob):
            game.refresh_from_db()
            seat = Seat.objects.get(game=game, user=user)
            action = eng.legal_actions(game.state, seat.seat_id)[0]
            moves.submit_action(user, game.pk, game.version, action)
    game.refresh_from_db()
    assert game.turn == 1 and game.due_since is not None
    Game.objects.filter(pk=game.pk).update(due_since=timezone.now() - timezone.timedelta(minutes=5))
    stuck = mod_client.get(reverse("admin:games_game_changelist"), {"stuck": "yes"})
    assert f"/admin/games/game/{game.pk}/change/" in stuck.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        moderate(mod_client, game, action="resolve", reason="worker died")
    game.refresh_from_db()
    assert game.turn == 2 and game.due_since is None
    assert ModerationAction.objects.get().details == {"turn": 1}


def test_the_move_log_and_state_are_read_only(mod_client, geared_game):
    page = mod_client.get(reverse("admin:games_game_change", args=[geared_game.pk]))
    body = page.content.decode()
    assert 'name="moves-0-action"' not in body and 'name="state"' not in body
    mod_client.post(
        reverse("admin:games_game_change", args=[geared_game.pk]),
        {"state": "{}", "version": "999", "status": "finished"},
    )
    game = Game.objects.get(pk=geared_game.pk)
    assert game.state == geared_game.state and game.version == geared_game.version
    assert game.status == Status.ACTIVE


def handle(client, report, **data):
    return client.post(reverse("admin:games_report_handle", args=[report.pk]), data)


def test_report_queue_lists_open_reports_with_the_message(mod_client, report):
    body = mod_client.get(reverse("admin:games_report_changelist"), {"state__exact": "open"})
    assert "you are terrible" in body.content.decode()
    page = mod_client.get(reverse("admin:games_report_change", args=[report.pk])).content
    assert "you are terrible" in page.decode()  # in context


def test_hiding_a_message_shows_players_it_was_removed(
    mod_client, client, alice, report, geared_game
):
    handle(mod_client, report, outcome="hidden", reason="insult")
    report.refresh_from_db()
    assert report.state == "hidden" and report.handled is not None
    assert ChatMessage.objects.get(pk=report.message_id).hidden
    client.force_login(alice)
    page = client.get(geared_game.get_absolute_url()).content.decode()
    assert "message hidden by a moderator" in page
    assert "you are terrible" not in page
    assert ModerationAction.objects.get().action == "hide message"


def test_dismissing_a_report(mod_client, report):
    handle(mod_client, report, outcome="dismissed", reason="banter")
    report.refresh_from_db()
    assert report.state == "dismissed"
    assert not ChatMessage.objects.get(pk=report.message_id).hidden
    assert ModerationAction.objects.get().action == "dismiss report"


def test_suspending_the_author_from_a_report(mod_client, report, bob):
    handle(mod_client, report, outcome="suspended", reason="repeated insults")
    bob.refresh_from_db()
    assert bob.is_suspended and bob.suspension_reason == "repeated insults"
    assert Report.objects.get(pk=report.pk).state == "suspended"
    # issue 27.8: the insult does not stay on the table
    assert ChatMessage.objects.get(pk=report.message_id).hidden
    actions = set(ModerationAction.objects.values_list("action", flat=True))
    assert actions == {"suspend user", "hide message"}


def test_the_audit_record_is_visible_in_the_admin(mod_client, moderator, geared_game):
    moderate(mod_client, geared_game, action="extend", hours=2, reason="asked nicely")
    body = mod_client.get(reverse("admin:games_moderationaction_changelist")).content.decode()
    assert "asked nicely" in body and "extend deadline" in body and moderator.username in body


def test_dashboard_figures_use_a_fixed_number_of_queries(mod_client, alice, bob, carol, report):
    def count_queries():
        with CaptureQueriesContext(connection) as ctx:
            response = mod_client.get(reverse("admin:index"))
        assert response.status_code == 200
        return len(ctx.captured_queries), response.context["figures"]

    few, figures = count_queries()
    assert figures["active"] == 1 and figures["open_reports"] == 1
    for _ in range(5):
        start_geared([alice, bob], public=True, target=1000, turn_seconds=43200)
    many, figures = count_queries()
    assert many == few
    assert figures["active"] == 6 and figures["waiting_on_deadline"] == 6
    assert figures["new_users"] >= 4


def test_state_json_in_admin_is_a_view(mod_client, geared_game, alice):
    seat = Seat.objects.get(game=geared_game, user=alice)
    view = engines.engine("geared").view(geared_game.state, seat.seat_id)
    body = mod_client.get(reverse("admin:games_game_change", args=[geared_game.pk])).content
    assert json.dumps(view["target"]) in body.decode()


# --- a game with no time limit held by the player to act (issue 22) ---------------------------


def _idle(game, days: int) -> None:
    """The game's last move (or start) was `days` days ago."""
    then = timezone.now() - timedelta(days=days)
    Game.objects.filter(pk=game.pk).update(started=then)
    Move.objects.filter(game=game).update(created=then)


def test_the_dashboard_shows_a_game_with_no_time_limit_held_by_a_player(mod_client, alice, bob):
    held = start_geared([alice, bob], public=True, target=1000)  # no time limit
    _idle(held, days=30)
    fresh = start_geared([alice, bob], public=True, target=1000)  # no time limit, but played today
    timed = start_geared([alice, bob], public=True, target=1000, turn_seconds=86400)
    _idle(timed, days=30)  # its deadline moves it: not stalled
    response = mod_client.get(reverse("admin:index"))
    assert response.context["figures"]["stalled"] == 1
    assert "Stalled games" in response.content.decode()
    listed = mod_client.get(reverse("admin:games_game_changelist") + "?stalled=yes")
    assert [g.pk for g in listed.context["cl"].result_list] == [held.pk]
    assert fresh.pk not in [g.pk for g in listed.context["cl"].result_list]


def test_a_moderator_sets_a_time_limit_and_the_turn_then_times_out(
    mod_client, moderator, alice, bob
):
    game = start_geared([alice, bob], public=True, target=1000)
    _idle(game, days=30)
    response = moderate(
        mod_client, game, action="time_limit", turn_seconds=43200, reason="held for a month"
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.turn_seconds == 43200
    assert abs((game.deadline - timezone.now()).total_seconds() - 43200) < 60
    record = ModerationAction.objects.get()
    assert (record.action, record.moderator, record.reason, record.game) == (
        "set time limit",
        moderator,
        "held for a month",
        game,
    )
    assert record.details["turn_seconds"] == 43200
    assert mod_client.get(reverse("admin:index")).context["figures"]["stalled"] == 0
    # The deadline runs as in any timed game: past it, the turn is played for the player.
    turn = game.turn
    assert deadlines.expire_turn(game.pk, turn, now=game.deadline + timedelta(seconds=1)) is True
    game.refresh_from_db()
    assert game.turn == turn + 1 and game.deadline > timezone.now()


def test_a_time_limit_is_refused_for_a_timed_game_and_changes_nothing(mod_client, geared_game):
    before = geared_game.deadline
    response = moderate(
        mod_client, geared_game, action="time_limit", turn_seconds=43200, reason="x"
    )
    assert response.status_code == 200
    assert "has a time limit already" in response.content.decode()
    geared_game.refresh_from_db()
    assert (geared_game.turn_seconds, geared_game.deadline) == (86400, before)
    assert not ModerationAction.objects.exists()
