"""Issue 16: with the live cache on (Redis, as in production), a turn that the Celery worker
resolves reaches every open page at its next check: the worker's commit forgets the cached
version in the shared cache, so the check never answers "nothing new" from a stale copy (O5)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game
from tests.support.games import client_for, greedy_program
from tests.support.pages import page_version, text
from tests.support.waiting import wait_for
from tests.views.outofgears.helpers import (
    create_by_lobby,
    join_by_link,
    post_program,
    start_by_view,
)

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_a_turn_resolved_by_the_worker_shows_at_the_next_check(
    celery_worker, redis_cache, alice, bob, carol
):
    clients = {"alice": client_for(alice), "bob": client_for(bob), "carol": client_for(carol)}
    game = create_by_lobby(clients["alice"], seat_count=3, robots=[1])
    join_by_link(clients["bob"], game, robots=[4])
    join_by_link(clients["carol"], game, robots=[7])
    game = start_by_view(clients["alice"], game)
    seats = {s.user.username: s for s in game.seats.select_related("user")}
    page = text(clients["carol"].get(game.get_absolute_url()))
    key = re.search(r'data-poll-key="([^"]+)"', page).group(1)
    url = reverse("game_poll", args=[game.pk])
    watcher = Client()  # the key alone, as carol's open page sends it

    for name, client in clients.items():
        page = text(client.get(game.get_absolute_url()))
        game.refresh_from_db()
        post_program(client, game, greedy_program(game, seats[name]), page_version(page))
        # Every program in is a change the check shows at once (the version moved).
        game.refresh_from_db()
        assert watcher.get(url, {"v": game.version, "k": key}).status_code == 204

    submitted = game.version

    def resolved_version():
        response = watcher.get(url, {"v": submitted, "k": key})
        return response.status_code == 200 and int(response["X-Game-Version"])

    shown = wait_for(resolved_version, what="the resolved turn at the check")
    fresh = Game.objects.get(pk=game.pk)
    assert fresh.turn == 2
    assert shown == fresh.version
