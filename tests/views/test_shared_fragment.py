"""A game's fragment as every spectator sees it is drawn once per version and kept
(games/views/game.py `shared_key`, the `shared_fragment` tag): the same bytes as drawn afresh,
and never a player's (their hand, their program, their session's CSRF token) nor served to
one, whichever of them looks first."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.actions import deadlines
from games.templatetags import geartable
from tests.support.games import (
    advance,
    client_for,
    greedy_choice,
    greedy_program,
    seat_of,
    seat_to_act,
    start_geared,
    start_oog,
)
from tests.support.pages import page_version, text
from tests.support.users import make_user
from tests.views.helpers import card_ids_shown, hidden_from, post_move
from tests.views.outofgears.helpers import post_program

pytestmark = pytest.mark.django_db


def fragment(client, game, **params) -> str:
    response = client.get(reverse("game_fragment", args=[game.pk]), params)
    assert response.status_code == 200
    return text(response)


def test_a_spectators_fragment_is_drawn_once_per_version_and_the_same_as_drawn_afresh(
    alice, bob, carol, django_user_model
):
    game = advance(start_geared([alice, bob], public=True, target=1000), 6)
    dave = make_user(django_user_model, "dave")
    first = fragment(client_for(carol), game)
    dave_looks = client_for(dave)
    with CaptureQueriesContext(connection) as queries:
        again = fragment(dave_looks, game)
    assert again == first
    # dave's user and the nav's count: no state decoded, no engine asked, nothing drawn
    assert len(queries) == 3  # and the game with its seats, which says who may read it
    cache.clear()
    assert fragment(client_for(dave), game) == first  # drawn afresh: the same bytes
    page = text(client_for(dave).get(game.get_absolute_url()))
    assert first.strip() in page  # the whole page holds the same fragment


def test_a_player_never_gets_the_spectators_fragment_nor_a_spectator_a_players(alice, bob, carol):
    game = advance(start_geared([alice, bob], public=True, target=1000), 6)
    state = game.state
    hand = set(state["hands"][seat_of(game, alice).seat_id])
    for order in ("spectator first", "player first"):
        cache.clear()
        looks = {}
        for who in ("carol", "alice") if order == "spectator first" else ("alice", "carol"):
            client = client_for({"alice": alice, "carol": carol}[who])
            looks[who] = [fragment(client, game), text(client.get(game.get_absolute_url()))]
        for html in looks["alice"]:
            assert "Your hand" in html and hand <= card_ids_shown(html), order
            assert "csrfmiddlewaretoken" in html, order
        for html in looks["carol"]:
            assert "Your hand" not in html, order
            assert not card_ids_shown(html) & hidden_from(state, None), order
        assert "csrfmiddlewaretoken" not in looks["carol"][0], order


def test_an_out_of_gears_program_in_is_never_shown_to_a_spectator_from_the_cache(
    alice, bob, carol, django_user_model
):
    game = start_oog([alice, bob, carol], public=True)
    zoe = make_user(django_user_model, "zoe")
    before = fragment(client_for(zoe), game)
    seat = seat_of(game, alice)
    program = greedy_program(game, seat)
    assert post_program(client_for(alice), game, program, game.version).status_code in (200, 302)
    game.refresh_from_db()
    after = fragment(client_for(zoe), game)
    assert page_version(after) == game.version != page_version(before)
    mine = fragment(client_for(alice), game)
    assert after != mine and "csrfmiddlewaretoken" not in after


def test_who_shares_it_visitor_spectator_former_player_and_a_selection(
    alice, bob, carol, django_user_model, monkeypatch
):
    dave = make_user(django_user_model, "dave")
    game = advance(start_geared([alice, bob, dave], public=True, target=1000), 4)
    signed_in = fragment(client_for(carol), game)
    visitor = fragment(Client(), game)
    assert "log in to read its chat" in visitor and "log in to read its chat" not in signed_in
    deadlines.resign(dave, game.pk)  # a bot plays dave's seat: his page says he left
    game.refresh_from_db()
    fragment(client_for(carol), game)  # the spectators' fragment of this version, kept
    assert "You left this game" in fragment(client_for(dave), game)
    assert "You left this game" not in fragment(client_for(carol), game)
    # A selection in the query is the viewer's own: drawn for them, not kept.
    kept = keys_kept(monkeypatch)
    fragment(client_for(carol), game, pick="1")
    assert kept == []
    fragment(client_for(carol), game)
    assert len(kept) == 1


def keys_kept(monkeypatch) -> list[str]:
    """The keys the `shared_fragment` tag keeps from now on."""
    kept, real = [], geartable.cache

    class Spy:
        def get(self, key):
            return real.get(key)

        def set(self, key, value, timeout):
            kept.append(key)
            real.set(key, value, timeout)

    cache.clear()
    monkeypatch.setattr(geartable, "cache", Spy())
    return kept


def test_a_move_moves_the_spectators_fragment_on(alice, bob, carol):
    game = advance(start_geared([alice, bob], public=True, target=1000), 2)
    spectator = client_for(carol)
    assert page_version(fragment(spectator, game)) == game.version
    seat = seat_to_act(game)
    post_move(client_for(seat.user), game, greedy_choice(game, seat), game.version, htmx=True)
    game.refresh_from_db()
    assert page_version(fragment(spectator, game)) == game.version
