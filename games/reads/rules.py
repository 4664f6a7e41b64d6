"""The rules pages: games/rules/*.md (the numbered rules the engines, the tests and the in-game
help cite, as in shared/rules), rendered for players once, with an anchor for every rule id, cut
into sections; and the quick start's examples, real cards and gears drawn by the site's own
components (templates/games/_quick_start_*.html say what they show)."""

import functools
import re
from dataclasses import dataclass
from pathlib import Path

import markdown
from django.utils import translation
from django.utils.functional import lazy
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import slugify
from django.utils.translation import get_language, gettext, gettext_noop, pgettext_lazy

from games.engines.geared import builds as geared_builds
from games.engines.geared import cards as geared_cards
from games.engines.outofgears.common import COLOURS
from games.engines.outofgears.scoring import robot_points
from games.words import colour_name

RULES_DIR = Path(__file__).resolve().parent.parent / "rules"
GAMES = {
    "geared": pgettext_lazy("rules title", "Geared: Build Your Bike"),
    "outofgears": pgettext_lazy("rules title", "Out of Gears"),
}
_RULE_ID = re.compile(r"<li>(\s*(?:<p>)?)<strong>([GO]\d+) ")
_LIST_AFTER_PARAGRAPH = re.compile(r"(\n(?!- |  |#)[^\n]+)\n(- )")

# What players read first, instead of the text's own opening (which says where it comes from
# and how code and tests cite it).
INTRO = gettext_noop(
    "Every rule has a number (%(example)s) so that the game can point you to it. Where the "
    "publisher's rulebook is silent or unclear, Geartable had to decide; those rules are marked "
    "**ruling**."
)
EXAMPLE = {"geared": "G7", "outofgears": "O12"}

# The text is also the engineers' specification. These passages speak to them (how the server
# keeps secrets, how a log names a card), not to players: each is replaced by what a player
# needs from it, or dropped. Each must be found, so that a rewording of the text is noticed.
FOR_PLAYERS = {
    "geared": [
        (
            " Every card has an\n  identity of its own, so that a log can say which card "
            "moved where.",
            "",
        ),
        (" (from the game's seed)", ""),
        (
            "\n  An action names the Action card played (one of the copies in the hand) and its "
            "targets.",
            "",
        ),
        (
            " Nothing that the\n  server sends to a player — a page, a fragment, a log line, "
            "an e-mail — may reveal more; in\n  particular no view shows the game's seed or its "
            "random generator's state, which would reveal\n  the draw order.",
            " Geartable never shows\n  anyone more than this.",
        ),
        (
            "## The rulebook's example of play (a test scenario)",
            "## The rulebook's example of play",
        ),
        # G5's closing sentence belongs to G5, after its (a)-(c), not to (c).
        (
            "\n  Action and Parts cards are never played in the same turn, and at most one Action "
            "card is played.\n",
            "\n\n    Action and Parts cards are never played in the same turn, and at most one "
            "Action card is played.\n\n",
        ),
    ],
    "outofgears": [
        (
            " No view, page or log shows the game's seed or its random generator's state: either\n"
            "  would reveal the reserve's order and every later random pick.",
            " Geartable never shows anyone the\n  reserve's order.",
        ),
        (
            "## Asynchronous play (product rules, not the rulebook's)",
            "## Playing online (Geartable's rules, not the rulebook's)",
        ),
    ],
}


def rules_language(language: str | None = None) -> str:
    """The language the rules are read in: `language` (else the active one) when the rules are
    written in it (games/rules/<language>/), else English, the text the code cites."""
    code = (language or get_language() or "en").split("-")[0].lower()
    return code if code != "en" and (RULES_DIR / code).is_dir() else "en"


def rules_file(game: str, language: str | None = None) -> Path:
    """games/rules/<game>.md, or its translation games/rules/<language>/<game>.md (the same
    rule ids, written for players: the engineers' passages are already left out)."""
    lang = rules_language(language)
    translated = RULES_DIR / lang / f"{game}.md"
    return translated if lang != "en" and translated.is_file() else RULES_DIR / f"{game}.md"


def players_text(game: str, language: str | None = None) -> str:
    """The rules as players read them: our opening, then every section of the text (from its
    first heading on), with the engineers' passages rewritten (FOR_PLAYERS), in `language`
    (else the active one) when the rules are written in it."""
    path = rules_file(game, language)
    text = path.read_text(encoding="utf-8")
    text = text[text.index("\n## ") + 1 :]
    for old, new in FOR_PLAYERS[game] if path.parent == RULES_DIR else ():
        if old not in text:
            raise ValueError(f"games/rules/{game}.md no longer says {old!r}: update FOR_PLAYERS")
        text = text.replace(old, new)
    # Markdown starts a list only after a blank line: a list right under a paragraph (Geared's
    # "Action cards") would otherwise run into it, G13-G16 and their anchors with it.
    text = _LIST_AFTER_PARAGRAPH.sub(r"\1\n\n\2", text)
    # and nests a list only by four spaces: G5's (a), (b), (c) are indented by two.
    text = text.replace("\n  - ", "\n    - ")
    return gettext(INTRO) % {"example": EXAMPLE[game]} + "\n\n" + text


def rules_html(game: str, language: str | None = None) -> str:
    return _rules_html(game, rules_language(language))


@functools.cache
def _rules_html(game: str, language: str) -> str:
    with translation.override(language):  # the opening's words too, whatever is active now
        text = players_text(game, language)
    html = markdown.markdown(text, extensions=["sane_lists"])
    # Give each numbered rule an anchor, so pages and errors can link to "#G12".
    return _RULE_ID.sub(lambda m: f'<li id="{m.group(2)}">{m.group(1)}<strong>{m.group(2)} ', html)


@dataclass(frozen=True)
class Section:
    """One `## heading` of the rules: its anchor, its title, the first and last rule it holds
    ("G4", "G8"; "" for a section without numbered rules) and its HTML (its own headings one
    level down, under the page's section headings)."""

    slug: str
    title: SafeString
    first: str
    last: str
    html: SafeString


_HEADING = re.compile(r"<h2>(.*?)</h2>")
_ANCHOR = re.compile(r'<li id="([GO]\d+)">')


def rules_sections(
    game: str, language: str | None = None
) -> tuple[SafeString, tuple[Section, ...]]:
    """The rules as an opening and its sections, for a page with a table of contents, in
    `language` (else the active one) when the rules are written in it."""
    return _rules_sections(game, rules_language(language))


@functools.cache
def _rules_sections(game: str, language: str) -> tuple[SafeString, tuple[Section, ...]]:
    opening, *rest = _HEADING.split(_rules_html(game, language))
    sections = []
    for title, html in zip(rest[::2], rest[1::2], strict=True):
        ids = _ANCHOR.findall(html)
        html = html.replace("<h3>", "<h4>").replace("</h3>", "</h4>")
        sections.append(
            Section(
                slug=slugify(title),
                # Our own text, rendered by markdown (see the view): safe.
                title=mark_safe(title),  # noqa: S308
                first=ids[0] if ids else "",
                last=ids[-1] if ids else "",
                html=mark_safe(html),  # noqa: S308
            )
        )
    return mark_safe(opening), tuple(sections)  # noqa: S308


def _part(part: str, level: int) -> dict:
    """The first printed card of this part type and level (G2), as the game pages show it."""
    t = geared_cards.PART_TYPES.index(part)
    cid = next(
        c
        for c in range(geared_cards.DECK_SIZE)
        if geared_cards.PART[c] == t and geared_cards.LEVEL[c] == level
    )
    return geared_cards.card_dict(cid)


def _wild(part: str, level: int) -> dict:
    """The wild of this part type, placed at a declared level (G12)."""
    cid = geared_cards.FIRST_WILD + geared_cards.PART_TYPES.index(part)
    return geared_cards.card_dict(cid, level)


def _action(action: str) -> dict:
    cid = geared_cards.ACTION.index(geared_cards.ACTION_TYPES.index(action))
    return geared_cards.card_dict(cid)


def _robot(number: int) -> dict:
    """A robot of the pictures: its colour as a class, and by name in the reader's language (a
    lazy string: the quick start is computed once for every language)."""
    return {
        "number": number,
        "colour": COLOURS[number],
        "colour_name": lazy(colour_name, str)(COLOURS[number]),
    }


def _points(cards: list[dict]) -> int:
    """What a complete build of these cards scores, by the engine's own G11."""
    return geared_builds.score([(c["id"], c["level"]) for c in cards])[0]


@functools.cache
def quick_start(game: str) -> dict:
    """What the quick start's pictures show: real cards (Geared), gears and robots (Out of
    Gears), with the points the engines give them, so a caption's numbers cannot drift from the
    rules. tests/views/test_rules_page.py checks the rest (the sharing, what may join a build)."""
    if game == "geared":
        bike = [_part("frame", 2), _part("handlebars", 2), _part("wheels", 2)]
        mixed = [_part("frame", 1), _part("handlebars", 2), _part("wheels", 3)]
        wild_build = [_wild("frame", 3), _part("handlebars", 3)]
        return {
            "set": bike,
            "set_points": _points(bike),
            "mixed_points": _points(mixed),
            "play": [_part("handlebars", 1), _part("wheels", 1)],
            "wild_build": wild_build,
            "wild_completes": _part("wheels", 3),
            "wild_set_points": _points([*wild_build, _part("wheels", 3)]),
            "actions": [_action(a) for a in geared_cards.ACTION_TYPES],
            "hand_size": geared_cards.HAND_SIZE,
        }
    scored = ["red", "red", "blue"]
    return {
        # Robots 1 to 3 in play: only their colours' gears (O3).
        "yards": [
            {"number": 1, "gears": ["red", "green"]},
            {"number": 2, "gears": ["green", "blue"]},
            {"number": 3, "gears": ["blue", "red"]},
        ],
        "robots": [_robot(n) for n in (1, 2, 3)],
        # O12: five gears, robots 1 and 2 harvest: two each, own colour first, one stays (here
        # whatever the random draw: both gears left for robot 1's second pick are green).
        "share_yard": ["red", "blue", "blue", "green", "green"],
        "shares": [
            {**_robot(1), "gears": ["red", "green"]},
            {**_robot(2), "gears": ["blue", "blue"]},
        ],
        "share_left": ["green"],
        # O16: robot 1 (red) at the end.
        "scored": {**_robot(1), "gears": scored, "points": robot_points(1, [], scored)[0]},
    }
