"""Dates as a player reads them, in their language: the format strings are translated like any
sentence (English "3 Dec 2026", Italian "3 dic 2026"), as Django's own DATE_FORMAT is. The
pages' filters (games/templatetags/geartable.py: day, day_month, day_time, day_month_time) and
the views' messages use these, never a format written in place."""

from __future__ import annotations

from django.template.defaultfilters import date as date_filter
from django.utils.translation import pgettext


def day(value) -> str:
    """ "3 Dec 2026"."""
    return date_filter(value, pgettext("date format: day", "j M Y"))


def day_month(value) -> str:
    """ "3 Dec"."""
    return date_filter(value, pgettext("date format: day and month", "j M"))


def day_time(value) -> str:
    """ "3 Dec 2026, 14:05"."""
    return date_filter(value, pgettext("date format: day and time", "j M Y, H:i"))


def day_month_time(value) -> str:
    """ "3 Dec, 14:05"."""
    return date_filter(value, pgettext("date format: day, month and time", "j M, H:i"))
