"""Shared helpers for the HTTP-level tests: set up Geared games through the one write path,
read what a page shows (its version, its action payloads, its links), and choose moves the way
a greedy player would."""

from __future__ import annotations

import html
import json
import re
from urllib.parse import parse_qs, urlsplit

from django.test import Client
from django.urls import reverse

from games.engines.geared import engine
from games.models import Game
from games.pages.geared_ui import destination
from tests.support.pages import text

# Card ids in the query strings of selection links (games/pages/geared_ui.py: Selection).
CARD_PARAMS = ("pick", "card", "target", "move")
# Card ids in an action (docs/engine-geared.md: Actions); "builds"/"to" are build ids.
ACTION_CARD_FIELDS = ("card", "target", "mine", "theirs")


def move_url(game: Game) -> str:
    return reverse("game_move", args=[game.pk])


def post_move(client: Client, game: Game, action, version, *, htmx: bool = False, **extra):
    data = {"action": action if isinstance(action, str) else json.dumps(action)}
    if version is not None:
        data["version"] = str(version)
    if htmx:
        extra["HTTP_HX_REQUEST"] = "true"
    return client.post(move_url(game), data, **extra)


# --- reading a page ------------------------------------------------------------------------


def payloads(page: str) -> list[dict]:
    """Every action the page offers (the hidden `action` inputs of its move forms)."""
    return [
        json.loads(html.unescape(p)) for p in re.findall(r'name="action" value="([^"]*)"', page)
    ]


def hx_links(page: str) -> list[str]:
    return [html.unescape(u) for u in re.findall(r'hx-get="([^"]*)"', page)]


def data_cards(page: str) -> set[int]:
    return {int(c) for c in re.findall(r'data-card="(\d+)"', page)}


def link_card_ids(url: str) -> set[int]:
    query = parse_qs(urlsplit(url).query)
    ids = {int(x) for p in CARD_PARAMS for v in query.get(p, []) for x in v.split(",") if x}
    # A preview's destination names a part on the table as "p<id>" (builds are "b<id>").
    tokens = [t for v in query.get("to", []) for t in v.split(",")]
    return ids | {int(t[1:]) for t in tokens if t.startswith("p") and t[1:].isdecimal()}


def action_card_ids(action: dict) -> set[int]:
    ids = set(action.get("cards", []))
    ids.update(action[f] for f in ACTION_CARD_FIELDS if f in action)
    return ids


def error_text(page: str) -> str:
    """The text of the page's `.error` element."""
    found = re.search(r'<p class="error"[^>]*>(.*?)</p>', page, re.S)
    assert found, "the page shows no error"
    return html.unescape(found.group(1)).strip()


def selection_for(action: dict) -> str:
    """The query string a player builds by tapping cards, then a destination, until the page
    previews `action` with its one Play button."""
    query = _selection_of(action)
    query += ("&" if query != "?" else "") + "to=" + ",".join(destination(action))
    if "level" in action:
        query += f"&level={action['level']}"
    return query


def choices_for(action: dict) -> str:
    """The query string of the step before: the destinations `action` is one of."""
    return _selection_of(action)


def _selection_of(action: dict) -> str:
    kind = action["type"]
    if kind == "play":
        return "?pick=" + ",".join(map(str, action["cards"]))
    if kind == "rearrange":
        return f"?move={action['card']}"
    if kind in ("remove", "discard"):
        return f"?card={action['card']}"
    if kind == "steal":
        return f"?card={action['card']}&target={action['target']}"
    if kind == "swap":
        return f"?card={action['card']}&target={action['mine']}"
    return "?"  # pass: offered without a selection


def public_cards(state: dict) -> set[int]:
    """Every card anyone may see: on the table (builds and bikes) and in the discard pile."""
    cards = set(state["discard"])
    for seat in state["seats"]:
        cards.update(c for b in state["builds"][seat] for c in b["cards"])
        cards.update(c for b in state["bikes"][seat] for c in b["cards"])
    return cards


def hidden_from(state: dict, me: str | None) -> set[int]:
    cards = set(state["draw"])
    for seat in state["seats"]:
        if seat != me:
            cards.update(state["hands"][seat])
    return cards


def card_ids_shown(page: str) -> set[int]:
    ids = data_cards(page)
    for action in payloads(page):
        ids |= action_card_ids(action)
    for url in re.findall(r'(?:href|hx-get)="([^"]*)"', page):
        ids |= link_card_ids(html.unescape(url))
    return ids


def assert_no_secrets(page: str, game) -> None:
    assert str(game.seed) not in page
    assert str(game.state["rng"]) not in page
    # As words: a CSRF token may hold the letters "rng" by chance.
    assert not re.search(r"\b(seed|rng)\b", page, re.I)


def every_page(client: Client, game) -> list[tuple[str, str]]:
    """The game page, its fragment, every selection reachable from them two taps deep, every
    selection for a legal action, and the log: (url, body)."""
    fragment = reverse("game_fragment", args=[game.pk])
    seen: dict[str, str] = {}
    frontier = [game.get_absolute_url(), fragment]
    for _depth in range(3):
        found = []
        for url in frontier:
            if url in seen:
                continue
            response = client.get(url)
            assert response.status_code == 200, url
            seen[url] = text(response)
            found += [u for u in hx_links(seen[url]) if u.startswith(fragment)]
        frontier = found
    me = services_seat_id(client, game)
    if me is not None:
        for action in engine.legal_actions(game.state, me):
            url = fragment + selection_for(action)
            if url not in seen:
                seen[url] = text(client.get(url))
    log = reverse("game_log", args=[game.pk])
    seen[log] = text(client.get(log))
    return list(seen.items())


def services_seat_id(client: Client, game) -> str | None:
    user_id = client.session.get("_auth_user_id")
    seat = game.seats.filter(user_id=user_id).first() if user_id else None
    return seat.seat_id if seat else None
