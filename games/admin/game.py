"""The admin of games: the games' list and page, with the moderators' actions on a game."""

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
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from config.admin import stuck_after
from games import engines, errors
from games.actions import moderation
from games.admin.table import _hide_link
from games.models import (
    TURN_TIMES,
    ChatMessage,
    Game,
    Move,
    Seat,
    Status,
)
from games.reads import due


class StuckFilter(admin.SimpleListFilter):
    title = _("stuck")
    parameter_name = "stuck"

    def lookups(self, request, model_admin):
        return [("yes", _("Owed a resolution or a bot's move for over a minute"))]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(
                status=Status.ACTIVE, due_since__lt=timezone.now() - stuck_after()
            )
        return queryset


class StalledFilter(admin.SimpleListFilter):
    title = _("stalled")
    parameter_name = "stalled"

    def lookups(self, request, model_admin):
        days = due.STALLED_AFTER.days
        label = gettext("No time limit, waiting on a player for over %(days)s days")
        return [("yes", label % {"days": days})]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(pk__in=due.stalled_games().values("pk"))
        return queryset


class DeadlineFilter(admin.SimpleListFilter):
    title = _("deadline")
    parameter_name = "deadline"

    def lookups(self, request, model_admin):
        return [("running", _("Waiting on a deadline")), ("overdue", _("Past its deadline"))]

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


class ChatInline(admin.TabularInline):
    model = ChatMessage
    extra = 0
    fields = ["created", "author", "text", "hidden", "hide_link"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    @admin.display(description=_("hide"))
    def hide_link(self, message: ChatMessage) -> str:
        return _hide_link(message)


class ModerateForm(forms.Form):
    ACTIONS = [
        ("abort", _("Abort the game (players are told)")),
        ("extend", _("Extend the current deadline")),
        ("replace", _("Replace a seat with a bot")),
        ("resolve", _("Resolve a stuck Out of Gears turn again")),
        (
            "time_limit",
            _("Set a time limit (a game with none): the waiting turn's time starts now"),
        ),
        ("exempt", _("Exempt from vacations: deadlines run while a player is away")),
        ("unexempt", _("End the vacation exemption: deadlines wait for away players again")),
    ]
    action = forms.ChoiceField(choices=ACTIONS)
    seat = forms.ModelChoiceField(queryset=Seat.objects.none(), required=False)
    hours = forms.IntegerField(min_value=1, max_value=24 * 14, initial=24, required=False)
    turn_seconds = forms.TypedChoiceField(
        label=_("Time per turn"),
        choices=[(seconds, label) for seconds, label in TURN_TIMES if seconds],
        coerce=int,
        initial=3 * 86400,
        required=False,
        help_text=_("Only to set a time limit."),
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

    @admin.display(description=_("state as each player sees it"))
    def player_views_hidden(self, game: Game) -> str:
        return gettext("Hidden: you play in this game. Another moderator can look at it.")

    @admin.display(description=_("players"))
    def players(self, game: Game) -> str:
        return ", ".join(s.name for s in game.seats.all())

    @admin.display(description=_("moderate"))
    def moderate_link(self, game: Game) -> str:
        url = reverse("admin:games_game_moderate", args=[game.pk])
        return format_html(
            '<a class="button" href="{}">{}</a>', url, gettext("Moderate this game…")
        )

    @admin.display(description=_("state as each player sees it"))
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
                            raise errors.GameError(gettext("Choose the seat to give to a bot."))
                        moderation.replace_seat(me, data["seat"].pk, data["reason"])
                    case "time_limit":
                        seconds = data["turn_seconds"] or 3 * 86400
                        moderation.set_time_limit(me, game.pk, seconds, data["reason"])
                    case "resolve":
                        moderation.rerun_resolution(me, game.pk, data["reason"])
                    case "exempt" | "unexempt":
                        exempt = data["action"] == "exempt"
                        moderation.set_exempt(me, game.pk, exempt, data["reason"])
            except errors.GameError as exc:
                form.add_error(None, exc.message)
            else:
                done = dict(ModerateForm.ACTIONS)[data["action"]]
                messages.success(request, gettext("Done: %(action)s.") % {"action": done})
                return redirect("admin:games_game_change", game.pk)
        context = {
            **self.admin_site.each_context(request),
            "title": gettext("Moderate %(game)s") % {"game": game},
            "game": game,
            "form": form,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/games/moderate.html", context)
