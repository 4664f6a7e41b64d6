"""The daily digest (issue 14): a player who chose it gets no e-mail per turn, and one e-mail a
day, at GEARTABLE_DIGEST_HOUR of their own time zone, listing every game that waits for them.
It goes through the same outbox as every e-mail: once per player and day, retried, swept."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse

from games.models import Digest, Notification
from games.notifications import digest as digests
from games.notifications import outbox
from tests.notifications.helpers import play_turn
from tests.support.games import seat_to_act, start_geared, start_oog

pytestmark = pytest.mark.django_db(transaction=True)


def to(mailoutbox, user) -> list:
    return [m for m in mailoutbox if user.email in m.to]


def digest_player(user, zone="UTC"):
    user.email_digest, user.time_zone = True, zone
    user.save(update_fields=["email_digest", "time_zone"])
    return user


def at(hour: int, zone: str = "UTC") -> datetime:
    return datetime(2026, 12, 2, hour, 30, tzinfo=ZoneInfo(zone))


def test_a_digest_player_gets_no_email_per_turn(mailoutbox, alice, bob):
    digest_player(bob)
    game = start_geared([alice, bob], target=2000)
    for _ in range(3):
        play_turn(game)
    assert to(mailoutbox, bob) == []
    rows = Notification.objects.filter(user=bob, kind=Notification.Kind.YOUR_TURN)
    assert rows.exists()
    assert set(rows.values_list("error", flat=True)) == {"Left for the player's daily digest."}
    assert to(mailoutbox, alice), "the other player still gets hers"


def test_the_digest_lists_every_waiting_game_once_a_day_at_the_players_hour(
    mailoutbox, settings, alice, bob, carol
):
    settings.GEARTABLE_DIGEST_HOUR = 7
    digest_player(bob, "Europe/Paris")
    games = [start_oog([alice, bob]), start_oog([carol, bob])]  # bob programs in both
    quiet = start_geared([alice, bob], target=2000)
    if seat_to_act(quiet).user_id == bob.pk:
        play_turn(quiet)  # so that this one does not wait for bob
    mailoutbox.clear()

    assert digests.queue_digests(at(7, "UTC")) == [], "08:30 in Paris: not his hour"
    created = digests.queue_digests(at(7, "Europe/Paris"))
    assert len(created) == 1
    (message,) = to(mailoutbox, bob)
    assert message.subject == "2 games wait for you on Geartable"
    body = message.body
    for game in games:
        assert f"#{game.pk}" in body and game.get_absolute_url() in body
    assert f"#{quiet.pk}" not in body
    assert message.extra_headers["List-Unsubscribe"].startswith("<http")
    assert message.extra_headers["Message-ID"] == f"<digest-{created[0]}@testserver>"

    # The same hour again (a beat restarted): nothing more.
    assert digests.queue_digests(at(7, "Europe/Paris")) == []
    assert len(to(mailoutbox, bob)) == 1
    assert Digest.objects.get().day.isoformat() == "2026-12-02"


def test_no_digest_when_nothing_waits_or_when_it_is_off(mailoutbox, settings, alice, bob):
    settings.GEARTABLE_DIGEST_HOUR = 7
    digest_player(bob)
    assert digests.queue_digests(at(7)) == [], "no game at all"
    start_oog([alice, bob])
    bob.notify_turn = False
    bob.save(update_fields=["notify_turn"])
    assert digests.queue_digests(at(7)) == [], "turn e-mails off: no digest either"
    assert mailoutbox == []


def test_a_failed_digest_is_retried_by_the_sweep(closed_port_mail, settings, alice, bob):
    settings.GEARTABLE_DIGEST_HOUR = 7
    digest_player(bob)
    start_oog([alice, bob])
    (digest_id,) = digests.queue_digests(at(7))
    digest = Digest.objects.get(pk=digest_id)
    assert digest.state == "pending" and digest.attempts == 1 and digest.next_attempt
    assert outbox.due_rows(Digest).count() == 0, "not before its backoff"


def test_the_profile_offers_the_digest(client, alice):
    client.force_login(alice)
    page = client.get(reverse("profile")).content.decode()
    assert 'name="email_digest"' in page
