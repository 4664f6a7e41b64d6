"""Issue 14, point 1: a player who resigned keeps reading the game — its page, the live-update
check, the log and the chat — as a spectator sees it, and can no longer move or write."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import ChatMessage, Game
from tests.support.games import client_for, start_geared, start_oog
from tests.support.pages import text
from tests.views.helpers import data_cards, payloads, post_move, public_cards

pytestmark = pytest.mark.django_db


def resign(client, game: Game) -> None:
    response = client.post(reverse("game_resign", args=[game.pk]))
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.seats.filter(replaced_user__isnull=False).exists()


def test_after_resigning_the_page_still_shows_the_game_without_a_hand(alice, bob, carol):
    game = start_geared([alice, bob, carol], target=1000)
    alice_client = client_for(alice)
    resign(alice_client, game)

    response = alice_client.get(game.get_absolute_url())
    assert response.status_code == 200
    page = text(response)
    assert "You left this game" in page
    assert "Your hand" not in page
    assert payloads(page) == [], "no move is offered"
    assert "Resign from this game" not in page
    # What a spectator sees, never a card in anyone's hand (the bot's, formerly hers, included).
    game.refresh_from_db()
    assert data_cards(page) <= public_cards(game.state)
    fragment = alice_client.get(reverse("game_fragment", args=[game.pk]))
    assert fragment.status_code == 200
    assert data_cards(text(fragment)) <= public_cards(game.state)
    assert alice_client.get(reverse("game_log", args=[game.pk])).status_code == 200


def test_after_resigning_the_poll_keeps_answering(alice, bob, carol):
    game = start_geared([alice, bob], target=1000)
    alice_client = client_for(alice)
    resign(alice_client, game)
    game.refresh_from_db()
    poll = reverse("game_poll", args=[game.pk])
    assert alice_client.get(poll, {"v": game.version, "c": game.chat_seq}).status_code == 204
    changed = alice_client.get(poll, {"v": game.version - 1, "c": game.chat_seq})
    assert changed.status_code == 200
    assert changed["X-Refresh"] == "game"
    # Someone who never sat at this private table still finds nothing.
    assert client_for(carol).get(poll, {"v": game.version}).status_code == 404


def test_after_resigning_the_chat_is_read_only(alice, bob):
    game = start_geared([alice, bob], target=1000)
    bob_client, alice_client = client_for(bob), client_for(alice)
    bob_client.post(reverse("game_chat", args=[game.pk]), {"text": "good luck"})
    resign(alice_client, game)

    page = text(alice_client.get(game.get_absolute_url()))
    assert "good luck" in page
    assert 'name="text"' not in page, "no chat box"
    assert "Report this message" not in page
    log = alice_client.get(reverse("game_chat", args=[game.pk]), HTTP_HX_REQUEST="true")
    assert log.status_code == 200 and "good luck" in text(log)

    before = ChatMessage.objects.filter(game=game).count()
    response = alice_client.post(
        reverse("game_chat", args=[game.pk]), {"text": "bye"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 403
    assert "you can read its chat, not write in it" in text(response)
    assert ChatMessage.objects.filter(game=game).count() == before


def test_after_resigning_a_move_is_refused_in_words_and_changes_nothing(alice, bob):
    game = start_geared([alice, bob], target=1000)
    alice_client = client_for(alice)
    resign(alice_client, game)
    game.refresh_from_db()
    before = (game.version, game.move_count)
    response = post_move(alice_client, game, {"type": "pass"}, game.version, htmx=True)
    assert response.status_code == 403
    assert "You left this game: a bot plays your seat now." in text(response)
    game.refresh_from_db()
    assert (game.version, game.move_count) == before


def test_after_resigning_out_of_gears_the_page_shows_no_program_form(alice, bob, carol):
    game = start_oog([alice, bob, carol])
    alice_client = client_for(alice)
    resign(alice_client, game)
    response = alice_client.get(game.get_absolute_url())
    assert response.status_code == 200
    page = text(response)
    assert "You left this game" in page
    assert "Your program" not in page
    assert alice_client.get(reverse("game_log", args=[game.pk])).status_code == 200
