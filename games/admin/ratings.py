"""The admin of the ratings, with what each rated game changed."""

from __future__ import annotations

from django.contrib import admin

from games.models import (
    Rating,
    RatingChange,
)


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
