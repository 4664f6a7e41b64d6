"""Spectators (issue 17, point 2): anyone may watch a public game, and anyone with the link a
private one whose table allows it. They get the spectator view (no hand, no program before it
is revealed), live updates and the chat read only."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from games.actions import moves, tables
from games.actions import tables as services
from tests.support.games import advance, client_for, seat_to_act, start_geared, start_oog
from tests.support.pages import poll, text
from tests.support.users import make_user
from tests.views.helpers import assert_no_secrets, card_ids_shown, every_page, hidden_from
from tests.views.outofgears.helpers import program, sentence

pytestmark = pytest.mark.django_db


def test_anyone_logged_in_watches_a_public_game_and_sees_no_hand(alice, bob, carol):
    game = advance(start_geared([alice, bob], target=1000, public=True), 6)
    watcher = client_for(carol)
    for url, page in every_page(watcher, game):
        assert not card_ids_shown(page) & hidden_from(game.state, None), url
        assert_no_secrets(page, game)
    page = text(watcher.get(game.get_absolute_url()))
    assert "You are watching this game" in page
    assert "Your hand" not in page and "Play</button>" not in page


def test_a_spectator_is_updated_live_and_cannot_move(alice, bob, carol):
    game = advance(start_geared([alice, bob], target=1000, public=True), 2)
    watcher = client_for(carol)
    assert poll(watcher, game, game.version, c=game.chat_seq).status_code == 204
    game = advance(game, 1)
    changed = poll(watcher, game, game.version - 1, c=game.chat_seq)
    assert changed.status_code == 200 and "game" in changed["X-Refresh"]
    before = game.version
    seat = seat_to_act(game)
    legal = services.engines.engine("geared").legal_actions(game.state, seat.seat_id)
    response = watcher.post(
        reverse("game_move", args=[game.pk]), {"action": json.dumps(legal[0]), "version": before}
    )
    assert response.status_code in (302, 400, 404)
    game.refresh_from_db()
    assert game.version == before


def test_the_lobby_lists_public_games_in_play_to_watch_and_no_private_one(alice, bob, carol):
    public = start_geared([alice, bob], public=True)
    private = start_geared([alice, bob], public=False)
    page = text(client_for(carol).get(reverse("lobby")))
    watch = page[page.index("Games to watch") :]
    assert public.get_absolute_url() in watch
    assert private.get_absolute_url() not in watch


def test_a_private_game_is_watched_by_its_link_only_if_the_table_allows(alice, bob, carol):
    game = start_geared([alice, bob], public=False)
    watcher = client_for(carol)
    token = game.join_token
    assert watcher.get(game.get_absolute_url()).status_code == 404  # no link: no game
    assert game.watchable_by_link  # the default
    assert watcher.get(game.get_absolute_url(), {"token": token}).status_code == 200
    assert poll(watcher, game, game.version, c=game.chat_seq, t=token).status_code == 204
    assert watcher.get(reverse("game_chat", args=[game.pk]), {"token": token}).status_code == 200

    game.watchable_by_link = False
    game.save(update_fields=["watchable_by_link"])
    assert watcher.get(game.get_absolute_url(), {"token": token}).status_code == 404
    assert poll(watcher, game, game.version, c=game.chat_seq, t=token).status_code == 404
    assert watcher.get(reverse("game_log", args=[game.pk]), {"token": token}).status_code == 404


def test_a_table_not_watchable_still_opens_by_its_link_to_join(alice, bob, carol):
    game = tables.create_game(
        alice,
        tables.NewGame(kind="geared", seat_count=2, watchable_by_link=False),
    )
    watcher = client_for(carol)
    assert watcher.get(game.get_absolute_url(), {"token": game.join_token}).status_code == 200
    tables.join_game(bob, game.pk, token=game.join_token)
    tables.start_game(alice, game.pk)
    assert watcher.get(game.get_absolute_url(), {"token": game.join_token}).status_code == 404


def test_the_lobby_form_sets_whether_the_link_may_watch(alice):
    client = client_for(alice)
    client.post(
        reverse("create_game"),
        {
            "kind": "geared",
            "seat_count": 2,
            "turn_seconds": 86400,
            "bots": 0,
            "bot_kind": "greedy",
            "target": 1000,
        },
    )
    client.post(
        reverse("create_game"),
        {
            "kind": "geared",
            "seat_count": 2,
            "turn_seconds": 86400,
            "bots": 0,
            "bot_kind": "greedy",
            "target": 1000,
            "watchable_by_link": "on",
        },
    )
    assert [g.watchable_by_link for g in alice.created_games.order_by("pk")] == [False, True]


def test_o18_a_spectator_never_sees_a_program_before_it_is_revealed(alice, bob, carol):
    dave = make_user(type(alice), "dave", display_name="Dave")
    game = start_oog([alice, bob, carol], robots=[(1,), (4,), (7,)], public=True)
    mine = program((1, "trap", 7))
    moves.submit_action(alice, game.pk, game.version, mine)
    game.refresh_from_db()
    watcher = client_for(dave)
    for name in ("game", "game_fragment", "game_log"):
        page = text(watcher.get(reverse(name, args=[game.pk])))
        for entry in mine["programs"]:
            assert sentence(entry) not in page, name
        assert str(game.seed) not in page
    assert "You are watching this game" in text(watcher.get(game.get_absolute_url()))
