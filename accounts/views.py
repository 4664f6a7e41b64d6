from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from accounts.forms import ProfileForm
from accounts.middleware import remember_time_zone
from games.views.players import following_context
from games.views.vacation import vacation_context


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        remember_time_zone(request, user)
        messages.success(request, "Your profile is saved.")
        return redirect("profile")
    context = {"form": form, **vacation_context(request.user), **following_context(request.user)}
    return render(request, "accounts/profile.html", context)
