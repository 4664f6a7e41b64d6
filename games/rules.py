"""The rules pages: games/rules/*.md (the numbered rules the engines, the tests and the in-game
help cite, as in shared/rules), rendered for players once, with an anchor for every rule id."""

import functools
import re
from pathlib import Path

import markdown

RULES_DIR = Path(__file__).resolve().parent / "rules"
GAMES = {"geared": "Geared: Build Your Bike", "outofgears": "Out of Gears"}
_RULE_ID = re.compile(r"<li>(\s*(?:<p>)?)<strong>([GO]\d+) ")
_LIST_AFTER_PARAGRAPH = re.compile(r"(\n(?!- |  |#)[^\n]+)\n(- )")

# What players read first, instead of the text's own opening (which says where it comes from
# and how code and tests cite it).
INTRO = (
    "Every rule has a number ({example}) so that the game can point you to it. Where the "
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


def players_text(game: str) -> str:
    """The rules as players read them: our opening, then every section of the text (from its
    first heading on), with the engineers' passages rewritten (FOR_PLAYERS)."""
    text = (RULES_DIR / f"{game}.md").read_text(encoding="utf-8")
    text = text[text.index("\n## ") + 1 :]
    for old, new in FOR_PLAYERS[game]:
        if old not in text:
            raise ValueError(f"games/rules/{game}.md no longer says {old!r}: update FOR_PLAYERS")
        text = text.replace(old, new)
    # Markdown starts a list only after a blank line: a list right under a paragraph (Geared's
    # "Action cards") would otherwise run into it, G13-G16 and their anchors with it.
    text = _LIST_AFTER_PARAGRAPH.sub(r"\1\n\n\2", text)
    # and nests a list only by four spaces: G5's (a), (b), (c) are indented by two.
    text = text.replace("\n  - ", "\n    - ")
    return INTRO.format(example=EXAMPLE[game]) + "\n\n" + text


@functools.cache
def rules_html(game: str) -> str:
    html = markdown.markdown(players_text(game), extensions=["sane_lists"])
    # Give each numbered rule an anchor, so pages and errors can link to "#G12".
    return _RULE_ID.sub(lambda m: f'<li id="{m.group(2)}">{m.group(1)}<strong>{m.group(2)} ', html)
