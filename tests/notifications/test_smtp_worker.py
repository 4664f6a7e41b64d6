"""E-mails end to end: a move commits, a real Celery worker on Redis picks the task up, and a
real SMTP server (aiosmtpd) receives the message."""

from __future__ import annotations

import json
import zoneinfo

import pytest
from django.conf import settings
from django.urls import resolve, reverse
from django.utils import dateformat, timezone

from games.engines.geared.cards import card_name
from games.engines.outofgears import engine as oog
from games.models import Notification
from games.pages.outofgears_text import describe
from tests.notifications.helpers import (
    end_turn_choice,
    html_part,
    notes,
    submit_program,
    text_part,
    unsubscribe_url,
)
from tests.support.games import client_for, seat_to_act, start_geared, start_oog
from tests.support.waiting import wait_for

# The worker reads committed rows through its own connection: no test-wrapping transaction.
pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def all_sent(game) -> bool:
    rows = notes(game)
    # Not pending nor being sent: a row in SENDING may still be talking to the SMTP server.
    busy = (Notification.State.PENDING, Notification.State.SENDING)
    return rows.exists() and not rows.filter(state__in=busy).exists()


def public_names(action: dict) -> set[str]:
    """Names of the cards the mover showed everyone (the cards played or discarded)."""
    cards = list(action.get("cards", [])) + [action[k] for k in ("card",) if k in action]
    names = {card_name(c) for c in cards}
    level = action.get("level")
    names |= {card_name(c, level) for c in cards if level}
    return names


def test_a_geared_move_mails_the_next_player_one_your_turn_email(
    celery_worker, smtp_mail, alice, bob
):
    game = start_geared([alice, bob], target=2000)
    wait_for(lambda: all_sent(game) or not notes(game).exists(), what="the start's e-mails")
    mover_seat = seat_to_act(game)
    mover = mover_seat.user
    waiting = bob if mover == alice else alice
    before_to_mover = len(smtp_mail.to(mover.email))
    assert smtp_mail.to(waiting.email) == []

    action = end_turn_choice(game, mover_seat)
    client = client_for(mover)
    response = client.post(
        reverse("game_move", args=[game.pk]),
        {"action": json.dumps(action), "version": str(game.version)},
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.turn == 2

    (message,) = smtp_mail.wait_for(1, to=waiting.email)
    wait_for(lambda: all_sent(game), what="every notification to be sent")
    celery_worker.tasks.wait_until_idle()  # a duplicate would have been sent by now
    assert len(smtp_mail.to(waiting.email)) == 1, "exactly one e-mail for the next player"
    assert len(smtp_mail.to(mover.email)) == before_to_mover, "the mover is not told"
    assert notes(game, Notification.Kind.YOUR_TURN, user=waiting).count() == 1

    assert message["X-Envelope-To"] == waiting.email
    assert message["Subject"] == f"Your turn in Geared: Build Your Bike #{game.pk}"
    link = f"{settings.SITE_URL}/games/{game.pk}/"
    text, html = text_part(message), html_part(message)
    for part in (text, html):
        assert link in part
        assert f"Hello {waiting.name}," in part
    assert f"{mover.name} drew" in text, "what happened since their last turn"
    unsubscribe = unsubscribe_url(message)
    assert unsubscribe.startswith(settings.SITE_URL)
    assert resolve(unsubscribe.removeprefix(settings.SITE_URL)).url_name == "unsubscribe"
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"

    # G19: the mover's hand (the cards just drawn included) is theirs alone.
    hand = game.state["hands"][mover_seat.seat_id]
    assert hand, "the mover holds cards after drawing"
    hidden = {card_name(c) for c in hand} - public_names(action)
    for name in hidden:
        assert name not in text, f"the e-mail names a card of {mover.name}'s hand: {name}"
        assert name not in html, f"the e-mail names a card of {mover.name}'s hand: {name}"


def test_an_out_of_gears_resolution_mails_every_player_the_story(
    celery_worker, smtp_mail, alice, bob, carol
):
    carol.time_zone = "Europe/Paris"
    carol.save(update_fields=["time_zone"])
    game = start_oog([alice, bob, carol], turn_seconds=86400)
    wait_for(lambda: all_sent(game), what="the start's e-mails")

    for user in (alice, bob, carol):
        submit_program(game, user)

    def resolved():
        return [m for m in smtp_mail.messages if "Turn 1 resolved" in m["Subject"]]

    wait_for(lambda: len(resolved()) >= 3, what="three turn-resolved e-mails")
    wait_for(lambda: all_sent(game), what="every notification to be sent")
    celery_worker.tasks.wait_until_idle()  # a duplicate would have been sent by now
    game.refresh_from_db()
    assert game.turn == 2
    messages = {m["X-Envelope-To"]: m for m in resolved()}
    assert sorted(messages) == sorted(u.email for u in (alice, bob, carol))
    assert len(resolved()) == 3, "one each"

    view = oog.view(game.state, None)
    robot_names = {key: r["player"] for key, r in view["robots"].items()}
    story = next(s for s in view["story"] if s["turn"] == 1)
    sentences = [describe(e, robot_names) for e in story["events"]]
    assert sentences, "turn 1 tells a story"
    assert game.deadline is not None
    for user in (alice, bob, carol):
        message = messages[user.email]
        assert (
            message["Subject"] == f"Turn 1 resolved — program your robots (Out of Gears #{game.pk})"
        )
        text = text_part(message)
        assert f"Hello {user.name}," in text
        for sentence in sentences:
            assert sentence in text
        local = timezone.localtime(game.deadline, zoneinfo.ZoneInfo(user.time_zone))
        assert dateformat.format(local, "D j M, H:i e") in text, "the deadline, in their zone"
        assert f"{settings.SITE_URL}/games/{game.pk}/" in html_part(message)
