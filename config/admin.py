"""Geartable's admin site: Django's admin with a moderator's dashboard on the index page."""

from datetime import timedelta

from django.contrib import admin
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.db.models import Count, Q
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme, urlencode

STUCK_AFTER = timedelta(minutes=1)


def dashboard_figures() -> dict:
    """The figures a moderator checks first, in a fixed number of queries (4)."""
    from accounts.models import User
    from games.models import Game, Notification, Report, Status

    now = timezone.now()
    games = Game.objects.aggregate(
        active=Count("pk", filter=Q(status=Status.ACTIVE)),
        waiting_on_deadline=Count("pk", filter=Q(status=Status.ACTIVE, deadline__isnull=False)),
        overdue=Count("pk", filter=Q(status=Status.ACTIVE, deadline__lt=now)),
        stuck=Count("pk", filter=Q(status=Status.ACTIVE, all_in_since__lt=now - STUCK_AFTER)),
    )
    return {
        **games,
        "failed_emails": Notification.objects.filter(state=Notification.State.FAILED).count(),
        "open_reports": Report.objects.filter(state=Report.State.OPEN).count(),
        "new_users": User.objects.filter(date_joined__gte=now - timedelta(days=7)).count(),
    }


class GeartableAdminSite(admin.AdminSite):
    site_header = "Geartable moderation"
    site_title = "Geartable admin"
    index_title = "Dashboard"
    index_template = "admin/geartable_index.html"

    def login(self, request, extra_context=None):
        """One door: the site's own log-in (allauth), with its rate limit on failed attempts.

        Django's admin log-in form has no limit at all; it checks no password here."""
        if request.user.is_authenticated:
            if self.has_permission(request):
                return redirect(self._next(request))
            # A player's session: the admin sent them here, and a log-in page would loop.
            message = "Your account has no access to the moderation pages."
            return render(request, "bad_request.html", {"message": message}, status=403)
        query = urlencode({REDIRECT_FIELD_NAME: self._next(request)})
        return redirect(f"{reverse('account_login')}?{query}")

    def _next(self, request) -> str:
        target = request.GET.get(REDIRECT_FIELD_NAME, "")
        safe = url_has_allowed_host_and_scheme(
            target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        )
        return (
            target
            if safe and target.startswith("/")
            else reverse("admin:index", current_app=self.name)
        )

    def index(self, request, extra_context=None):
        extra_context = {**(extra_context or {}), "figures": dashboard_figures()}
        return super().index(request, extra_context)
