"""Moderation in Django's admin: games, the report queue, e-mails and the audit record.

Every action that changes a game or a player goes through games.moderation, which records who
did what, when and why (ModerationAction), and through the same locked write path as play.
"""

from __future__ import annotations

import json

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join

from config.admin import stuck_after
from games import (
    admin_users,  # noqa: F401 (registers the players' admin: accounts/ has none)
    engines,
    moderation,
    services,
)
from games.models import (
    TURN_TIMES,
    AccountMail,
    ChatMessage,
    Digest,
    Game,
    Invitation,
    ModerationAction,
    Move,
    Notification,
    Push,
    Rating,
    RatingChange,
    Report,
    Seat,
    Status,
)


class StuckFilter(admin.SimpleListFilter):
    title = "stuck"
    parameter_name = "stuck"

    def lookups(self, request, model_admin):
        return [("yes", "Owed a resolution or a bot's move for over a minute")]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(
                status=Status.ACTIVE, due_since__lt=timezone.now() - stuck_after()
            )
        return queryset


class StalledFilter(admin.SimpleListFilter):
    title = "stalled"
    parameter_name = "stalled"

    def lookups(self, request, model_admin):
        days = moderation.STALLED_AFTER.days
        return [("yes", f"No time limit, waiting on a player for over {days} days")]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(pk__in=moderation.stalled_games().values("pk"))
        return queryset


class DeadlineFilter(admin.SimpleListFilter):
    title = "deadline"
    parameter_name = "deadline"

    def lookups(self, request, model_admin):
        return [("running", "Waiting on a deadline"), ("overdue", "Past its deadline")]

    def queryset(self, request, queryset):
        active = queryset.filter(status=Status.ACTIVE, deadline__isnull=False)
        if self.value() == "running":
            return active
        if self.value() == "overdue":
            return active.filter(deadline__lt=timezone.now())
        return queryset


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["position", "user", "bot", "replaced_user", "robots", "to_act", "missed_deadlines"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


class MoveInline(admin.TabularInline):
    model = Move
    extra = 0
    fields = ["seq", "seat", "kind", "action", "created"]
    readonly_fields = fields
    can_delete = False
    ordering = ["-seq"]

    def has_add_permission(self, request, obj=None):
        return False


def _hide_link(message: ChatMessage) -> str:
    """The way to hide a message (issue 27.8), or that it is hidden."""
    if message.hidden:
        return "Hidden"
    url = reverse("admin:games_chatmessage_hide", args=[message.pk])
    return format_html('<a class="button" href="{}">Hide…</a>', url)


class ChatInline(admin.TabularInline):
    model = ChatMessage
    extra = 0
    fields = ["created", "author", "text", "hidden", "hide_link"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    @admin.display(description="hide")
    def hide_link(self, message: ChatMessage) -> str:
        return _hide_link(message)


class ModerateForm(forms.Form):
    ACTIONS = [
        ("abort", "Abort the game (players are told)"),
        ("extend", "Extend the current deadline"),
        ("replace", "Replace a seat with a bot"),
        ("resolve", "Resolve a stuck Out of Gears turn again"),
        ("time_limit", "Set a time limit (a game with none): the waiting turn's time starts now"),
        ("exempt", "Exempt from vacations: deadlines run while a player is away"),
        ("unexempt", "End the vacation exemption: deadlines wait for away players again"),
    ]
    action = forms.ChoiceField(choices=ACTIONS)
    seat = forms.ModelChoiceField(queryset=Seat.objects.none(), required=False)
    hours = forms.IntegerField(min_value=1, max_value=24 * 14, initial=24, required=False)
    turn_seconds = forms.TypedChoiceField(
        label="Time per turn",
        choices=[(seconds, label) for seconds, label in TURN_TIMES if seconds],
        coerce=int,
        initial=3 * 86400,
        required=False,
        help_text="Only to set a time limit.",
    )
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), max_length=2000)

    def __init__(self, *args, game: Game, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["seat"].queryset = game.seats.filter(user__isnull=False)


PLAYING = "player_views_hidden"


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["id", "kind", "status", "players", "turn", "deadline", "created", "updated"]
    list_filter = [
        "kind",
        "status",
        StuckFilter,
        StalledFilter,
        DeadlineFilter,
        "vacation_exempt",
        "created",
        "public",
    ]
    search_fields = ["seats__user__username", "seats__user__email", "seats__user__display_name"]
    date_hierarchy = "created"
    fields = [
        "kind",
        "status",
        "public",
        "seat_count",
        "options",
        "creator",
        "turn",
        "version",
        "deadline",
        "vacation_exempt",
        "due_since",
        "created",
        "started",
        "finished",
        "result",
        "moderate_link",
        "player_views",
    ]
    readonly_fields = fields
    inlines = [SeatInline, MoveInline, ChatInline]
    list_select_related = ["creator"]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("seats__user").distinct()

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    # A moderator who plays in a game (or played, before a bot took the seat) sees it as a
    # player: not the other hands, and not the move log, which holds the programs of an Out of
    # Gears turn before they are revealed.
    def _plays_in(self, request, game: Game | None) -> bool:
        if game is None:
            return False
        me = request.user.pk
        return any(me in (s.user_id, s.replaced_user_id) for s in game.seats.all())

    def get_fields(self, request, obj=None):
        if not self._plays_in(request, obj):
            return self.fields
        return [PLAYING if f == "player_views" else f for f in self.fields]

    def get_readonly_fields(self, request, obj=None):
        return self.get_fields(request, obj)

    def get_inlines(self, request, obj):
        if self._plays_in(request, obj):
            return [i for i in self.inlines if i is not MoveInline]
        return self.inlines

    @admin.display(description="state as each player sees it")
    def player_views_hidden(self, game: Game) -> str:
        return "Hidden: you play in this game. Another moderator can look at it."

    @admin.display(description="players")
    def players(self, game: Game) -> str:
        return ", ".join(s.name for s in game.seats.all())

    @admin.display(description="moderate")
    def moderate_link(self, game: Game) -> str:
        url = reverse("admin:games_game_moderate", args=[game.pk])
        return format_html('<a class="button" href="{}">Moderate this game…</a>', url)

    @admin.display(description="state as each player sees it")
    def player_views(self, game: Game) -> str:
        # Only views: even here the seed and the draw order stay hidden (G19, O18).
        if not game.state:
            return "—"
        eng = engines.engine(game.kind)
        rows = [
            (s.name, json.dumps(eng.view(game.state, s.seat_id), indent=1, sort_keys=True))
            for s in game.seats.all()
            if s.position
        ]
        return format_html_join(
            "",
            '<details><summary>{}</summary><pre class="state-json">{}</pre></details>',
            rows,
        )

    def get_urls(self):
        return [
            path(
                "<int:game_id>/moderate/",
                self.admin_site.admin_view(self.moderate_view),
                name="games_game_moderate",
            ),
            *super().get_urls(),
        ]

    def moderate_view(self, request, game_id: int):
        game = get_object_or_404(Game, pk=game_id)
        if not self.has_change_permission(request, game):
            raise PermissionDenied
        form = ModerateForm(request.POST or None, game=game)
        if request.method == "POST" and form.is_valid():
            data, me = form.cleaned_data, request.user
            try:
                match data["action"]:
                    case "abort":
                        moderation.abort_game(me, game.pk, data["reason"])
                    case "extend":
                        moderation.extend_deadline(me, game.pk, data["hours"] or 24, data["reason"])
                    case "replace":
                        if data["seat"] is None:
                            raise services.GameError("Choose the seat to give to a bot.")
                        moderation.replace_seat(me, data["seat"].pk, data["reason"])
                    case "time_limit":
                        seconds = data["turn_seconds"] or 3 * 86400
                        moderation.set_time_limit(me, game.pk, seconds, data["reason"])
                    case "resolve":
                        moderation.rerun_resolution(me, game.pk, data["reason"])
                    case "exempt" | "unexempt":
                        exempt = data["action"] == "exempt"
                        moderation.set_exempt(me, game.pk, exempt, data["reason"])
            except services.GameError as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(request, f"Done: {dict(ModerateForm.ACTIONS)[data['action']]}.")
                return redirect("admin:games_game_change", game.pk)
        context = {
            **self.admin_site.each_context(request),
            "title": f"Moderate {game}",
            "game": game,
            "form": form,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/games/moderate.html", context)


class ReportHandleForm(forms.Form):
    outcome = forms.ChoiceField(
        choices=[
            (Report.State.HIDDEN, "Hide the message"),
            (Report.State.DISMISSED, "Dismiss the report"),
            (Report.State.SUSPENDED, "Suspend the author and hide the message"),
        ]
    )
    until = forms.DateTimeField(
        required=False, help_text="End of the suspension (empty: until lifted). YYYY-MM-DD HH:MM"
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

    @admin.display(description="message")
    def message_text(self, report: Report) -> str:
        return report.message.text[:80]

    @admin.display(description="author")
    def author(self, report: Report):
        return report.message.author

    @admin.display(description="game")
    def game_link(self, report: Report) -> str:
        url = reverse("admin:games_game_change", args=[report.message.game_id])
        return format_html('<a href="{}">#{}</a>', url, report.message.game_id)

    @admin.display(description="message in context")
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

    @admin.display(description="decide")
    def handle(self, report: Report) -> str:
        if report.state != Report.State.OPEN:
            return "Already handled."
        url = reverse("admin:games_report_handle", args=[report.pk])
        return format_html('<a class="button" href="{}">Hide, dismiss or suspend…</a>', url)

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
            except services.GameError as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(request, "Report handled.")
                return redirect("admin:games_report_changelist")
        context = {
            **self.admin_site.each_context(request),
            "title": "Handle a report",
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

    @admin.action(description="Send the selected failed e-mails again", permissions=["change"])
    def send_again(self, request, queryset):
        ids = list(queryset.values_list("pk", flat=True))
        count = moderation.requeue_emails(
            request.user, "Sent again from the e-mail list", notification_ids=ids
        )
        self.message_user(request, f"{count} failed e-mail(s) queued again.")


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


class HideMessageForm(forms.Form):
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=2000,
        help_text="Kept in the moderation log. Players see “message hidden by a moderator”.",
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

    @admin.display(description="hide")
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
            raise PermissionDenied("Only a moderator can hide a message.")
        form = HideMessageForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                moderation.hide_message(request.user, message.pk, form.cleaned_data["reason"])
            except services.GameError as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(request, "The message is hidden.")
                return redirect("admin:games_chatmessage_changelist")
        context = {
            **self.admin_site.each_context(request),
            "title": "Hide a chat message",
            "message": message,
            "form": form,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/games/hide_message.html", context)


class RatingChangeInline(admin.TabularInline):
    model = RatingChange
    extra = 0
    can_delete = False
    fields = ("game", "place", "mu_before", "sigma_before", "mu_after", "sigma_after", "created")
    readonly_fields = fields

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    """Ratings are the outcome of games: read here, changed only by finishing games."""

    list_display = ("__str__", "kind", "mu", "sigma", "games", "updated")
    list_filter = ("kind", "bot")
    search_fields = ("user__username", "user__display_name")
    readonly_fields = ("kind", "user", "bot", "mu", "sigma", "games", "updated")
    inlines = [RatingChangeInline]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
