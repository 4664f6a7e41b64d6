"""The stream process's only paths (config/stream_settings.py): the pages' event streams and
the API's NDJSON streams (games/api/streams.py; the proxy sends these paths here too). Any other
path is a plain 404: its error pages are plain text (config/errors.py), for the site's pages
link to paths this process does not have."""

from django.urls import path

from games.api import streams as api_stream
from games.live import stream

urlpatterns = [
    path("events/game/<int:game_id>/", stream.game_events, name="game_events"),
    path("events/me/", stream.my_events, name="my_events"),
    path("api/v1/stream/account", api_stream.account_stream, name="api_account_stream"),
    path("api/v1/games/<int:game_id>/stream", api_stream.game_stream, name="api_game_stream"),
]

handler400 = "config.errors.plain_bad_request"
handler403 = "config.errors.plain_forbidden"
handler404 = "config.errors.plain_not_found"
handler500 = "config.errors.plain_server_error"
