"""G19 on the web: no page, fragment, selection, log or poll answer shows a card a visitor may
not see (another seat's hand, the draw pile) or the game's seed and random generator."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.engines.geared import engine
from tests.support.games import advance, client_for, seat_to_act, start_geared
from tests.support.pages import text
from tests.support.users import make_user
from tests.views.helpers import (
    assert_no_secrets,
    card_ids_shown,
    every_page,
    hidden_from,
    payloads,
    public_cards,
    services_seat_id,
)

pytestmark = pytest.mark.django_db

TABLE_ACTIONS = {"remove", "steal", "swap", "rearrange"}


def mid_game(users, **kwargs):
    """A three-player game after ten moves, played on until the seat to act may use an Action
    card or move a part, so that the selection pages for those are on offer too."""
    game = advance(start_geared(users, target=1000, **kwargs), 10)
    for _ in range(80):
        assert game.is_active
        seat = seat_to_act(game)
        legal = engine.legal_actions(game.state, seat.seat_id)
        if any(a["type"] in TABLE_ACTIONS for a in legal):
            break
        game = advance(game, 1)
    assert game.is_active
    return game


def test_g19_no_page_shows_another_hand_the_draw_pile_or_the_seed(alice, bob, carol):
    dave = make_user(alice.__class__, "dave", display_name="Dave")
    game = mid_game([alice, bob, carol], public=True)
    state = game.state
    viewers = [(u.name, client_for(u)) for u in (alice, bob, carol, dave)]
    viewers.append(("anonymous", Client()))
    offered_table_actions = False
    for name, client in viewers:
        me = services_seat_id(client, game)
        allowed = public_cards(state) | (set(state["hands"][me]) if me else set())
        hidden = hidden_from(state, me)
        pages = every_page(client, game)
        assert len(pages) > (4 if me == engine.current_seat(state) else 2), name
        for url, page in pages:
            shown = card_ids_shown(page)
            assert shown <= allowed, f"{name} sees {sorted(shown - allowed)} at {url}"
            assert not shown & hidden
            assert_no_secrets(page, game)
        if me is not None:
            assert set(state["hands"][me]) <= card_ids_shown(pages[0][1]), "my hand is shown"
        if me == engine.current_seat(state):
            offered = [a for _url, page in pages for a in payloads(page)]
            offered_table_actions = any(a["type"] in TABLE_ACTIONS for a in offered)

        response = client.get(reverse("game_poll", args=[game.pk]), {"v": game.version - 1})
        assert response.status_code == 200
        assert_no_secrets(text(response) + str(dict(response.headers)), game)
    assert offered_table_actions


def test_another_players_draw_is_told_as_a_count_only(alice, bob, carol):
    game = advance(start_geared([alice, bob, carol], target=1000), 9)
    seats = {s.user_id: s.seat_id for s in game.seats.all()}
    draws = [e for e in game.state["events"] if e["type"] == "drew"]
    assert draws
    names = {s.seat_id: s.name for s in game.seats.all()}
    for user in (alice, bob, carol):
        me = seats[user.pk]
        client = client_for(user)
        log = text(client.get(reverse("game_log", args=[game.pk])))
        page = text(client.get(game.get_absolute_url()))
        lines = [
            html.unescape(re.sub(r"<[^>]+>", "", x))  # a name is a link: its text
            for x in re.findall(r"<li>(.*?)</li>", log, re.S)
        ]
        others = [e for e in draws if e["seat"] != me]
        assert others
        for event in others:
            count = event["count"]
            sentence = f"{names[event['seat']]} drew {count} card{'s' if count != 1 else ''}."
            assert sentence in lines
        for line in lines:
            if " drew " in line and not line.startswith("You "):
                assert re.fullmatch(r"\w+ drew \d+ cards?\.", line), line
        mine = [e for e in draws if e["seat"] == me]
        assert any(line.startswith("You drew ") for line in lines) == bool(mine)
        assert "drew" in page
