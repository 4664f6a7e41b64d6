"""Issue 14, point 4: every page of the site carries one visible title, an <h1>."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.actions import tables
from games.models import Kind
from tests.support.games import advance, client_for, start_geared, start_oog
from tests.support.pages import text

pytestmark = pytest.mark.django_db


def h1s(response) -> list[str]:
    assert response.status_code == 200, response.status_code
    return [
        re.sub(r"<[^>]+>", "", h).strip()
        for h in re.findall(r"<h1[^>]*>(.*?)</h1>", text(response), re.S)
    ]


@pytest.mark.parametrize(
    "url",
    [
        "/",
        "/lobby/",
        "/rules/",
        "/rules/geared/",
        "/rules/outofgears/",
        "/accounts/login/",
        "/accounts/signup/",
    ],
)
def test_a_site_page_has_one_title(url):
    (title,) = h1s(Client().get(url))
    assert title


def test_every_page_of_a_player_has_one_title(alice, bob):
    geared = advance(start_geared([alice, bob], target=1000), 4)
    oog = start_oog([alice, bob])
    finished = advance(start_geared([alice, bob], target=300), 2000)
    table = tables.create_game(alice, tables.NewGame(kind=Kind.GEARED, seat_count=3))
    client = client_for(alice)
    pages = {
        reverse("my_games"): "My games",
        reverse("finished_games"): "Finished games",
        reverse("profile"): None,
        geared.get_absolute_url(): f"Geared: Build Your Bike #{geared.pk}",
        oog.get_absolute_url(): f"Out of Gears #{oog.pk}",
        table.get_absolute_url(): f"Geared: Build Your Bike #{table.pk}",
        reverse("game_log", args=[geared.pk]): None,
        reverse("game_log", args=[oog.pk]): None,
        reverse("game_replay", args=[finished.pk]): None,
    }
    for url, expected in pages.items():
        (title,) = h1s(client.get(url))
        assert title, url
        if expected:
            assert " ".join(title.split()) == expected, url
