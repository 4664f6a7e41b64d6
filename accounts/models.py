"""Geartable's user: Django's user plus what a player sets on their profile."""

from __future__ import annotations

import zoneinfo

from django.contrib.auth.models import AbstractUser
from django.db import models

TIME_ZONES = sorted(zoneinfo.available_timezones() - {"Factory", "localtime"})


class User(AbstractUser):
    display_name = models.CharField(
        max_length=40, blank=True, help_text="How other players see you. Defaults to your username."
    )
    time_zone = models.CharField(
        max_length=64, default="UTC", choices=[(tz, tz.replace("_", " ")) for tz in TIME_ZONES]
    )
    notify_turn = models.BooleanField(
        "E-mail me when it is my turn",
        default=True,
        help_text="Also for a resolved Out of Gears turn and the end of a game.",
    )
    notify_reminder = models.BooleanField(
        "Remind me before a deadline",
        default=True,
        help_text="Once, when most of the time for a turn is gone.",
    )

    @property
    def name(self) -> str:
        """The name other players see."""
        return self.display_name or self.username

    def __str__(self) -> str:
        return self.name
