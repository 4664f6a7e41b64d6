"""E-mails to players: one template trio per message (subject, text body, HTML body)."""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from games.models import Invitation

log = logging.getLogger(__name__)


def absolute(path: str) -> str:
    return f"{settings.SITE_URL}{path}"


def send_trio(name: str, to: str, context: dict, headers: dict | None = None) -> None:
    """Render templates/emails/<name>_subject.txt, <name>.txt and <name>.html, and send."""
    context = {"site_url": settings.SITE_URL, **context}
    subject = " ".join(render_to_string(f"emails/{name}_subject.txt", context).split())
    text = render_to_string(f"emails/{name}.txt", context)
    html = render_to_string(f"emails/{name}.html", context)
    message = EmailMultiAlternatives(subject, text, to=[to], headers=headers or {})
    message.attach_alternative(html, "text/html")
    message.send()


def send_invitation(invitation_id: int) -> bool:
    """Idempotent: an invitation is sent once, however often the task runs."""
    with transaction.atomic():
        invitation = (
            Invitation.objects.select_for_update()
            .select_related("game", "inviter", "user")
            .filter(pk=invitation_id, sent__isnull=True)
            .first()
        )
        if invitation is None:
            return False
        game = invitation.game
        if invitation.user is not None:
            to, name = invitation.user.email, invitation.user.name
            link = absolute(reverse("game", args=[game.pk]))
        else:
            to, name = invitation.email, None
            link = absolute(reverse("accept_invitation", args=[invitation.token]))
        if not to:
            return False
        send_trio(
            "invitation",
            to,
            {"game": game, "inviter": invitation.inviter.name, "name": name, "link": link},
        )
        invitation.sent = timezone.now()
        invitation.save(update_fields=["sent"])
    return True
