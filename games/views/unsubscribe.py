"""The unsubscribe link of every e-mail: one kind of e-mail turned off, without a log-in."""

from __future__ import annotations

from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from accounts.models import User
from games.notifications.unsubscribe import read_unsubscribe_token

PREFERENCE_LABELS = {
    "notify_turn": _("e-mails about your turns"),
    "email_game_over": _("e-mails when a game ends"),
    "notify_reminder": _("deadline reminders"),
    "notify_invitation": _("e-mails when a player invites you"),
}


@csrf_exempt  # RFC 8058 one-click: mail clients POST here without a session or CSRF token
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """The signed link of an e-mail, no log-in: GET asks with one button (mail scanners follow
    links, and must not unsubscribe anyone); POST, from that button or a mail client's
    one-click (List-Unsubscribe-Post), turns that kind of e-mail off."""

    try:
        mail_key, preference = read_unsubscribe_token(token)
    except signing.BadSignature:
        return render(request, "games/unsubscribe.html", {"invalid": True}, status=400)
    user = User.objects.filter(mail_key=mail_key, is_active=True).first()
    if user is None:
        return render(request, "games/unsubscribe.html", {"invalid": True}, status=400)
    done = request.method == "POST"
    if done and getattr(user, preference):
        setattr(user, preference, False)
        user.save(update_fields=[preference])
    return render(
        request,
        "games/unsubscribe.html",
        {"label": PREFERENCE_LABELS[preference], "who": user, "done": done},
    )
