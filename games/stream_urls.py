"""The stream process's only paths (config/stream_settings.py): the pages' event streams and
the API's NDJSON streams (games/api_stream.py; the proxy sends these paths here too)."""

from django.urls import path

from games import api_stream, stream

urlpatterns = [
    path("events/game/<int:game_id>/", stream.game_events, name="game_events"),
    path("events/me/", stream.my_events, name="my_events"),
    path("api/v1/stream/account", api_stream.account_stream, name="api_account_stream"),
    path("api/v1/games/<int:game_id>/stream", api_stream.game_stream, name="api_game_stream"),
]
