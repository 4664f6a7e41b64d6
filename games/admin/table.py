"""The admin of the table's chat and reports: the report queue, hiding a message, the moderation
log (the audit record)."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games import errors
from games.actions import moderation
from games.models import (
    ChatMessage,
    ModerationAction,
    Report,
)


def _hide_link(message: ChatMessage) -> str:
    """The way to hide a message (issue 27.8), or that it is hidden."""
    if message.hidden:
        return gettext("Hidden")
    url = reverse("admin:games_chatmessage_hide", args=[message.pk])
    return format_html('<a class="button" href="{}">{}</a>', url, gettext("Hide…"))


class ReportHandleForm(forms.Form):
    outcome = forms.ChoiceField(
        choices=[
            (Report.State.HIDDEN, _("Hide the message")),
            (Report.State.DISMISSED, _("Dismiss the report")),
            (Report.State.SUSPENDED, _("Suspend the author and hide the message")),
        ]
    )
    until = forms.DateTimeField(
        required=False, help_text=_("End of the suspension (empty: until lifted). YYYY-MM-DD HH:MM")
    )
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), max_length=2000)


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ["created", "message_text", "author", "game_link", "reporter", "reason", "state"]
    list_filter = ["state", "created"]
    search_fields = ["message__text", "reporter__username", "message__author__username"]
    list_select_related = ["message__author", "reporter", "message__game"]
    fields = ["message_in_context", "reporter", "reason", "state", "created", "handled", "handle"]
    readonly_fields = fields

    def has_add_permission(self, request):
        return False

    @admin.display(description=_("message"))
    def message_text(self, report: Report) -> str:
        return report.message.text[:80]

    @admin.display(description=_("author"))
    def author(self, report: Report):
        return report.message.author

    @admin.display(description=_("game"))
    def game_link(self, report: Report) -> str:
        url = reverse("admin:games_game_change", args=[report.message.game_id])
        return format_html('<a href="{}">#{}</a>', url, report.message.game_id)

    @admin.display(description=_("message in context"))
    def message_in_context(self, report: Report) -> str:
        m = report.message
        around = ChatMessage.objects.filter(game_id=m.game_id).select_related("author")
        before = list(around.filter(pk__lt=m.pk).order_by("-pk")[:5])[::-1]
        after = list(around.filter(pk__gt=m.pk).order_by("pk")[:5])
        rows = [
            (
                # A class, not a style attribute: the site's CSP blocks inline styles.
                "reported-message" if x.pk == m.pk else "",
                f"{x.created:%Y-%m-%d %H:%M}",
                x.author.name,
                x.text + (" [hidden]" if x.hidden else ""),
            )
            for x in [*before, m, *after]
        ]
        return format_html(
            '<table class="chat-context">{}</table>',
            format_html_join("", '<tr class="{}"><td>{}</td><td>{}</td><td>{}</td></tr>', rows),
        )

    @admin.display(description=_("decide"))
    def handle(self, report: Report) -> str:
        if report.state != Report.State.OPEN:
            return gettext("Already handled.")
        url = reverse("admin:games_report_handle", args=[report.pk])
        label = gettext("Hide, dismiss or suspend…")
        return format_html('<a class="button" href="{}">{}</a>', url, label)

    def get_urls(self):
        return [
            path(
                "<int:report_id>/handle/",
                self.admin_site.admin_view(self.handle_view),
                name="games_report_handle",
            ),
            *super().get_urls(),
        ]

    def handle_view(self, request, report_id: int):
        report = get_object_or_404(Report.objects.select_related("message__author"), pk=report_id)
        if not self.has_change_permission(request, report):
            raise PermissionDenied
        form = ReportHandleForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            try:
                moderation.handle_report(
                    request.user, report, data["outcome"], data["reason"], data["until"]
                )
            except errors.GameError as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(request, gettext("Report handled."))
                return redirect("admin:games_report_changelist")
        context = {
            **self.admin_site.each_context(request),
            "title": gettext("Handle a report"),
            "report": report,
            "context_table": self.message_in_context(report),
            "form": form,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/games/handle_report.html", context)


@admin.register(ModerationAction)
class ModerationActionAdmin(admin.ModelAdmin):
    list_display = ["created", "moderator", "action", "user", "game", "reason"]
    list_filter = ["action", "created"]
    search_fields = ["moderator__username", "user__username", "reason"]
    readonly_fields = [
        "created",
        "moderator",
        "action",
        "user",
        "game",
        "message",
        "reason",
        "details",
    ]
    fields = readonly_fields

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class HideMessageForm(forms.Form):
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=2000,
        help_text=_("Kept in the moderation log. Players see “message hidden by a moderator”."),
    )


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ["created", "game", "author", "text", "hidden", "hide_link"]
    list_filter = ["hidden", "created"]
    search_fields = ["text", "author__username"]
    fields = ["created", "game", "author", "text", "hidden", "hide_link"]
    readonly_fields = fields
    list_select_related = ["author"]

    def has_add_permission(self, request):
        return False

    @admin.display(description=_("hide"))
    def hide_link(self, message: ChatMessage) -> str:
        return _hide_link(message)

    def get_urls(self):
        return [
            path(
                "<int:message_id>/hide/",
                self.admin_site.admin_view(self.hide_view),
                name="games_chatmessage_hide",
            ),
            *super().get_urls(),
        ]

    def hide_view(self, request, message_id: int):
        """Hide one message from everyone, with a reason for the moderation log (issue 27.8)."""
        message = get_object_or_404(ChatMessage.objects.select_related("author"), pk=message_id)
        if not self.has_change_permission(request, message):
            raise PermissionDenied(gettext("Only a moderator can hide a message."))
        form = HideMessageForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                moderation.hide_message(request.user, message.pk, form.cleaned_data["reason"])
            except errors.GameError as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(request, gettext("The message is hidden."))
                return redirect("admin:games_chatmessage_changelist")
        context = {
            **self.admin_site.each_context(request),
            "title": gettext("Hide a chat message"),
            "message": message,
            "form": form,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/games/hide_message.html", context)
