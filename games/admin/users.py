"""Players in the admin: search, their games, reports by and about them, suspensions; their
vacations, devices, and the e-mail suppression list. Registered by games/admin/__init__.py
(accounts/ imports nothing of games, and has no admin of its own)."""

from datetime import timedelta

from django import forms
from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.models import EmailSuppression, PushSubscription, User, Vacation
from games import errors
from games.actions import moderation
from games.models import Report


class NewThisWeekFilter(admin.SimpleListFilter):
    title = _("joined")
    parameter_name = "new"

    def lookups(self, request, model_admin):
        return [("week", _("This week"))]

    def queryset(self, request, queryset):
        if self.value() == "week":
            return queryset.filter(date_joined__gte=timezone.now() - timedelta(days=7))
        return queryset


class SuspendedFilter(admin.SimpleListFilter):
    title = _("suspended")
    parameter_name = "suspended_now"

    def lookups(self, request, model_admin):
        return [("yes", _("Suspended now"))]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(suspended=True).filter(
                Q(suspended_until__isnull=True) | Q(suspended_until__gt=timezone.now())
            )
        return queryset


class SuspendForm(forms.Form):
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}), max_length=500, help_text=_("The player is told.")
    )
    until = forms.DateTimeField(
        required=False, help_text=_("End of the suspension (empty: until lifted). YYYY-MM-DD HH:MM")
    )


class LiftForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), max_length=500)


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    list_display = ["username", "email", "display_name", "suspended_now", "is_staff", "date_joined"]
    list_filter = [SuspendedFilter, NewThisWeekFilter, "is_staff", "is_active", "is_bot"]
    search_fields = ["username", "email", "display_name"]
    # A bot account's mark is its owner's, for good (accounts/bots.py): shown, never edited.
    readonly_fields = [
        "moderation",
        "games",
        "reports_by",
        "reports_about",
        "is_bot",
        "bot_owner",
        "bot_since",
    ]
    fieldsets = (
        (_("Moderation"), {"fields": ["moderation", "games", "reports_by", "reports_about"]}),
        (_("Bot account"), {"fields": ["is_bot", "bot_owner", "bot_since"]}),
        *BaseUserAdmin.fieldsets,
        (
            "Geartable",
            {
                "fields": [
                    "display_name",
                    "time_zone",
                    "notify_turn",
                    "email_game_over",
                    "notify_reminder",
                    "notify_invitation",
                    "push_turn",
                    "push_game_over",
                    "push_reminder",
                    "push_invitation",
                    "only_known_inviters",
                ]
            },
        ),
    )

    @admin.display(boolean=True, description=_("suspended"))
    def suspended_now(self, user: User) -> bool:
        return user.is_suspended

    @admin.display(description=_("suspension"))
    def moderation(self, user: User) -> str:
        if not user.pk:
            return "—"
        if user.is_suspended:
            url = reverse("admin:accounts_user_lift", args=[user.pk])
            return format_html(
                '{} <a class="button" href="{}">{}</a>',
                user.suspension_message,
                url,
                gettext("Lift the suspension…"),
            )
        url = reverse("admin:accounts_user_suspend", args=[user.pk])
        return format_html(
            '{} <a class="button" href="{}">{}</a>',
            gettext("Not suspended."),
            url,
            gettext("Suspend…"),
        )

    @admin.display(description=_("games"))
    def games(self, user: User) -> str:
        seats = user.seats.select_related("game").order_by("-game__updated")[:50]
        rows = [
            (reverse("admin:games_game_change", args=[s.game_id]), str(s.game), s.game.status)
            for s in seats
        ]
        return format_html_join(", ", '<a href="{}">{}</a> ({})', rows) or "—"

    @admin.display(description=_("reports made"))
    def reports_by(self, user: User) -> str:
        return self._reports(user.reports_made.select_related("message__author"))

    @admin.display(description=_("reports about them"))
    def reports_about(self, user: User) -> str:

        return self._reports(Report.objects.filter(message__author=user).select_related("reporter"))

    def _reports(self, reports) -> str:
        rows = [
            (
                reverse("admin:games_report_change", args=[r.pk]),
                r.message.text[:60],
                r.reason,
                r.state,
            )
            for r in reports.select_related("message").order_by("-created")[:50]
        ]
        return format_html_join("<br>", '<a href="{}">“{}”</a> — {} ({})', rows) or "—"

    def get_urls(self):
        return [
            path(
                "<int:user_id>/suspend/",
                self.admin_site.admin_view(self.suspend_view),
                name="accounts_user_suspend",
            ),
            path(
                "<int:user_id>/lift/",
                self.admin_site.admin_view(self.lift_view),
                name="accounts_user_lift",
            ),
            *super().get_urls(),
        ]

    def suspend_view(self, request, user_id: int):
        return self._moderate(request, user_id, SuspendForm, gettext("Suspend"))

    def lift_view(self, request, user_id: int):
        return self._moderate(request, user_id, LiftForm, gettext("Lift the suspension"))

    def _moderate(self, request, user_id: int, form_class, title: str):

        target = get_object_or_404(User, pk=user_id)
        if not self.has_change_permission(request, target):
            raise PermissionDenied
        form = form_class(request.POST or None)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            try:
                if form_class is SuspendForm:
                    moderation.suspend(request.user, target, data["reason"], data["until"])
                else:
                    moderation.lift_suspension(request.user, target, data["reason"])
            except errors.GameError as exc:
                form.add_error(None, exc.message)
            else:
                done = gettext("%(action)s: done for %(username)s.")
                messages.success(request, done % {"action": title, "username": target.username})
                return redirect("admin:accounts_user_change", target.pk)
        context = {
            **self.admin_site.each_context(request),
            "title": title,
            "target": target,
            "form": form,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/accounts/suspend.html", context)


@admin.register(EmailSuppression)
class EmailSuppressionAdmin(admin.ModelAdmin):
    """Add a bounced address here by hand; owners add theirs from an invitation e-mail."""

    list_display = ["email", "reason", "created"]
    list_filter = ["reason"]
    search_fields = ["email"]


@admin.register(Vacation)
class VacationAdmin(admin.ModelAdmin):
    """Who is or was away (players set it on their profile; docs/vacation.md)."""

    list_display = ["user", "first_day", "last_day", "ends", "ended"]
    list_filter = ["first_day"]
    search_fields = ["user__username", "user__display_name"]
    list_select_related = ["user"]
    readonly_fields = ["user", "first_day", "last_day", "started", "ends", "ended"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    """A player's devices for Web Push: who, which browser, since when, last reached. The keys
    are the device's, never shown."""

    list_display = ("user", "device", "created", "last_success")
    search_fields = ("user__username", "user__email")
    raw_id_fields = ("user",)
    fields = ("user", "user_agent", "created", "last_success")
    readonly_fields = ("user", "user_agent", "created", "last_success")

    def has_add_permission(self, request) -> bool:
        return False
