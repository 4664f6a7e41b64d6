"""The admin of the outbox: e-mails, pushes and digests waiting, sent or given up on."""

from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.actions import moderation
from games.models import (
    AccountMail,
    Digest,
    Invitation,
    Notification,
    Push,
)


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = [
        "created",
        "kind",
        "user",
        "game",
        "turn",
        "state",
        "attempts",
        "next_attempt",
        "error",
    ]
    list_filter = ["state", "maybe_sent", "kind", "created"]
    search_fields = ["user__username", "user__email"]
    readonly_fields = [
        "kind",
        "user",
        "game",
        "turn",
        "about",
        "state",
        "attempts",
        "error",
        "created",
        "next_attempt",
        "claimed",
        "give_up_at",
        "sent",
    ]
    actions = ["send_again"]

    def has_add_permission(self, request):
        return False

    @admin.action(description=_("Send the selected failed e-mails again"), permissions=["change"])
    def send_again(self, request, queryset):
        ids = list(queryset.values_list("pk", flat=True))
        count = moderation.requeue_emails(
            request.user, "Sent again from the e-mail list", notification_ids=ids
        )
        message = ngettext(
            "%(count)s failed e-mail queued again.", "%(count)s failed e-mails queued again.", count
        )
        self.message_user(request, message % {"count": count})


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = [
        "created",
        "game",
        "via",
        "inviter",
        "user",
        "email",
        "accepted",
        "state",
        "sent",
    ]
    list_filter = ["state", "maybe_sent", "via"]
    search_fields = ["inviter__username", "user__username", "email"]
    raw_id_fields = ["game", "inviter", "user"]


@admin.register(Digest)
class DigestAdmin(admin.ModelAdmin):
    list_display = ["created", "day", "user", "state", "attempts", "next_attempt", "error"]
    list_filter = ["state", "maybe_sent", "day"]
    search_fields = ["user__username", "user__email"]
    readonly_fields = [f.name for f in Digest._meta.fields]

    def has_add_permission(self, request):
        return False


@admin.register(Push)
class PushAdmin(admin.ModelAdmin):
    """Web Pushes in the outbox: which notification, which device, and its delivery (the
    payload is built when sent and never stored)."""

    list_display = ["created", "notification", "subscription", "state", "attempts", "error"]
    list_filter = ["state", "maybe_sent", "created"]
    search_fields = ["notification__user__username", "notification__user__email"]
    readonly_fields = [f.name for f in Push._meta.fields]

    def has_add_permission(self, request):
        return False


@admin.register(AccountMail)
class AccountMailAdmin(admin.ModelAdmin):
    """allauth's e-mails in the outbox. Their bodies carry a confirmation or password-reset
    link: never shown here (and erased once sent), only who, which e-mail and its delivery."""

    list_display = ["created", "template", "to", "state", "attempts", "next_attempt", "error"]
    list_filter = ["state", "maybe_sent", "template"]
    search_fields = ["to"]
    fields = readonly_fields = [
        "created",
        "template",
        "to",
        "subject",
        "state",
        "attempts",
        "error",
        "next_attempt",
        "claimed",
        "give_up_at",
        "sent",
        "maybe_sent",
    ]

    def has_add_permission(self, request):
        return False
