"""Each player reads the pages in their own language at the same table (issue 37): an Italian
player's game page, my games, lobby and player page are in Italian, an English player's in
English, whoever looked first; what is drawn once and kept for many (a card, a gear, the lobby's
lists, a spectator's fragment, my games) is kept per language, never served in another.

These read words of the Italian catalog (locale/it/LC_MESSAGES/django.po, from the translators'
JSON): they need it filled and compiled (the tests' conftest compiles a stale .mo)."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.actions import tables
from games.models import Game
from tests.support.games import advance, client_for, finished_geared, start_geared, start_oog
from tests.support.pages import text
from tests.support.users import make_user

pytestmark = pytest.mark.django_db

ITALIAN_COLOURS = {
    "red": "rosso",
    "blue": "blu",
    "green": "verde",
    "yellow": "giallo",
    "purple": "viola",
    "orange": "arancione",
    "black": "nero",
    "white": "bianco",
}


@pytest.fixture
def giulia(django_user_model):
    """An Italian player (her profile's language)."""
    return make_user(django_user_model, "giulia", display_name="Giulia", language="it")


def page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return text(response)


def test_the_geared_page_reads_in_each_seated_players_own_language(alice, giulia):
    game = advance(start_geared([alice, giulia], target=1000), 2)
    url = reverse("game", args=[game.pk])
    # The Italian player first: her cards must not be kept for the English one, nor the reverse.
    italian = page(client_for(giulia), url)
    english = page(client_for(alice), url)

    assert 'lang="it"' in italian
    for words in ("La tua mano", "Cos'è successo", "Cronaca completa", "Come si gioca"):
        assert words in italian, words
    assert "Mazzo" in italian and "Pila degli scarti" in italian
    assert "Valore del pezzo" in italian  # a card of her hand, drawn in Italian
    assert "Your hand" not in italian and "What happened" not in italian

    assert 'lang="en"' in english
    for words in ("Your hand", "What happened", "Full log", "How to play", "Draw pile"):
        assert words in english, words
    assert "Part value" in english and "Valore del pezzo" not in english
    assert "La tua mano" not in english


def test_the_out_of_gears_page_and_its_gears_read_in_each_players_language(alice, giulia):
    game = start_oog([giulia, alice])
    url = reverse("game", args=[game.pk])
    italian = page(client_for(giulia), url)
    english = page(client_for(alice), url)

    for words in ("Il tuo programma", "Invia il mio programma", "Discariche", "nella riserva"):
        assert words in italian, words
    assert "Two gears lie on each junkyard" not in italian
    for words in ("Your program", "Submit my program", "Junkyards", "in the reserve"):
        assert words in english, words
    # The gears on the junkyards, drawn once per colour and language.
    italian_gears = re.findall(r'class="gear gear-(\w+)" title="ingranaggio (\w+)"', italian)
    english_gears = re.findall(r'class="gear gear-(\w+)" title="(\w+) gear"', english)
    assert italian_gears and english_gears
    assert {ITALIAN_COLOURS[c] == name for c, name in italian_gears} == {True}
    assert {c == name for c, name in english_gears} == {True}
    # The program form's number cards say their robot's colour.
    assert re.search(r"<small>(rosso|blu|verde|giallo|viola|arancione|nero|bianco)", italian)
    assert re.search(r"<small>(red|blue|green|yellow|purple|orange|black|white)", english)


def test_my_games_reads_in_each_players_language(alice, giulia):
    start_geared([alice, giulia], target=1000)
    italian = page(client_for(giulia), reverse("my_games"))
    english = page(client_for(alice), reverse("my_games"))

    assert "Le mie partite" in italian
    assert "Tocca a te" in italian and "In attesa degli altri" in italian
    assert "Inizia una partita o unisciti a una" in italian
    assert "Waiting for others" not in italian

    assert "Waiting for others" in english and "Start or join a game" in english
    assert "In attesa degli altri" not in english


def test_the_lobby_and_its_kept_lists_read_in_each_visitors_language(alice, bob, giulia):
    tables.create_game(
        bob, tables.NewGame(kind="geared", seat_count=3, target=1000, turn_seconds=0, public=True)
    )
    start_geared([alice, bob], target=1000, public=True)
    url = reverse("lobby")
    italian = page(client_for(giulia), url)  # draws the lists and the form in Italian first
    english = page(client_for(alice), url)

    for words in ("Inizia una partita", "Crea la partita", "Partite aperte", "Partite da guardare"):
        assert words in italian, words
    assert "Punteggio da raggiungere" in italian and "Posti per i bot" in italian  # the form
    assert "1/3 giocatori" in italian and "dall'ultima mossa" in italian  # the lists
    for words in ("Start a game", "Create the game", "Open games", "Target score", "1/3 players"):
        assert words in english, words
    assert "Partite aperte" not in english and "Punteggio da raggiungere" not in english


def test_a_players_page_reads_in_its_readers_language(alice, bob, giulia):
    game = finished_geared(alice, bob)
    assert not Game.objects.get(pk=game.pk).is_active
    url = reverse("player", args=[alice.username])
    italian = page(client_for(giulia), url)
    english = page(client_for(bob), url)

    for words in ("Partite recenti", "Segui", "Valutazione", "Come si calcola la valutazione"):
        assert words in italian, words
    assert "Recent games" not in italian
    for words in ("Recent games", "Follow", "Rating", "How the rating is worked out"):
        assert words in english, words
    assert "Partite recenti" not in english


def test_two_spectators_of_one_game_each_read_it_in_their_own_language(alice, bob, giulia):
    """A spectator's fragment is drawn once and kept for all spectators: one per language."""
    game = advance(start_geared([alice, bob], target=1000, public=True), 2)
    url = reverse("game_fragment", args=[game.pk])
    carlo = make_user(type(alice), "carlo", language="it")
    italian = page(client_for(giulia), url)
    english = page(Client(), url)  # a visitor: English, the site's default
    again = page(client_for(carlo), url)

    assert "Stai guardando questa partita" in italian and "You are watching" not in italian
    assert "You are watching this game" in english and "Stai guardando" not in english
    assert again == italian and "Cos'è successo" in again


def test_a_visitors_browser_language_chooses_the_page_s_words(alice):
    """No account: the browser's Accept-Language (Django's LocaleMiddleware) picks Italian."""
    body = page(Client(HTTP_ACCEPT_LANGUAGE="it"), reverse("home"))
    assert "Giochi di carte con gli amici, con i tuoi tempi." in body
    body = page(Client(HTTP_ACCEPT_LANGUAGE="en"), reverse("home"))
    assert "Card games with friends, at your own pace." in body


def test_the_apps_manifest_and_error_pages_speak_the_readers_language():
    """The installed app's description (its name stays Geartable), and a 404's sentence."""
    italian = Client(HTTP_ACCEPT_LANGUAGE="it")
    manifest = italian.get(reverse("manifest"))
    assert manifest.json()["name"] == "Geartable" and manifest.json()["lang"] == "it"
    assert manifest.json()["description"].startswith("Gioca a Geared e Fuori di Rotella")
    assert "Accept-Language" in manifest["Vary"]
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get(reverse("manifest")).json()
    assert english["description"].startswith("Play Geared and Out of Gears with friends")

    missing = italian.get("/no-such-page/")
    assert missing.status_code == 404
    body = html.unescape(text(missing))
    assert "A questo indirizzo non c'è nulla." in body and "Non trovato" in body
