"""A player's vacation: the yearly allowance of days away, and setting or ending a stretch.

The rules (docs/vacation.md): a vacation starts now and lasts to the end of the day the player
chooses, in their own time zone. Every calendar day it touches counts against that calendar
year's allowance (GEARTABLE_VACATION_DAYS_PER_YEAR), the day it was set and the day it was
ended included; ended early, the days not reached come back. One stretch is at most the
yearly allowance long. What a vacation does to games is games/vacation.py's business.
"""

from __future__ import annotations

import functools
import zoneinfo
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from django.conf import settings
from django.utils import timezone

from accounts.models import User, Vacation


class VacationError(Exception):
    """A refusal with a sentence for the player and the HTTP status that fits it."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def per_year() -> int:
    return settings.GEARTABLE_VACATION_DAYS_PER_YEAR


def _zone(user: User) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(user.time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def local_today(user: User, now: datetime | None = None) -> date:
    return (now or timezone.now()).astimezone(_zone(user)).date()


def back_at(user: User, last_day: date) -> datetime:
    """The moment a vacation whose last day is `last_day` ends: the next midnight, locally."""
    return datetime.combine(last_day + timedelta(days=1), time.min, tzinfo=_zone(user))


def current(user: User, now: datetime | None = None) -> Vacation | None:
    """The vacation the player is on now, if any."""
    now = now or timezone.now()
    return (
        Vacation.objects.filter(user=user, ended__isnull=True, ends__gt=now, started__lte=now)
        .order_by("-pk")
        .first()
    )


def _days(first: date, last: date) -> set[date]:
    return {first + timedelta(days=i) for i in range((last - first).days + 1)}


def days_away(user: User, year: int, *, leave_out: Vacation | None = None) -> set[date]:
    """The days of `year` the player's vacations cover (a day covered twice counts once)."""
    rows = Vacation.objects.filter(
        user=user, last_day__gte=date(year, 1, 1), first_day__lte=date(year, 12, 31)
    )
    if leave_out is not None:
        rows = rows.exclude(pk=leave_out.pk)
    covered: set[date] = set()
    for first, last in rows.values_list("first_day", "last_day"):
        covered |= _days(first, last)
    return {d for d in covered if d.year == year}


@dataclass(frozen=True)
class Allowance:
    year: int
    days: int
    used: int

    @property
    def left(self) -> int:
        return max(0, self.days - self.used)


def allowance(user: User, now: datetime | None = None) -> Allowance:
    """This calendar year's allowance, the days used (the current vacation's planned days
    included) and so the days left."""
    year = local_today(user, now).year
    return Allowance(year=year, days=per_year(), used=len(days_away(user, year)))


def latest_return(user: User, now: datetime | None = None) -> date | None:
    """The last day the player could choose now, within the maximum and the allowance (None:
    not even today)."""
    today = local_today(user, now)
    mine = current(user, now)
    first = mine.first_day if mine else today
    taken = _taken(user, mine)
    best = None
    for offset in range(per_year()):
        day = today + timedelta(days=offset)
        if _refusal(first, day, today, taken) is not None:
            break
        best = day
    return best


def _taken(user: User, mine: Vacation | None):
    """year -> the days of that year covered by the player's vacations other than `mine`
    (read once per year asked)."""
    return functools.cache(lambda year: days_away(user, year, leave_out=mine))


def _refusal(first: date, last: date, today: date, taken) -> str | None:
    """Why a vacation from `first` to `last` cannot be taken, or None. `taken(year)`: the days
    of that year already covered by the player's other vacations."""
    if per_year() == 0:
        return "Vacations are turned off on this site."
    if last < today:
        return "That date is in the past: choose today or a later day."
    if (last - first).days + 1 > per_year():
        return (
            f"A vacation can be at most {per_year()} days long "
            f"(until {first + timedelta(days=per_year() - 1):%d %b %Y} at the latest)."
        )
    wanted = _days(first, last)
    for year in sorted({d.year for d in wanted}):
        already = taken(year)
        extra = {d for d in wanted if d.year == year} - already
        if len(already) + len(extra) > per_year():
            left = max(0, per_year() - len(already))
            return f"That is more than your vacation days left in {year}: {left} of {per_year()}."
    return None


def start(user: User, until: date, now: datetime | None = None) -> Vacation:
    """Away from now to the end of `until` (the player's calendar). On vacation already: the
    new date replaces the old one (sooner or later). Call inside a transaction."""
    now = now or timezone.now()
    user = User.objects.select_for_update().get(pk=user.pk)  # one change at a time per player
    if user.is_suspended:
        raise VacationError("Your account is suspended: you cannot take a vacation.", 403)
    if user.is_bot:  # its program being down must not hold people's games: a bot plays it
        raise VacationError(
            "A bot account takes no vacation: at a deadline its seat is played for it.", 403
        )
    today = local_today(user, now)
    mine = current(user, now)
    first = mine.first_day if mine else today
    reason = _refusal(first, until, today, _taken(user, mine))
    if reason:
        raise VacationError(reason)
    ends = back_at(user, until)
    if mine is None:
        mine = Vacation.objects.create(
            user=user, first_day=today, last_day=until, started=now, ends=ends
        )
    else:
        mine.last_day, mine.ends = until, ends
        mine.save(update_fields=["last_day", "ends"])
    user.away_until, user.away_ends = until, ends
    user.save(update_fields=["away_until", "away_ends"])
    return mine


def end(user: User, now: datetime | None = None) -> Vacation:
    """Back early: the vacation ends now and covers only the days up to today. Call inside a
    transaction."""
    now = now or timezone.now()
    user = User.objects.select_for_update().get(pk=user.pk)
    mine = current(user, now)
    if mine is None:
        raise VacationError("You are not on vacation.", 409)
    mine.last_day, mine.ended = max(mine.first_day, local_today(user, now)), now
    mine.save(update_fields=["last_day", "ended"])
    user.away_until, user.away_ends = None, None
    user.save(update_fields=["away_until", "away_ends"])
    return mine
