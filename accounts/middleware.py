"""Show pages in each player's own time zone and language."""

import contextlib
import zoneinfo

from django.conf import settings
from django.utils import timezone, translation
from django.utils.deprecation import MiddlewareMixin

SESSION_TZ = "geartable_tz"
SESSION_LANGUAGE = "geartable_language"
# The public API's paths (config/urls.py): its answers, refusals included, are in English
# whoever asks, so that a client can rely on them (docs/api.md).
API_PATH = "/api/"


def remember_time_zone(request, user) -> None:
    """Keep the player's time zone and language in their session, so requests need not load
    the user."""
    if hasattr(request, "session"):
        request.session[SESSION_TZ] = user.time_zone
        request.session[SESSION_LANGUAGE] = user.language


def offered_language(code: str | None) -> str | None:
    """`code` if it is one of the site's languages (settings.LANGUAGES), else None."""
    return code if code in dict(settings.LANGUAGES) else None


class UserTimezoneMiddleware(MiddlewareMixin):
    """Activates the time zone and the language kept in the session. The user row is read only
    once per session (when they are not there yet), not on every request. A visitor keeps the
    language LocaleMiddleware chose (the switch's cookie, else Accept-Language); a signed-in
    player's own choice wins over both. A view marked `shows_no_time` (the live-update check,
    called every 2 s by every open page: numbers and headers, no words) does not even read the
    session for them. Sync and async (MiddlewareMixin), as every middleware of the site must be
    for `make run`'s ASGI process (games.effects.QueueingBudgetMiddleware says why)."""

    def process_request(self, request):
        timezone.deactivate()

    def process_view(self, request, view_func, view_args, view_kwargs):
        if request.path_info.startswith(API_PATH):  # the API speaks English (docs/i18n.md)
            translation.activate(settings.LANGUAGE_CODE)
            request.LANGUAGE_CODE = settings.LANGUAGE_CODE
            return None
        if getattr(view_func, "shows_no_time", False):
            return None
        name = request.session.get(SESSION_TZ)
        language = request.session.get(SESSION_LANGUAGE)
        if (name is None or language is None) and "_auth_user_id" in request.session:
            user = request.user
            if user.is_authenticated:
                remember_time_zone(request, user)
                name, language = user.time_zone, user.language
        if name and name != "UTC":
            with contextlib.suppress(zoneinfo.ZoneInfoNotFoundError, ValueError):
                timezone.activate(zoneinfo.ZoneInfo(name))
        language = offered_language(language)
        if language and language != request.LANGUAGE_CODE:
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return None


def shows_no_time(view):
    """Mark a view whose answers show no date, time or words: no time zone or language to
    activate for it."""
    view.shows_no_time = True
    return view
