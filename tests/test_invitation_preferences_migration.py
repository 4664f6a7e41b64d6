"""Issue 22, point 6: a player who had turned every e-mail off before invitation e-mails had a
switch of their own gets none after the migration that adds it; the others keep getting them."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("accounts", "0007_name_skeletons")]
AFTER = [("accounts", "0008_invitation_preferences")]


@pytest.fixture
def back_to_the_latest_schema():
    """The test moves the schema back; every later test in this process needs all of it (a
    migration added after 0008 was missing for them: the column did not exist)."""
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_every_email_off_before_means_invitation_emails_off_after(back_to_the_latest_schema):
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps.get_model("accounts", "User")
    players = [("quiet", False, False), ("half", False, True), ("all", True, True)]
    for name, turn, reminder in players:
        old.objects.create(username=name, notify_turn=turn, notify_reminder=reminder)
    executor = MigrationExecutor(connection)  # the graph again, as `migrate` reads it
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps.get_model("accounts", "User")
    wanted = dict(new.objects.values_list("username", "notify_invitation"))
    assert wanted == {"quiet": False, "half": True, "all": True}
