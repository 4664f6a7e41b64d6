"""Who is watching: what a player has been shown of their game, and that their page is open.
Writes of the player's own seat row only, without the game's lock: the game's version does not
move (nobody else sees them; a "your turn" e-mail is not sent to someone watching)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.db.models import Q
from django.utils import timezone

from games.models import Seat

# The open page's check for news runs every 2 s: its mark is written at most this often, so
# that watching costs one small UPDATE per player and 20 s, not one per check.
WATCH_WRITE_EVERY = timedelta(seconds=20)


def mark_seen(seat: Seat, version: int, mark: int) -> None:
    """Remember what a player has now been shown of their game (the version, and the newest
    event or turn story: the engine's `news_mark`), so that the next visit marks what is new:
    one UPDATE, when changed; none when the move this page answers wrote it already, with the
    seats (`seen_by_move`: actions/base.py, `_seen_with_move`)."""
    if getattr(seat, "seen_by_move", None) != (version, mark) and (
        seat.seen_version != version or seat.seen_mark != mark
    ):
        Seat.objects.filter(pk=seat.pk).update(seen_version=version, seen_mark=mark)
    seat.seen_version, seat.seen_mark = version, mark


def note_watching(seat_id: int, last: datetime | None, *, now: datetime | None = None) -> None:
    """The player of this seat has the game's page open (its live check just ran); `last` is the
    mark already stored. A conditional UPDATE: two checks at once write it once."""
    now = now or timezone.now()
    if last is not None and timezone.is_naive(last):  # SQLite's raw cursor: UTC, naive
        last = timezone.make_aware(last, UTC)
    if last is not None and now - last < WATCH_WRITE_EVERY:
        return
    Seat.objects.filter(pk=seat_id).filter(
        Q(watched__isnull=True) | Q(watched__lt=now - WATCH_WRITE_EVERY)
    ).update(watched=now)
