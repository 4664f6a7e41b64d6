"""A moderator's abort says why, on the page (tests/views/test_every_change_reaches_the_page.py)
and in the players' e-mail, whose template always had a place for the reason that nothing
filled (issue 25.2)."""

import pytest
from django.core import mail

from games.actions import moderation

pytestmark = pytest.mark.django_db


def test_the_abort_email_gives_the_moderators_reason(
    moderator, geared_game, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        moderation.abort_game(moderator, geared_game.pk, "Both players asked for it.")
    assert len(mail.outbox) == 2
    for message in mail.outbox:
        assert "Reason: Both players asked for it." in message.body
