"""The ratings: each player's skill per game kind, and what each rated game changed of it
(docs/ratings.md)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models.game import BotKind, Game, Kind


class Rating(models.Model):
    """A player's (or a bot kind's) skill at one game, as OpenSkill's Plackett-Luce model keeps
    it (games/reads/ratings.py): `mu` the estimate, `sigma` its uncertainty. Bots are rated too, so
    a new player can see how they compare with the greedy bot."""

    kind = models.CharField(max_length=16, choices=Kind.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="ratings",
    )
    bot = models.CharField(max_length=16, choices=BotKind.choices, blank=True)
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["kind", "user"], name="rating_one_per_user", condition=models.Q(bot="")
            ),
            models.UniqueConstraint(
                fields=["kind", "bot"], name="rating_one_per_bot", condition=~models.Q(bot="")
            ),
            models.CheckConstraint(
                condition=models.Q(user__isnull=False, bot="")
                | models.Q(user__isnull=True) & ~models.Q(bot=""),
                name="rating_user_or_bot",
            ),
        ]

    def __str__(self) -> str:
        who = self.user.name if self.user_id else self.get_bot_display()
        return f"{who} · {self.get_kind_display()}"

    @property
    def display(self) -> int:
        """The rating shown to players, on the familiar scale around 1500 (docs/ratings.md)."""
        return display_rating(self.mu)

    @property
    def provisional(self) -> bool:
        """Shown with a "?" while the estimate is still unsure (as lichess does)."""
        return self.sigma > PROVISIONAL_SIGMA

    @property
    def spread(self) -> int:
        """The uncertainty on the display scale: the rating is display ± spread."""
        return round(DISPLAY_SCALE * self.sigma)


class RatingChange(models.Model):
    """One game's effect on one rating: the history behind the profile's chart."""

    rating = models.ForeignKey(Rating, on_delete=models.CASCADE, related_name="changes")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_changes")
    place = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["rating", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["rating", "game"], name="rating_change_once_per_game")
        ]

    def __str__(self) -> str:
        return f"{self.rating} after game #{self.game_id}"

    @property
    def display_before(self) -> int:
        return display_rating(self.mu_before)

    @property
    def display_after(self) -> int:
        return display_rating(self.mu_after)

    @property
    def provisional_after(self) -> bool:
        return self.sigma_after > PROVISIONAL_SIGMA


# The display scale (docs/ratings.md, "The number shown"): OpenSkill's skill estimate mu (25 at
# the start) moved to where Elo and lichess players expect it: 1500 at the start, and one
# performance spread (beta = 25/6) worth 200 points, the gap at which Elo expects the stronger
# player to win three games in four. "?" while sigma is above 6.5 (about ten two-player games).
DISPLAY_START, DISPLAY_SCALE, PROVISIONAL_SIGMA = 1500, 48, 6.5


def display_rating(mu: float) -> int:
    return round(DISPLAY_START + DISPLAY_SCALE * (mu - 25))
