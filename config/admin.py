"""Geartable's admin site: Django's admin with a moderator's dashboard on the index page."""

from datetime import timedelta

from django.contrib import admin
from django.db.models import Count, Q
from django.utils import timezone

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

    def index(self, request, extra_context=None):
        extra_context = {**(extra_context or {}), "figures": dashboard_figures()}
        return super().index(request, extra_context)
