"""Each player reads the game in their own language at the same table (issue 37, docs/i18n.md):
the engines' refusals and the log's sentences are Italian for an Italian player and English for
an English one. Needs the Italian catalog with the games' words (make messages, the
translations applied, make catalogs)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.actions.moves import resolve_turn
from games.engines.geared import engine
from games.engines.outofgears.text import robot_names
from games.models import Status
from games.pages.outofgears_text import describe as oog_describe
from tests.support.games import client_for, greedy_choice, seat_to_act, start_geared, start_oog
from tests.support.pages import text
from tests.views.helpers import error_text, post_move, selection_for
from tests.views.outofgears.helpers import error_text as oog_error_text
from tests.views.outofgears.helpers import post_program, program

pytestmark = pytest.mark.django_db


def italian(user):
    user.language = "it"
    user.save(update_fields=["language"])
    return user


def refusal_of_a_pass(game) -> tuple[str, str]:
    """(the language of the player to act, the refusal they read of a pass with a full hand)."""
    seat = seat_to_act(game)
    response = post_move(client_for(seat.user), game, {"type": "pass"}, game.version, htmx=True)
    assert response.status_code == 400
    return seat.user.language, error_text(text(response))


def play_one_turn(game) -> None:
    seat = seat_to_act(game)
    action = greedy_choice(game, seat)
    response = post_move(client_for(seat.user), game, action, game.version)
    assert response.status_code == 302
    game.refresh_from_db()
    while seat_to_act(game).pk == seat.pk:  # a rearrangement does not end the turn
        action = greedy_choice(game, seat)
        post_move(client_for(seat.user), game, action, game.version)
        game.refresh_from_db()


def test_g8_each_player_reads_the_engines_refusal_in_their_own_language(alice, bob):
    italian(alice)
    game = start_geared([alice, bob], target=2000)
    said = dict([refusal_of_a_pass(game)])
    play_one_turn(game)
    said.update([refusal_of_a_pass(game)])
    assert said == {
        "it": "Puoi passare solo quando hai la mano vuota.",
        "en": "You can only pass when your hand is empty.",
    }


def test_a_move_out_of_turn_is_refused_in_the_waiting_players_language(alice, bob):
    italian(alice)
    game = start_geared([alice, bob], target=2000)
    to_act = seat_to_act(game)
    waiting = game.seats.exclude(pk=to_act.pk).select_related("user").get()
    response = post_move(client_for(waiting.user), game, {"type": "pass"}, game.version, htmx=True)
    assert response.status_code == 409
    expected = {"it": f"È il turno di {to_act.name}.", "en": f"It is {to_act.name}'s turn."}
    assert error_text(text(response)) == expected[waiting.user.language]


def test_each_player_reads_the_geared_log_in_their_own_language(alice, bob):
    italian(alice)
    game = start_geared([alice, bob], target=2000)
    play_one_turn(game)
    play_one_turn(game)
    log = reverse("game_log", args=[game.pk])
    italian_log, english_log = text(client_for(alice).get(log)), text(client_for(bob).get(log))
    assert "Hai pescato" in italian_log and "ha pescato" in italian_log  # her draw, his draw
    assert " drew " not in italian_log
    assert "You drew" in english_log and " drew " in english_log.replace("You drew", "")
    assert "pescato" not in english_log


def test_each_player_reads_the_out_of_gears_story_in_their_own_language(alice, bob):
    """O7–O15: the story of a resolved turn, and the robots' names, in the reader's language."""
    italian(alice)
    game = start_oog([alice, bob], robots=[(1,), (2,)])
    refused = {}
    for user, robot in ((alice, 1), (bob, 2)):  # O9: a junkyard's number is a robot's in play
        action = program((robot, "harvest", 3))
        response = post_program(client_for(user), game, action, game.version)
        assert response.status_code == 400
        refused[user.language] = oog_error_text(text(response))
    assert refused == {
        "it": "3 non è un numero in gioco; scegline uno tra 1, 2.",
        "en": "3 is not a number in play; choose one of 1, 2.",
    }
    for user, robot in ((alice, 1), (bob, 2)):
        game.refresh_from_db()
        action = program((robot, "harvest", 1))
        response = post_program(client_for(user), game, action, game.version)
        assert response.status_code == 200
    assert resolve_turn(game.pk, game.turn)
    game.refresh_from_db()
    assert game.status == Status.ACTIVE and game.turn == 2, "the first turn was resolved"
    page_it = text(client_for(alice).get(game.get_absolute_url()))
    page_en = text(client_for(bob).get(game.get_absolute_url()))
    assert "ha raccolto nella discarica 1" in page_it or "hanno raccolto nella discarica 1" in (
        page_it
    )
    assert "harvested junkyard 1" in page_en
    assert "harvested" not in page_it and "raccolto" not in page_en
    assert "Rosso" in page_it and "Blu" in page_it


def test_the_story_names_robots_by_their_italian_colour(alice, bob):
    from django.utils import translation

    event = {"type": "defend", "defender": 1, "attacker": 2, "gear": "blue", "source": "robot"}
    with translation.override("it"):
        assert oog_describe(event, {"1": "Anna"}) == (
            "Rosso (Anna) si è difeso e ha preso un ingranaggio blu a Blu"
        )
    with translation.override("en"):
        assert oog_describe(event, {"1": "Anna"}) == (
            "Red (Anna) defended and took a blue gear from Blue"
        )
    assert robot_names  # the owners of the robots stay the engine's (no words)


def test_an_italian_player_reads_the_rules_page_in_italian_an_english_one_in_english(alice, bob):
    """G5, O12: the quick start and the full rules, with the same anchors in both languages."""
    italian(alice)
    url = reverse("rules_game", args=["geared"])
    page_it, page_en = text(client_for(alice).get(url)), text(client_for(bob).get(url))
    assert "Una giocata per turno" in page_it and 'id="G5"' in page_it
    assert "One play per turn" in page_en and 'id="G5"' in page_en
    assert "Avvio rapido" in page_it and "Quick start" in page_en
    url = reverse("rules_game", args=["outofgears"])
    page_it = text(client_for(alice).get(url))
    assert "Divisione degli ingranaggi" in page_it and 'id="O12"' in page_it


def test_the_geared_page_offers_its_choices_in_the_players_language(alice, bob):
    """G5: the prompt of a turn, and a previewed play's sentence, in the player's language."""
    game = start_geared([alice, bob], target=2000)
    seat = seat_to_act(game)
    play = next(a for a in engine.legal_actions(game.state, seat.seat_id) if a["type"] == "play")
    prompt = {
        "it": "Tocca a te: tocca una carta della tua mano, o un pezzo delle tue bici per "
        "spostarlo.",
        "en": "Your turn: tap a card in your hand, or a part of your builds to move it.",
    }
    for language, play_word in (("it", "Gioca "), ("en", "Play ")):
        seat.user.language = language
        seat.user.save(update_fields=["language"])
        client = client_for(seat.user)  # a new session: the player's language now
        assert prompt[language] in text(client.get(game.get_absolute_url()))
        preview = text(client.get(game.get_absolute_url() + selection_for(play)))
        assert re.search(rf"{play_word}[^<]*(livello|Level)", preview), "the preview's sentence"
