"""The Geared page's most repeated markup, built in Python rather than by template nodes.

A page shows dozens of cards, each in a slot of a build or in the hand: a handful of template
nodes apiece ({% if %}, lookups, filters), most of the page's rendering time. Here:

- `card`: a card as templates/games/_card.html draws it, rendered once per process for each
  card (its look depends only on its fields: id and, for a placed wild, its declared level);
- `slots`: a build's slots, as templates/games/geared.html drew them in its slot loop;
- `hand_card`: a card of the player's hand, as the hand loop drew it.

What they show is geared.html's business: keep these in step with it (tests/web compare them).
"""

from __future__ import annotations

from django.template.defaultfilters import title
from django.template.loader import get_template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

_CARDS: dict[tuple, tuple[dict, SafeString]] = {}
_CARDS_KEPT = 4096  # 108 cards, a few levels each for the wilds, per sprite URL: never reached


def card(c: dict, icons_url: str) -> SafeString:
    """A card's HTML (templates/games/_card.html), rendered once per card and sprite URL."""
    key = (c["id"], c.get("level"), icons_url)
    found = _CARDS.get(key)
    if found is not None and found[0] == c:
        return found[1]
    html = mark_safe(  # noqa: S308 - our own template's output, escaped when rendered
        get_template("games/_card.html").render({"c": c, "icons_url": icons_url})
    )
    if len(_CARDS) < _CARDS_KEPT:
        _CARDS[key] = (dict(c), html)
    return html


# Between two slots, the white space the template's loop left (one space, once rendered).
_SLOT_GAP = "\n            "


def slots(slot_list: list[dict], icons_url: str, game_url: str, fragment_url: str) -> SafeString:
    """A build's slots: the card a preview would put there (faint), a card that a tap selects
    (a link), a card, or the empty slot's name."""
    out = []
    for s in slot_list:
        if s["ghost"]:
            shown = card(s["ghost"], icons_url)
            out.append(f'<span class="slot ghost" title="Would go here">{shown}</span>')
        elif s["card"] and s["link"]:
            link = escape(s["link"])
            classes = "slot filled tappable"
            if s["selected"]:
                classes += " selected"
            if s["leaving"]:
                classes += " leaving"
            if s["last"]:
                classes += " last-move"
            out.append(
                f'<a class="{classes}" href="{game_url}{link}" hx-get="{fragment_url}{link}"'
                f' hx-target="#game" hx-swap="outerHTML">{card(s["card"], icons_url)}</a>'
            )
        elif s["card"]:
            last = " last-move" if s["last"] else ""
            if s["leaving"]:
                opening = f'<span class="slot filled leaving{last}" title="Would leave this build">'
            else:
                opening = f'<span class="slot filled{last}">'
            out.append(f"{opening}{card(s['card'], icons_url)}</span>")
        else:
            # The part's name, and its icon: what a compact build shows (static/css/site.css).
            part, name = escape(s["name"]), escape(title(s["name"]))
            icon = f'<use href="{escape(icons_url)}#{part}"></use>'
            out.append(
                f'<span class="slot empty"><svg class="slot-icon" aria-hidden="true">{icon}</svg>'
                f'<span class="slot-name">{name}</span></span>'
            )
    return mark_safe(_SLOT_GAP.join(out))  # noqa: S308 - every value above is escaped


def hand_card(h: dict, tappable: bool, autofocus: str, urls: tuple[str, str], icons_url: str):
    """A card of my hand: a link that changes the selection, or (not my turn, game over) the
    card alone."""
    shown = card(h["card"], icons_url)
    if not tappable:
        return mark_safe(f'<span class="hand-card">{shown}</span>')  # noqa: S308
    game_url, fragment_url = urls
    query = escape(h["query"])
    classes = "hand-card tappable"
    if h["selected"]:
        classes += " selected"
    if h["extends"]:
        classes += " can-add"
    pressed = "true" if h["selected"] else "false"
    focus = f" {escape(autofocus)}" if h["focus"] else ""
    return mark_safe(  # noqa: S308 - every value is escaped
        f'<a class="{classes}" role="button" href="{game_url}{query}" hx-get="{fragment_url}'
        f'{query}" hx-target="#game" hx-swap="outerHTML" aria-pressed="{pressed}"{focus}>'
        f"{shown}</a>"
    )
