"""The daily digest: who gets one, queued at their hour, and sending it."""

from __future__ import annotations

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games import effects, vacation
from games.models import (
    Digest,
    Seat,
    Status,
)
from games.notifications import outbox
from games.notifications.email import (
    _OneLineHeader,
    _zone,
    absolute,
    message_id,
    render_trio,
    send_claimed,
    speaking_to,
)
from games.notifications.queueing import Kind, finishing, may_mail
from games.notifications.unsubscribe import unsubscribe_token


def digest_candidates():
    """Players who chose the digest, may be mailed about turns, and have a game waiting."""

    return User.objects.filter(
        email_digest=True,
        notify_turn=True,
        is_active=True,
        seats__to_act=True,
        seats__game__status=Status.ACTIVE,
    ).distinct()


def queue_digests(now=None) -> list[int]:
    """Hourly: a digest row for each candidate whose local time is GEARTABLE_DIGEST_HOUR, once a
    day (the unique key), each sent after commit. Returns the ids of the rows created."""
    now = now or timezone.now()
    created_ids = []
    for user in digest_candidates():
        local = now.astimezone(_zone(user))
        if local.hour != settings.GEARTABLE_DIGEST_HOUR or not may_mail(user, Kind.YOUR_TURN):
            continue
        digest, created = Digest.objects.get_or_create(
            user=user, day=local.date(), defaults={"next_attempt": outbox.first_attempt()}
        )
        if created:
            created_ids.append(digest.pk)
            effects.after_commit("games.tasks.send_digest", digest.pk)
    return created_ids


def deliver_digest(digest_id: int) -> bool:
    """Send one digest if it is still pending, as deliver() sends a notification."""
    digest = outbox.claim(Digest.objects.select_related("user"), digest_id)
    if digest is None:
        return False
    if not finishing(digest) and vacation.skip_digest(digest):
        return False
    user = digest.user
    waiting = list(
        Seat.objects.filter(user=user, to_act=True, game__status=Status.ACTIVE)
        .select_related("game")
        .order_by("game__deadline", "game_id")
    )
    if not may_mail(user, Kind.YOUR_TURN) or not user.email_digest:
        outbox.mark_skipped(digest, "No longer wanted: the player turned it off.")
        return False
    if not waiting:  # a digest of nothing says nothing, even one begun before
        outbox.mark_skipped(digest, "Nothing waits for the player any more.")
        return False
    unsubscribe = absolute(reverse("unsubscribe", args=[unsubscribe_token(user, "notify_turn")]))
    context = {
        "name": user.name,
        "games": [{"game": s.game, "link": absolute(s.game.get_absolute_url())} for s in waiting],
        "link": absolute(reverse("my_games")),
        "unsubscribe": unsubscribe,
        "profile_link": absolute(reverse("profile")),
    }
    headers = {
        "Message-ID": message_id(digest),
        "List-Unsubscribe": _OneLineHeader("List-Unsubscribe", f"<{unsubscribe}>"),
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }

    def build() -> EmailMultiAlternatives:
        with speaking_to(user):  # their language and time zone
            return render_trio("digest", user.email, context, headers)

    return send_claimed(digest, build)
