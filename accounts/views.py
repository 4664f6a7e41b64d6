from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from accounts.forms import ProfileForm
from accounts.middleware import remember_time_zone
from accounts.models import User
from accounts.views_vacation import vacation_context
from games.notifications import read_unsubscribe_token


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        remember_time_zone(request, user)
        messages.success(request, "Your profile is saved.")
        return redirect("profile")
    context = {"form": form, **vacation_context(request.user)}
    return render(request, "accounts/profile.html", context)


PREFERENCE_LABELS = {
    "notify_turn": "e-mails about your turns and games",
    "notify_reminder": "deadline reminders",
    "notify_invitation": "e-mails when a player invites you",
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
        return render(request, "accounts/unsubscribe.html", {"invalid": True}, status=400)
    user = User.objects.filter(mail_key=mail_key, is_active=True).first()
    if user is None:
        return render(request, "accounts/unsubscribe.html", {"invalid": True}, status=400)
    done = request.method == "POST"
    if done and getattr(user, preference):
        setattr(user, preference, False)
        user.save(update_fields=[preference])
    return render(
        request,
        "accounts/unsubscribe.html",
        {"label": PREFERENCE_LABELS[preference], "who": user, "done": done},
    )
