"""Show times in each player's own time zone."""

import contextlib
import zoneinfo

from django.utils import timezone
from django.utils.deprecation import MiddlewareMixin

SESSION_TZ = "geartable_tz"


def remember_time_zone(request, user) -> None:
    """Keep the player's time zone in their session, so requests need not load the user."""
    if hasattr(request, "session"):
        request.session[SESSION_TZ] = user.time_zone


class UserTimezoneMiddleware(MiddlewareMixin):
    """Activates the time zone kept in the session. The user row is read only once per session
    (when the zone is not there yet), not on every request. A view marked `shows_no_time`
    (the live-update check, called every 2 s by every open page) does not even read the
    session for it. Sync and async (MiddlewareMixin), as every middleware of the site must be
    for `make run`'s ASGI process (games.effects.QueueingBudgetMiddleware says why)."""

    def process_request(self, request):
        timezone.deactivate()

    def process_view(self, request, view_func, view_args, view_kwargs):
        if getattr(view_func, "shows_no_time", False):
            return None
        name = request.session.get(SESSION_TZ)
        if name is None and "_auth_user_id" in request.session:
            user = request.user
            if user.is_authenticated:
                remember_time_zone(request, user)
                name = user.time_zone
        if name and name != "UTC":
            with contextlib.suppress(zoneinfo.ZoneInfoNotFoundError, ValueError):
                timezone.activate(zoneinfo.ZoneInfo(name))
        return None


def shows_no_time(view):
    """Mark a view whose answers show no date or time: no time zone to activate for it."""
    view.shows_no_time = True
    return view
