"""The rules pages: shared/rules/*.md, rendered once, with anchors for every rule id (G7, O12)."""

import functools
import re
from pathlib import Path

import markdown

RULES_DIR = Path(__file__).resolve().parent / "rules"
GAMES = {"geared": "Geared: Build Your Bike", "outofgears": "Out of Gears"}
_RULE_ID = re.compile(r"<li><strong>([GO]\d+) ")


@functools.cache
def rules_html(game: str) -> str:
    text = (RULES_DIR / f"{game}.md").read_text(encoding="utf-8")
    html = markdown.markdown(text, extensions=["sane_lists"])
    # Give each numbered rule an anchor, so pages and errors can link to "#G12".
    return _RULE_ID.sub(lambda m: f'<li id="{m.group(1)}"><strong>{m.group(1)} ', html)
