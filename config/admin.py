"""Geartable's admin site: Django's admin with a moderator's dashboard on the index page, and
the outbox page (what the server still owes: e-mails and game steps; docs/delivery.md)."""

from datetime import timedelta

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.db.models import Count, Min, Q
from django.shortcuts import redirect, render
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from games import tasks
from games.actions import moderation
from games.models import (
    AccountMail,
    Digest,
    Game,
    Invitation,
    Notification,
    Push,
    Report,
    Status,
)
from games.notifications import outbox
from games.reads import due

# A game owed a step (a resolution, a bot's move) for longer than this is "stuck": the sweep
# should have repaired it by then (one sweep interval after the grace period).
STUCK_AFTER = timedelta(minutes=1)
# The ages the outbox page counts waiting e-mails by.
AGES = [
    (_("under 5 minutes"), timedelta(0), timedelta(minutes=5)),
    (_("5 minutes to 1 hour"), timedelta(minutes=5), timedelta(hours=1)),
    (_("1 hour to 1 day"), timedelta(hours=1), timedelta(days=1)),
    (_("over a day"), timedelta(days=1), None),
]


def stuck_after() -> timedelta:
    return max(STUCK_AFTER, timedelta(seconds=settings.OUTBOX_GAME_GRACE * 2))


def dashboard_figures() -> dict:
    """The figures a moderator checks first, in a fixed number of queries (6)."""
    now = timezone.now()
    games = Game.objects.aggregate(
        active=Count("pk", filter=Q(status=Status.ACTIVE)),
        waiting_on_deadline=Count("pk", filter=Q(status=Status.ACTIVE, deadline__isnull=False)),
        overdue=Count("pk", filter=Q(status=Status.ACTIVE, deadline__lt=now)),
        stuck=Count("pk", filter=Q(status=Status.ACTIVE, due_since__lt=now - stuck_after())),
    )
    failed = Q(state=Notification.State.FAILED)
    late = Q(state__in=["pending", "sending"], created__lt=now - timedelta(minutes=5))
    emails = Notification.objects.aggregate(
        failed=Count("pk", filter=failed), late=Count("pk", filter=late)
    )
    invitations = Invitation.objects.aggregate(
        failed=Count("pk", filter=failed), late=Count("pk", filter=late)
    )
    accounts = AccountMail.objects.aggregate(
        failed=Count("pk", filter=failed), late=Count("pk", filter=late)
    )
    return {
        **games,
        "failed_emails": emails["failed"] + invitations["failed"] + accounts["failed"],
        "late_emails": emails["late"] + invitations["late"] + accounts["late"],
        "open_reports": Report.objects.filter(state=Report.State.OPEN).count(),
        "new_users": User.objects.filter(date_joined__gte=now - timedelta(days=7)).count(),
        "stalled": due.stalled_games(now).count(),
        "stalled_days": due.STALLED_AFTER.days,
    }


def outbox_figures() -> dict:
    """What is owed, for the outbox page: e-mails by state and age, stuck games; and what may
    have gone twice (sent again after an attempt that may have arrived)."""
    now = timezone.now()
    rows = []
    models = (
        (_("Notifications"), Notification),
        (_("Invitations"), Invitation),
        (_("Digests"), Digest),
        (_("Account e-mails"), AccountMail),
        (_("Pushes to devices"), Push),
    )
    for label, model in models:
        counts = {"pending": Q(state="pending"), "retrying": Q(state="pending", attempts__gt=0)}
        counts |= {"sending": Q(state="sending"), "failed": Q(state="failed")}
        counts["maybe_doubled"] = outbox.MAYBE_DOUBLED
        aggregates = {name: Count("pk", filter=q) for name, q in counts.items()}
        for i, (_label, young, old) in enumerate(AGES):
            age = Q(created__lte=now - young) & (Q(created__gt=now - old) if old else Q())
            aggregates[f"age{i}"] = Count("pk", filter=Q(state__in=["pending", "sending"]) & age)
        aggregates["oldest"] = Min("created", filter=Q(state__in=["pending", "sending"]))
        figures = model.objects.aggregate(**aggregates)
        figures["ages"] = [figures.pop(f"age{i}") for i in range(len(AGES))]
        rows.append((label, model._meta.model_name, figures))
    stuck = list(
        Game.objects.filter(status=Status.ACTIVE, due_since__lt=now - stuck_after())
        .order_by("due_since")
        .values("pk", "kind", "turn", "due_since")[:50]
    )
    problems = list(
        Notification.objects.filter(state__in=["pending", "failed"], attempts__gt=0)
        .select_related("user")
        .order_by("created")[:20]
    )
    return {
        "rows": rows,
        "ages": [label for label, _young, _old in AGES],
        "stuck": stuck,
        "problems": problems,
    }


class OutboxActionForm(forms.Form):
    ACTIONS = [
        ("requeue", _("Send every failed e-mail again (another day of retries)")),
        ("sweep", _("Run the sweep now (re-queue everything overdue)")),
    ]
    action = forms.ChoiceField(label=_("Action"), choices=ACTIONS, widget=forms.RadioSelect)
    reason = forms.CharField(
        label=_("Reason"), max_length=500, help_text=_("Recorded in the moderation log.")
    )


class GeartableAdminSite(admin.AdminSite):
    site_header = _("Geartable moderation")
    site_title = _("Geartable admin")
    index_title = _("Dashboard")
    index_template = "admin/geartable_index.html"

    def login(self, request, extra_context=None):
        """One door: the site's own log-in (allauth), with its rate limit on failed attempts.

        Django's admin log-in form has no limit at all; it checks no password here."""
        if request.user.is_authenticated:
            if self.has_permission(request):
                return redirect(self._next(request))
            # A player's session: the admin sent them here, and a log-in page would loop.
            message = gettext("Your account has no access to the moderation pages.")
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

    def get_urls(self):
        return [
            path("outbox/", self.admin_view(self.outbox_view), name="outbox"),
            *super().get_urls(),
        ]

    def outbox_view(self, request):
        form = OutboxActionForm(request.POST or None)
        if request.method == "POST":
            if not request.user.has_perm("games.change_notification"):
                messages.error(request, gettext("You may not re-queue e-mails."))
            elif form.is_valid():
                reason = form.cleaned_data["reason"]
                if form.cleaned_data["action"] == "requeue":
                    count = moderation.requeue_emails(request.user, reason)
                    done = ngettext(
                        "%(count)s e-mail queued again.", "%(count)s e-mails queued again.", count
                    )
                    messages.success(request, done % {"count": count})
                else:
                    moderation.record_sweep(request.user, reason)
                    report = tasks.sweep()
                    messages.success(
                        request, gettext("Sweep done: %(report)s.") % {"report": report}
                    )
                return redirect("admin:outbox")
        context = {
            **self.each_context(request),
            "title": gettext("Outbox: what the server still owes"),
            "outbox": outbox_figures(),
            "form": form,
            "grace": settings.OUTBOX_GAME_GRACE,
            "sweep_interval": settings.OUTBOX_SWEEP_INTERVAL,
            "give_up_hours": settings.OUTBOX_GIVE_UP_AFTER // 3600,
        }
        return TemplateResponse(request, "admin/outbox.html", context)
