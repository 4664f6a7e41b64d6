"""Issue 26 point 3: the profile's grid of channels, one switch per kind and channel. Each cell
turned off stops exactly that channel for that kind and nothing else (the push writer writes no
Push row for it; its e-mail is not sent), the migration keeps what the old switches meant, and
a bad POST of the profile changes nothing.

In-process: the tasks run eagerly on commit, pushes go to the loopback push service."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse

from games.actions import tables
from games.models import Game, Invitation, Kind, Notification, Push, Status
from games.notifications import queueing as notifications
from tests.notifications.push.helpers import subscribe
from tests.support.games import client_for, start_geared

State = Notification.State
Note = Notification.Kind

EVERYTHING = {
    (kind, channel)
    for kind in ("your_turn", "game_over", "invitation", "reminder")
    for channel in ("push", "email")
}
# The cell (a User field), what it stops.
CELLS = {
    "push_turn": ("your_turn", "push"),
    "notify_turn": ("your_turn", "email"),
    "email_digest": ("your_turn", "email"),  # the daily digest has it instead
    "push_game_over": ("game_over", "push"),
    "email_game_over": ("game_over", "email"),
    "push_invitation": ("invitation", "push"),
    "notify_invitation": ("invitation", "email"),
    "push_reminder": ("reminder", "push"),
    "notify_reminder": ("reminder", "email"),
}


def what_bob_got(commit, alice, bob) -> set[tuple[str, str]]:
    """Every kind of the grid, once, to bob (a device subscribed, and "e-mail me even when my
    device was notified" on, so that the e-mail's going does not depend on the push's): which
    (kind, channel) reached him."""
    game = commit(start_geared, [alice, bob], target=2000)
    seat = game.seats.get(user=bob)
    commit(notifications.queue, game, Note.YOUR_TURN, [seat], turn=game.turn)
    commit(notifications.queue, game, Note.REMINDER, [seat], turn=game.turn)
    Game.objects.filter(pk=game.pk).update(status=Status.FINISHED)
    game.refresh_from_db()
    commit(notifications.queue, game, Note.GAME_OVER, [seat])
    table = commit(tables.create_game, alice, tables.NewGame(kind=Kind.OUTOFGEARS, seat_count=3))
    commit(tables.invite, alice, table.pk, "bob")
    got = set()
    for push in Push.objects.filter(state=State.SENT).select_related("notification"):
        got.add(("invitation" if push.invitation_id else push.notification.kind, "push"))
    for note in Notification.objects.filter(user=bob, state=State.SENT):
        got.add((note.kind, "email"))
    if Invitation.objects.filter(user=bob, state=State.SENT).exists():
        got.add(("invitation", "email"))
    return got


def bob_with_a_device(push_service, bob, **cells):
    type(bob).objects.filter(pk=bob.pk).update(email_with_push=True, **cells)
    bob.refresh_from_db()
    subscribe(bob, push_service.device("phone"))


def test_with_every_cell_on_every_kind_reaches_both_channels(commit, push_service, alice, bob):
    """The defaults: today's behaviour, everything on (the digest off)."""
    bob_with_a_device(push_service, bob)
    assert what_bob_got(commit, alice, bob) == EVERYTHING


@pytest.mark.parametrize("cell", sorted(CELLS))
def test_one_cell_off_stops_exactly_that_channel_for_that_kind(
    commit, push_service, alice, bob, cell
):
    value = cell == "email_digest"  # the digest is the one turned on to take the turn e-mail
    bob_with_a_device(push_service, bob, **{cell: value})
    assert what_bob_got(commit, alice, bob) == EVERYTHING - {CELLS[cell]}
    if cell.startswith("push_"):  # the writer wrote no Push row for it, not one skipped later
        kind = CELLS[cell][0]
        rows = (
            Push.objects.filter(invitation__isnull=False)
            if kind == "invitation"
            else (Push.objects.filter(notification__kind=kind))
        )
        assert not rows.exists()


def test_push_off_for_turns_the_email_goes_at_once(commit, push_service, alice, bob, mailoutbox):
    """ "Push first, e-mail when no push reached them" is for a kind pushed: with the turn's push
    off, its e-mail does not wait PUSH_EMAIL_FALLBACK for a push that will never be."""
    type(bob).objects.filter(pk=bob.pk).update(push_turn=False)
    subscribe(bob, push_service.device("phone"))
    game = commit(start_geared, [alice, bob], target=2000)
    seat = game.seats.get(user=bob)
    commit(notifications.queue, game, Note.YOUR_TURN, [seat], turn=game.turn)
    assert Notification.objects.get(user=bob, kind=Note.YOUR_TURN).state == State.SENT
    assert not Push.objects.exists()


def test_with_email_off_a_failed_push_sends_no_email(commit, push_service, alice, bob):
    """E-mail off for game over: the push fails (service down), no e-mail follows."""
    type(bob).objects.filter(pk=bob.pk).update(email_game_over=False)
    subscribe(bob, push_service.device("phone"))
    push_service.stop()
    game = commit(start_geared, [alice, bob], target=2000)
    Game.objects.filter(pk=game.pk).update(status=Status.FINISHED)
    game.refresh_from_db()
    commit(notifications.queue, game, Note.GAME_OVER, [game.seats.get(user=bob)])
    assert Push.objects.get(notification__kind=Note.GAME_OVER).state != State.SENT
    assert Notification.objects.get(user=bob, kind=Note.GAME_OVER).state != State.SENT


# --- the profile's grid ------------------------------------------------------------------------

GRID = ["push_turn", "notify_turn", "push_game_over", "email_game_over", "push_invitation"]
GRID += ["notify_invitation", "push_reminder", "notify_reminder", "email_digest"]


def test_the_grid_is_a_table_with_labelled_boxes_and_saves_each_cell(push_on, bob):
    client = client_for(bob)
    html = client.get(reverse("profile")).content.decode()
    assert '<table class="channels">' in html and '<th scope="col">Push</th>' in html
    assert '<th scope="row">Game over</th>' in html
    assert html.index("</table>") < html.index('id="id_email_with_push"')  # about the grid
    assert '<label for="id_email_game_over" class="sr-only">E-mail for game over</label>' in html
    assert '<label for="id_push_reminder" class="sr-only">Push for deadline reminders' in html
    data = {"time_zone": "UTC", "push_turn": "on", "notify_reminder": "on"}
    assert client.post(reverse("profile"), data).status_code == 302
    bob.refresh_from_db()
    saved = {name: getattr(bob, name) for name in GRID}
    assert saved == {name: name in data for name in GRID}


def test_without_push_on_the_site_the_grid_has_no_push_column(settings, bob):
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    html = client_for(bob).get(reverse("profile")).content.decode()
    assert "id_email_game_over" in html and "id_push_turn" not in html
    assert client_for(bob).post(reverse("profile"), {"time_zone": "UTC"}).status_code == 302
    bob.refresh_from_db()
    assert bob.push_turn and not bob.notify_turn  # a column not shown is not turned off


def test_a_bad_post_changes_nothing(push_on, bob):
    before = {name: getattr(bob, name) for name in GRID}
    data = {"time_zone": "Mars/Olympus", "push_turn": "on"}  # everything else unticked
    answer = client_for(bob).post(reverse("profile"), data)
    assert answer.status_code == 200
    bob.refresh_from_db()
    assert {name: getattr(bob, name) for name in GRID} == before


# --- the migration -----------------------------------------------------------------------------

BEFORE = [("accounts", "0011_email_with_push")]
AFTER = [("accounts", "0012_channel_grid")]


@pytest.fixture
def back_to_the_latest_schema():
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_what_the_old_switches_meant(back_to_the_latest_schema):
    """ "E-mail me when it is my turn" also governed the game-over e-mail; "Remind me before a
    deadline" reminders on every channel; pushes of turns, game over and invitations followed
    the device's switch only."""
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps.get_model("accounts", "User")
    for name, turn, reminder in [
        ("quiet", False, False),
        ("half", True, False),
        ("all", True, True),
    ]:
        old.objects.create(username=name, notify_turn=turn, notify_reminder=reminder)
    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps.get_model("accounts", "User")
    fields = ["email_game_over", "push_reminder", "push_turn", "push_game_over", "push_invitation"]
    got = {u["username"]: u for u in new.objects.values("username", "notify_turn", *fields)}
    assert {n: (u["notify_turn"], u["email_game_over"]) for n, u in got.items()} == {
        "quiet": (False, False),
        "half": (True, True),
        "all": (True, True),
    }
    assert {n: u["push_reminder"] for n, u in got.items()} == {
        "quiet": False,
        "half": False,
        "all": True,
    }
    assert all(
        u["push_turn"] and u["push_game_over"] and u["push_invitation"] for u in got.values()
    )
