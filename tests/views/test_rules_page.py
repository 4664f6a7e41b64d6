"""Issue 14, point 10: the Rules pages read as rules for players — every numbered rule keeps its
anchor (#G7), and nothing of the engineers' specification is left (where the text comes from,
how code and tests cite it, how the server keeps secrets). Issue 27, point 10: a quick start
above them, drawn with the game's own components, every claim linked to its rule."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.template.loader import get_template
from django.templatetags.static import static
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.engines.geared.builds import placement_error
from games.engines.outofgears.common import GEARS_PER_JUNKYARD_AT_SETUP, GEARS_TO_CIRCUIT
from games.engines.outofgears.rng import Rng
from games.engines.outofgears.sharing import share
from games.reads.rules import RULES_DIR, quick_start
from tests.support.games import client_for, start_geared

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


# --- issue 27.10: the quick start above the rules ----------------------------------------------


def quick_start_of(page: str) -> str:
    return re.search(r'<section class="quick-start".*?</section>', page, re.S).group(0)


def rules_page(game: str, client: Client | None = None) -> str:
    response = (client or Client()).get(reverse("rules_game", args=[game]))
    assert response.status_code == 200
    return response.content.decode()


def test_issue_27_10_the_geared_quick_start_draws_the_game_s_own_cards():
    """Each card of the pictures is the game page's card component (templates/games/_card.html,
    a wild with its declared level), and the points the captions give are the engine's (G11)."""
    quick = quick_start_of(rules_page("geared"))
    examples = quick_start("geared")
    shown = [*examples["set"], *examples["play"], *examples["wild_build"], *examples["actions"]]
    icons = static("icons.svg")
    for c in shown:
        html = get_template("games/_card.html").render({"c": c, "icons_url": icons})
        assert html in quick, c
    assert len(re.findall(r'data-card="\d+"', quick)) == len(shown)
    assert "card card-back" in quick  # the draw: the cards' backs, as the draw pile shows them
    wild, handlebars = examples["wild_build"]
    assert wild["wild"] and wild["level"] == handlebars["level"] == 3
    assert ">3<" in quick.split(f'data-card="{wild["id"]}"')[1].split("card-name")[0]
    # G12: the Level 3 Wheels the caption names completes it (G11: a set of 300); a Wheels of
    # another level may not join ("its build must then be all that level").
    placed = [(wild["id"], 3), (handlebars["id"], 3)]
    wheels = examples["wild_completes"]
    assert (wheels["part"], wheels["level"], wheels["wild"]) == ("wheels", 3, False)
    assert placement_error(placed, [(wheels["id"], 3)]) is None
    assert placement_error(placed, [(wheels["id"] - 5, 2)]) is not None  # a Level 2 Wheels
    assert (examples["set_points"], examples["mixed_points"], examples["wild_set_points"]) == (
        200,
        120,
        300,
    )
    for text in ("here 200", "(1, 2, 3: 120)", "makes a set: 300", "dealt 5 cards"):
        assert text in quick, text


def test_issue_27_10_the_out_of_gears_quick_start_draws_the_game_s_own_gears():
    """The gears are the game page's gear component (templates/games/_gear.html); the sharing
    picture is what O12 gives, whatever the random draw (robot 2 takes both blue gears, robot 1
    its red one and a green, one green stays), and the score is the engine's (O16)."""
    quick = quick_start_of(rules_page("outofgears"))
    examples = quick_start("outofgears")
    colours = [
        *(g for y in examples["yards"] for g in y["gears"]),
        *examples["share_yard"],
        *(g for r in examples["shares"] for g in r["gears"]),
        *examples["share_left"],
        *examples["scored"]["gears"],
    ]
    for colour in set(colours):
        assert get_template("games/_gear.html").render({"g": colour}) in quick, colour
    assert quick.count('class="gear gear-') == len(colours)

    outcomes = set()
    for seed in range(40):
        took, stayed = share(examples["share_yard"], [1, 2], Rng(format(seed, "x")))
        outcomes.add((tuple(took[1]), tuple(took[2]), tuple(stayed)))
    shown = tuple(tuple(r["gears"]) for r in examples["shares"]) + (tuple(examples["share_left"]),)
    assert outcomes == {shown}
    # Only the colours of the robots in play (1 to 3) lie on the junkyards (O3).
    assert {*colours} <= {r["colour"] for r in examples["robots"]}
    assert examples["scored"]["points"] == 5 and "= 2 + 2 + 1 = 5" in quick
    assert "starts with 2 gears" in quick and GEARS_PER_JUNKYARD_AT_SETUP == 2
    assert "2 go to your circuit" in quick and GEARS_TO_CIRCUIT == 2


@pytest.mark.parametrize("game", ["geared", "outofgears"])
def test_issue_27_10_every_quick_start_claim_links_to_a_rule_of_the_full_rules(game):
    """Every panel cites its rules, and each citation is a link to a rule's anchor in the full
    rules below (a <li id="G12"> inside the article), in a section the contents name."""
    page = rules_page(game)
    quick = quick_start_of(page)
    article = re.search(r'<article class="rules-text">(.*)</article>', page, re.S).group(1)
    panels = quick.split('<li class="qs-panel')[1:]
    assert 4 <= len(panels) <= 5
    for panel in panels:
        assert 'class="rule-ref"' in panel, panel[:80]
    cited = re.findall(r'<a class="rule-ref" href="#([^"]+)">([^<]+)</a>', quick)
    assert len(cited) >= 8
    for anchor, text in cited:
        assert anchor == text
        assert re.search(rf'<li id="{anchor}">\s*(<p>)?<strong>{anchor} ', article), anchor
    sections = re.findall(r'<details class="rules-section" id="([^"]+)">', article)
    assert len(sections) >= 5
    contents = re.search(r'<details class="rules-toc" id="contents">.*?</details>', page, re.S)
    for slug in ["quick-start", "full-rules", *sections]:
        assert f'<a href="#{slug}">' in contents.group(0), slug
        assert f'id="{slug}"' in page
    assert "<details open" not in page  # collapsed: the rules are no longer a wall


def test_issue_27_10_the_rules_page_costs_a_fixed_few_queries(alice):
    """A visitor's page reads nothing; a player's reads the session and its user, and the nav's
    count when the cache does not hold it (games/live/cache.py): none of it grows with anything."""
    for game in ("geared", "outofgears"):
        url = reverse("rules_game", args=[game])
        with CaptureQueriesContext(connection) as visitor:
            assert Client().get(url).status_code == 200
        assert len(visitor) == 0
        player_client = client_for(alice)
        with CaptureQueriesContext(connection) as player:
            assert player_client.get(url).status_code == 200
        assert len(player) <= 3, [q["sql"] for q in player.captured_queries]


def test_issue_27_10_a_game_page_links_to_how_to_play(alice, bob):
    game = start_geared([alice, bob])
    page = client_for(alice).get(game.get_absolute_url()).content.decode()
    assert f'<a href="{reverse("rules_game", args=["geared"])}">How to play</a>' in page
