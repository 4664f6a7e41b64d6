"""A game that cannot wait: a moderator exempts it from vacation pauses in the admin (recorded
with the reason), and its deadlines then run while a player is away."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.actions import deadlines, time_off
from games.models import ModerationAction

pytestmark = pytest.mark.django_db


def moderate(client, game, action: str, reason: str = "a league game with a fixed end"):
    url = reverse("admin:games_game_moderate", args=[game.pk])
    return client.post(url, {"action": action, "reason": reason, "hours": 24})


def paused_game(game):
    """The player to act goes away and the deadline passes: the game is paused for them."""
    seat = next(s for s in game.seats.select_related("user") if s.to_act)
    time_off.take(seat.user, timezone.localdate() + timedelta(days=10))
    game.refresh_from_db()
    assert (
        deadlines.expire_turn(game.pk, game.turn, now=game.deadline + timedelta(seconds=1)) is False
    )
    game.refresh_from_db()
    return seat


def test_a_moderator_exempts_a_paused_game_and_its_deadline_runs_again(mod_client, geared_game):
    seat = paused_game(geared_game)
    assert geared_game.deadline > timezone.now() + timedelta(days=10)
    response = moderate(mod_client, geared_game, "exempt")
    assert response.status_code == 302
    geared_game.refresh_from_db()
    assert geared_game.vacation_exempt is True
    assert geared_game.deadline <= timezone.now() + timedelta(days=1), "a turn's time from now"
    record = ModerationAction.objects.get(game=geared_game)
    assert record.action == "exempt from vacations"
    assert record.reason == "a league game with a fixed end" and record.details["exempt"] is True
    deadline = geared_game.deadline + timedelta(seconds=1)
    assert deadlines.expire_turn(geared_game.pk, geared_game.turn, now=deadline) is True
    seat.refresh_from_db()
    assert seat.missed_deadlines == 1


def test_exempting_twice_is_refused_and_ending_it_is_recorded(mod_client, geared_game):
    assert moderate(mod_client, geared_game, "exempt").status_code == 302
    response = moderate(mod_client, geared_game, "exempt")
    assert response.status_code == 200 and "This game is already exempt." in response.text
    assert moderate(mod_client, geared_game, "unexempt").status_code == 302
    geared_game.refresh_from_db()
    assert geared_game.vacation_exempt is False
    actions = list(ModerationAction.objects.values_list("action", flat=True))
    assert actions == ["end vacation exemption", "exempt from vacations"]


def test_players_cannot_exempt_a_game(client, alice, geared_game):
    client.force_login(alice)
    response = moderate(client, geared_game, "exempt")
    assert response.status_code == 302 and "/login/" in response["Location"]
    geared_game.refresh_from_db()
    assert geared_game.vacation_exempt is False and not ModerationAction.objects.exists()


def test_the_admin_lists_vacations(mod_client, alice):
    time_off.take(alice, timezone.localdate() + timedelta(days=3))
    response = mod_client.get(reverse("admin:accounts_vacation_changelist"))
    assert response.status_code == 200 and "Alice" in response.text
