"""Issue 14, point 10: the Rules pages read as rules for players — every numbered rule keeps its
anchor (#G7), and nothing of the engineers' specification is left (where the text comes from,
how code and tests cite it, how the server keeps secrets)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.rules import RULES_DIR

pytestmark = pytest.mark.django_db

ENGINEERING = [
    "beside this file",
    "code, tests",
    "test",
    "engine",
    "Source:",
    "seed",
    "server",
    "random generator",
    "product's decision",
    "fragment",
]


@pytest.mark.parametrize("game", ["geared", "outofgears"])
def test_the_rules_page_keeps_every_rule_anchor(game):
    spec = (RULES_DIR / f"{game}.md").read_text()
    ids = re.findall(r"^- \*\*([GO]\d+) ", spec, re.M)
    assert len(ids) == 19
    page = Client().get(reverse("rules_game", args=[game])).content.decode()
    for rule in ids:
        assert re.search(rf'<li id="{rule}">\s*(<p>)?<strong>{rule} ', page), rule


@pytest.mark.parametrize("game", ["geared", "outofgears"])
def test_the_rules_page_speaks_to_players_not_engineers(game):
    page = Client().get(reverse("rules_game", args=[game])).content.decode()
    article = re.search(r'<article class="rules-text">(.*)</article>', page, re.S).group(1)
    for phrase in ENGINEERING:
        assert phrase.lower() not in article.lower(), phrase
    assert "Every rule has a number" in article
    assert re.search(r"<h1>[^<]+: the rules</h1>", page)
