"""G19 on the web: no page, fragment, selection, log or poll answer shows a card a visitor may
not see (another seat's hand, the draw pile) or the game's seed and random generator."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.engines.geared import engine
from tests.support.games import client_for, start_geared
from tests.support.users import make_user
from tests.web.helpers import (
    action_card_ids,
    advance,
    data_cards,
    hx_links,
    link_card_ids,
    payloads,
    seat_to_act,
    selection_for,
    text,
)

pytestmark = pytest.mark.django_db

TABLE_ACTIONS = {"remove", "steal", "swap", "rearrange"}


def public_cards(state: dict) -> set[int]:
    """Every card anyone may see: on the table (builds and bikes) and in the discard pile."""
    cards = set(state["discard"])
    for seat in state["seats"]:
        cards.update(c for b in state["builds"][seat] for c in b["cards"])
        cards.update(c for b in state["bikes"][seat] for c in b["cards"])
    return cards


def hidden_from(state: dict, me: str | None) -> set[int]:
    cards = set(state["draw"])
    for seat in state["seats"]:
        if seat != me:
            cards.update(state["hands"][seat])
    return cards


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


def card_ids_shown(page: str) -> set[int]:
    ids = data_cards(page)
    for action in payloads(page):
        ids |= action_card_ids(action)
    for url in re.findall(r'(?:href|hx-get)="([^"]*)"', page):
        ids |= link_card_ids(html.unescape(url))
    return ids


def assert_no_secrets(page: str, game) -> None:
    assert str(game.seed) not in page
    assert str(game.state["rng"]) not in page
    # As words: a CSRF token may hold the letters "rng" by chance.
    assert not re.search(r"\b(seed|rng)\b", page, re.I)


def every_page(client: Client, game) -> list[tuple[str, str]]:
    """The game page, its fragment, every selection reachable from them two taps deep, every
    selection for a legal action, and the log: (url, body)."""
    fragment = reverse("game_fragment", args=[game.pk])
    seen: dict[str, str] = {}
    frontier = [game.get_absolute_url(), fragment]
    for _depth in range(3):
        found = []
        for url in frontier:
            if url in seen:
                continue
            response = client.get(url)
            assert response.status_code == 200, url
            seen[url] = text(response)
            found += [u for u in hx_links(seen[url]) if u.startswith(fragment)]
        frontier = found
    me = services_seat_id(client, game)
    if me is not None:
        for action in engine.legal_actions(game.state, me):
            url = fragment + selection_for(action)
            if url not in seen:
                seen[url] = text(client.get(url))
    log = reverse("game_log", args=[game.pk])
    seen[log] = text(client.get(log))
    return list(seen.items())


def services_seat_id(client: Client, game) -> str | None:
    user_id = client.session.get("_auth_user_id")
    seat = game.seats.filter(user_id=user_id).first() if user_id else None
    return seat.seat_id if seat else None


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
