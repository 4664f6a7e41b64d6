"""The stream process's only paths (config/stream_settings.py): the pages' event streams."""

from django.urls import path

from games import stream

urlpatterns = [
    path("events/game/<int:game_id>/", stream.game_events, name="game_events"),
    path("events/me/", stream.my_events, name="my_events"),
]
