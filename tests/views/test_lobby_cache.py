"""Issue 16: the lobby's lists are drawn once for everybody and kept a few seconds, but a table
that opens, fills, starts or ends shows at once (live.forget_lobby); nothing of a visitor's own
is ever kept in them."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.actions import tables
from games.models import Kind
from tests.support.games import client_for
from tests.support.pages import text

pytestmark = pytest.mark.django_db


def lobby(client) -> str:
    return text(client.get(reverse("lobby")))


def open_section(page: str) -> str:
    return re.search(r"<h2>Open games</h2>(.*?)<h2>Games to watch</h2>", page, re.S).group(1)


def watch_section(page: str) -> str:
    return page.split("<h2>Games to watch</h2>", 1)[1]


def new_table(host, seats=2):
    return tables.create_game(host, tables.NewGame(kind=Kind.GEARED, seat_count=seats, public=True))


def test_a_new_table_a_join_and_a_start_show_in_the_lobby_at_once(alice, bob, carol):
    visitor = Client()
    assert "No open public game right now" in lobby(visitor)  # the lists are kept now
    game = new_table(alice, seats=2)
    page = lobby(client_for(carol))
    assert f'href="{game.get_absolute_url()}"' in open_section(page)
    assert "1/2 players" in open_section(page)
    tables.join_game(bob, game.pk)
    assert "2/2 players" in open_section(lobby(visitor))
    tables.start_game(alice, game.pk)
    page = lobby(visitor)
    assert game.get_absolute_url() not in open_section(page)
    assert f'href="{game.get_absolute_url()}"' in watch_section(page)


def test_a_table_closed_by_its_creator_leaves_the_lobby_at_once(alice):
    game = new_table(alice)
    assert game.get_absolute_url() in open_section(lobby(Client()))
    tables.leave_game(alice, game.pk)
    assert game.get_absolute_url() not in open_section(lobby(Client()))


def test_the_kept_lists_hold_nothing_of_the_visitor_who_drew_them(alice, bob):
    new_table(bob)
    lobby(client_for(alice))  # alice's visit draws the lists
    page = lobby(Client())
    assert "alice" not in page.lower()
    assert "Log in</a> or" in page  # the visitor's own frame, not alice's


def test_a_second_look_at_the_lobby_reads_no_list_of_games(alice):
    for _ in range(3):
        new_table(alice)
    client = client_for(alice)
    with CaptureQueriesContext(connection) as first:
        client.get(reverse("lobby"))
    with CaptureQueriesContext(connection) as again:
        client.get(reverse("lobby"))

    def lists(queries):  # the lobby's own queries: public games (not the nav's count)
        return [q["sql"] for q in queries if '"games_game"."public"' in q["sql"]]

    assert len(lists(first)) == 2
    assert lists(again) == []
