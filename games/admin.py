from django.contrib import admin

from games.models import Game, Invitation, Move, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["position", "user", "bot", "robots", "to_act", "missed_deadlines"]
    raw_id_fields = ["user"]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "kind",
        "status",
        "seat_count",
        "public",
        "creator",
        "created",
        "deadline",
    ]
    list_filter = ["kind", "status", "public", "created"]
    search_fields = ["seats__user__username", "seats__user__email", "creator__username"]
    readonly_fields = ["state", "seed", "version", "turn", "turn_version", "result"]
    exclude = []
    inlines = [SeatInline]


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ["game", "seq", "seat", "kind", "created"]
    readonly_fields = ["game", "seq", "seat", "kind", "action", "created"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


admin.site.register(Invitation)
