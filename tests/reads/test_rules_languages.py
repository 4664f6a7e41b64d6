"""The rules in Italian (games/rules/it/) are the same rules as the English text the code and
the tests cite: every rule id (G1-G19, O1-O19) in both, in the same sections, in the same order
(docs/i18n.md: "the same rule ids")."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from games.reads.rules import GAMES, RULES_DIR, rules_file, rules_sections

RULE_ID = re.compile(r"\*\*([GO]\d+) ")


def ids_in(path) -> list[str]:
    return RULE_ID.findall(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("game", list(GAMES))
def test_every_rule_id_is_in_the_italian_rules_and_the_english_ones(game):
    english, italian = ids_in(RULES_DIR / f"{game}.md"), ids_in(RULES_DIR / "it" / f"{game}.md")
    assert italian == english
    prefix = "G" if game == "geared" else "O"
    assert english == [f"{prefix}{n}" for n in range(1, len(english) + 1)] and len(english) >= 19


@pytest.mark.parametrize("game", list(GAMES))
def test_the_italian_rules_page_has_the_same_sections_and_anchors(game):
    _, english = rules_sections(game, "en")
    _, italian = rules_sections(game, "it")
    assert [(s.first, s.last) for s in italian] == [(s.first, s.last) for s in english]
    for en, it in zip(english, italian, strict=True):
        assert re.findall(r'id="([GO]\d+)"', str(it.html)) == re.findall(
            r'id="([GO]\d+)"', str(en.html)
        )
    assert [s.title for s in italian] != [s.title for s in english]  # written in Italian


def test_the_rules_opening_is_in_the_rules_language_whatever_is_active():
    with translation.override("en"):
        italian, _ = rules_sections("outofgears", "it")
    with translation.override("it"):
        english, _ = rules_sections("outofgears", "en")
    assert "Ogni regola ha un numero (O12)" in italian  # needs the Italian catalog
    assert "Every rule has a number (O12)" in english


def test_the_rules_are_read_in_the_active_language_english_when_there_is_none():
    with translation.override("it"):
        assert rules_file("geared") == RULES_DIR / "it" / "geared.md"
        _, sections = rules_sections("geared")
        assert "Telaio" in str(sections[0].html)
    with translation.override("en"):
        assert rules_file("geared") == RULES_DIR / "geared.md"
    assert rules_file("outofgears", "fr") == RULES_DIR / "outofgears.md"


def test_the_italian_rules_use_the_glossarys_words():
    geared = (RULES_DIR / "it" / "geared.md").read_text(encoding="utf-8")
    for word in ("Telaio", "Manubrio", "Ruote", "jolly", "pila degli scarti", "Rimuovi", "Ruba"):
        assert word in geared, word
    oog = (RULES_DIR / "it" / "outofgears.md").read_text(encoding="utf-8")
    for word in ("ingranaggi", "discarica", "riserva", "circuito interno", "Raccolta", "Trappola"):
        assert word in oog, word
