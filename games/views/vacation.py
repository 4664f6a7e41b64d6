"""The profile's vacation box: set a date to be away until, or end it early."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.models import User
from games import vacation_dates as rules
from games.actions import time_off  # what a vacation does to games
from games.forms import ProfileForm, VacationForm
from games.reads import dates


def vacation_context(user: User, form: VacationForm | None = None, error: str = "") -> dict:
    """What the profile shows of the player's vacation: the dates, the allowance left."""
    away = user.is_away
    latest = rules.latest_return(user)
    if form is None:
        form = VacationForm(initial={"until": user.away_until} if away else None)
    form.fields["until"].widget.attrs.update(
        {"min": rules.local_today(user).isoformat(), "max": latest.isoformat() if latest else ""}
    )
    return {
        "vacation": {
            "away": away,
            "until": user.away_until if away else None,
            "allowance": rules.allowance(user),
            "latest": latest,
            "form": form,
            "error": error,
        }
    }


@login_required
@require_POST
def vacation(request: HttpRequest) -> HttpResponse:
    user = request.user
    form = VacationForm(request.POST if request.POST.get("action") == "set" else None)
    try:
        match request.POST.get("action"):
            case "set":
                if not form.is_valid():
                    raise rules.VacationError(form.errors["until"][0])
                until = form.cleaned_data["until"]
                time_off.take(user, until)
                said = _("You are away until %(date)s: your games wait for you.")
                messages.success(request, said % {"date": dates.day(until)})
            case "end":
                time_off.come_back(user)
                messages.success(request, _("Welcome back: your games' deadlines run again."))
            case _:
                raise rules.VacationError(_("Choose to set a vacation or to end it."))
    except rules.VacationError as exc:
        user.refresh_from_db()
        context = {
            "form": ProfileForm(instance=user),
            **vacation_context(user, form if form.is_bound else None, exc.message),
        }
        return render(request, "games/profile.html", context, status=exc.status)
    return redirect("profile")
