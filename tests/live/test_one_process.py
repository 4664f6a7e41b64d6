"""Issue 25.6: `make run` serves the whole site and its event streams from one ASGI process
(config/run_settings.py): its paths hold both, and its pages open their streams on their own
origin. (That a commit reaches this process's streams through its in-memory hub, without
PostgreSQL: test_hub.py.)"""

from __future__ import annotations

import re

import pytest
from django.urls import resolve, reverse

from config import run_urls
from games.live import stream
from games.views import site
from tests.support.games import client_for, start_geared

pytestmark = pytest.mark.django_db


def test_the_one_process_paths_serve_the_site_and_the_streams(settings):
    settings.ROOT_URLCONF = run_urls.__name__
    assert resolve("/events/game/7/").func is stream.game_events
    assert resolve("/events/me/").func is stream.my_events
    assert resolve("/").func is site.home


def test_a_stream_url_of_slash_opens_the_streams_on_the_pages_own_origin(settings, alice, bob):
    settings.GEARTABLE_STREAM_URL = "/"
    game = start_geared([alice, bob])
    page = client_for(bob).get(reverse("game", args=[game.pk])).content.decode()
    assert f'data-stream-url="/events/game/{game.pk}/"' in page
    assert re.search(r'id="nav-your-turn"[^>]*data-stream-url="/events/me/"', page)
