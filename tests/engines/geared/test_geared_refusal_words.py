"""The engines' refusals are message ids with parameters (docs/i18n.md): the edge
(games/words.py) translates the message and names a card in the reader's language, and in
English it reads exactly the engine's own sentence. Italian needs the catalog (make messages,
the translations applied, make catalogs)."""

from __future__ import annotations

import random
import re

from django.utils import translation
from geared_helpers import random_position
from test_geared_legal import candidates

from games.engines.geared import engine
from games.engines.geared.cards import FIRST_ACTION
from games.words import refusal

ITALIAN_CARDS = re.compile(r"Rimuovi|Ruba|Scambia|Telaio|Manubrio|Ruote")


def refusals(seed: int, limit: int = 400):
    rng = random.Random(seed)
    state, seat = random_position(rng, rng.randint(2, 4))
    for n, action in enumerate(candidates(state, seat)):
        if n >= limit:
            return
        try:
            engine.apply(state, seat, action)
        except engine.IllegalMove as refused:
            yield refused


def test_g9_g15_an_english_reader_reads_the_engines_own_sentence():
    seen = set()
    for seed in range(40):
        for refused in refusals(seed):
            seen.add(refused.msgid)
            with translation.override("en"):
                assert refusal(refused) == refused.message == str(refused)
    assert len(seen) >= 8, seen  # many kinds of refusal were met


def test_g9_an_italian_reader_reads_the_refusal_and_its_cards_in_italian():
    met = 0
    for seed in range(40):
        for refused in refusals(seed):
            with translation.override("it"):
                said = refusal(refused)
            assert said != refused.message, refused.msgid
            for value in refused.params.values():
                if hasattr(value, "what"):  # a card or a part is named in Italian
                    assert ITALIAN_CARDS.search(said), said
                    met += 1
    assert met, "a refusal naming a card or a part was met"


def test_g13_an_action_card_played_with_parts_is_named_in_the_readers_language():
    state = engine.new_game(["1", "2"], seed=3, options={"target": 300})
    seat = state["seats"][state["turn"]]
    state["hands"][seat] = [FIRST_ACTION + 6, 0]  # a Steal and a Level 1 Frame
    action = {"type": "play", "cards": [FIRST_ACTION + 6, 0], "builds": ["new1", "new1"]}
    try:
        engine.apply(state, seat, action)
    except engine.IllegalMove as refused:
        with translation.override("it"):
            assert refusal(refused) == (
                "Ruba è una carta Azione: giocala da sola, non con dei pezzi."
            )
        assert refused.message == "Steal is an Action card: play it on its own, not with parts."
    else:
        raise AssertionError("the play was accepted")
