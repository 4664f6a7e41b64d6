"""Show times in each player's own time zone."""

import contextlib
import zoneinfo

from django.utils import timezone

SESSION_TZ = "geartable_tz"


def remember_time_zone(request, user) -> None:
    """Keep the player's time zone in their session, so requests need not load the user."""
    if hasattr(request, "session"):
        request.session[SESSION_TZ] = user.time_zone


class UserTimezoneMiddleware:
    """Activates the time zone kept in the session. The user row is read only once per session
    (when the zone is not there yet), not on every request: the live-update check, called
    every few seconds by every open page, never loads the user."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        name = request.session.get(SESSION_TZ)
        if name is None and "_auth_user_id" in request.session:
            user = request.user
            if user.is_authenticated:
                remember_time_zone(request, user)
                name = user.time_zone
        timezone.deactivate()
        if name and name != "UTC":
            with contextlib.suppress(zoneinfo.ZoneInfoNotFoundError, ValueError):
                timezone.activate(zoneinfo.ZoneInfo(name))
        return self.get_response(request)
