from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt

from accounts.forms import ProfileForm
from accounts.middleware import remember_time_zone
from accounts.models import User


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        remember_time_zone(request, user)
        messages.success(request, "Your profile is saved.")
        return redirect("profile")
    return render(request, "accounts/profile.html", {"form": form})


PREFERENCE_LABELS = {
    "notify_turn": "e-mails about your turns and games",
    "notify_reminder": "deadline reminders",
}


@csrf_exempt  # RFC 8058 one-click: mail clients POST here without a session or CSRF token
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """One click, no log-in: the signed link turns one kind of e-mail off for its user."""
    from games.notifications import read_unsubscribe_token

    try:
        user_id, preference = read_unsubscribe_token(token)
    except signing.BadSignature:
        return render(request, "accounts/unsubscribe.html", {"invalid": True}, status=400)
    user = User.objects.filter(pk=user_id, is_active=True).first()
    if user is None:
        return render(request, "accounts/unsubscribe.html", {"invalid": True}, status=400)
    if getattr(user, preference):
        setattr(user, preference, False)
        user.save(update_fields=[preference])
    return render(
        request,
        "accounts/unsubscribe.html",
        {"label": PREFERENCE_LABELS[preference], "who": user},
    )
